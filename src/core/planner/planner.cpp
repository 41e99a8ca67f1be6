#include "gpuadvisor/planner.hpp"

#include "gpuadvisor/units.hpp"
#include "planner/planner_internal.hpp"
#include "planner/planner_rank.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <stdexcept>
#include <tuple>
#include <type_traits>

namespace gpuadvisor {

namespace planner_detail {

bool slice(const InstanceType& instance) {
    return instance.gpu_count < 1;
}

// The facts rules test about the workload.
Facts workload_facts(const NormalizedWorkload& w, const Requirements& r, bool interruptible) {
    Facts facts;
    facts.add("kind", std::string(to_string(w.kind)));
    facts.add("model", w.model_is_preset ? w.model.id : std::string());
    facts.add("params", w.model.parameters);
    facts.add("tokens", w.tokens);
    facts.add("precision", std::string(to_string(w.precision)));
    facts.add("qps", w.qps);
    facts.add("latency_ms", w.latency_ms);
    facts.add("fp64_tflops", w.fp64_tflops);
    facts.add("memory_gb", w.memory_gb);
    facts.add("sessions", w.sessions);
    facts.add("interruptible", interruptible);
    if (w.deadline_hours) {
        facts.add("deadline_hours", *w.deadline_hours);
    }
    if (w.budget) {
        facts.add("budget", *w.budget);
    }
    facts.add("memory_total_gb", r.memory_total_gb);
    facts.add("min_gpu_memory_gb", r.min_gpu_memory_gb);
    facts.add("required_network_gbps", r.network_gbps);
    facts.add("storage_tb", r.storage_tb);
    return facts;
}

// An instance type's facts, the same for every count and region (a configuration's own are
// set per count, the region's per offer, the plan per option).
Facts instance_facts(const InstanceType& instance, const Gpu& gpu, const Facts& workload) {
    Facts facts(&workload); // a candidate condition may test the workload too
    facts.reserve(11);
    facts.add("provider", instance.provider);
    facts.add("instance", instance.id);
    facts.add("family", instance.family);
    facts.add("gpu", gpu.id);
    facts.add("gpu_memory_gb", gpu.memory_gb);
    facts.add("gpu_fp64_tflops", gpu.fp64_tflops);
    facts.add("gpu_memory_bandwidth_gb_per_s", gpu.memory_bandwidth_gb_per_s);
    facts.add("gpus_per_instance", instance.gpu_count);
    // Between instances: the GPU fabric where the type has one, else its network.
    const Hardware node = hardware_of(instance, gpu, 1);
    facts.add("network_gbps", node.network_gbps);
    facts.add("rdma", node.rdma);
    facts.add("nvlink", instance.nvlink);
    return facts;
}

bool named(const std::vector<std::string>& names, const std::string& value) {
    return names.empty() || std::any_of(names.begin(), names.end(), [&](const std::string& n) {
               return to_lower(n) == to_lower(value);
           });
}

bool gpu_named(const std::vector<std::string>& names, const Catalog& catalog, const Gpu& gpu) {
    return names.empty() || std::any_of(names.begin(), names.end(), [&](const std::string& n) {
               const auto matches = catalog.match_gpus(n);
               return std::find(matches.begin(), matches.end(), &gpu) != matches.end();
           });
}

Planner::Planner(const PlanInput& in)
    : m_in(in), m_w(*in.workload), m_c(in.constraints), m_budget_micros(budget_micros()),
      m_workload_facts(workload_facts(m_w, *in.requirements, m_c.interruptible)),
      m_quiet(in.pricing), m_currency(in.fx != nullptr ? in.fx->find(m_c.currency) : nullptr) {
    // Every offer priced without words; the shown ones again with them (full_quote).
    m_quiet.explain = false;
    for (const Plan plan : k_all_plans) {
        if (m_c.plan ? plan == *m_c.plan : plan != Plan::spot || m_c.interruptible) {
            m_plans_asked.push_back(plan);
        }
    }
    for (std::uint8_t rank = 0; rank < k_pricings; ++rank) { // (the plans only: "mix" is not one)
        for (std::size_t p = 0; p < std::size(k_all_plans); ++p) {
            if (pricing_name_rank(p) == rank) {
                m_plans_by_name.push_back(p);
            }
        }
    }
}

void Planner::fire_rules() {
    for (const Rule& rule : *m_in.rules) {
        if (!rule.when || holds(*rule.when, m_workload_facts)) {
            m_active.push_back(&rule);
        }
    }
    m_candidates.emplace(m_active);
    m_by_pricing = !m_c.list_rejections && !m_c.auto_mix && !m_candidates->reads_region();
}

// The estimate on `count` instances of a type, memoised by hardware.
const std::shared_ptr<const Estimate>& Planner::estimate_on(const InstanceType& instance,
                                                            const Gpu& gpu,
                                                            int count,
                                                            SizingMemo::Estimates& memo) const {
    const Hardware hw = hardware_of(instance, gpu, count);
    auto& estimate_of = memo[std::tuple(hw.gpu,
                                        hw.gpus,
                                        hw.gpus_per_node,
                                        hw.nvlink,
                                        hw.network_gbps,
                                        hw.rdma,
                                        hw.gpu_fraction,
                                        hw.vgpu_series)];
    if (!estimate_of) {
        estimate_of = std::make_shared<const Estimate>(estimate(m_w, hw, *m_in.assumptions));
    }
    return estimate_of;
}

// The counts for an instance type, worked out once per kind of hardware (GPU, GPUs per
// instance, NVLink, network, RDMA): instance types alike in these get the same counts.
Planner::KnownKind& Planner::counts(const InstanceType& instance, const Gpu& gpu) {
    const Hardware node = hardware_of(instance, gpu, 1);
    const SizingMemo::Kind kind(
        &gpu, instance.gpu_count, node.nvlink, node.network_gbps, node.rdma, node.vgpu_series);
    KnownKind& known = m_counts[kind];
    if (known.choice == nullptr) {
        known.choice = &m_sizing->counts(kind, [&](SizingMemo::Estimates& memo) {
            CountChoice choice = choose_counts(instance, gpu, memo);
            for (const int count : choice.counts) {
                choice.estimates.push_back(&estimate_on(instance, gpu, count, memo));
            }
            return choice;
        });
    }
    return known;
}

CountChoice Planner::choose_counts(const InstanceType& instance,
                                   const Gpu& gpu,
                                   SizingMemo::Estimates& memo) const {
    const double per_instance = slice(instance) ? 1 : instance.gpu_count;
    const int cap = std::min(max_instances(), static_cast<int>(k_max_gpus / per_instance));
    const CountSearch search = search_counts(m_w, per_instance, cap, [&](int n) -> const Estimate& {
        return *estimate_on(instance, gpu, n, memo);
    });
    if (!search.counts.empty()) {
        return {search.counts, 0, {}, nullptr, {}};
    }
    if (search.why == nullptr) {
        return {{},
                0,
                fmt::format("needs {} instances, more than the limit of {}{}",
                            format_number(search.needed),
                            cap,
                            cap < max_instances() ? " (4096 GPUs)" : " (--max-instances)"),
                nullptr,
                {}};
    }
    return {{},
            search.rejected_at,
            search.why->fit_reason,
            search.rejected_at == 0 && search.why->latency_out_of_reach ? search.why : nullptr,
            {}};
}

void Planner::instance_type(const InstanceType& instance, const Gpu& gpu) {
    if (!named(m_c.providers, instance.provider) || !gpu_named(m_c.gpus, *m_in.catalog, gpu)) {
        return; // not asked for: not a rejection
    }
    if (slice(instance) && m_w.kind != WorkloadKind::graphics) {
        return; // a vGPU slice runs desktops, not jobs
    }
    const bool priced =
        std::any_of(instance.regions.begin(), instance.regions.end(), [&](const PriceRow& row) {
            return named(m_c.regions, row.region);
        });
    if (!priced) {
        return;
    }
    count_offers_without_rate(instance);
    KnownKind& known = counts(instance, gpu);
    const CountChoice& choice = *known.choice;
    if (choice.counts.empty()) {
        if (const Estimate* best = choice.out_of_reach) {
            keep_out_of_reach(gpu.id, *best, m_result.out_of_reach);
        }
        reject(instance,
               {},
               choice.rejected_at,
               choice.out_of_reach != nullptr ? "latency" : "fit",
               choice.rejection);
        return;
    }
    for (std::size_t i = 0; i < choice.counts.size(); ++i) {
        configuration(instance, gpu, choice.counts[i], *choice.estimates[i], known.alike[i]);
    }
}

void Planner::configuration(const InstanceType& instance,
                            const Gpu& gpu,
                            int count,
                            const std::shared_ptr<const Estimate>& e,
                            Alike*& known_alike) {
    if (!e->fits) {
        reject(instance, {}, count, "fit", e->fit_reason);
        return;
    }
    m_at = {&instance, &gpu, &e, count, false};
    if (known_alike == nullptr) {
        known_alike = &(*m_alike)[std::tuple(e.get(), instance.gpu_count, count)];
    }
    Alike& alike = *known_alike;
    if (m_candidates->hardware_decides()) {
        m_verdicts_at = alike.verdicts.data();
    } else { // a rule reads the region, or tells instance types apart: facts for each
        m_verdicts_at = m_verdicts.data();
        forget_verdicts();
        enter_rules();
    }
    m_run.clear();
    rates_for(instance);
    const Bill& bill = bill_for(alike, count, *e);
    if (late_under_every_plan(bill)) {
        late_configuration(instance, count, bill);
        return; // no feasible option to group
    }
    if (kept_by_pricing()) {
        kept_rows(instance, bill);
        group_kept();
        return;
    }
    for (std::size_t r = 0; r < instance.regions.size(); ++r) {
        if (m_rates[r].wanted) {
            offer(bill, instance.regions[r], m_rates[r]);
        }
    }
    // One group per configuration across regions, unless --region asked for regions by name.
    m_groups.add_run(m_run, m_c.regions.empty());
}

// Gives the rules the configuration at hand's facts (only rules read them: none, none to set).
void Planner::enter_rules() {
    m_at.entered = true;
    if (!m_candidates->any()) {
        return;
    }
    if (m_facts_of != m_at.instance) {
        m_facts_of = m_at.instance;
        m_instance_facts = instance_facts(*m_at.instance, *m_at.gpu, m_workload_facts);
    }
    m_count_facts.set("instance_count", static_cast<double>(m_at.count));
    m_count_facts.set("total_gpus", m_at.count * m_at.instance->gpu_count);
    m_count_facts.set("scaling_efficiency", (*m_at.estimate)->scaling_efficiency);
    m_candidates->enter_configuration(m_count_facts);
}

// What each plan the instance type at hand prices bills for the configuration: the same in
// every region, and for every configuration alike (the usage follows from count and estimate).
const Bill& Planner::bill_for(Alike& alike, int count, const Estimate& e) {
    Bill& bill = alike.bill;
    if (!alike.usage_known) {
        alike.usage_known = true;
        bill.usage = usage_for(count, e);
        for (const bool spot : {false, true}) {
            bill.run_hours[spot ? 1 : 0] =
                is_finite_work(m_w.kind)
                    ? std::optional(
                          bill.usage.period_hours *
                          (spot ? 1 + m_in.pricing.spot.overhead(bill.usage.instances) : 1))
                    : std::nullopt;
        }
    }
    for (const Plan plan : m_plans_priced) { // (a mix prices the usage itself)
        const auto p = static_cast<std::size_t>(plan);
        if (!alike.billed[p]) {
            alike.billed[p] = true;
            bill.by_plan[p] = billed_quantities(bill.usage, plan, m_quiet.spot);
        }
    }
    return bill;
}

// The plans the pass prices on an offer: --pricing's, or each plan the row sells (spot only for
// interruptible work), or estimates; and their rates, worked out once per instance type.
void Planner::rates_for(const InstanceType& instance) {
    if (m_rates_of == &instance) {
        return;
    }
    m_rates_of = &instance;
    m_rates.resize(instance.regions.size()); // (not cleared: rate_rows sets what is read)
    std::array<bool, std::size(k_all_plans)> priced{};
    if (m_w.deadline_hours && m_by_pricing) { // configurations may be counted late
        m_plan_rows = {};
        m_wanted_rows = 0;
        m_term_rows.clear();
        rate_rows<true>(instance, priced);
    } else {
        rate_rows<false>(instance, priced);
    }
    m_plans_priced.clear();
    for (const Plan plan : k_all_plans) {
        if (priced[static_cast<std::size_t>(plan)]) {
            m_plans_priced.push_back(plan);
        }
    }
}

namespace {

// Whether two currency codes are the same: short, so compared here rather than by a call.
bool same_code(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) {
        return false;
    }
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (a[i] != b[i]) {
            return false;
        }
    }
    return true;
}

} // namespace

// rates_for's rows, and (Summarise) what late_counts reads of them.
template <bool Summarise>
void Planner::rate_rows(const InstanceType& instance,
                        std::array<bool, std::size(k_all_plans)>& priced) {
    const bool any_region = m_c.regions.empty();
    // The common case: no discount, no estimate, so a plan's rate is the row's list price.
    const bool list_prices = m_quiet.discounts.empty() && !m_quiet.estimate_missing;
    for (std::size_t r = 0; r < instance.regions.size(); ++r) {
        const PriceRow& row = instance.regions[r];
        RowRates& rates = m_rates[r];
        rates.priced = {};
        rates.wanted = any_region || named(m_c.regions, row.region);
        rates.converted = !same_code(row.currency, m_c.currency);
        rates.from = nullptr;
        rates.converts_below = std::numeric_limits<std::int64_t>::max();
        if (rates.converted) {
            rates.from = m_in.fx->find(row.currency);
            rates.converts_below = rates.from != nullptr && m_currency != nullptr
                                       ? converts_below(*rates.from, *m_currency)
                                       : 0; // none converts
        }
        if (!rates.wanted || m_c.auto_mix) {
            continue; // a mix is priced in full (cheapest_mix)
        }
        for (const Plan plan : m_plans_asked) {
            const auto p = static_cast<std::size_t>(plan);
            const std::optional<std::int64_t>& price = row.price(plan);
            if (!price && !m_quiet.estimate_missing) {
                continue; // not sold there, and not to be estimated (most rows lack a term plan)
            }
            const auto rate = list_prices ? std::optional(RateFigures{*price, *price, {}, {}})
                                          : plan_rate_figures({&instance, &row}, plan, m_quiet);
            if (!rate) {
                continue;
            }
            rates.priced[p] = true;
            rates.by_plan[p] = {rate->micros, rate->list_micros};
            priced[p] = true;
            if constexpr (Summarise) {
                summarise_rate(r, plan, *rate);
            }
        }
        if constexpr (Summarise) {
            ++m_wanted_rows;
        }
    }
}

namespace {

// A plan priced for an offer, its totals only (in the row's currency): the pass over every
// offer keeps no quotes. No default values: made whole by PricedPlans::add only, so an array
// of them costs nothing to set up.
struct PricedPlan {
    std::string_view name; // a plan's flag name, or "mix" (static strings)
    std::size_t index;     // pricing_index(name)
    Plan plan;
    bool spot; // some of it runs on spot
    std::int64_t total_micros;
    std::int64_t list_total_micros;
};

// At most one per plan: a fixed array, no allocation.
struct PricedPlans {
    std::array<PricedPlan, std::size(k_all_plans)> items;
    std::size_t count = 0;
    bool too_large = false; // a total is beyond what money arithmetic holds (k_too_large)
    void add(const PricedPlan& plan) { items[count++] = plan; }
    bool empty() const { return count == 0; }
    const PricedPlan* begin() const { return items.data(); }
    const PricedPlan* end() const { return items.data() + count; }
};

// The cheapest mix of plans for an offer (--pricing auto).
void price_mix(const Offer& offer,
               const Usage& usage,
               const PlanConstraints& c,
               const PricingContext& pricing,
               PricedPlans& result) {
    QuoteResult q = cheapest_mix(offer, usage, c.interruptible ? 1 : 0, pricing);
    if (q.too_large) {
        result.too_large = true;
    }
    if (!q.quote) {
        return;
    }
    const auto& parts = q.quote->parts;
    const Plan first = parts.front().plan;
    const std::string_view name = parts.size() == 1 ? plan_flag_name(first) : "mix";
    result.add({name,
                pricing_index(name),
                first,
                std::any_of(parts.begin(),
                            parts.end(),
                            [](const PricedPart& p) { return p.plan == Plan::spot; }),
                q.quote->total_micros,
                q.quote->list_total_micros});
}

// The plans priced for an offer (rates_for's; a term plan only when it costs less than
// on-demand for this usage), or the cheapest mix.
PricedPlans priced_plans(const Offer& offer,
                         const RowRates& rates,
                         std::span<const Plan> plans, // the plans some row prices, in order
                         const Bill& bill,
                         const PlanConstraints& c,
                         const PricingContext& pricing) {
    PricedPlans result;
    if (c.auto_mix) {
        price_mix(offer, bill.usage, c, pricing, result);
        return result;
    }
    result.too_large = each_priced_plan(
        rates, plans, bill, c, [&](Plan plan, std::size_t p, const Totals& totals) {
            result.add({plan_flag_name(plan),
                        p, // pricing_index of the plan's name
                        plan,
                        plan == Plan::spot,
                        totals.total_micros,
                        totals.list_total_micros});
        });
    return result;
}

} // namespace

// Finite work is billed to the 0.001 h the output shows, so the cost can be checked by hand;
// a service for a month at its hours per month.
Usage Planner::usage_for(int count, const Estimate& e) const {
    const double hours = std::max(0.001, std::round(e.hours * 1000) / 1000);
    return is_finite_work(m_w.kind) ? Usage{static_cast<double>(count), hours, 1, 0}
                                    : Usage{static_cast<double>(count),
                                            k_hours_per_month,
                                            m_w.hours_per_month / k_hours_per_month,
                                            0};
}

void Planner::offer(const Bill& bill, const PriceRow& row, const RowRates& rates) {
    const InstanceType& instance = *m_at.instance;
    const int count = m_at.count;
    const PricedPlans plans =
        priced_plans({&instance, &row}, rates, m_plans_priced, bill, m_c, m_quiet);
    reject_unpriced(instance, row, count, plans.too_large, !plans.empty());
    if (m_candidates->reads_region()) {
        m_candidates->enter_region(row.region, country(instance, row));
        forget_verdicts();
    }
    for (const PricedPlan& priced : plans) {
        const auto totals = converted({priced.total_micros, priced.list_total_micros}, rates);
        if (!totals) {
            reject(instance, row.region, count, "price", [&] {
                const FxTable& fx = *m_in.fx;
                const std::string why = fx.conversion_error(
                    "the total", priced.total_micros, row.currency, m_c.currency);
                return fmt::format("{}: {}",
                                   priced.name,
                                   !why.empty() ? why
                                                : fx.conversion_error("the list total",
                                                                      priced.list_total_micros,
                                                                      row.currency,
                                                                      m_c.currency));
            });
            continue;
        }
        const std::optional<double>& run_hours = bill.run_hours[priced.spot ? 1 : 0];
        if (late(run_hours)) {
            keep_late({&instance,
                       &row,
                       count,
                       priced.name,
                       priced.index,
                       run_hours,
                       totals->total_micros});
            continue;
        }
        keep(option_of(row, priced.name, priced.plan, run_hours, *totals), priced.index);
    }
}

// The "price" rejection of a row some total of which is too large, or which prices no plan
// where --pricing names one (or a mix).
void Planner::reject_unpriced(
    const InstanceType& instance, const PriceRow& row, int count, bool too_large, bool any_priced) {
    if (too_large) {
        reject(instance, row.region, count, "price", k_too_large);
    } else if (!any_priced && (m_c.plan || m_c.auto_mix)) {
        reject(instance,
               row.region,
               count,
               "price",
               m_c.plan ? fmt::format("no {} price", plan_flag_name(*m_c.plan))
                        : std::string("no price for any plan"));
    }
}

// A row's country, looked up once per instance type (not once per count and row).
const std::string& Planner::country(const InstanceType& instance, const PriceRow& row) {
    if (m_countries_of != &instance) {
        m_countries_of = &instance;
        m_countries.clear();
        for (const PriceRow& each : instance.regions) {
            m_countries.push_back(m_in.catalog->country_of(instance.provider, each.region));
        }
    }
    return m_countries[static_cast<std::size_t>(&row - instance.regions.data())];
}

// The offers of an instance type asked for (region included) that no total can be converted
// for: priced in a currency with no rate to the one asked for.
void Planner::count_offers_without_rate(const InstanceType& instance) {
    for (const PriceRow& row : instance.regions) {
        if (!same_code(row.currency, m_c.currency) && named(m_c.regions, row.region) &&
            (m_currency == nullptr || m_in.fx->find(row.currency) == nullptr)) {
            ++m_offers_without_rate[row.currency];
        }
    }
}

// Those offers are in no answer, so the normal output says so (--explain lists each).
void Planner::warn_offers_without_rate() {
    for (const auto& [currency, n] : m_offers_without_rate) {
        m_result.warnings.push_back(
            fmt::format("{} offer(s) priced in {} left out: no exchange rate from {} to {} "
                        "(rates: data/fx.yaml)",
                        n,
                        currency,
                        currency,
                        m_c.currency));
    }
}

PlanResult Planner::run() {
    fire_rules();
    pass_over_offers();
    warn_offers_without_rate();
    if (m_late.count > 0 && !m_c.list_rejections) {
        m_result.rejected_by_code["deadline"] += m_late.count;
    }
    for (const Late& c : m_late.listed) {
        reject(*c.instance, c.row->region, c.count, "deadline", [&] {
            return fmt::format("{}: takes {} h, over the {} h deadline",
                               c.pricing,
                               format_number(std::round(*c.hours * 10) / 10),
                               format_number(*m_w.deadline_hours));
        });
    }
    for (const Option& c : m_over_budget) {
        reject(*c.instance, c.row->region, c.count, "budget", [&] {
            return fmt::format("{}: costs {}, over the budget", c.pricing, money(c.total_micros));
        });
    }
    m_result.feasible = m_groups.options;
    std::vector<Group>& groups = m_groups.groups;
    ranking().rank(m_groups.best, groups, m_c.top);
    if (is_finite_work(m_w.kind) || m_w.kind == WorkloadKind::inference) {
        // (HPC and graphics have nothing to trade against cost)
        mark_pareto(m_groups.best, groups, m_c.top);
    }
    physics_notes(groups);
    if (groups.empty()) {
        price_counted_late();
        explain_no_fit();
    }
    for (std::size_t i = 0; i < groups.size() && i < m_c.top; ++i) {
        if (groups[i].others_later) {
            price_others(groups[i]);
        }
        Candidate c = candidate_of(groups[i]);
        c.rank = static_cast<int>(i + 1);
        explain_candidate(c, m_w);
        m_result.recommendations.push_back(std::move(c));
    }
    return std::move(m_result);
}

} // namespace planner_detail

PlanResult plan(const PlanInput& input) {
    planner_detail::Planner planner(input);
    return planner.run();
}

PlanResult plan(const PlanInput& input, std::shared_ptr<void>& workspace) {
    auto planner = std::make_shared<planner_detail::Planner>(input);
    PlanResult result = planner->run();
    workspace = std::move(planner);
    return result;
}

} // namespace gpuadvisor
