#include "import_aws_plans.hpp"

#include "gpuadvisor/units.hpp"
#include "sheet_values.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <optional>

namespace gpuadvisor::cli {

namespace {

constexpr std::int64_t k_hours_a_year = 8760; // 365 x 24, as ec2instances.info counts a term

// A price component: a plain decimal >= 0 ("0.0000000000" is an All Upfront term's hourly).
std::optional<std::int64_t> component(const AwsTerm& term,
                                      const std::string& text,
                                      const AwsPos& at,
                                      const char* what,
                                      std::vector<AwsProblem>& problems) {
    const auto micros = parse_money_micros(text);
    if (!micros) {
        const bool negative = text.starts_with('-') && parse_strict_number(text);
        problems.push_back({false,
                            at,
                            negative ? "out-of-range" : "bad-number",
                            fmt::format("SKU {} term {}: {} price '{}' is {}",
                                        term.sku,
                                        term.code,
                                        what,
                                        text,
                                        negative ? "below 0" : "not a price"),
                            "pricePerUnit.USD is a plain decimal such as \"1.2340000000\""});
    }
    return micros;
}

struct Variant {
    std::int64_t years = 0;
    std::string offering_class;
    std::string purchase;
    std::int64_t micros = 0;
    AwsPos pos;
};

bool chosen(const Variant& v) {
    return v.offering_class == "standard" && v.purchase == "No Upfront";
}

// The row's note on its reserved terms: the chosen ones, and the others' effective hourly.
std::string variant_notes(const std::vector<Variant>& variants) {
    std::vector<std::string> parts;
    for (const std::int64_t years : {1, 3}) {
        for (const char* cls : {"standard", "convertible"}) {
            std::vector<std::string> options;
            for (const Variant& v : variants) {
                if (v.years == years && v.offering_class == cls && !chosen(v)) {
                    options.push_back(fmt::format("{} {}", v.purchase, format_micros(v.micros)));
                }
            }
            if (!options.empty()) {
                parts.push_back(fmt::format("{}yr {} {}", years, cls, fmt::join(options, ", ")));
            }
        }
    }
    if (variants.empty()) {
        return {};
    }
    return fmt::format("AWS Reserved effective hourly = hourly + upfront / 8760 h a year; "
                       "reserved_1y/3y are standard No Upfront{}{}",
                       parts.empty() ? "" : "; others: ",
                       fmt::join(parts, "; "));
}

} // namespace

std::vector<AwsPlanPrice> aws_plan_prices(const std::vector<const AwsTerm*>& terms,
                                          const FxTable& fx,
                                          std::vector<AwsProblem>& problems) {
    std::vector<AwsPlanPrice> prices;
    std::vector<Variant> variants;
    const std::size_t before = problems.size();
    for (const AwsTerm* term : terms) {
        const auto problem = [&](const char* code, std::string message, std::string hint) {
            problems.push_back({false, term->pos, code, std::move(message), std::move(hint)});
        };
        if (!term->units.empty() || !term->hourly) {
            problem("bad-value",
                    fmt::format("SKU {} term {}: no USD price per Hrs (units: {})",
                                term->sku,
                                term->code,
                                term->units.empty()
                                    ? "none"
                                    : fmt::format("{}", fmt::join(term->units, ", "))),
                    "an EC2 term prices Hrs in USD, and a reserved term's upfront as Quantity");
            continue;
        }
        const auto hourly = component(*term, *term->hourly, term->hourly_pos, "hourly", problems);
        const auto upfront =
            term->upfront ? component(*term, *term->upfront, term->upfront_pos, "upfront", problems)
                          : 0;
        if (!hourly || !upfront) {
            continue;
        }
        if (!term->reserved) {
            if (std::any_of(prices.begin(), prices.end(), [](const AwsPlanPrice& p) {
                    return p.plan == Plan::on_demand;
                })) {
                problem("duplicate-id",
                        fmt::format("SKU {}: a second OnDemand term, {}", term->sku, term->code),
                        "an EC2 product has one on-demand term");
                continue;
            }
            prices.push_back({Plan::on_demand, *hourly, "", term->pos});
            continue;
        }
        const std::int64_t years = term->lease == "1yr" ? 1 : term->lease == "3yr" ? 3 : 0;
        if (years == 0) { // a lease the catalog has no plan for: left out, not an error
            problems.push_back(
                {true,
                 term->pos,
                 "bad-value",
                 fmt::format("SKU {} term {}: LeaseContractLength '{}' is not 1yr or 3yr; left out",
                             term->sku,
                             term->code,
                             term->lease),
                 "the catalog has 1-year and 3-year reserved prices"});
            continue;
        }
        const std::int64_t hours = years * k_hours_a_year;
        const std::int64_t effective = *hourly + (*upfront + hours / 2) / hours;
        for (const Variant& v : variants) {
            if (v.years == years && v.offering_class == term->offering_class &&
                v.purchase == term->purchase) {
                problem("duplicate-id",
                        fmt::format("SKU {}: two {} {} {} terms",
                                    term->sku,
                                    term->lease,
                                    term->offering_class,
                                    term->purchase),
                        fmt::format("the first is line {}", v.pos.line));
            }
        }
        variants.push_back({years, term->offering_class, term->purchase, effective, term->pos});
    }
    if (std::any_of(problems.begin() + static_cast<std::ptrdiff_t>(before),
                    problems.end(),
                    [](const AwsProblem& p) { return !p.warning; })) {
        return {};
    }
    for (const std::int64_t years : {1, 3}) {
        for (const Variant& v : variants) {
            if (v.years == years && chosen(v)) {
                prices.push_back(
                    {years == 1 ? Plan::reserved_1y : Plan::reserved_3y, v.micros, "", v.pos});
            }
        }
    }
    std::vector<AwsPlanPrice> kept;
    for (AwsPlanPrice& price : prices) {
        if (price.micros == 0) { // AWS lists 0.00 for a plan it does not sell there
            problems.push_back({true,
                                price.pos,
                                "no-price",
                                fmt::format("{}: the price is 0; left out", to_string(price.plan)),
                                "AWS lists 0.00 for a plan it does not sell"});
            continue;
        }
        std::int64_t checked = 0;
        if (auto bad =
                check_price(format_micros(price.micros, 2), price.plan, "USD", fx, checked)) {
            problems.push_back(
                {false, price.pos, bad->code, std::move(bad->message), std::move(bad->hint)});
            continue;
        }
        kept.push_back(std::move(price));
    }
    if (!kept.empty()) {
        kept.front().notes = variant_notes(variants);
    }
    return kept;
}

} // namespace gpuadvisor::cli
