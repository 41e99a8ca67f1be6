#include "gpuadvisor/pricing.hpp"

#include "gpuadvisor/discounts.hpp"
#include "gpuadvisor/fx.hpp"
#include "gpuadvisor/units.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace gpuadvisor {

namespace {

__extension__ using Int128 = __int128; // exact money products: rate x thousandths of a unit

// Divides with rounding half to even (b > 0).
Int128 divide_half_even(Int128 a, Int128 b) {
    Int128 quotient = a / b;
    Int128 remainder = a % b;
    if (remainder < 0) {
        remainder += b;
        quotient -= 1;
    }
    const Int128 twice = remainder * 2;
    if (twice > b || (twice == b && quotient % 2 != 0)) {
        quotient += 1;
    }
    return quotient;
}

std::optional<double> term_hours(Plan plan) {
    switch (plan) {
    case Plan::reserved_1y:
        return k_hours_per_year;
    case Plan::reserved_3y:
        return 3 * k_hours_per_year;
    case Plan::subscription_monthly:
        return k_hours_per_month;
    default:
        return std::nullopt;
    }
}

// The rule that may estimate a plan the row lacks, if any.
const EstimateRule* estimate_rule_for(const Offer& offer, Plan plan, const PricingContext& c) {
    if (!c.estimate_missing || !offer.prices->on_demand) {
        return nullptr;
    }
    for (const EstimateRule& rule : c.rules) {
        const bool provider_ok =
            rule.providers.empty() ||
            std::any_of(rule.providers.begin(), rule.providers.end(), [&](const std::string& p) {
                return p == "any" || p == offer.instance->provider;
            });
        if (rule.plan == plan && provider_ok) {
            return &rule;
        }
    }
    return nullptr;
}

// Reserved or subscribed instances are paid for whole terms whether they run or not: every
// term the span touches.
double whole_terms(const Usage& usage, double term) {
    return std::max(1.0, std::ceil(usage.period_hours / term - 1e-9));
}

// How a part's billed quantity was reached, in words.
std::string basis_of(const PricedPart& part, const Usage& usage, const SpotModel& spot) {
    const auto shown = [](double value) {
        return format_number(std::round(value * 1000) / 1000);
    };
    const double used = usage.used_instance_hours() * part.share;
    if (const auto term = term_hours(part.plan)) {
        const double terms = whole_terms(usage, *term);
        return fmt::format("{} instance(s) x {} {} of {}",
                           shown(part.instances),
                           format_number(terms),
                           terms == 1 ? "term" : "terms",
                           part.plan == Plan::subscription_monthly ? "1 month"
                                                                   : format_number(*term) + " h");
    }
    if (part.plan == Plan::spot) {
        return fmt::format("{} instance-hours x (1 + {} interruption overhead{})",
                           shown(used),
                           format_number(std::round(spot.overhead(part.instances) * 1e6) / 1e6),
                           spot.one_job && part.instances > 1
                               ? fmt::format(" for {} instances", shown(part.instances))
                               : std::string());
    }
    return fmt::format("{} instance-hours while running", shown(used));
}

// Totals are kept to 0.001 instance-hours (instance-months): a positive quantity below that is
// billed as 0.001, never as nothing.
double at_least_resolution(double quantity) {
    constexpr double k_resolution = 0.001;
    return quantity > 0 && quantity < k_resolution ? k_resolution : quantity;
}

// Instance-hours (instance-months for a subscription) a share of a flat usage is billed for.
double billed_quantity(const PlanShare& share, const Usage& usage, const SpotModel& spot) {
    const double used = usage.used_instance_hours() * share.share;
    if (const auto term = term_hours(share.plan)) {
        // This share of the instances, for whole terms (a subscription bills months).
        const bool monthly = share.plan == Plan::subscription_monthly;
        return at_least_resolution(usage.instances * share.share * whole_terms(usage, *term) *
                                   (monthly ? 1 : *term));
    }
    const double spot_instances = usage.instances * share.share;
    return at_least_resolution(share.plan == Plan::spot ? used * (1 + spot.overhead(spot_instances))
                                                        : used);
}

PricedPart price_part(const PlanShare& share,
                      const Rate& rate,
                      const Usage& usage,
                      const SpotModel& spot,
                      bool explain) {
    PricedPart part;
    part.plan = share.plan;
    part.share = share.share;
    part.rate = rate;
    part.instances = usage.instances * share.share;
    part.billed_quantity = billed_quantity(share, usage, spot);
    if (explain) {
        part.basis = basis_of(part, usage, spot);
    }
    part.total_micros = multiply_money(rate.micros, part.billed_quantity).value_or(-1);
    part.list_total_micros = multiply_money(rate.list_micros, part.billed_quantity).value_or(-1);
    return part;
}

// A term plan's rate per hour against on-demand's, both as paid; nullopt if one is missing.
std::optional<double>
break_even(const Offer& offer, Plan plan, const PricingContext& context, Quote& quote) {
    const auto term = plan_rate(offer, plan, context);
    const auto on_demand = plan_rate(offer, Plan::on_demand, context);
    if (!term || !on_demand || on_demand->micros <= 0) {
        return std::nullopt;
    }
    if (term->estimated) {
        quote.break_even_estimated.push_back(plan);
    }
    const double hourly = plan == Plan::subscription_monthly
                              ? static_cast<double>(term->micros) / k_hours_per_month
                              : static_cast<double>(term->micros);
    return hourly / static_cast<double>(on_demand->micros);
}

// The tiers a usage is priced in: itself when flat, else the baseline and the bursts. Never
// more than two, so a fixed array (the planner prices every offer: no allocation).
struct TierList {
    std::array<std::pair<std::string_view, Usage>, 2> items;
    std::size_t count = 0;
    const std::pair<std::string_view, Usage>* begin() const { return items.data(); }
    const std::pair<std::string_view, Usage>* end() const { return items.data() + count; }
};

TierList tiers(const Usage& usage) {
    if (!usage.tiered()) {
        Usage flat = usage;
        if (usage.baseline >= usage.instances) {
            flat.utilization = 1; // all baseline: always on
        }
        flat.baseline = 0;
        return {{{{"", flat}, {}}}, 1};
    }
    return {{{{"baseline", Usage{usage.baseline, usage.period_hours, 1, 0}},
              {"burst",
               Usage{usage.instances - usage.baseline, usage.period_hours, usage.utilization, 0}}}},
            2};
}

// The same, on a quote's totals.
bool add_totals(Quote& whole, std::int64_t total, std::int64_t list_total) {
    Totals sums{whole.total_micros, whole.list_total_micros};
    if (!add_checked(sums, total, list_total)) {
        return false;
    }
    whole.total_micros = sums.total_micros;
    whole.list_total_micros = sums.list_total_micros;
    return true;
}

// Adds a tier's quote to the whole; false when the total overflows.
bool add_tier(Quote& whole, Quote tier, std::string_view name) {
    for (PricedPart& part : tier.parts) {
        part.tier = name;
        whole.parts.push_back(std::move(part));
    }
    return add_totals(whole, tier.total_micros, tier.list_total_micros);
}

QuoteResult too_large() {
    return {std::nullopt, std::string(k_too_large), true};
}

// Prices a flat usage under one mix.
QuoteResult price_flat(const Offer& offer,
                       const Usage& usage,
                       std::span<const PlanShare> mix,
                       const PricingContext& context) {
    Quote quote;
    quote.currency = offer.prices->currency;
    for (const PlanShare& share : mix) {
        const auto rate = plan_rate(offer, share.plan, context);
        if (!rate && !context.explain) {
            return {std::nullopt, "no price"};
        }
        if (!rate) {
            return {std::nullopt,
                    fmt::format("{} in {} has no {} price{}",
                                offer.instance->id,
                                offer.prices->region,
                                plan_flag_name(share.plan),
                                context.estimate_missing ? " and no rule to estimate it" : "")};
        }
        quote.parts.push_back(price_part(share, *rate, usage, context.spot, context.explain));
        const PricedPart& part = quote.parts.back();
        if (!add_totals(quote, part.total_micros, part.list_total_micros)) {
            return too_large();
        }
    }
    return {std::move(quote), {}};
}

// The cheapest mix for a flat usage.
QuoteResult cheapest_flat(const Offer& offer,
                          const Usage& usage,
                          double interruptible_share,
                          const PricingContext& context) {
    QuoteResult best{std::nullopt,
                     fmt::format("{} in {} has no price for any plan",
                                 offer.instance->id,
                                 offer.prices->region)};
    const double s = std::clamp(interruptible_share, 0.0, 1.0);
    for (const Plan flexible : k_all_plans) {
        for (const Plan steady : k_all_plans) {
            if (steady == Plan::spot && s < 1) {
                continue; // work that cannot be interrupted never runs on spot
            }
            std::vector<PlanShare> mix;
            if (s > 0) {
                mix.push_back({flexible, s});
            }
            if (s < 1) {
                if (!mix.empty() && mix.front().plan == steady) {
                    mix.front().share = 1;
                } else {
                    mix.push_back({steady, 1 - s});
                }
            }
            QuoteResult quote = price_flat(offer, usage, mix, context);
            if (quote.too_large) {
                return quote;
            }
            if (quote.quote &&
                (!best.quote || quote.quote->total_micros < best.quote->total_micros)) {
                best = std::move(quote);
            }
        }
    }
    return best;
}

// Prices each tier with `price_tier` and sums them.
template <class PriceTier>
QuoteResult price_tiers(const Offer& offer,
                        const Usage& usage,
                        const PricingContext& context,
                        PriceTier price_tier) {
    Quote whole;
    whole.currency = offer.prices->currency;
    whole.used_instance_hours = usage.used_instance_hours();
    whole.running_hours = usage.running_hours();
    for (const auto& [name, tier] : tiers(usage)) {
        QuoteResult result = price_tier(tier);
        if (!result.quote) {
            return result;
        }
        if (!add_tier(whole, std::move(*result.quote), name)) {
            return too_large();
        }
    }
    if (context.explain) { // the break-evens are words for the reader, not figures to rank by
        whole.break_even_reserved_1y = break_even(offer, Plan::reserved_1y, context, whole);
        whole.break_even_reserved_3y = break_even(offer, Plan::reserved_3y, context, whole);
        whole.break_even_subscription =
            break_even(offer, Plan::subscription_monthly, context, whole);
    }
    return {std::move(whole), {}};
}

} // namespace

std::optional<Plan> parse_plan(std::string_view text) {
    return value_named(k_plan_names, text);
}

std::string_view plan_flag_name(Plan plan) {
    return name_of(k_plan_names, plan);
}

MixParse parse_mix(std::string_view text) {
    MixParse result;
    double sum = 0;
    while (!text.empty()) {
        const std::size_t comma = text.find(',');
        const std::string_view item = text.substr(0, comma);
        text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
        const std::size_t equals = item.find('=');
        const auto plan = parse_plan(item.substr(0, equals));
        const auto share = equals == std::string_view::npos
                               ? std::nullopt
                               : parse_strict_number(item.substr(equals + 1));
        if (!plan || !share || !(*share > 0) || *share > 1) {
            result.error = fmt::format("'{}' is not PLAN=FRACTION with a plan of on-demand, spot, "
                                       "reserved-1y, reserved-3y, subscription and a fraction in "
                                       "(0, 1]",
                                       item);
            return result;
        }
        if (std::any_of(result.shares.begin(), result.shares.end(), [&](const PlanShare& s) {
                return s.plan == *plan;
            })) {
            result.error = fmt::format("{} is given twice", item.substr(0, equals));
            return result;
        }
        result.shares.push_back({*plan, *share});
        sum += *share;
    }
    if (result.shares.empty() || std::abs(sum - 1) > 1e-9) {
        result.error = fmt::format("the fractions add up to {}, not 1",
                                   format_number(std::round(sum * 1e6) / 1e6));
        result.shares.clear();
    }
    return result;
}

std::optional<std::int64_t> billed_thousandths(double quantity) {
    if (!(quantity >= 0) || quantity > 1e15) { // also NaN
        return std::nullopt;
    }
    return std::llround(quantity * 1000);
}

std::optional<std::int64_t> multiply_money(std::int64_t rate_micros, double quantity) {
    const auto thousandths = billed_thousandths(quantity);
    return thousandths ? multiply_thousandths(rate_micros, *thousandths) : std::nullopt;
}

std::optional<std::int64_t> multiply_thousandths_wide(std::int64_t rate_micros,
                                                      std::int64_t whole_thousandths) {
    const auto thousandths = static_cast<Int128>(whole_thousandths);
    const Int128 product = divide_half_even(static_cast<Int128>(rate_micros) * thousandths, 1000);
    if (product > std::numeric_limits<std::int64_t>::max()) {
        return std::nullopt;
    }
    return static_cast<std::int64_t>(product);
}

std::optional<RateFigures>
plan_rate_figures_general(const Offer& offer, Plan plan, const PricingContext& context) {
    RateFigures figures;
    if (const auto& price = offer.prices->price(plan)) {
        figures.list_micros = *price;
    } else if (const EstimateRule* rule = estimate_rule_for(offer, plan, context)) {
        const double hourly = static_cast<double>(*offer.prices->on_demand) * (1 - rule->discount);
        const double per_unit =
            plan == Plan::subscription_monthly ? hourly * k_hours_per_month : hourly;
        figures.list_micros = static_cast<std::int64_t>(std::llround(per_unit));
        figures.estimate = rule;
    } else {
        return std::nullopt;
    }
    figures.discount = context.discounts.empty() // most catalogs have none
                           ? nullptr
                           : find_discount(context.discounts, offer, plan, context.today);
    figures.micros = figures.discount != nullptr
                         ? apply_discount(figures.list_micros, *figures.discount)
                         : figures.list_micros;
    return figures;
}

std::optional<Rate> plan_rate(const Offer& offer, Plan plan, const PricingContext& context) {
    const auto figures = plan_rate_figures(offer, plan, context);
    if (!figures) {
        return std::nullopt;
    }
    Rate rate;
    rate.list_micros = figures->list_micros;
    rate.micros = figures->micros;
    rate.discount = figures->discount;
    if (const EstimateRule* rule = figures->estimate) {
        rate.estimated = true;
        if (context.explain) {
            rate.estimate_rule = fmt::format("{} ({}% off on-demand; {})",
                                             rule->id,
                                             format_number(rule->discount * 100),
                                             rule->source);
        }
    }
    return rate;
}

BilledQuantities billed_quantities(const Usage& usage, Plan plan, const SpotModel& spot) {
    BilledQuantities result;
    for (const auto& [name, tier] : tiers(usage)) {
        result.tiers[result.count] = billed_quantity({plan, 1}, tier, spot);
        result.thousandths[result.count] = billed_thousandths(result.tiers[result.count]);
        ++result.count;
    }
    return result;
}

TotalsResult
totals_at_tiers(std::int64_t micros, std::int64_t list_micros, const BilledQuantities& quantities) {
    Totals sums; // checked as price_offer checks a quote's
    for (std::size_t i = 0; i < quantities.count; ++i) {
        const auto& thousandths = quantities.thousandths[i]; // the quantity, as multiply_money
        if (!thousandths) {
            return {std::nullopt, true};
        }
        const std::int64_t total = multiply_thousandths(micros, *thousandths).value_or(-1);
        const std::int64_t list_total = // no discount (the common case): the same product
            list_micros == micros ? total
                                  : multiply_thousandths(list_micros, *thousandths).value_or(-1);
        if (!add_checked(sums, total, list_total)) {
            return {std::nullopt, true};
        }
    }
    return {sums, false};
}

TotalsResult price_offer_totals(const Offer& offer,
                                const BilledQuantities& quantities,
                                Plan plan,
                                const PricingContext& context) {
    const auto rate = plan_rate_figures(offer, plan, context);
    if (!rate) {
        return {};
    }
    return totals_at(rate->micros, rate->list_micros, quantities);
}

TotalsResult price_offer_totals(const Offer& offer,
                                const Usage& usage,
                                Plan plan,
                                const PricingContext& context) {
    return price_offer_totals(offer, billed_quantities(usage, plan, context.spot), plan, context);
}

QuoteResult price_offer(const Offer& offer,
                        const Usage& usage,
                        std::span<const PlanShare> mix,
                        const PricingContext& context) {
    return price_tiers(offer, usage, context, [&](const Usage& tier) {
        return price_flat(offer, tier, mix, context);
    });
}

QuoteResult cheapest_mix(const Offer& offer,
                         const Usage& usage,
                         double interruptible_share,
                         const PricingContext& context) {
    return price_tiers(offer, usage, context, [&](const Usage& tier) {
        return cheapest_flat(offer, tier, interruptible_share, context);
    });
}

std::optional<AutoReleaseWhatIf>
auto_release_what_if(const Quote& quote, const Usage& usage, const AutoReleasePolicy& policy) {
    AutoReleaseWhatIf result;
    result.idle_stretches = policy.idle_stretches_per_day * usage.period_hours / 24;
    const double wait_hours = result.idle_stretches * policy.idle_minutes / 60;
    const auto tier_list = tiers(usage);
    bool any = false;
    for (const PricedPart& part : quote.parts) {
        const auto tier = std::find_if(tier_list.begin(), tier_list.end(), [&](const auto& t) {
            return t.first == part.tier;
        });
        if (term_hours(part.plan) || tier == tier_list.end() || tier->second.utilization >= 1) {
            continue; // term plans are paid for anyway; always-on work is never idle
        }
        any = true;
        const double idle_hours = usage.period_hours * (1 - tier->second.utilization);
        const auto always_on =
            multiply_money(part.rate.micros, part.billed_quantity + part.instances * idle_hours);
        const auto waits =
            multiply_money(part.rate.micros, part.instances * std::min(wait_hours, idle_hours));
        constexpr std::int64_t k_max = std::numeric_limits<std::int64_t>::max();
        if (!always_on || !waits || *waits > k_max - part.total_micros ||
            result.always_on_micros > k_max - *always_on ||
            result.released_micros > k_max - part.total_micros - *waits) {
            return std::nullopt; // beyond what money arithmetic holds: no what-if
        }
        result.always_on_micros += *always_on;
        result.released_micros += part.total_micros + *waits;
    }
    if (!any) {
        return std::nullopt;
    }
    result.saving_micros = result.always_on_micros - result.released_micros;
    return result;
}

namespace {

// rate x billed quantity / running hours, unrounded.
long double hourly(const PricedPart& part, double running_hours, bool at_list) {
    return static_cast<long double>(at_list ? part.rate.list_micros : part.rate.micros) *
           static_cast<long double>(part.billed_quantity) / static_cast<long double>(running_hours);
}

std::optional<std::int64_t> whole_micros(long double value) {
    if (!(value >= 0 && value < 9e18L)) {
        return std::nullopt;
    }
    return static_cast<std::int64_t>(std::llroundl(value));
}

} // namespace

std::optional<std::int64_t>
per_running_hour(const PricedPart& part, double running_hours, bool at_list) {
    if (!(running_hours > 0)) {
        return std::nullopt;
    }
    return whole_micros(hourly(part, running_hours, at_list));
}

std::optional<std::int64_t> per_running_hour(const Quote& quote, bool at_list) {
    if (!(quote.running_hours > 0)) {
        return std::nullopt;
    }
    long double value = 0; // summed unrounded, rounded once
    for (const PricedPart& part : quote.parts) {
        value += hourly(part, quote.running_hours, at_list);
    }
    return whole_micros(value);
}

QuoteResult convert_quote(const Quote& quote, const FxTable& fx, std::string_view to) {
    if (quote.currency == to) {
        return {quote, {}};
    }
    Quote converted = quote;
    converted.currency = std::string(to);
    std::string error;
    // Each figure in turn, the totals first (the largest, so the one an overflow names).
    const auto convert = [&](std::string_view what, std::int64_t& micros) {
        if (const auto value = fx.convert(micros, quote.currency, to)) {
            micros = *value;
        } else if (error.empty()) {
            error = fx.conversion_error(what, micros, quote.currency, to);
        }
    };
    convert("the total", converted.total_micros);
    convert("the list total", converted.list_total_micros);
    for (PricedPart& part : converted.parts) {
        convert("a part's list total", part.list_total_micros);
        convert("a part's total", part.total_micros);
        convert("a list rate", part.rate.list_micros);
        convert("a rate", part.rate.micros);
    }
    if (!error.empty()) {
        return {std::nullopt, std::move(error), fx.find(quote.currency) && fx.find(to)};
    }
    return {std::move(converted), {}};
}

} // namespace gpuadvisor
