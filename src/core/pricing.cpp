#include "gpuadvisor/pricing.hpp"

#include "gpuadvisor/units.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace gpuadvisor {

namespace {

__extension__ using Int128 = __int128; // exact money products: rate x thousandths of a unit

constexpr std::array<std::pair<Plan, std::string_view>, 5> k_plan_names{{
    {Plan::on_demand, "on-demand"},
    {Plan::spot, "spot"},
    {Plan::reserved_1y, "reserved-1y"},
    {Plan::reserved_3y, "reserved-3y"},
    {Plan::subscription_monthly, "subscription"},
}};

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

// The row's price for a plan, or one estimated by an allowed rule.
struct Rate {
    std::int64_t micros = 0;
    bool estimated = false;
    std::string rule;
};

std::optional<Rate> rate_for(const Offer& offer,
                             Plan plan,
                             std::span<const EstimateRule> rules,
                             bool estimate_missing) {
    if (const auto& price = offer.prices->price(plan)) {
        return Rate{*price, false, {}};
    }
    if (!estimate_missing || !offer.prices->on_demand) {
        return std::nullopt;
    }
    for (const EstimateRule& rule : rules) {
        const bool provider_ok =
            rule.providers.empty() ||
            std::any_of(rule.providers.begin(), rule.providers.end(), [&](const std::string& p) {
                return p == "any" || p == offer.instance->provider;
            });
        if (rule.plan != plan || !provider_ok) {
            continue;
        }
        const std::int64_t on_demand = *offer.prices->on_demand;
        const double hourly = static_cast<double>(on_demand) * (1 - rule.discount);
        const double per_unit =
            plan == Plan::subscription_monthly ? hourly * k_hours_per_month : hourly;
        return Rate{static_cast<std::int64_t>(std::llround(per_unit)),
                    true,
                    fmt::format("{} ({}% off on-demand; {})",
                                rule.id,
                                format_number(rule.discount * 100),
                                rule.source)};
    }
    return std::nullopt;
}

PricedPart
price_part(const PlanShare& share, const Rate& rate, const Usage& usage, const SpotModel& spot) {
    PricedPart part;
    part.plan = share.plan;
    part.share = share.share;
    part.rate_micros = rate.micros;
    part.estimated = rate.estimated;
    part.estimate_rule = rate.rule;
    const double used = usage.used_instance_hours() * share.share;
    const auto shown = [](double value) {
        return format_number(std::round(value * 1000) / 1000);
    };
    if (const auto term = term_hours(share.plan)) {
        // Reserved or subscribed instances are paid for whole terms whether they run or not:
        // this share of the instances, for every term the span touches.
        part.capacity = usage.instances * share.share;
        const double terms = std::max(1.0, std::ceil(usage.period_hours / *term - 1e-9));
        const bool monthly = share.plan == Plan::subscription_monthly;
        part.billed_quantity = part.capacity * terms * (monthly ? 1 : *term);
        part.basis = fmt::format("{} instance(s) x {} {} of {}",
                                 shown(part.capacity),
                                 format_number(terms),
                                 terms == 1 ? "term" : "terms",
                                 monthly ? "1 month" : format_number(*term) + " h");
    } else if (share.plan == Plan::spot) {
        part.billed_quantity = used * (1 + spot.overhead());
        part.basis = fmt::format("{} instance-hours x (1 + {} interruption overhead)",
                                 shown(used),
                                 format_number(std::round(spot.overhead() * 1e6) / 1e6));
    } else {
        part.billed_quantity = used;
        part.basis = fmt::format("{} instance-hours while running", shown(used));
    }
    part.total_micros = multiply_money(rate.micros, part.billed_quantity).value_or(-1);
    return part;
}

std::optional<double> break_even(const PriceRow& row, Plan plan) {
    const auto& term = row.price(plan);
    if (!term || !row.on_demand) {
        return std::nullopt;
    }
    const double hourly = plan == Plan::subscription_monthly
                              ? static_cast<double>(*term) / k_hours_per_month
                              : static_cast<double>(*term);
    return hourly / static_cast<double>(*row.on_demand);
}

} // namespace

std::optional<Plan> parse_plan(std::string_view text) {
    for (const auto& [plan, name] : k_plan_names) {
        if (name == text) {
            return plan;
        }
    }
    return std::nullopt;
}

std::string_view plan_flag_name(Plan plan) {
    for (const auto& [value, name] : k_plan_names) {
        if (value == plan) {
            return name;
        }
    }
    return "on-demand";
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

std::optional<std::int64_t> multiply_money(std::int64_t rate_micros, double quantity) {
    if (!(quantity >= 0) || quantity > 1e15) { // also NaN
        return std::nullopt;
    }
    const auto thousandths = static_cast<Int128>(std::llround(quantity * 1000));
    const Int128 product = divide_half_even(static_cast<Int128>(rate_micros) * thousandths, 1000);
    if (product > std::numeric_limits<std::int64_t>::max()) {
        return std::nullopt;
    }
    return static_cast<std::int64_t>(product);
}

QuoteResult price_offer(const Offer& offer,
                        const Usage& usage,
                        std::span<const PlanShare> mix,
                        const SpotModel& spot,
                        std::span<const EstimateRule> rules,
                        bool estimate_missing) {
    Quote quote;
    quote.currency = offer.prices->currency;
    quote.used_instance_hours = usage.used_instance_hours();
    quote.running_hours = usage.running_hours();
    for (const PlanShare& share : mix) {
        const auto rate = rate_for(offer, share.plan, rules, estimate_missing);
        if (!rate) {
            return {std::nullopt,
                    fmt::format("{} in {} has no {} price{}",
                                offer.instance->id,
                                offer.prices->region,
                                plan_flag_name(share.plan),
                                estimate_missing ? " and no rule to estimate it" : "")};
        }
        quote.parts.push_back(price_part(share, *rate, usage, spot));
        const std::int64_t part = quote.parts.back().total_micros;
        if (part < 0 || quote.total_micros > std::numeric_limits<std::int64_t>::max() - part) {
            return {std::nullopt,
                    "the total is beyond what gpuadvisor can count (9.2e12 currency units)",
                    true};
        }
        quote.total_micros += part;
    }
    quote.break_even_reserved_1y = break_even(*offer.prices, Plan::reserved_1y);
    quote.break_even_reserved_3y = break_even(*offer.prices, Plan::reserved_3y);
    quote.break_even_subscription = break_even(*offer.prices, Plan::subscription_monthly);
    // A term plan priced here by an estimate has an estimated break-even too.
    for (const PricedPart& part : quote.parts) {
        if (!part.estimated || !offer.prices->on_demand) {
            continue;
        }
        const double hourly = part.plan == Plan::subscription_monthly
                                  ? static_cast<double>(part.rate_micros) / k_hours_per_month
                                  : static_cast<double>(part.rate_micros);
        const double ratio = hourly / static_cast<double>(*offer.prices->on_demand);
        if (part.plan == Plan::reserved_1y) {
            quote.break_even_reserved_1y = ratio;
        } else if (part.plan == Plan::reserved_3y) {
            quote.break_even_reserved_3y = ratio;
        } else if (part.plan == Plan::subscription_monthly) {
            quote.break_even_subscription = ratio;
        }
    }
    return {std::move(quote), {}};
}

QuoteResult cheapest_mix(const Offer& offer,
                         const Usage& usage,
                         double interruptible_share,
                         const SpotModel& spot,
                         std::span<const EstimateRule> rules,
                         bool estimate_missing,
                         std::vector<PlanShare>& chosen) {
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
            QuoteResult quote = price_offer(offer, usage, mix, spot, rules, estimate_missing);
            if (quote.too_large) {
                return quote;
            }
            if (quote.quote &&
                (!best.quote || quote.quote->total_micros < best.quote->total_micros)) {
                best = std::move(quote);
                chosen = mix;
            }
        }
    }
    return best;
}

} // namespace gpuadvisor
