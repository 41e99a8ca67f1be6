// What becomes of a priced option in the planner's pass: the rules' verdict on it, past the
// deadline, over the budget, or kept and grouped; and the fast paths that count or keep a
// configuration's options without making each one whole (the results are the per-option
// path's: tested).
#include "gpuadvisor/units.hpp"
#include "planner/planner_internal.hpp"
#include "planner/planner_rank.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <limits>
#include <tuple>

namespace gpuadvisor::planner_detail {

// The rows of the configuration at hand when kept_by_pricing(): priced and checked as offer
// does, but an option whose pricing already has a kept option (so the rules admitted it) and
// within the budget is only counted, and its total compared with the cheapest so far, without
// being made whole (group_kept makes the group's best whole).
void Planner::kept_rows(const InstanceType& instance, const Bill& bill) {
    for (std::size_t r = 0; r < instance.regions.size(); ++r) {
        const RowRates& rates = m_rates[r];
        if (!rates.wanted) {
            continue;
        }
        const PriceRow& row = instance.regions[r];
        bool priced = false;
        const bool too_large = each_priced_plan(
            rates, m_plans_priced, bill, m_c, [&](Plan plan, std::size_t p, const Totals& totals) {
                priced = true;
                const auto paid = converted(totals, rates);
                if (!paid) {
                    count_rejections("price", 1); // no exchange rate (listed by offer only)
                    return;
                }
                const std::optional<double>& run_hours = bill.hours(plan);
                if (late(run_hours)) {
                    keep_late({&instance,
                               &row,
                               m_at.count,
                               plan_flag_name(plan),
                               p,
                               run_hours,
                               paid->total_micros});
                    return;
                }
                // One kept already: the rules admitted the pricing (the same verdict each row).
                KeptByPricing& kept = m_kept[p];
                if (kept.count > 0 && !over_budget(paid->total_micros)) {
                    ++m_result.considered; // as admitted counts it
                    kept.add(paid->total_micros, paid->list_total_micros, &row);
                    return;
                }
                keep(option_of(row, plan_flag_name(plan), plan, run_hours, *paid), p);
            });
        if (too_large || !priced) {
            reject_unpriced(instance, row, m_at.count, too_large, priced);
        }
    }
}

// The kept options as add_run groups them: a group per pricing (in name order), its cheapest
// row first (the first of equals: rows are in region order); the other rows are counted.
void Planner::group_kept() {
    for (const std::size_t p : m_plans_by_name) {
        KeptByPricing& kept = m_kept[p];
        if (kept.count == 0) {
            continue;
        }
        Option best = m_kept_first[p]; // the same but for row and totals
        best.row = kept.row;
        best.total_micros = kept.total_micros;
        best.list_total_micros = kept.list_total_micros;
        m_groups.add_group(best, kept.count - 1);
        kept = {};
    }
}

// A shown group's other regions, priced again as kept_rows priced them: every row of the
// configuration where the group's plan is priced, converts and is within the budget (the
// verdict, tags and hours are the group's: the same for every row of a pricing), cheapest
// first, then by region.
void Planner::price_others(Group& group) {
    const Option& best = m_groups.best[group.best];
    const InstanceType& instance = *best.instance;
    rates_for(instance);
    Alike& alike = (*m_alike)[std::tuple(best.estimate->get(), instance.gpu_count, best.count)];
    const Bill& bill = bill_for(alike, best.count, **best.estimate);
    std::vector<AlsoIn> others;
    for (std::size_t r = 0; r < instance.regions.size(); ++r) {
        const RowRates& rates = m_rates[r];
        const PriceRow& row = instance.regions[r];
        if (!rates.wanted || &row == best.row) {
            continue;
        }
        each_priced_plan(
            rates, m_plans_priced, bill, m_c, [&](Plan plan, std::size_t, const Totals& totals) {
                if (plan != best.plan) {
                    return;
                }
                if (const auto paid = converted(totals, rates);
                    paid && !over_budget(paid->total_micros)) {
                    others.push_back({&row, paid->total_micros});
                }
            });
    }
    std::sort(others.begin(), others.end(), [](const AlsoIn& a, const AlsoIn& b) {
        return std::tie(a.total_micros, a.row) < std::tie(b.total_micros, b.row);
    });
    group.others_begin = m_groups.also.size();
    m_groups.also.insert(m_groups.also.end(), others.begin(), others.end());
    group.others_end = m_groups.also.size();
    group.others_later = false;
}

// True when the configuration at hand misses the deadline under every plan it prices, and
// late_configuration may count it in place of offer (no rejection is listed, no rule reads the
// region, no mix is priced): most configurations on a large catalog, with a deadline.
bool Planner::late_under_every_plan(const Bill& bill) const {
    if (!m_w.deadline_hours || !m_by_pricing || m_plans_priced.empty()) {
        return false;
    }
    return std::all_of(m_plans_priced.begin(), m_plans_priced.end(), [&](Plan plan) {
        return late(bill.hours(plan));
    });
}

// The rows of a configuration past the deadline, priced as offer prices them, with the same
// counts (considered, rejections by code and rule, LateSummary's) but no option each. Which
// rows are cheapest matters only to the no-fit explanation, so it is worked out only if
// nothing fits (price_counted_late). Within a pricing the verdict and the hours are the same
// for every row, so LateSummary keeps what it would keep given each option (tested against the
// per-option path).
void Planner::late_configuration(const InstanceType& instance, int count, const Bill& bill) {
    const std::array<LateRows, std::size(k_all_plans)> by_plan =
        late_rows(instance, bill, LateWork::count);
    CountedLate counted{&instance, count, &bill, {}};
    bool any = false;
    for (const Plan plan : m_plans_priced) {
        const auto p = static_cast<std::size_t>(plan);
        const std::size_t priced = by_plan[p].priced;
        if (priced == 0) {
            continue;
        }
        m_result.considered += priced;
        const Verdict& v = verdict(p); // a plan's pricing_index is its own
        if (v.unmet != nullptr) {
            m_rule_rejections[v.unmet] += static_cast<int>(priced);
            count_rejections("rule", priced);
            continue;
        }
        m_late.count += priced;
        counted.admitted[p] = true;
        any = true;
    }
    if (any) {
        m_counted_late.push_back(counted);
    }
}

// The cheapest row of each admitted pricing of the configurations late_configuration counted,
// for the no-fit explanation (LateSummary names the first of equals in a single pass's order,
// whatever the order they come in).
void Planner::price_counted_late() {
    for (const CountedLate& counted : m_counted_late) {
        const InstanceType& instance = *counted.instance;
        rates_for(instance);
        const std::array<LateRows, std::size(k_all_plans)> by_plan =
            late_rows(instance, *counted.bill, LateWork::cheapest);
        for (const Plan plan : m_plans_priced) {
            const auto p = static_cast<std::size_t>(plan);
            const LateRows& rows = by_plan[p];
            if (!counted.admitted[p] || rows.priced == 0) {
                continue;
            }
            m_late.consider({&instance,
                             &instance.regions[rows.row],
                             counted.count,
                             plan_flag_name(plan),
                             p,
                             counted.bill->hours(plan),
                             rows.total_micros},
                            m_budget_micros);
        }
    }
    m_counted_late.clear();
}

// late_configuration's pricing: each plan's count and the rows' "price" rejections, or (asked
// again, for the no-fit explanation) each plan's cheapest row.
std::array<LateRows, std::size(k_all_plans)>
Planner::late_rows(const InstanceType& instance, const Bill& bill, LateWork work) {
    if (work == LateWork::count) {
        if (auto counted = late_counts(bill)) {
            return *counted;
        }
    }
    std::array<LateRows, std::size(k_all_plans)> by_plan{};
    for (std::size_t r = 0; r < instance.regions.size(); ++r) {
        const RowRates& rates = m_rates[r];
        if (!rates.wanted) {
            continue;
        }
        bool priced = false;
        const bool too_large = each_priced_plan(
            rates, m_plans_priced, bill, m_c, [&](Plan, std::size_t p, const Totals& totals) {
                priced = true;
                LateRows& rows = by_plan[p];
                if (work == LateWork::count) {
                    if (!converts(totals, rates)) {
                        count_rejections("price", 1); // no exchange rate
                        return;
                    }
                    ++rows.priced;
                    return;
                }
                const auto paid = converted(totals, rates);
                if (!paid) {
                    return; // counted as a "price" rejection before
                }
                if (rows.priced++ == 0 || paid->total_micros < rows.total_micros) {
                    rows.row = r;
                    rows.total_micros = paid->total_micros;
                }
            });
        if (work == LateWork::count && (too_large || (!priced && m_c.plan))) {
            count_rejections("price", 1);
        }
    }
    return by_plan;
}

// late_rows' counts without pricing each row, where that gives the same: when the dearest rate
// of each plan, at a one-tier bill, neither overflows nor nears the point where conversion
// fails, every row that prices a plan is priced and converts, so it counts, but a term plan
// only where it costs less than on-demand. Nullopt (nothing counted) otherwise: late_rows then
// counts row by row, so no plan's count may outlive giving up (it would count twice).
std::optional<std::array<LateRows, std::size(k_all_plans)>> Planner::late_counts(const Bill& bill) {
    std::array<LateRows, std::size(k_all_plans)> by_plan{};
    bool terms = false;
    for (const Plan plan : m_plans_priced) {
        const auto p = static_cast<std::size_t>(plan);
        const BilledQuantities& q = bill.by_plan[p];
        const PlanRows& rows = m_plan_rows[p];
        if (q.count != 1 || !q.thousandths[0] || *q.thousandths[0] < 0 || rows.negative) {
            return std::nullopt;
        }
        const auto dearest = multiply_thousandths(rows.max_micros, *q.thousandths[0]);
        if (!dearest || *dearest >= rows.converts_below) {
            return std::nullopt;
        }
        const bool term_rule = is_term(plan) && !m_c.plan; // counted row by row below
        terms |= term_rule;
        by_plan[p].priced = term_rule ? 0 : rows.rows;
    }
    if (m_c.plan) { // a row that does not sell the plan asked for is a "price" rejection
        const std::size_t unpriced =
            m_wanted_rows - m_plan_rows[static_cast<std::size_t>(*m_c.plan)].rows;
        if (unpriced > 0) {
            count_rejections("price", unpriced);
        }
    }
    if (!terms) {
        return by_plan;
    }
    const auto total = [&](std::size_t r, Plan plan) {
        const auto p = static_cast<std::size_t>(plan);
        return *multiply_thousandths(m_rates[r].by_plan[p].micros, *bill.by_plan[p].thousandths[0]);
    };
    constexpr auto k_on_demand = static_cast<std::size_t>(Plan::on_demand);
    std::size_t row = m_rates.size();
    std::optional<std::int64_t> on_demand; // the row's (a row that prices it has it in
                                           // m_plans_priced, so checked above)
    for (const auto& [r, plan] : m_term_rows) {
        if (r != row) {
            row = r;
            on_demand = m_rates[r].priced[k_on_demand] ? std::optional(total(r, Plan::on_demand))
                                                       : std::nullopt;
        }
        if (!on_demand || total(r, plan) < *on_demand) {
            ++by_plan[static_cast<std::size_t>(plan)].priced;
        }
    }
    return by_plan;
}

// The totals (micros of `from`) below which FxTable::convert to `to` cannot fail: it fails at
// 9e18 converted micros, and 8e18 leaves a margin far wider than either's rounding.
std::int64_t converts_below(const FxRate& from, const FxRate& to) {
    const double bound = 8e18 * from.per_usd / to.per_usd;
    if (bound >= 9e18) {
        return std::numeric_limits<std::int64_t>::max();
    }
    return bound > 0 ? static_cast<std::int64_t>(bound) : 0; // (NaN: 0, so convert decides)
}

// Whether both totals convert to the currency asked for (converted gives a value for each).
bool Planner::converts(const Totals& totals, const RowRates& rates) const {
    if (!rates.converted) {
        return true;
    }
    if (totals.total_micros < rates.converts_below &&
        totals.list_total_micros < rates.converts_below) {
        return true;
    }
    return converted(totals, rates).has_value();
}

void Planner::forget_verdicts() {
    for (Verdict& v : m_verdicts) {
        v.known = false;
    }
}

// The rules' verdict on the options of a pricing in the configuration (and region) at hand.
Verdict& Planner::verdict(std::size_t pricing) {
    Verdict& v = m_verdicts_at[pricing];
    if (v.known) {
        return v;
    }
    v.known = true;
    if (!m_at.entered) {
        enter_rules();
    }
    if (m_candidates->any()) {
        m_candidates->enter_plan(pricing);
    }
    v.unmet = m_candidates->unmet();
    v.matched.clear();
    v.score = 0;
    v.tags.reset();
    if (v.unmet == nullptr) {
        m_candidates->matches(v.matched);
        for (const std::uint32_t i : v.matched) {
            v.score += m_active[i]->effect == RuleEffect::prefer ? m_active[i]->weight : 0;
        }
    }
    return v;
}

// Counts a priced configuration; its verdict, or nullptr (and a rule rejection) if a `require`
// rule fails.
Verdict* Planner::admitted(const InstanceType& instance,
                           const PriceRow& row,
                           int count,
                           std::string_view pricing,
                           std::size_t index) {
    ++m_result.considered;
    Verdict& v = verdict(index);
    if (const Rule* rule = v.unmet) {
        ++m_rule_rejections[rule];
        reject(instance, row.region, count, "rule", [&] {
            return fmt::format("{} ({}): {}", rule->id, pricing, rule->reason);
        });
        return nullptr;
    }
    return &v;
}

void Planner::keep_late(const Late& late) {
    if (admitted(*late.instance, *late.row, late.count, late.pricing, late.pricing_index) !=
        nullptr) {
        m_late.add(late, m_budget_micros, m_c.list_rejections);
    }
}

void Planner::keep(Option o, std::size_t pricing) {
    Verdict* v = admitted(*o.instance, *o.row, o.count, o.pricing, pricing);
    if (v == nullptr) {
        return;
    }
    o.pricing_rank = pricing_name_rank(pricing);
    o.score = v->score;
    if (!v->tags || v->tags_of_planner != this) {
        v->tags = tags_of(v->matched);
        v->tags_of_planner = this;
    }
    o.tags = *v->tags;
    if (over_budget(o.total_micros)) {
        m_over_budget.push_back(std::move(o));
        return;
    }
    if (!kept_by_pricing()) {
        m_run.push_back(std::move(o));
        return;
    }
    KeptByPricing& kept = m_kept[pricing]; // only each group's best is made whole
    if (kept.count == 0) {
        m_kept_first[pricing] = o;
    }
    kept.add(o.total_micros, o.list_total_micros, o.row);
}

// The index of the tags these matched rules give, made once per distinct set.
std::uint32_t Planner::tags_of(const std::vector<std::uint32_t>& matched) {
    if (m_last_tags && m_last_matched == matched) { // options come in runs alike
        return *m_last_tags;
    }
    m_last_matched = matched;
    const auto [it, inserted] =
        m_tag_index.try_emplace(matched, static_cast<std::uint32_t>(m_tags.size()));
    if (inserted) {
        RuleTags tags;
        for (const std::uint32_t i : matched) {
            const Rule* rule = m_active[i];
            if (rule->effect == RuleEffect::prefer) {
                tags.preferred_by.push_back(rule->id);
            } else {
                tags.warnings.push_back(fmt::format("{}: {}", rule->id, rule->message));
            }
        }
        m_tags.push_back(std::move(tags));
    }
    m_last_tags = it->second;
    return it->second;
}

} // namespace gpuadvisor::planner_detail
