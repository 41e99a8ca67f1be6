// An offer of the configuration at hand priced under each plan asked for (or its cheapest mix),
// and each option judged: the rules' verdict, past the deadline, over the budget, or kept. The
// planner's one pricing of an offer: a shown option's words are priced again from the same
// inputs and checked to give its total (full_quote).
#include "planner/planner_internal.hpp"

#include <algorithm>
#include <array>
#include <span>
#include <tuple>

namespace gpuadvisor::planner_detail {

namespace {

// A plan bought for a term (reserved, subscription): priced only where it beats on-demand.
bool is_term(Plan plan) {
    return plan != Plan::on_demand && plan != Plan::spot;
}

bool quicker(const Late& a, const std::optional<Late>& b) {
    return !b || std::tuple(*a.hours, a.total_micros) < std::tuple(*b->hours, b->total_micros);
}

bool cheaper(const Late& a, const std::optional<Late>& b) {
    return !b || a.total_micros < b->total_micros;
}

} // namespace

void LateSummary::add(const Late& late, std::optional<std::int64_t> budget, bool list) {
    ++count;
    if (list) {
        listed.push_back(late);
    }
    if (quicker(late, fastest)) {
        fastest = late;
    }
    if ((!budget || late.total_micros <= *budget) && quicker(late, fastest_affordable)) {
        fastest_affordable = late;
    }
    if (cheaper(late, cheapest)) {
        cheapest = late;
    }
}

// The plans asked for priced on the row (a term plan only when it costs less than on-demand for
// this usage, unless --pricing names it), or its cheapest mix (--pricing auto); each priced
// option judged.
void Planner::offer(const Bill& bill, const PriceRow& row) {
    const Offer at{m_at.instance, &row};
    std::array<Priced, std::size(k_all_plans)> priced;
    std::size_t count = 0;
    bool too_large = false;
    if (m_c.auto_mix) {
        const QuoteResult q = cheapest_mix(at, bill.usage, m_c.interruptible ? 1 : 0, m_quiet);
        too_large = q.too_large;
        if (q.quote) {
            const auto& parts = q.quote->parts;
            const bool spot = std::any_of(parts.begin(), parts.end(), [](const PricedPart& p) {
                return p.plan == Plan::spot;
            });
            priced[count++] = {parts.size() == 1 ? plan_flag_name(parts.front().plan) : "mix",
                               parts.front().plan,
                               spot,
                               {q.quote->total_micros, q.quote->list_total_micros}};
        }
    }
    std::optional<std::int64_t> on_demand; // (on-demand comes first in k_all_plans)
    for (const Plan plan :
         m_c.auto_mix ? std::span<const Plan>() : std::span<const Plan>(m_plans_asked)) {
        const TotalsResult q =
            price_offer_totals(at, bill.by_plan[static_cast<std::size_t>(plan)], plan, m_quiet);
        too_large |= q.too_large;
        if (!q.totals) {
            continue;
        }
        if (plan == Plan::on_demand) {
            on_demand = q.totals->total_micros;
        } else if (is_term(plan) && !m_c.plan && on_demand &&
                   q.totals->total_micros >= *on_demand) {
            continue; // a term plan that does not pay for this usage
        }
        priced[count++] = {plan_flag_name(plan), plan, plan == Plan::spot, *q.totals};
    }
    reject_unpriced(row, too_large, count > 0);
    if (m_candidates->reads_region()) {
        if (!m_at.entered) { // the region's facts fall back to the configuration's
            enter_rules();
        }
        m_candidates->enter_region(row.region,
                                   m_in.catalog->country_of(m_at.instance->provider, row.region));
        for (Verdict& v : m_verdicts) {
            v.known = false;
        }
    }
    for (std::size_t i = 0; i < count; ++i) {
        option(bill, row, priced[i]);
    }
}

// A priced option: converted to the currency asked for, judged by the rules, then past the
// deadline, over the budget, or kept.
void Planner::option(const Bill& bill, const PriceRow& row, const Priced& priced) {
    const InstanceType& instance = *m_at.instance;
    auto paid = converted(priced.totals, row);
    if (!paid) {
        reject(instance, row.region, m_at.count, "price", [&] {
            const FxTable& fx = *m_in.fx;
            const std::string why = fx.conversion_error(
                "the total", priced.totals.total_micros, row.currency, m_c.currency);
            return fmt::format("{}: {}",
                               priced.pricing,
                               !why.empty() ? why
                                            : fx.conversion_error("the list total",
                                                                  priced.totals.list_total_micros,
                                                                  row.currency,
                                                                  m_c.currency));
        });
        return;
    }
    ++m_result.considered;
    const std::size_t index = pricing_index(priced.pricing);
    Verdict& v = verdict(index);
    if (const Rule* rule = v.unmet) {
        ++m_rule_rejections[rule];
        reject(instance, row.region, m_at.count, "rule", [&] {
            return fmt::format("{} ({}): {}", rule->id, priced.pricing, rule->reason);
        });
        return;
    }
    std::optional<double> hours = bill.run_hours[priced.spot ? 1 : 0];
    std::shared_ptr<const DataMove> data;
    if (m_c.data_move && !add_data_move(row, *paid, hours, data)) {
        return;
    }
    if (late(hours)) {
        m_late.add({&instance, &row, m_at.count, priced.pricing, hours, paid->total_micros},
                   m_budget_micros,
                   m_c.list_rejections);
        return;
    }
    if (!v.tags) {
        v.tags = tags_of(v.matched);
    }
    Option o{&instance,
             &row,
             m_at.gpu,
             m_at.estimate,
             m_at.count,
             priced.pricing,
             pricing_name_rank(index),
             priced.plan,
             paid->total_micros,
             paid->list_total_micros,
             hours,
             v.score,
             *v.tags,
             std::move(data)};
    if (over_budget(o.total_micros)) {
        m_over_budget.push_back(o);
    } else {
        m_run.push_back(o);
    }
}

// Both totals in the currency asked for (nullopt: either does not convert).
std::optional<Totals> Planner::converted(const Totals& totals, const PriceRow& row) const {
    if (row.currency == m_c.currency) {
        return totals;
    }
    const FxRate* from = m_in.fx->find(row.currency);
    if (from == nullptr || m_currency == nullptr) {
        return std::nullopt;
    }
    const auto paid = FxTable::convert(totals.total_micros, *from, *m_currency);
    const auto list = FxTable::convert(totals.list_total_micros, *from, *m_currency);
    if (!paid || !list) {
        return std::nullopt;
    }
    return Totals{*paid, *list};
}

// The rules' verdict on the options of a pricing in the configuration (and region) at hand.
Verdict& Planner::verdict(std::size_t pricing) {
    Verdict& v = m_verdicts[pricing];
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

// The index of the tags these matched rules give, made once per distinct set.
std::uint32_t Planner::tags_of(const std::vector<std::uint32_t>& matched) {
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
    return it->second;
}

// The "price" rejection of a row some total of which is too large, or which prices no plan
// where --pricing names one (or a mix).
void Planner::reject_unpriced(const PriceRow& row, bool too_large, bool any_priced) {
    if (too_large) {
        reject(*m_at.instance, row.region, m_at.count, "price", [] {
            return std::string(k_too_large);
        });
    } else if (!any_priced && (m_c.plan || m_c.auto_mix)) {
        reject(*m_at.instance, row.region, m_at.count, "price", [&] {
            return m_c.plan ? fmt::format("no {} price", plan_flag_name(*m_c.plan))
                            : std::string("no price for any plan");
        });
    }
}

} // namespace gpuadvisor::planner_detail
