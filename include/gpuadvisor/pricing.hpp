// The cost of running instances under a plan or a mix of plans, billed as providers bill:
// on-demand and spot while running, reserved and subscription for their whole term.
// Money is exact: integer micro-units, quantities to 0.001 instance-hours (docs/pricing.md).
#pragma once

#include "gpuadvisor/catalog.hpp"
#include "gpuadvisor/date.hpp"
#include "gpuadvisor/diagnostic.hpp"
#include "gpuadvisor/enum_names.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gpuadvisor {

class FxTable;

inline constexpr double k_hours_per_month = 730; // 8760 / 12
inline constexpr double k_hours_per_year = 8760;

// What is paid for: `instances` over a `period_hours` span. A flat profile (baseline 0) runs
// them all `utilization` of the span; a profile with a baseline keeps `baseline` instances
// running the whole span and runs the rest (the bursts) `utilization` of it.
struct Usage {
    double instances = 1;
    double period_hours = k_hours_per_month;
    double utilization = 1;
    double baseline = 0;

    bool tiered() const { return baseline > 0 && baseline < instances; }
    // Hours the configuration runs: the whole span once a baseline is always on.
    double running_hours() const {
        return baseline > 0 ? period_hours : period_hours * utilization;
    }
    double used_instance_hours() const {
        return baseline * period_hours + (instances - baseline) * period_hours * utilization;
    }
};

// Expected extra run time on spot: interruptions per hour x (checkpoint interval / 2 + restart).
// One job on N spot instances stops whenever any of them is taken back, so its interruptions
// add up: N x the per-instance rate. Independent replicas (a service) each lose only their own.
struct SpotModel {
    double interruptions_per_hour = 0; // per instance
    double checkpoint_interval_hours = 1;
    double restart_hours = 0.25;
    bool one_job = true; // the instances run one synchronous job (training), not replicas

    double overhead(double spot_instances) const {
        const double instances = one_job ? std::max(1.0, spot_instances) : 1.0;
        return instances * interruptions_per_hour * (checkpoint_interval_hours / 2 + restart_hours);
    }
};

// A documented discount used to estimate a plan's price where a row lacks it.
struct EstimateRule {
    std::string id;
    Plan plan = Plan::reserved_1y;
    double discount = 0;                // fraction off on-demand
    std::vector<std::string> providers; // empty or "any": every provider
    std::string source;
};

// A fraction of the used instance-hours served by a plan.
struct PlanShare {
    Plan plan = Plan::on_demand;
    double share = 1;
};

// "reserved-1y=0.5,on-demand=0.2,spot=0.3" (fractions summing to 1, each plan once).
struct MixParse {
    std::vector<PlanShare> shares;
    std::string error;
};
MixParse parse_mix(std::string_view text);
// The plans' names, as flags, mixes and output spell them.
inline constexpr EnumNames<Plan, 5> k_plan_names{{
    {Plan::on_demand, "on-demand"},
    {Plan::spot, "spot"},
    {Plan::reserved_1y, "reserved-1y"},
    {Plan::reserved_3y, "reserved-3y"},
    {Plan::subscription_monthly, "subscription"},
}};
std::optional<Plan> parse_plan(std::string_view text);
std::string_view plan_flag_name(Plan plan);

// Everything a price depends on besides the offer and the usage.
struct PricingContext {
    SpotModel spot;
    std::span<const EstimateRule> rules; // used only when estimate_missing
    bool estimate_missing = false;
    std::span<const Discount> discounts; // negotiated, from the active catalog
    Date today = today_utc();            // discounts past their `expires` are not applied
    // false: the same totals without the words (each part's basis, why a plan has no price)
    // and without the break-evens, for the planner's pass over every offer; it prices again,
    // in full, only the ones it shows.
    bool explain = true;
};

// A plan's rate on an offer: the list price (or an estimate of it), less any discount.
struct Rate {
    std::int64_t list_micros = 0; // per instance-hour; per instance-month for subscription
    std::int64_t micros = 0;      // what is paid: list less the discount
    bool estimated = false;
    std::string estimate_rule; // the rule's id and source when estimated (and context.explain)
    const Discount* discount = nullptr;
};
// nullopt: the plan is not sold there (and no rule may estimate it).
std::optional<Rate> plan_rate(const Offer& offer, Plan plan, const PricingContext& context);
// Its figures without the words (plan_rate is made from them): for a pass over every offer.
struct RateFigures {
    std::int64_t list_micros = 0;
    std::int64_t micros = 0;
    const EstimateRule* estimate = nullptr; // the rule that estimated the list price, if one did
    const Discount* discount = nullptr;
};
// The general case: an estimate for a plan the row does not sell, or a discount that may apply.
std::optional<RateFigures>
plan_rate_figures_general(const Offer& offer, Plan plan, const PricingContext& context);
// Inline for the common case, a row that sells the plan where no discount exists: its list price.
inline std::optional<RateFigures>
plan_rate_figures(const Offer& offer, Plan plan, const PricingContext& context) {
    if (const auto& price = offer.prices->price(plan); price && context.discounts.empty()) {
        return RateFigures{*price, *price, nullptr, nullptr};
    }
    return plan_rate_figures_general(offer, plan, context);
}

struct PricedPart {
    std::string tier; // "baseline" or "burst" in a profile with a baseline; else empty
    Plan plan = Plan::on_demand;
    double share = 1; // of the tier's used instance-hours
    Rate rate;
    double billed_quantity = 0; // instance-hours (instance-months for subscription) billed
    double instances = 0;       // the tier's instances x share (reserved or subscribed: capacity)
    std::int64_t total_micros = 0;
    std::int64_t list_total_micros = 0; // the same at the list rate
    std::string basis;                  // how the quantity was reached, in words
};

struct Quote {
    std::string currency;
    std::vector<PricedPart> parts;
    std::int64_t total_micros = 0;
    std::int64_t list_total_micros = 0; // before negotiated discounts
    double used_instance_hours = 0;
    double running_hours = 0;
    // Utilisation above which a term plan beats on-demand (nullopt: no price for one of them).
    std::optional<double> break_even_reserved_1y;
    std::optional<double> break_even_reserved_3y;
    std::optional<double> break_even_subscription;
    std::vector<Plan> break_even_estimated; // term plans whose break-even uses an estimate
};

// Why a total has no price: beyond what int64 micro-units hold.
inline constexpr std::string_view k_too_large =
    "the total is beyond what gpuadvisor can count (9.2e12 currency units)";

struct QuoteResult {
    std::optional<Quote> quote;
    std::string error;      // why not: a plan not sold there, and no rule allowed to estimate it
    bool too_large = false; // the usage gives a total beyond what money arithmetic holds
};

// What a part, or a whole quote, costs per hour the configuration runs, from the exact rates:
// rate x billed quantity / running hours, summed, rounded once to the micro-unit (not worked
// back from rounded totals); at_list: at the list rates. nullopt when nothing runs or it does
// not fit.
std::optional<std::int64_t>
per_running_hour(const PricedPart& part, double running_hours, bool at_list = false);
std::optional<std::int64_t> per_running_hour(const Quote& quote, bool at_list = false);

// The quote with every amount (rates, parts, totals) in `to` at fx's rates. When one does not
// convert: no quote, an error naming the figure and why (no rate; too_large when it does not
// fit), never a made-up amount.
QuoteResult convert_quote(const Quote& quote, const FxTable& fx, std::string_view to);

// Prices `usage` of one offer under `mix` (each tier of a profile with a baseline under the
// same mix).
QuoteResult price_offer(const Offer& offer,
                        const Usage& usage,
                        std::span<const PlanShare> mix,
                        const PricingContext& context);

// What price_offer gives for one plan, its totals only: no parts, no words, no allocation.
// The planner's pass over every offer uses it; the figures are price_offer's (tested).
struct Totals {
    std::int64_t total_micros = 0;
    std::int64_t list_total_micros = 0;
};
struct TotalsResult {
    std::optional<Totals> totals; // nullopt: the plan is not sold there, or too_large
    bool too_large = false;
};
TotalsResult price_offer_totals(const Offer& offer,
                                const Usage& usage,
                                Plan plan,
                                const PricingContext& context);

// The instance-hours (instance-months for a subscription) one plan bills for a usage, by tier:
// the same for every offer priced for that usage, so the planner works them out once per
// configuration and prices each region with them.
struct BilledQuantities {
    std::array<double, 2> tiers{};
    std::array<std::optional<std::int64_t>, 2> thousandths{}; // billed_thousandths(tiers[i])
    std::size_t count = 0;
};
BilledQuantities billed_quantities(const Usage& usage, Plan plan, const SpotModel& spot);
TotalsResult price_offer_totals(const Offer& offer,
                                const BilledQuantities& quantities,
                                Plan plan,
                                const PricingContext& context);

// The documents' auto-release policy as a what-if: the on-demand and spot parts of a quote
// at below-full utilisation, kept running the whole span (idle too) against released after
// `idle_minutes` of each idle stretch.
struct AutoReleasePolicy {
    double utilization_threshold = 0.15;
    double idle_minutes = 10;
    double idle_stretches_per_day = 1;
    std::string source;
};
struct AutoReleaseWhatIf {
    double idle_stretches = 0;         // over the span, per instance
    std::int64_t always_on_micros = 0; // the parts billed for the whole span
    std::int64_t released_micros = 0;  // billed while running, plus each stretch's idle wait
    std::int64_t saving_micros = 0;
};
// nullopt when no part is billed while running at below-full utilisation.
std::optional<AutoReleaseWhatIf>
auto_release_what_if(const Quote& quote, const Usage& usage, const AutoReleasePolicy& policy);

// The pricing data (data/pricing.yaml): estimate rules, spot defaults, the documents'
// auto-release policy.
struct InterruptionBand {
    std::string band;        // "<5%", "5-10%"... as the provider states it
    double monthly_rate = 0; // interruptions per instance-month
};
struct PricingData {
    std::vector<EstimateRule> rules;
    SpotModel spot_defaults;
    std::vector<InterruptionBand> bands;
    AutoReleasePolicy auto_release;
};
struct PricingLoad {
    PricingData data;
    Diagnostics diagnostics;
};
PricingLoad load_pricing_data_text(const std::string& file, std::string_view text);
const PricingData& builtin_pricing();

// The cheapest mix for a usage: `interruptible_share` of the instance-hours may run on spot
// (or any plan), the rest on any plan but spot; every combination the offer sells is priced
// (term rounding included) and the cheapest kept, for each tier of a profile separately (the
// baseline and the bursts). Term plans win at high utilisation, on-demand at low, as their
// billing decides. The chosen plans are the quote's parts.
QuoteResult cheapest_mix(const Offer& offer,
                         const Usage& usage,
                         double interruptible_share,
                         const PricingContext& context);

// rate x quantity, exact: the quantity is taken to 0.001 and the result rounded half to even;
// nullopt when the quantity is negative or not finite, or the product does not fit.
std::optional<std::int64_t> multiply_money(std::int64_t rate_micros, double quantity);
// Its two steps, for a quantity priced at many rates: the quantity in whole thousandths
// (nullopt when negative, not finite or beyond 1e15), and the rate times those.
std::optional<std::int64_t> billed_thousandths(double quantity);
// (Inline below: the planner multiplies some 400k times per 100k offers.)
std::optional<std::int64_t> multiply_thousandths_wide(std::int64_t rate_micros,
                                                      std::int64_t thousandths);
inline std::optional<std::int64_t> multiply_thousandths(std::int64_t rate_micros,
                                                        std::int64_t thousandths) {
    std::int64_t small = 0; // the common case in 64 bits: the same result, no 128-bit division
    if (rate_micros >= 0 && !__builtin_mul_overflow(rate_micros, thousandths, &small)) {
        std::int64_t quotient = small / 1000;
        const std::int64_t twice = (small % 1000) * 2;
        if (twice > 1000 || (twice == 1000 && quotient % 2 != 0)) {
            quotient += 1;
        }
        return quotient;
    }
    return multiply_thousandths_wide(rate_micros, thousandths);
}

// Adds both totals (paid and list) to running sums; false when either is negative (a product
// that did not fit) or a sum overflows.
inline bool add_checked(Totals& sums, std::int64_t total, std::int64_t list_total) {
    const std::int64_t max = std::numeric_limits<std::int64_t>::max();
    if (total < 0 || list_total < 0 || sums.total_micros > max - total ||
        sums.list_total_micros > max - list_total) {
        return false;
    }
    sums.total_micros += total;
    sums.list_total_micros += list_total;
    return true;
}

// price_offer_totals at a rate already worked out (plan_rate's micros and list_micros): a
// planner that prices one offer for several usages looks its rates up once.
TotalsResult
totals_at_tiers(std::int64_t micros, std::int64_t list_micros, const BilledQuantities& quantities);
// The same, inline for a bill of one tier (a flat usage: the common case in a planner's pass).
inline TotalsResult
totals_at(std::int64_t micros, std::int64_t list_micros, const BilledQuantities& quantities) {
    if (quantities.count != 1 || !quantities.thousandths[0]) {
        return totals_at_tiers(micros, list_micros, quantities);
    }
    const std::int64_t thousandths = *quantities.thousandths[0];
    const std::int64_t total = multiply_thousandths(micros, thousandths).value_or(-1);
    const std::int64_t list_total = // no discount (the common case): the same product
        list_micros == micros ? total : multiply_thousandths(list_micros, thousandths).value_or(-1);
    if (total < 0 || list_total < 0) { // as add_checked on empty sums
        return {std::nullopt, true};
    }
    return {Totals{total, list_total}, false};
}

} // namespace gpuadvisor
