// The planner's state and steps, shared by planner.cpp (the pass over every offer, the
// ranking) and planner_explain.cpp (the words: full quotes, notes, why nothing fits).
#pragma once

#include "gpuadvisor/fx.hpp"
#include "gpuadvisor/planner.hpp"
#include "gpuadvisor/pricing.hpp"
#include "gpuadvisor/rules.hpp"
#include "gpuadvisor/units.hpp"
#include "planner/planner_rank.hpp"
#include "planner/planner_rules.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

namespace gpuadvisor::planner_detail {

constexpr int k_default_max_instances = 64;
constexpr std::size_t k_max_counts = 4; // choose_counts: the fewest that fit, fast, 2x, 4x
constexpr double k_max_gpus = 4096;

// A configuration that misses the deadline: only what its rejection and the no-fit
// explanation use (on a large catalog most configurations end here).
struct Late {
    const InstanceType* instance = nullptr;
    const PriceRow* row = nullptr;
    int count = 0;
    std::string_view pricing; // a plan's flag name, or "mix" (static strings)
    std::size_t pricing_index = 0;
    std::optional<double> hours;
    std::int64_t total_micros = 0;

    // The order a single pass over the catalog meets configurations in: by instance type
    // (catalog order), count (ascending), row, then pricing. Of late configurations equal in
    // hours and cost, the first in this order is named, whichever order they are added in.
    bool met_before(const Late& other) const {
        return std::tuple(instance, count, row, pricing_index) <
               std::tuple(other.instance, other.count, other.row, other.pricing_index);
    }
};

// Keeps, per GPU, the serving estimate with the lowest batch-1 latency.
inline void keep_out_of_reach(const std::string& gpu,
                              const Estimate& estimate,
                              std::map<std::string, Estimate, std::less<>>& best) {
    const auto found = best.find(gpu);
    if (found == best.end() || estimate.latency_ms < found->second.latency_ms) {
        best.insert_or_assign(gpu, estimate);
    }
}

// The instance counts worth pricing for an instance type: the fewest that run the workload,
// the fewest that meet the deadline, and (for finite work) two and four times that; or none,
// and why (a "fit" rejection at `rejected_at` instances).
struct CountChoice {
    std::vector<int> counts;
    int rejected_at = 0;
    std::string rejection;
    const Estimate* out_of_reach = nullptr; // set when a serving target is out of reach
    // The counts' estimates (the memo's entries): instance types alike in hardware share them.
    std::vector<const std::shared_ptr<const Estimate>*> estimates;
};

// The counts of each kind of hardware and their estimates, shared by the planners of one plan's
// threads: each kind is sized once, by whichever thread meets it first (another that meets it
// meanwhile waits for it). Entries stay put: options point to their estimates.
class SizingMemo {
  public:
    // GPU, GPUs per instance, NVLink, network, RDMA, vGPU series.
    using Kind = std::tuple<const Gpu*, double, bool, double, bool, char>;
    // A Hardware's GPU, GPUs, GPUs per node, NVLink, network, RDMA, GPU fraction and vGPU
    // series.
    using HardwareKey = std::tuple<const Gpu*, int, int, bool, double, bool, double, char>;
    using Estimates = std::map<HardwareKey, std::shared_ptr<const Estimate>>;
    // The kind's counts: make(estimates) the first time, with the kind's own estimates to fill.
    const CountChoice& counts(const Kind& kind, const std::function<CountChoice(Estimates&)>& make);

  private:
    struct Entry {
        std::once_flag made;
        CountChoice choice;
        Estimates estimates;
    };
    std::mutex m_mutex; // guards m_entries (not an entry's making: once_flag does)
    std::map<Kind, std::unique_ptr<Entry>> m_entries;
};

// A configuration's usage and what each plan bills for it (by Plan): the same in every region.
struct Bill {
    Usage usage;
    std::array<BilledQuantities, std::size(k_all_plans)> by_plan;
    // Finite work: the wall time, off spot and on it (its restarts added); else none.
    std::array<std::optional<double>, 2> run_hours;

    const std::optional<double>& hours(Plan plan) const {
        return run_hours[plan == Plan::spot ? 1 : 0];
    }
};

// A plan bought for a term (reserved, subscription): priced only where it beats on-demand.
inline bool is_term(Plan plan) {
    return plan != Plan::on_demand && plan != Plan::spot;
}

// A row's rates for the plans the pass prices, looked up once per instance type (each of its
// counts prices the row again): plan_rate's figures, by Plan.
struct RowRates {
    struct PlanRate {
        std::int64_t micros = 0;
        std::int64_t list_micros = 0;
    };
    // By Plan: to be priced here, and plan_rate gave a rate, which by_plan holds. An entry of
    // by_plan not priced is not read: rate_rows leaves it as the last instance type's rows left
    // it (clearing every entry for each instance type cost more than setting them).
    std::array<bool, std::size(k_all_plans)> priced{};
    std::array<PlanRate, std::size(k_all_plans)> by_plan;
    bool wanted = false;          // --region names the row's region, or no --region was given
    bool converted = false;       // the row's currency is not the one asked for
    const FxRate* from = nullptr; // the row's currency, when converted (nullptr: no rate known)
    // Totals below this convert without fail (FxTable::convert fails at 9e18 converted micros;
    // this bound keeps a wide margin): late_rows then counts a row without converting it.
    std::int64_t converts_below = std::numeric_limits<std::int64_t>::max();
};

// What the wanted rows of the instance type at hand that price a plan have in common
// (rates_for): enough to count a late configuration's rows without pricing each (late_counts).
struct PlanRows {
    std::size_t rows = 0;
    std::int64_t max_micros = 0; // their largest rate or list rate
    bool negative = false;       // some rate below zero (none, from a valid catalog)
    std::int64_t converts_below = std::numeric_limits<std::int64_t>::max(); // their smallest
};

// Contiguous pieces of about equal offers (`offers` in all), in catalog order: the pass's pieces
// for its threads (planner_pass.cpp).
std::vector<std::span<const InstanceType>>
pieces_of(const std::vector<InstanceType>& instances, std::size_t offers, std::size_t pieces);

class Planner;

// What the rules say of the options of one pricing in the configuration at hand (and region,
// when a rule reads the region): the same for each of them, so worked out once.
struct Verdict {
    bool known = false;
    const Rule* unmet = nullptr;        // the first `require` rule failed, in rule order
    std::vector<std::uint32_t> matched; // the prefer and warn rules matched (when none failed)
    double score = 0;                   // the weights of the prefer rules matched
    std::optional<std::uint32_t> tags;  // tags_of(matched), once an option is kept,
    const Planner* tags_of_planner = nullptr; // by this one (tags are numbered per planner)
};

// What configurations alike in estimate, GPUs per instance and count share: the bill, and the
// verdicts when the rules read nothing but hardware and count (CandidateRules::hardware_decides).
struct Alike {
    Bill bill;
    bool usage_known = false;
    std::array<bool, std::size(k_all_plans)> billed{}; // which of bill.by_plan are known
    std::array<Verdict, k_pricings> verdicts;
};

// A pricing's rows in a configuration past the deadline: how many were priced, and the cheapest
// (the first of equals, by row) when asked for.
struct LateRows {
    std::size_t priced = 0;
    std::size_t row = 0;
    std::int64_t total_micros = 0;
};
// What late_rows works out: the counts (and the rows' "price" rejections), or the cheapest row
// of each pricing (counted before).
enum class LateWork { count, cheapest };
// A configuration late_configuration counted, priced again only if nothing fits: its cheapest
// rows are what the no-fit explanation names (LateSummary), and on a large catalog with a
// deadline most configurations are late while something fits.
struct CountedLate {
    const InstanceType* instance = nullptr;
    int count = 0;
    const Bill* bill = nullptr;                          // its Alike's (a map entry: stable)
    std::array<bool, std::size(k_all_plans)> admitted{}; // by Plan: priced, and no rule failed
};
// The feasible options of one pricing in the configuration at hand, when every option of a
// pricing shares its verdict (kept_by_pricing): how many, and the cheapest (the first of
// equals, by row). Only it is made a whole Option; the others are priced again if its group
// is shown (price_others).
struct KeptByPricing {
    std::size_t count = 0;
    std::int64_t total_micros = 0;
    std::int64_t list_total_micros = 0;
    const PriceRow* row = nullptr;

    void add(std::int64_t total, std::int64_t list_total, const PriceRow* at) {
        if (count++ == 0 || total < total_micros) {
            total_micros = total;
            list_total_micros = list_total;
            row = at;
        }
    }
};

// The totals (micros of `from`) below which FxTable::convert to `to` cannot fail.
std::int64_t converts_below(const FxRate& from, const FxRate& to);

// Each plan priced for a row, in order: rates_for's rates, a term plan only when it costs less
// than on-demand for this usage (on-demand comes first). `priced(plan, pricing_index, totals)`
// for each; true if some total was beyond what money arithmetic holds.
template <class Priced>
bool each_priced_plan(const RowRates& rates,
                      std::span<const Plan> plans, // the plans some row prices, in order
                      const Bill& bill,
                      const PlanConstraints& c,
                      Priced&& priced) {
    bool too_large = false;
    std::optional<std::int64_t> on_demand;
    for (const Plan plan : plans) {
        const auto p = static_cast<std::size_t>(plan);
        if (!rates.priced[p]) {
            continue;
        }
        const RowRates::PlanRate& rate = rates.by_plan[p];
        const TotalsResult q = totals_at(rate.micros, rate.list_micros, bill.by_plan[p]);
        too_large |= q.too_large;
        if (!q.totals) {
            continue;
        }
        if (plan == Plan::on_demand) {
            on_demand = q.totals->total_micros;
        } else if (is_term(plan) && !c.plan && on_demand && q.totals->total_micros >= *on_demand) {
            continue; // a term plan that does not pay for this usage
        }
        priced(plan, p, *q.totals);
    }
    return too_large;
}

// The configurations past the deadline: counted; listed one by one only for --explain; the
// three the no-fit explanation names kept as they come (the first of equals, as min_element).
struct LateSummary {
    std::size_t count = 0;
    std::vector<Late> listed;
    std::optional<Late> fastest;            // by hours, then total
    std::optional<Late> fastest_affordable; // the same, within the budget
    std::optional<Late> cheapest;           // by total

    void add(const Late& late, std::optional<std::int64_t> budget, bool list);
    // The same but not counted nor listed (one counted before).
    void consider(const Late& late, std::optional<std::int64_t> budget);
    // Those of a later slice of the catalog, priced apart (planner_pass.cpp).
    void append(LateSummary&& later);
};

class Planner {
  public:
    explicit Planner(const PlanInput& in);

    PlanResult run();

  private:
    void fire_rules();
    // The pass over every offer: pricing, rules, deadline and budget (planner_pass.cpp).
    void pass_over_offers();
    void pass(std::span<const InstanceType> instances);
    void reserve_room(std::span<const InstanceType> instances);
    void absorb(Planner&& later);
    void instance_type(const InstanceType& instance, const Gpu& gpu);
    void count_offers_without_rate(const InstanceType& instance);
    void warn_offers_without_rate();
    struct KnownKind; // (below)
    KnownKind& counts(const InstanceType& instance, const Gpu& gpu);
    CountChoice
    choose_counts(const InstanceType& instance, const Gpu& gpu, SizingMemo::Estimates& memo) const;
    void configuration(const InstanceType& instance,
                       const Gpu& gpu,
                       int count,
                       const std::shared_ptr<const Estimate>& e,
                       Alike*& alike);
    void enter_rules();
    const Bill& bill_for(Alike& alike, int count, const Estimate& e);
    bool late_under_every_plan(const Bill& bill) const;
    void late_configuration(const InstanceType& instance, int count, const Bill& bill);
    std::array<LateRows, std::size(k_all_plans)>
    late_rows(const InstanceType& instance, const Bill& bill, LateWork work);
    void price_counted_late();
    std::optional<std::array<LateRows, std::size(k_all_plans)>> late_counts(const Bill& bill);
    void summarise_rate(std::size_t r, Plan plan, const RateFigures& rate) {
        PlanRows& rows = m_plan_rows[static_cast<std::size_t>(plan)];
        ++rows.rows;
        rows.max_micros = std::max(rows.max_micros, std::max(rate.micros, rate.list_micros));
        rows.negative |= rate.micros < 0 || rate.list_micros < 0;
        rows.converts_below = std::min(rows.converts_below, m_rates[r].converts_below);
        if (is_term(plan)) {
            m_term_rows.emplace_back(r, plan);
        }
    }
    // A total in the currency asked for (nullopt: no exchange rate, or beyond int64); inline:
    // the pass asks for each option priced.
    std::optional<std::int64_t> converted(std::int64_t micros, const RowRates& rates) const {
        if (!rates.converted) {
            return micros;
        }
        if (rates.from == nullptr || m_currency == nullptr) {
            return std::nullopt;
        }
        return FxTable::convert(micros, *rates.from, *m_currency);
    }
    // Both totals in the currency asked for (nullopt: either does not convert).
    std::optional<Totals> converted(const Totals& totals, const RowRates& rates) const {
        const auto paid = converted(totals.total_micros, rates);
        const auto list = totals.list_total_micros == totals.total_micros // no discount
                              ? paid
                              : converted(totals.list_total_micros, rates);
        if (!paid || !list) {
            return std::nullopt;
        }
        return Totals{*paid, *list};
    }
    bool converts(const Totals& totals, const RowRates& rates) const;
    // An offer (a row of the configuration at hand) priced under each plan, each option kept.
    void offer(const Bill& bill, const PriceRow& row, const RowRates& rates);
    void reject_unpriced(const InstanceType& instance,
                         const PriceRow& row,
                         int count,
                         bool too_large,
                         bool any_priced);
    bool late(const std::optional<double>& run_hours) const {
        return m_w.deadline_hours && run_hours && *run_hours > *m_w.deadline_hours;
    }
    // An option of the configuration at hand (m_at).
    Option option_of(const PriceRow& row,
                     std::string_view pricing,
                     Plan plan,
                     const std::optional<double>& run_hours,
                     const Totals& totals) const {
        Option o;
        o.instance = m_at.instance;
        o.row = &row;
        o.gpu = m_at.gpu;
        o.estimate = m_at.estimate;
        o.count = m_at.count;
        o.pricing = pricing;
        o.plan = plan;
        o.total_micros = totals.total_micros;
        o.list_total_micros = totals.list_total_micros;
        o.hours = run_hours;
        return o;
    }
    bool over_budget(std::int64_t total_micros) const {
        return m_w.budget &&
               static_cast<double>(total_micros) > *m_w.budget * Money::k_micros_per_unit;
    }
    void keep(Option o, std::size_t pricing);
    void kept_rows(const InstanceType& instance, const Bill& bill);
    // Each pricing's options in a configuration form one group whatever their row (regions
    // merge, no rule reads the region, no mix, nothing listed): keep them by pricing.
    bool kept_by_pricing() const { return m_by_pricing && m_c.regions.empty(); }
    void group_kept();
    void price_others(Group& group);
    void rates_for(const InstanceType& instance);
    template <bool Summarise>
    void rate_rows(const InstanceType& instance, std::array<bool, std::size(k_all_plans)>& priced);
    const std::string& country(const InstanceType& instance, const PriceRow& row);
    std::uint32_t tags_of(const std::vector<std::uint32_t>& matched);
    Verdict& verdict(std::size_t pricing); // by pricing_index
    void forget_verdicts();
    // The memo's entry (stable: options point to it).
    const std::shared_ptr<const Estimate>& estimate_on(const InstanceType& instance,
                                                       const Gpu& gpu,
                                                       int count,
                                                       SizingMemo::Estimates& memo) const;
    Verdict* admitted(const InstanceType& instance,
                      const PriceRow& row,
                      int count,
                      std::string_view pricing,
                      std::size_t index);
    void keep_late(const Late& late);
    Usage usage_for(int count, const Estimate& e) const;
    Quote full_quote(const Option& o) const;
    Candidate candidate_of(const Group& group) const;
    // Counted always; listed with its reason (a string, or a function that words it) only
    // when asked: on a large catalog most configurations are rejected, and words cost.
    template <class Reason>
    void reject(const InstanceType& instance,
                std::string_view region,
                int count,
                std::string_view code,
                Reason&& reason) {
        const auto counted = m_result.rejected_by_code.find(code);
        if (counted != m_result.rejected_by_code.end()) {
            ++counted->second;
        } else {
            m_result.rejected_by_code.emplace(std::string(code), 1);
        }
        if (!m_c.list_rejections) {
            return;
        }
        std::string text;
        if constexpr (std::is_invocable_v<Reason>) {
            text = reason();
        } else {
            text = std::forward<Reason>(reason);
        }
        m_result.rejected.push_back(
            {&instance, std::string(region), count, std::string(code), std::move(text)});
    }
    void count_rejections(std::string_view code, std::size_t n) {
        m_result.rejected_by_code[std::string(code)] += n;
    }
    void explain_no_fit();
    void physics_notes(std::vector<Group>& groups);
    Candidate tier_row(std::vector<Group>& groups, std::size_t index);
    std::optional<std::int64_t> budget_micros() const {
        return m_w.budget ? std::optional(
                                static_cast<std::int64_t>(*m_w.budget * Money::k_micros_per_unit))
                          : std::nullopt;
    }
    int max_instances() const { return m_c.max_instances.value_or(k_default_max_instances); }
    Ranking ranking() const {
        const bool finite = is_finite_work(m_w.kind);
        return {m_c.sort_by_time,
                finite && m_c.value_per_day ? *m_c.value_per_day * Money::k_micros_per_unit / 24
                                            : 0.0,
                m_c.prefer_within,
                finite || m_w.kind == WorkloadKind::inference};
    }
    std::string money(std::int64_t micros) const {
        const std::int64_t cents = (micros + 5'000) / 10'000; // costs are shown to the cent
        return fmt::format("{} {}", format_micros(cents * 10'000, 2), m_c.currency);
    }

    const PlanInput& m_in;
    const NormalizedWorkload& m_w;
    const PlanConstraints& m_c;
    std::optional<std::int64_t> m_budget_micros; // budget_micros()
    Facts m_workload_facts;
    Facts m_instance_facts;                   // the instance type's at hand
    const InstanceType* m_facts_of = nullptr; // whose facts m_instance_facts holds
    Facts m_count_facts{&m_instance_facts};   // the configuration's at hand (reused)
    PricingContext m_quiet; // m_in.pricing without the words, for the pass over every offer
    std::vector<const Rule*> m_active; // rules whose `when` holds
    // Nothing listed, no mix, no rule reading the region: the options of one pricing in a
    // configuration share their verdict and pricing, so the fast paths may count or keep them
    // by pricing (late_configuration, kept_by_pricing).
    bool m_by_pricing = false;
    std::map<const Rule*, int> m_rule_rejections;
    // Offers asked for but priced in a currency with no rate to the one asked for, by currency.
    std::map<std::string, std::size_t, std::less<>> m_offers_without_rate;
    std::vector<Option> m_run; // the feasible options of the configuration at hand
    // Or, when kept_by_pricing(), those of each plan (by Plan), and the first of each whole.
    std::array<KeptByPricing, std::size(k_all_plans)> m_kept;
    std::array<Option, std::size(k_all_plans)> m_kept_first;
    std::vector<std::size_t> m_plans_by_name;   // the plans (as indices) in their names' order
    Groups m_groups;                            // those of the configurations before it, grouped
    LateSummary m_late;                         // priced, but past the deadline
    std::vector<CountedLate> m_counted_late;    // counted in m_late, not yet priced
    std::optional<CandidateRules> m_candidates; // the active rules' candidate conditions
    // Counts and estimates by kind of hardware: instance types alike in GPU, count, NVLink and
    // network (across providers and synthetic copies) are sized once, whichever thread meets them.
    std::shared_ptr<SizingMemo> m_sizing = std::make_shared<SizingMemo>();
    std::vector<Option> m_over_budget; // priced, but over the budget
    // A kind of hardware as this planner met it: m_sizing's counts, and the Alike of each count
    // in m_alike (found on its first configuration: the same for every instance type of the
    // kind, as its estimate, GPUs per instance and count are).
    struct KnownKind {
        const CountChoice* choice = nullptr;
        std::array<Alike*, k_max_counts> alike{};
    };
    std::map<SizingMemo::Kind, KnownKind> m_counts;
    std::vector<RuleTags> m_tags; // the distinct tags options carry, by index
    std::map<std::vector<std::uint32_t>, std::uint32_t> m_tag_index; // matched rules -> tags
    std::vector<std::uint32_t> m_last_matched; // the last tags_of asked for, and its answer
    std::optional<std::uint32_t> m_last_tags;
    const InstanceType* m_countries_of = nullptr; // whose rows m_countries holds
    std::vector<std::string> m_countries;
    const InstanceType* m_rates_of = nullptr; // whose rows m_rates holds
    std::vector<RowRates> m_rates;
    // m_rates summed up by rates_for, when configurations may be counted late (late_counts):
    std::array<PlanRows, std::size(k_all_plans)> m_plan_rows; // by Plan, over m_rates
    std::size_t m_wanted_rows = 0;                            // of m_rates
    std::vector<std::pair<std::size_t, Plan>> m_term_rows;    // (row, term plan) priced, in order
    std::vector<Plan> m_plans_asked; // --pricing's, or every plan (spot if interruptible), in order
    std::vector<Plan> m_plans_priced; // the plans some row of m_rates prices, in k_all_plans order
    const FxRate* m_currency = nullptr; // the currency asked for (nullptr: unknown)
    // The configuration at hand; the rules see its facts only once a verdict is worked out.
    struct AtHand {
        const InstanceType* instance = nullptr;
        const Gpu* gpu = nullptr;
        const std::shared_ptr<const Estimate>* estimate = nullptr; // the memo's entry
        int count = 0;
        bool entered = false; // the rules have its facts
    } m_at;
    // By estimate, GPUs per instance and count: this planner's, or shared with the planners of
    // the pieces priced before on the same thread (pass_over_offers).
    using AlikeMap = std::map<std::tuple<const Estimate*, double, int>, Alike>;
    std::shared_ptr<AlikeMap> m_alike = std::make_shared<AlikeMap>();
    // The verdicts of the configuration at hand by pricing_index: its Alike's, or m_verdicts.
    std::array<Verdict, k_pricings> m_verdicts;
    Verdict* m_verdicts_at = m_verdicts.data();
    PlanResult m_result;
    std::vector<std::unique_ptr<Planner>> m_helpers; // the other slices' planners, kept alive
};

} // namespace gpuadvisor::planner_detail
