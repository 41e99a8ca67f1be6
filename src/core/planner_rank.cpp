#include "planner_rank.hpp"

#include "gpuadvisor/units.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

namespace gpuadvisor {

namespace {

// Time for finite work; latency for serving; 0 when neither applies.
double speed_key(const Candidate& c) {
    return c.hours ? *c.hours : c.estimate->latency_ms;
}

} // namespace

std::vector<Candidate> merge_regions(std::vector<Candidate> candidates) {
    // Sorted by pointer: a Candidate is large, and moving it is most of a sort's cost.
    std::vector<Candidate*> order;
    order.reserve(candidates.size());
    for (Candidate& c : candidates) {
        order.push_back(&c);
    }
    std::sort(order.begin(), order.end(), [](const Candidate* pa, const Candidate* pb) {
        const Candidate& a = *pa;
        const Candidate& b = *pb;
        return std::tie(a.instance->provider,
                        a.instance->id,
                        a.count,
                        a.pricing,
                        a.preferred_by,
                        a.warnings,
                        a.total_micros,
                        a.row->region) < std::tie(b.instance->provider,
                                                  b.instance->id,
                                                  b.count,
                                                  b.pricing,
                                                  b.preferred_by,
                                                  b.warnings,
                                                  b.total_micros,
                                                  b.row->region);
    });
    std::vector<Candidate> merged;
    for (Candidate* next : order) {
        Candidate& c = *next;
        if (!merged.empty()) {
            Candidate& last = merged.back();
            // Regions merge only where the rules see them alike (a rule may prefer a region).
            if (last.instance == c.instance && last.count == c.count && last.pricing == c.pricing &&
                last.preferred_by == c.preferred_by && last.warnings == c.warnings) {
                last.also_in.emplace_back(c.row->region, c.total_micros);
                continue;
            }
        }
        merged.push_back(std::move(c));
    }
    return merged;
}

void mark_pareto(std::vector<Candidate>& candidates) {
    std::vector<std::size_t> order(candidates.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        order[i] = i;
    }
    // By cost, then speed: a candidate is on the front when it is faster than every cheaper one.
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return std::tuple(candidates[a].total_micros, speed_key(candidates[a])) <
               std::tuple(candidates[b].total_micros, speed_key(candidates[b]));
    });
    double best = std::numeric_limits<double>::infinity();
    for (const std::size_t i : order) {
        const double speed = speed_key(candidates[i]);
        if (speed < best) {
            candidates[i].pareto = true;
            best = speed;
        }
    }
}

void rank_candidates(std::vector<Candidate>& candidates, bool by_time) {
    std::sort(candidates.begin(), candidates.end(), [&](const Candidate& a, const Candidate& b) {
        const auto key = [&](const Candidate& c) {
            return std::tuple(-c.score,
                              by_time ? speed_key(c) : 0.0,
                              c.total_micros,
                              speed_key(c),
                              c.instance->provider,
                              c.instance->id,
                              c.count,
                              c.pricing,
                              c.row->region);
        };
        return key(a) < key(b);
    });
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        candidates[i].rank = static_cast<int>(i + 1);
    }
}

void explain_candidate(Candidate& c, const NormalizedWorkload& w) {
    const Estimate& e = *c.estimate;
    if (!e.fit_reason.empty()) {
        c.reasons.push_back(e.fit_reason);
    }
    if (c.hours) {
        c.reasons.push_back(fmt::format("{} h on {} GPUs, scaling efficiency {:.0f}%",
                                        format_number(std::round(*c.hours * 10) / 10),
                                        format_number(c.total_gpus),
                                        e.scaling_efficiency * 100));
    } else if (w.kind == WorkloadKind::inference) {
        c.reasons.push_back(fmt::format("{} replica(s) of {} GPU(s) serve {} QPS at {:.0f} ms",
                                        e.replicas,
                                        e.gpus_per_replica,
                                        format_number(w.qps),
                                        e.latency_ms));
    }
    for (const std::string& rule : c.preferred_by) {
        c.reasons.push_back("preferred by rule " + rule);
    }
    if (!c.also_in.empty()) {
        c.reasons.push_back(fmt::format("cheapest of {} regions", c.also_in.size() + 1));
    }
}

} // namespace gpuadvisor
