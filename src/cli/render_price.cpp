#include "render_price.hpp"

#include "output.hpp"
#include "render_table.hpp"
#include "text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <ostream>
#include <tuple>

namespace gpuadvisor::cli {

namespace {

// Micros in the report's currency (or the quote's own when none is asked for).
std::int64_t
shown(std::int64_t micros, const std::string& from, const PriceReport& report, const FxTable& fx) {
    return report.currency.empty() ? micros : fx.convert(micros, from, report.currency).value_or(0);
}

std::string shown_currency(const std::string& own, const PriceReport& report) {
    return report.currency.empty() ? own : report.currency;
}

Json money_json(std::int64_t total, double hours, const std::string& currency) {
    Json json;
    json["currency"] = currency;
    json["per_hour"] = hours > 0 ? money_units(total) / hours : 0.0;
    json["total"] = money_units(total);
    return json;
}

Json optional_share(const std::optional<double>& value) {
    return value ? Json(std::round(*value * 10000) / 10000) : Json(nullptr);
}

std::string percent(const std::optional<double>& value) {
    return value ? fmt::format("{:.1f}%", *value * 100) : std::string("-");
}

Json report_json(const PriceReport& report, const FxTable& fx) {
    const Quote& quote = *report.chosen->result.quote;
    const std::string currency = shown_currency(quote.currency, report);
    Json document = json_document("price");
    document["instance"] = {{"provider", report.instance->provider},
                            {"id", report.instance->id},
                            {"gpu", report.instance->gpu},
                            {"gpu_count", report.instance->gpu_count}};
    document["region"] = report.chosen->row->region;
    document["usage"] = {{"instances", report.usage.instances},
                         {"period_hours", report.usage.period_hours},
                         {"utilization", report.usage.utilization},
                         {"running_hours", report.usage.running_hours()},
                         {"used_instance_hours", report.usage.used_instance_hours()}};
    document["parts"] = Json::array();
    for (const PricedPart& part : quote.parts) {
        const bool monthly = part.plan == Plan::subscription_monthly;
        Json rate{{"currency", currency}};
        rate[monthly ? "per_month" : "per_hour"] =
            money_units(shown(part.rate_micros, quote.currency, report, fx));
        document["parts"].push_back(
            {{"plan", plan_flag_name(part.plan)},
             {"share", part.share},
             {"rate", rate},
             {"list_rate",
              {{"currency", quote.currency}, {"value", money_units(part.rate_micros)}}},
             {"estimated", part.estimated},
             {"estimate_rule", part.estimated ? Json(part.estimate_rule) : Json(nullptr)},
             {monthly ? "billed_instance_months" : "billed_instance_hours", part.billed_quantity},
             {"basis", part.basis},
             {"cost",
              money_json(shown(part.total_micros, quote.currency, report, fx),
                         quote.running_hours,
                         currency)}});
    }
    document["cost"] = money_json(
        shown(quote.total_micros, quote.currency, report, fx), quote.running_hours, currency);
    document["break_even_utilization"] = {
        {"reserved_1y", optional_share(quote.break_even_reserved_1y)},
        {"reserved_3y", optional_share(quote.break_even_reserved_3y)},
        {"subscription_monthly", optional_share(quote.break_even_subscription)}};
    const auto& on_demand = report.chosen->all_on_demand.quote;
    document["auto_mix"] =
        report.auto_mix
            ? Json{{"interruptible_share", report.interruptible_share},
                   {"on_demand_total",
                    on_demand ? Json(money_units(shown(
                                    on_demand->total_micros, on_demand->currency, report, fx)))
                              : Json(nullptr)},
                   {"saving_vs_on_demand",
                    on_demand && on_demand->total_micros > 0
                        ? Json(std::round((1 - static_cast<double>(quote.total_micros) /
                                                   static_cast<double>(on_demand->total_micros)) *
                                          1000) /
                               1000)
                        : Json(nullptr)}}
            : Json(nullptr);
    document["fx"] = report.currency.empty() || report.currency == quote.currency
                         ? Json(nullptr)
                         : Json(fx.describe(quote.currency, report.currency));
    document["regions"] = Json::array();
    for (const RegionQuote& region : report.regions) {
        const auto& other = region.result.quote;
        document["regions"].push_back(
            {{"region", region.row->region},
             {"available", other.has_value()},
             {"cost",
              other ? money_json(shown(other->total_micros, other->currency, report, fx),
                                 other->running_hours,
                                 shown_currency(other->currency, report))
                    : Json(nullptr)},
             {"reason", other ? Json(nullptr) : Json(region.result.error)}});
    }
    return document;
}

} // namespace

void sort_regions(PriceReport& report, const FxTable& fx) {
    const auto key = [&](const RegionQuote& r) {
        const auto& quote = r.result.quote;
        const auto usd = quote ? fx.convert(quote->total_micros, quote->currency, "USD")
                               : std::optional<std::int64_t>{};
        return std::tuple(!quote.has_value(), !usd.has_value(), usd.value_or(0), r.row->region);
    };
    std::sort(report.regions.begin(),
              report.regions.end(),
              [&](const RegionQuote& a, const RegionQuote& b) { return key(a) < key(b); });
}

const RegionQuote* first_priced(const PriceReport& report) {
    for (const RegionQuote& region : report.regions) {
        if (region.result.quote) {
            return &region;
        }
    }
    return report.regions.empty() ? nullptr : &report.regions.front();
}

void print_price(const PriceReport& report, const FxTable& fx, Io& io) {
    if (io.format == OutputFormat::json) {
        write_json(report_json(report, fx), io);
        return;
    }
    const Quote& quote = *report.chosen->result.quote;
    const std::string currency = shown_currency(quote.currency, report);
    if (io.format == OutputFormat::table) {
        io.out << fmt::format("{} ({} {}x {}) in {}: {} instance(s), {} h at {}% = {} "
                              "instance-hours\n\n",
                              terminal_safe(report.instance->id),
                              report.instance->provider,
                              format_number(report.instance->gpu_count),
                              report.instance->gpu,
                              report.chosen->row->region,
                              format_number(report.usage.instances),
                              format_number(report.usage.period_hours),
                              format_number(report.usage.utilization * 100),
                              format_number(report.usage.used_instance_hours()));
    }
    Table parts{{{"PLAN"},
                 {"SHARE", Align::right},
                 {"RATE", Align::right},
                 {"BILLED", Align::right},
                 {"COST", Align::right},
                 {"CUR"},
                 {"BASIS"}},
                {}};
    for (const PricedPart& part : quote.parts) {
        const bool monthly = part.plan == Plan::subscription_monthly;
        parts.rows.push_back(
            {std::string(plan_flag_name(part.plan)) + (part.estimated ? " (estimated)" : ""),
             format_number(part.share),
             format_price(shown(part.rate_micros, quote.currency, report, fx)) +
                 (monthly ? "/mo" : "/h"),
             format_number(std::round(part.billed_quantity * 1000) / 1000) +
                 (monthly ? " inst-mo" : " inst-h"),
             format_cents(shown(part.total_micros, quote.currency, report, fx)),
             currency,
             part.basis});
    }
    parts.rows.push_back({"total",
                          "1",
                          "",
                          "",
                          format_cents(shown(quote.total_micros, quote.currency, report, fx)),
                          currency,
                          ""});
    render_table(parts, io);
    if (io.format != OutputFormat::table) {
        return;
    }
    io.out << fmt::format("\nBreak-even utilisation (below it on-demand is cheaper): reserved-1y "
                          "{}, reserved-3y {}, subscription {}\n",
                          percent(quote.break_even_reserved_1y),
                          percent(quote.break_even_reserved_3y),
                          percent(quote.break_even_subscription));
    const auto& on_demand = report.chosen->all_on_demand.quote;
    if (report.auto_mix && on_demand && on_demand->total_micros > 0) {
        io.out << fmt::format(
            "Auto mix ({}% of the work interruptible): {:.1f}% below all "
            "on-demand ({} {}).\n",
            format_number(report.interruptible_share * 100),
            (1 - static_cast<double>(quote.total_micros) /
                     static_cast<double>(on_demand->total_micros)) *
                100,
            format_cents(shown(on_demand->total_micros, on_demand->currency, report, fx)),
            currency);
    }
    for (const PricedPart& part : quote.parts) {
        if (part.estimated) {
            io.out << fmt::format(
                "Estimated {}: {}\n", plan_flag_name(part.plan), terminal_safe(part.estimate_rule));
        }
    }
    if (!report.currency.empty() && report.currency != quote.currency) {
        io.out << "Converted at " << terminal_safe(fx.describe(quote.currency, report.currency))
               << '\n';
    }
    io.out << "\nThe same usage in every region, cheapest first:\n";
    Table regions{{{"REGION"}, {"COST", Align::right}, {"CUR"}, {"NOTE"}}, {}};
    for (const RegionQuote& region : report.regions) {
        const auto& other = region.result.quote;
        regions.rows.push_back(
            {region.row->region,
             other ? format_cents(shown(other->total_micros, other->currency, report, fx))
                   : std::string(),
             other ? shown_currency(other->currency, report) : std::string(),
             other ? std::string() : region.result.error});
    }
    render_table(regions, io);
}

} // namespace gpuadvisor::cli
