#include "sheet_values.hpp"

#include "../core/util/currency_codes.hpp"
#include "gpuadvisor/pricing.hpp"
#include "gpuadvisor/spelling.hpp"
#include "gpuadvisor/units.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace gpuadvisor::cli {

namespace {

// The absurd-price bound, in USD where the currency has a rate: per hour, and per month.
constexpr std::int64_t k_max_hourly_usd_micros = 10'000LL * 1'000'000;
constexpr std::int64_t k_max_monthly_usd_micros = 10'000LL * 730 * 1'000'000;

bool is_id(std::string_view text) {
    if (text.empty() || text.size() > 128) {
        return false;
    }
    return std::all_of(text.begin(), text.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '.' || c == '_' || c == '-' || c == '+' || c == '/';
    });
}

} // namespace

SheetCheck check_provider(const Catalog& catalog, std::string_view text, const Provider*& known) {
    known = catalog.find_provider(text);
    if (known != nullptr) {
        return std::nullopt;
    }
    std::vector<std::string> ids;
    for (const Provider& each : catalog.providers()) {
        ids.push_back(each.id);
    }
    const std::string hint = did_you_mean(nearest_names(text, ids));
    return SheetProblem{"unknown-reference",
                        fmt::format("provider: no provider is called '{}'", text),
                        hint.empty() ? fmt::format("the providers are {}", fmt::join(ids, ", "))
                                     : hint};
}

SheetCheck check_region(std::string_view text, const Provider* provider) {
    if (!is_id(text)) {
        return SheetProblem{"bad-value",
                            fmt::format("region: '{}' is not a region id", text),
                            "1-128 characters from A-Z a-z 0-9 . _ - + /"};
    }
    if (provider == nullptr || provider->regions.empty()) {
        return std::nullopt;
    }
    std::vector<std::string> ids;
    for (const RegionInfo& each : provider->regions) {
        ids.push_back(each.id);
    }
    if (std::find(ids.begin(), ids.end(), text) != ids.end()) {
        return std::nullopt;
    }
    const std::string hint = did_you_mean(nearest_names(text, ids));
    return SheetProblem{"unknown-region",
                        fmt::format("region: {} has no region '{}'", provider->id, text),
                        hint.empty() ? "see 'gpuadvisor catalog list regions'" : hint};
}

SheetCheck check_plan(std::string_view text, Plan& plan) {
    const auto parsed = parse_plan(text);
    plan = parsed.value_or(Plan::on_demand);
    if (parsed) {
        return std::nullopt;
    }
    std::vector<std::string> names;
    for (const auto& each : k_plan_names) {
        names.emplace_back(each.name);
    }
    const std::string hint = did_you_mean(nearest_names(text, names));
    return SheetProblem{"bad-value",
                        fmt::format("plan: '{}' is not a plan", text),
                        hint.empty() ? fmt::format("one of {}", fmt::join(names, ", ")) : hint};
}

SheetCheck check_currency(std::string_view text) {
    if (is_iso4217_code(text)) {
        return std::nullopt;
    }
    const std::string_view meant = iso4217_code_meant(text);
    return SheetProblem{"bad-value",
                        fmt::format("currency: '{}' is not an ISO 4217 code", text),
                        meant.empty() ? "three capitals: USD, CNY, EUR..."
                                      : fmt::format("did you mean '{}'?", meant)};
}

SheetCheck check_as_of(std::string_view text, Date today, Date& date) {
    const auto parsed = parse_date(text);
    if (!parsed) {
        return SheetProblem{"bad-value",
                            fmt::format("as_of: '{}' is not a date", text),
                            "YYYY-MM-DD, e.g. 2026-11-01"};
    }
    date = *parsed;
    if (today < date) {
        return SheetProblem{"out-of-range",
                            fmt::format("as_of: {} is after today ({})", text, format_date(today)),
                            "the date the price list was published or quoted"};
    }
    return std::nullopt;
}

SheetCheck check_price(std::string_view text,
                       Plan plan,
                       std::string_view currency,
                       const FxTable& fx,
                       std::int64_t& micros) {
    const auto parsed = parse_money_micros(text);
    const bool negative = text.starts_with('-') && parse_strict_number(text);
    if (negative || (parsed && *parsed == 0)) {
        return SheetProblem{"out-of-range",
                            fmt::format("price: {} is not above 0", text),
                            "leave a plan that is not sold out of the sheet"};
    }
    if (!parsed) {
        return SheetProblem{"bad-number",
                            fmt::format("price: '{}' is not a price", text),
                            "a plain decimal such as 32.7726: no currency sign, unit, thousands "
                            "separator or exponent"};
    }
    micros = *parsed;
    const bool monthly = plan == Plan::subscription_monthly;
    const auto usd = currency.empty() ? std::nullopt : fx.convert(micros, currency, "USD");
    if (usd && *usd > (monthly ? k_max_monthly_usd_micros : k_max_hourly_usd_micros)) {
        return SheetProblem{"out-of-range",
                            fmt::format("price: {} {} is over {} USD a{} instance",
                                        text,
                                        currency,
                                        monthly ? "7,300,000" : "10,000",
                                        monthly ? " month an" : "n hour an"),
                            monthly ? "a subscription price is per instance-month"
                                    : "a price is per instance-hour (subscription: per month)"};
    }
    return std::nullopt;
}

} // namespace gpuadvisor::cli
