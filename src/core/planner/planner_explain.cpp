#include "planner/planner_internal.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <tuple>

namespace gpuadvisor::planner_detail {

Ranking Planner::ranking() const {
    const bool finite = is_finite_work(m_w.kind);
    return {m_c.sort_by_time,
            finite && m_c.value_per_day ? *m_c.value_per_day * Money::k_micros_per_unit / 24 : 0.0,
            m_c.prefer_within,
            finite || m_w.kind == WorkloadKind::inference};
}

// An amount as shown: to the cent, with the currency asked for.
std::string Planner::money(std::int64_t micros) const {
    const std::int64_t cents = (micros + 5'000) / 10'000;
    return fmt::format("{} {}", format_micros(cents * 10'000, 2), m_c.currency);
}

// A shown option's quote, priced again with its words: the same function on the same inputs,
// so the same figures (checked).
Quote Planner::full_quote(const Option& o) const {
    const Offer offer{o.instance, o.row};
    const Usage usage = usage_for(o.count, **o.estimate);
    const std::vector<PlanShare> mix{{o.plan, 1}};
    QuoteResult full = m_c.auto_mix
                           ? cheapest_mix(offer, usage, m_c.interruptible ? 1 : 0, m_in.pricing)
                           : price_offer(offer, usage, mix, m_in.pricing);
    const auto total =
        full.quote ? m_in.fx->convert(full.quote->total_micros, full.quote->currency, m_c.currency)
                   : std::nullopt;
    const std::int64_t data =
        o.data ? o.data->egress_converted_micros + o.data->storage_converted_micros : 0;
    if (!total ||
        *total != o.total_micros - data) { // the pass over every offer priced it otherwise
        throw std::logic_error("a shown option priced again gives another total: " + full.error);
    }
    return std::move(*full.quote);
}

// The full Candidate of a group to show: its words, its rules' tags, its other regions.
Candidate Planner::candidate_of(const Group& group) const {
    const Option& o = m_groups.best[group.best];
    Candidate c;
    c.instance = o.instance;
    c.row = o.row;
    c.gpu = o.gpu;
    c.count = o.count;
    c.total_gpus = o.count * o.instance->gpu_count; // a fraction for vGPU slices
    c.pricing = std::string(o.pricing);
    c.quote = full_quote(o);
    c.total_micros = o.total_micros;
    c.list_total_micros = o.list_total_micros;
    // From the exact rates (not worked back from the total), converted as the total was.
    const auto per_hour = per_running_hour(c.quote);
    c.per_hour_micros =
        per_hour ? m_in.fx->convert(*per_hour, c.quote.currency, m_c.currency) : std::nullopt;
    c.estimate = *o.estimate;
    c.hours = o.hours;
    c.score = o.score;
    c.preferred_by = m_tags[o.tags].preferred_by;
    c.warnings = m_tags[o.tags].warnings;
    for (std::size_t i = group.others_begin; i < group.others_end; ++i) {
        c.also_in.emplace_back(m_groups.also[i].row->region, m_groups.also[i].total_micros);
    }
    c.pareto = group.pareto;
    c.data_move = o.data;
    return c;
}

namespace {

template <class Configuration> std::string describe_candidate(const Configuration& c) {
    return fmt::format("{} x {} ({} {}, {})",
                       c.count,
                       c.instance->id,
                       c.instance->provider,
                       c.row->region,
                       c.pricing);
}

template <class Configuration>
const Configuration* cheapest(const std::vector<Configuration>& list) {
    const auto it = std::min_element(list.begin(), list.end(), [](const auto& a, const auto& b) {
        return a.total_micros < b.total_micros;
    });
    return it == list.end() ? nullptr : &*it;
}

std::string duration(double hours) {
    const auto one_decimal = [](double x) {
        return format_number(std::round(x * 10) / 10);
    };
    return hours >= 48 ? one_decimal(hours / 24) + " days" : one_decimal(hours) + " h";
}

// "no configuration meets latency 200 ms: out of reach at batch 1; the best here: H200-141GB
// latency 1702 ms (TTFT 15.2 ms, TPOT 6.58 ms on 8 GPUs), ...": the three fastest GPUs.
std::string out_of_reach_text(const NormalizedWorkload& w,
                              const std::map<std::string, Estimate, std::less<>>& best) {
    std::vector<std::pair<std::string, const Estimate*>> fastest;
    for (const auto& [gpu, e] : best) {
        fastest.emplace_back(gpu, &e);
    }
    std::sort(fastest.begin(), fastest.end(), [](const auto& a, const auto& b) {
        return a.second->latency_ms < b.second->latency_ms;
    });
    std::vector<std::string> figures;
    const bool tokens = w.model.generates_tokens();
    for (std::size_t i = 0; i < fastest.size() && i < 3; ++i) {
        const Estimate& e = *fastest[i].second;
        figures.push_back(
            tokens ? fmt::format("{} latency {} ms (TTFT {:.1f} ms, TPOT {:.2f} ms on {} GPU(s))",
                                 fastest[i].first,
                                 format_ms(e.latency_ms),
                                 e.prefill_ms,
                                 e.tpot_ms,
                                 e.gpus_per_replica)
                   : fmt::format("{} latency {} ms", fastest[i].first, format_ms(e.latency_ms)));
    }
    std::vector<std::string> targets;
    if (w.latency_ms > 0) {
        targets.push_back(fmt::format("latency {} ms", format_number(w.latency_ms)));
    }
    if (w.ttft_ms > 0) {
        targets.push_back(fmt::format("TTFT {} ms", format_number(w.ttft_ms)));
    }
    if (w.tpot_ms > 0) {
        targets.push_back(fmt::format("TPOT {} ms", format_number(w.tpot_ms)));
    }
    return fmt::format("no configuration meets {}: no GPU reaches it even at batch 1, and more "
                       "instances do not lower it; the best here: {}; relax the latency target{}",
                       fmt::join(targets, ", "),
                       fmt::join(figures, "; "),
                       tokens ? ", or serve fewer output tokens per request" : "");
}

} // namespace

// Which constraint bound, and the nearest configurations on each side of it.
void Planner::explain_no_fit() {
    const auto& deadline = m_w.deadline_hours;
    const std::optional<std::int64_t>& budget = m_budget_micros;
    std::vector<std::string> parts;
    if (!m_result.out_of_reach.empty() && m_late.count == 0 && m_over_budget.empty()) {
        parts.push_back(out_of_reach_text(m_w, m_result.out_of_reach));
    } else if (m_late.count == 0 && m_over_budget.empty()) { // neither bound
        std::vector<std::string> counts;
        for (const auto& [code, n] : m_result.rejected_by_code) {
            counts.push_back(fmt::format("{} {}", n, code));
        }
        parts.push_back(counts.empty()
                            ? "no instance type matches the filters"
                            : fmt::format("no configuration fits the workload and the constraints "
                                          "(rejected: {}; see --explain)",
                                          fmt::join(counts, ", ")));
    } else if (deadline && budget) {
        parts.push_back(fmt::format("no configuration meets the {} deadline under {}",
                                    duration(*deadline),
                                    money(*budget)));
    } else if (deadline) {
        parts.push_back(fmt::format("no configuration meets the {} deadline", duration(*deadline)));
    } else if (budget) {
        parts.push_back(fmt::format("no configuration costs less than {}", money(*budget)));
    }
    if (const auto* on_time = cheapest(m_over_budget)) {
        parts.push_back(fmt::format("the cheapest that {} costs {} ({})",
                                    deadline ? "meets the deadline" : "fits",
                                    money(on_time->total_micros),
                                    describe_candidate(*on_time)));
    } else if (const auto& quick = m_late.fastest) {
        const bool instance_limit = quick->count >= max_instances();
        parts.push_back(fmt::format(
            "with at most {} the fastest takes {} ({}, {}){}",
            instance_limit ? fmt::format("{} instances", max_instances())
                           : fmt::format("{} GPUs", format_number(k_max_gpus)),
            duration(*quick->hours),
            describe_candidate(*quick),
            money(quick->total_micros),
            instance_limit ? ": raise --max-instances or relax --deadline" : ": relax --deadline"));
    }
    if (budget && deadline) {
        if (const auto& quick = m_late.fastest_affordable) {
            parts.push_back(fmt::format("the fastest under budget takes {} ({}, {})",
                                        duration(*quick->hours),
                                        describe_candidate(*quick),
                                        money(quick->total_micros)));
        } else if (const auto& low = m_late.cheapest) {
            parts.push_back(fmt::format("nothing costs less than the budget: the cheapest costs "
                                        "{} ({}, {})",
                                        money(low->total_micros),
                                        describe_candidate(*low),
                                        duration(*low->hours)));
        }
    }
    m_result.no_fit = fmt::format("{}", fmt::join(parts, "; "));
}

void Planner::physics_notes(std::vector<Group>& groups) {
    const Ranking order = ranking();
    std::vector<std::pair<const Rule*, std::size_t>> tiers; // rule, its best group
    for (const Rule* rule : m_active) {
        std::string note;
        if (rule->effect == RuleEffect::require) {
            const int n = m_rule_rejections[rule];
            note = n > 0 ? fmt::format("rejected {} configuration(s)", n) : "rejected none";
        } else if (rule->effect == RuleEffect::prefer) {
            std::vector<bool> tagged(m_tags.size()); // which tags hold this rule
            for (std::size_t t = 0; t < m_tags.size(); ++t) {
                const auto& preferred = m_tags[t].preferred_by;
                tagged[t] =
                    std::find(preferred.begin(), preferred.end(), rule->id) != preferred.end();
            }
            std::size_t inside = 0;
            const Group* best_group = nullptr;
            for (const Group& g : groups) {
                if (tagged[m_groups.best[g.best].tags]) {
                    ++inside;
                    if (best_group == nullptr || order.before(m_groups.best, g, *best_group)) {
                        best_group = &g;
                    }
                }
            }
            if (best_group == nullptr) {
                note = "no configuration in this tier passes the checks: the ranking follows "
                       "the sizing";
                m_result.notes.push_back(fmt::format("Rule {} ({}) matched no configuration that "
                                                     "fits and meets the constraints, so the "
                                                     "ranking follows the sizing.",
                                                     rule->id,
                                                     rule->reason));
            } else {
                note = fmt::format("{} configuration(s) match", inside);
                if (best_group != &groups.front()) {
                    tiers.emplace_back(rule, static_cast<std::size_t>(best_group - groups.data()));
                }
            }
        } else if (rule->effect == RuleEffect::warn && !rule->candidate) {
            m_result.warnings.push_back(rule->message);
            note = rule->message;
        } else {
            note = rule->message;
            if (rule->effect == RuleEffect::suggest) {
                m_result.notes.push_back(rule->message);
            }
        }
        m_result.rules.push_back({rule, note});
    }
    for (const auto& [rule, index] : tiers) {
        m_result.tiers.push_back({rule, tier_row(groups, index)});
    }
}

// A group past the first as a whole row: its regions priced, its place in the ranking and on
// the front worked out (the groups past the shown ones are in no order and unmarked).
Candidate Planner::tier_row(std::vector<Group>& groups, std::size_t index) {
    Group& group = groups[index];
    const bool shown = index < m_c.top;
    if (!shown && (is_finite_work(m_w.kind) || m_w.kind == WorkloadKind::inference)) {
        Group* const marked = &group;
        mark_pareto(m_groups.best, groups, std::span(&marked, 1));
    }
    Candidate c = candidate_of(group);
    const Ranking order = ranking();
    c.rank =
        shown
            ? static_cast<int>(index + 1)
            : 1 + static_cast<int>(std::count_if(groups.begin(), groups.end(), [&](const Group& g) {
                  return order.before(m_groups.best, g, group);
              }));
    explain_candidate(c, m_w);
    return c;
}

} // namespace gpuadvisor::planner_detail
