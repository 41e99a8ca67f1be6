#include "planner/planner_rank.hpp"

#include "gpuadvisor/pricing.hpp"
#include "gpuadvisor/units.hpp"
#include "planner/planner_rules.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

namespace gpuadvisor {

namespace {

// Time for finite work; latency for serving; 0 when neither applies.
double speed_key(const Option& o) {
    return o.hours ? *o.hours : (*o.estimate)->latency_ms;
}

} // namespace

void Groups::add_run(std::span<const Option> run, bool merge) {
    options += run.size();
    if (!merge) {
        for (const Option& o : run) {
            groups.push_back({best.size(), also.size(), also.size()});
            best.push_back(o);
        }
        return;
    }
    // Cheapest first within a group, then by region; groups in order of pricing and tags (the
    // ranking sorts them with full tie-breakers). No two options of a run are equal under this.
    // A run's rows are one instance type's, in region order (Catalog sorts them): the row's
    // place is its region's.
    m_keys.resize(run.size());
    for (std::size_t i = 0; i < run.size(); ++i) {
        const Option& o = run[i];
        m_keys[i] = {o.pricing_rank, o.tags, o.total_micros, o.row, i};
    }
    std::sort(m_keys.begin(), m_keys.end(), [](const RunKey& x, const RunKey& y) {
        return std::tie(x.pricing_rank, x.tags, x.total_micros, x.row) <
               std::tie(y.pricing_rank, y.tags, y.total_micros, y.row);
    });
    const std::size_t first = groups.size();
    for (std::size_t k = 0; k < m_keys.size(); ++k) {
        const RunKey& key = m_keys[k];
        const Option& o = run[key.option];
        // Regions merge only where the rules see them alike (a rule may prefer a region).
        if (groups.size() > first && key.pricing_rank == m_keys[k - 1].pricing_rank &&
            key.tags == m_keys[k - 1].tags) {
            also.push_back({o.row, o.total_micros});
            groups.back().others_end = also.size();
            continue;
        }
        groups.push_back({best.size(), also.size(), also.size()});
        best.push_back(o);
    }
}

std::uint8_t pricing_name_rank(std::size_t pricing_index) {
    using planner_detail::k_pricings;
    using planner_detail::pricing_name;
    static const auto ranks = [] {
        std::array<std::uint8_t, k_pricings> result{};
        for (std::size_t i = 0; i < k_pricings; ++i) {
            for (std::size_t j = 0; j < k_pricings; ++j) {
                if (pricing_name(j) < pricing_name(i)) {
                    ++result[i];
                }
            }
        }
        return result;
    }();
    return ranks.at(pricing_index);
}

void mark_pareto(const std::vector<Option>& options,
                 const std::vector<Group>& groups,
                 std::span<Group* const> marked) {
    // A group is on the front when every group before it in the order (cost, speed, place in
    // the pass) is slower: the front a sweep over every group in that order finds, asked of the
    // marked groups only. Their keys sorted, each group is placed among them (a binary search),
    // noting the fastest below each; no sort of every group.
    using Key = std::tuple<std::int64_t, double, std::size_t>;
    const auto key_of = [&](const Group& g) {
        const Option& o = options[g.best];
        return Key(o.total_micros, speed_key(o), g.best);
    };
    std::vector<std::pair<Key, Group*>> marks;
    marks.reserve(marked.size());
    for (Group* g : marked) {
        marks.emplace_back(key_of(*g), g);
    }
    std::sort(
        marks.begin(), marks.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    // fastest[j]: the least speed among the groups below marks[j] and not below marks[j - 1].
    std::vector<double> fastest(marks.size() + 1, std::numeric_limits<double>::infinity());
    for (const Group& g : groups) {
        const Key key = key_of(g);
        const auto above =
            std::upper_bound(marks.begin(), marks.end(), key, [](const Key& k, const auto& mark) {
                return k < mark.first;
            });
        double& least = fastest[static_cast<std::size_t>(above - marks.begin())];
        least = std::min(least, std::get<1>(key));
    }
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t j = 0; j < marks.size(); ++j) {
        best = std::min(best, fastest[j]);
        marks[j].second->pareto = std::get<1>(marks[j].first) < best;
    }
}

void mark_pareto(const std::vector<Option>& options,
                 std::vector<Group>& groups,
                 std::size_t shown) {
    std::vector<Group*> first;
    for (std::size_t i = 0; i < std::min(shown, groups.size()); ++i) {
        first.push_back(&groups[i]);
    }
    mark_pareto(options, groups, first);
}

double Ranking::objective(const Option& o) const {
    if (by_time) {
        return speed_key(o);
    }
    const double cost = static_cast<double>(o.total_micros);
    return o.hours && micros_per_hour > 0 ? cost + *o.hours * micros_per_hour : cost;
}

void Ranking::lift_preferred(const std::vector<Option>& options, std::vector<Group>& groups) const {
    double best = std::numeric_limits<double>::infinity();
    for (const Group& g : groups) {
        best = std::min(best, objective(options[g.best]));
    }
    const double limit = best + std::abs(best) * prefer_within;
    std::vector<Group*> lifted;
    for (Group& g : groups) {
        const Option& o = options[g.best];
        g.lifted = o.score > 0 && objective(o) <= limit;
        if (g.lifted) {
            lifted.push_back(&g);
        }
    }
    if (trades_speed) { // and beaten on both by none
        mark_pareto(options, groups, lifted);
        for (Group* g : lifted) {
            g->lifted = g->pareto;
        }
    }
}

bool Ranking::before(const std::vector<Option>& options, const Group& a, const Group& b) const {
    const auto key = [&](const Group& g) {
        const Option& o = options[g.best];
        return std::tuple(!g.lifted,
                          g.lifted ? -o.score : 0.0,
                          objective(o),
                          o.total_micros,
                          speed_key(o),
                          std::string_view(o.instance->provider),
                          std::string_view(o.instance->id),
                          o.count,
                          o.pricing,
                          std::string_view(o.row->region));
    };
    return key(a) < key(b);
}

void Ranking::rank(const std::vector<Option>& options,
                   std::vector<Group>& groups,
                   std::size_t top) const {
    lift_preferred(options, groups);
    const auto shown = groups.begin() + static_cast<std::ptrdiff_t>(std::min(top, groups.size()));
    std::partial_sort(groups.begin(), shown, groups.end(), [&](const Group& a, const Group& b) {
        return before(options, a, b);
    });
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
        c.reasons.push_back(fmt::format("{} replica(s) of {} GPU(s) serve {} QPS at {} ms",
                                        e.replicas,
                                        e.gpus_per_replica,
                                        format_number(w.qps),
                                        format_ms(e.latency_ms)));
    }
    for (const std::string& rule : c.preferred_by) {
        c.reasons.push_back("preferred by rule " + rule);
    }
    if (!c.also_in.empty()) {
        c.reasons.push_back(fmt::format("cheapest of {} regions", c.also_in.size() + 1));
    }
}

} // namespace gpuadvisor
