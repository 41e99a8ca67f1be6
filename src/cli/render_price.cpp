#include "render_price.hpp"

#include "data_table.hpp"
#include "gpuadvisor/discounts.hpp"
#include "output.hpp"
#include "render_data.hpp"
#include "render_table.hpp"
#include "text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <ostream>
#include <tuple>

namespace gpuadvisor::cli {

namespace {

// A cost: the currency, per running hour from the exact rates (every digit), the total (to
// the cent, as the table shows it).
Json cost_json(std::int64_t total,
               std::optional<std::int64_t> per_hour,
               const std::string& currency) {
    return money_json(currency,
                      {{"per_hour", rate_amount(per_hour)}, {"total", billed_amount(total)}});
}

// A plan's rate: per hour, or per month for a subscription.
Json rate_json(std::int64_t micros, bool monthly, const std::string& currency) {
    return money_json(currency, {{monthly ? "per_month" : "per_hour", rate_amount(micros)}});
}

Json optional_share(const std::optional<double>& value) {
    return value ? Json(std::round(*value * 10000) / 10000) : Json(nullptr);
}

std::string percent(const std::optional<double>& value, Plan plan, const Quote& quote) {
    const auto& estimated = quote.break_even_estimated;
    return value
               ? fmt::format("{:.1f}%{}",
                             *value * 100,
                             std::find(estimated.begin(), estimated.end(), plan) != estimated.end()
                                 ? " (estimated)"
                                 : "")
               : std::string("-");
}

Json discount_json(const Discount* discount) {
    if (discount == nullptr) {
        return nullptr;
    }
    return {
        {"id", discount->id},
        {"percent", discount_percent(*discount)},
        {"source", discount->provenance.source},
        {"defined_at",
         fmt::format(
             "{}:{}:{}", discount->origin.file, discount->origin.line, discount->origin.column)}};
}

Json part_json(const PricedPart& part, const Quote& quote) {
    const bool monthly = part.plan == Plan::subscription_monthly;
    return {
        {"tier", part.tier.empty() ? Json(nullptr) : Json(part.tier)},
        {"plan", plan_flag_name(part.plan)},
        {"share", part.share},
        {"rate", rate_json(part.rate.micros, monthly, quote.currency)},
        {"list_rate", rate_json(part.rate.list_micros, monthly, quote.currency)},
        {"discount", discount_json(part.rate.discount)},
        {"estimated", part.rate.estimated},
        {"estimate_rule", part.rate.estimated ? Json(part.rate.estimate_rule) : Json(nullptr)},
        {monthly ? "billed_instance_months" : "billed_instance_hours", part.billed_quantity},
        {"basis", part.basis},
        {"cost",
         cost_json(part.total_micros, per_running_hour(part, quote.running_hours), quote.currency)},
        {"list_cost", total_json(quote.currency, part.list_total_micros)}};
}

// The chosen quote's total plus the data's egress and storage.
std::int64_t total_with_data(const PriceReport& report) {
    return report.chosen->result.quote->total_micros + report.data->egress_converted_micros +
           report.data->storage_converted_micros;
}

Json report_json(const PriceReport& report, const FxTable& fx) {
    const Quote& quote = *report.chosen->result.quote;
    const std::string currency = quote.currency;
    Json document = json_document("price");
    document["instance"] = {{"provider", report.instance->provider},
                            {"id", report.instance->id},
                            {"gpu", report.instance->gpu},
                            {"gpu_count", count_json(report.instance->gpu_count)}};
    document["region"] = report.chosen->row->region;
    const Provenance& provenance = report.chosen->row->provenance;
    document["price_as_of"] = format_date(provenance.as_of);
    document["price_confidence"] = to_string(provenance.confidence);
    document["price_source"] = provenance.source.str();
    document["warnings"] = report.warnings;
    document["usage"] = {{"instances", count_json(report.usage.instances)},
                         {"period_hours", report.usage.period_hours},
                         {"utilization", report.usage.utilization},
                         {"running_hours", report.usage.running_hours()},
                         {"used_instance_hours", report.usage.used_instance_hours()},
                         {"baseline", count_json(report.usage.baseline)}};
    document["parts"] = Json::array();
    for (const PricedPart& part : quote.parts) {
        document["parts"].push_back(part_json(part, quote));
    }
    document["cost"] = cost_json(quote.total_micros, per_running_hour(quote), currency);
    document["list_cost"] =
        cost_json(quote.list_total_micros, per_running_hour(quote, true), currency);
    document["discount_saving"] =
        total_json(currency, quote.list_total_micros - quote.total_micros);
    if (report.data && report.data_request) {
        document["data"] = data_move_json(*report.data, *report.data_request, currency);
        document["data"]["total_with_data"] = total_json(currency, total_with_data(report));
    }
    const auto release = auto_release_what_if(quote, report.usage, report.auto_release);
    document["auto_release"] =
        release ? Json{{"utilization_threshold", report.auto_release.utilization_threshold},
                       {"idle_minutes", report.auto_release.idle_minutes},
                       {"idle_stretches_per_day", report.auto_release.idle_stretches_per_day},
                       {"idle_stretches", count_json(release->idle_stretches)},
                       {"always_on_total", total_json(currency, release->always_on_micros)},
                       {"with_release_total", total_json(currency, release->released_micros)},
                       {"saving", total_json(currency, release->saving_micros)},
                       {"source", report.auto_release.source}}
                : Json(nullptr);
    document["break_even_utilization"] = {
        {"reserved_1y", optional_share(quote.break_even_reserved_1y)},
        {"reserved_3y", optional_share(quote.break_even_reserved_3y)},
        {"subscription_monthly", optional_share(quote.break_even_subscription)}};
    document["break_even_estimated"] = Json::array();
    for (const Plan plan : quote.break_even_estimated) {
        document["break_even_estimated"].push_back(plan_flag_name(plan));
    }
    const auto& on_demand = report.chosen->all_on_demand.quote;
    document["auto_mix"] =
        report.auto_mix
            ? Json{{"interruptible_share", report.interruptible_share},
                   {"on_demand_total",
                    on_demand ? total_json(on_demand->currency, on_demand->total_micros)
                              : Json(nullptr)},
                   {"saving_vs_on_demand",
                    on_demand && on_demand->total_micros > 0
                        ? Json(std::round((1 - static_cast<double>(quote.total_micros) /
                                                   static_cast<double>(on_demand->total_micros)) *
                                          1000) /
                               1000)
                        : Json(nullptr)}}
            : Json(nullptr);
    const std::string& listed = report.chosen->row->currency;
    document["conversions"] =
        report.currency.empty() ? Json::array() : conversions_json(fx, {listed}, report.currency);
    document["regions"] = Json::array();
    for (const RegionQuote& region : report.regions) {
        const auto& other = region.result.quote;
        document["regions"].push_back(
            {{"region", region.row->region},
             {"available", other.has_value()},
             {"cost",
              other ? cost_json(other->total_micros, per_running_hour(*other), other->currency)
                    : Json(nullptr)},
             {"reason", other ? Json(nullptr) : Json(region.result.error)}});
    }
    return document;
}

std::string usage_text(const Usage& usage) {
    if (usage.tiered()) {
        return fmt::format("{} instance(s) always on and {} bursting {}% of {} h",
                           format_number(usage.baseline),
                           format_number(usage.instances - usage.baseline),
                           format_number(usage.utilization * 100),
                           format_number(usage.period_hours));
    }
    return fmt::format(
        "{} instance(s), {} h at {}%",
        format_number(usage.instances),
        format_number(usage.period_hours),
        format_number(usage.baseline >= usage.instances ? 100 : usage.utilization * 100));
}

Table parts_table(const Quote& quote, const PriceReport& report) {
    const std::string currency = quote.currency;
    const bool tiered = report.usage.tiered();
    const bool discounted = std::any_of(quote.parts.begin(),
                                        quote.parts.end(),
                                        [](const PricedPart& p) { return p.rate.discount; });
    Table table{{}, {}};
    if (tiered) {
        table.columns.push_back({"TIER"});
    }
    table.columns.insert(table.columns.end(),
                         {{"PLAN"}, {"SHARE", Align::right}, {"RATE", Align::right}});
    if (discounted) {
        table.columns.insert(table.columns.end(), {{"LIST", Align::right}, {"OFF", Align::right}});
    }
    table.columns.insert(
        table.columns.end(),
        {{"BILLED", Align::right}, {"COST", Align::right}, {"CUR"}, {"BASIS", Align::left, true}});
    for (const PricedPart& part : quote.parts) {
        const std::string unit = part.plan == Plan::subscription_monthly ? "/mo" : "/h";
        std::vector<std::string> row;
        if (tiered) {
            row.push_back(part.tier);
        }
        row.insert(
            row.end(),
            {std::string(plan_flag_name(part.plan)) + (part.rate.estimated ? " (estimated)" : ""),
             format_number(part.share),
             format_price(part.rate.micros) + unit});
        if (discounted) {
            row.push_back(format_price(part.rate.list_micros) + unit);
            row.push_back(part.rate.discount != nullptr
                              ? format_number(discount_percent(*part.rate.discount)) + "%"
                              : "");
        }
        row.insert(row.end(),
                   {format_number(std::round(part.billed_quantity * 1000) / 1000) +
                        (part.plan == Plan::subscription_monthly ? " inst-mo" : " inst-h"),
                    format_cents(part.total_micros),
                    currency,
                    part.basis});
        table.rows.push_back(std::move(row));
    }
    std::vector<std::string> total(table.columns.size());
    total[0] = "total";
    if (!tiered) {
        total[1] = "1";
    }
    total[table.columns.size() - 3] = format_cents(quote.total_micros);
    total[table.columns.size() - 2] = currency;
    table.rows.push_back(std::move(total));
    return table;
}

void print_savings(const Quote& quote, const PriceReport& report, Io& io);

// The lines under the breakdown: break-even, discounts, the automatic mix's saving, the
// auto-release what-if, estimates, the exchange rate.
void print_notes(const Quote& quote, const PriceReport& report, const FxTable& fx, Io& io) {
    const std::string currency = quote.currency;
    const auto money = [](std::int64_t micros) {
        return format_cents(micros);
    };
    io.out << '\n';
    write_paragraph(
        fmt::format("Break-even utilisation (below it on-demand is cheaper): reserved-1y "
                    "{}, reserved-3y {}, subscription {}",
                    percent(quote.break_even_reserved_1y, Plan::reserved_1y, quote),
                    percent(quote.break_even_reserved_3y, Plan::reserved_3y, quote),
                    percent(quote.break_even_subscription, Plan::subscription_monthly, quote)),
        io);
    const auto& on_demand = report.chosen->all_on_demand.quote;
    if (report.auto_mix && on_demand && on_demand->total_micros > 0) {
        write_paragraph(fmt::format("Auto mix ({}% of the work interruptible): {:.1f}% below all "
                                    "on-demand ({} {}).",
                                    format_number(report.interruptible_share * 100),
                                    (1 - static_cast<double>(quote.total_micros) /
                                             static_cast<double>(on_demand->total_micros)) *
                                        100,
                                    money(on_demand->total_micros),
                                    currency),
                        io);
    }
    std::vector<Plan> estimated;
    for (const PricedPart& part : quote.parts) {
        if (part.rate.estimated &&
            std::find(estimated.begin(), estimated.end(), part.plan) == estimated.end()) {
            estimated.push_back(part.plan);
            write_paragraph(fmt::format("Estimated {}: {}",
                                        plan_flag_name(part.plan),
                                        terminal_safe(part.rate.estimate_rule)),
                            io);
        }
    }
    const std::string& listed = report.chosen->row->currency;
    if (!report.currency.empty() && report.currency != listed) {
        write_paragraph("Converted at " + terminal_safe(fx.describe(listed, report.currency)), io);
    }
    print_savings(quote, report, io);
    const Provenance& provenance = report.chosen->row->provenance;
    write_paragraph(fmt::format("Price as of {} ({} confidence): {}",
                                format_date(provenance.as_of),
                                to_string(provenance.confidence),
                                terminal_safe(provenance.source.str())),
                    io);
    for (const std::string& warning : report.warnings) {
        write_paragraph("Warning: " + terminal_safe(warning), io);
    }
}

// The negotiated discounts applied, and the auto-release what-if.
void print_savings(const Quote& quote, const PriceReport& report, Io& io) {
    const std::string currency = quote.currency;
    const auto money = [](std::int64_t micros) {
        return format_cents(micros);
    };
    std::vector<const Discount*> discounts;
    for (const PricedPart& part : quote.parts) {
        const Discount* discount = part.rate.discount;
        if (discount != nullptr &&
            std::find(discounts.begin(), discounts.end(), discount) == discounts.end()) {
            discounts.push_back(discount);
            write_paragraph("Discount " + terminal_safe(describe_discount(*discount)), io);
        }
    }
    if (!discounts.empty()) {
        write_paragraph(fmt::format("List price {} {}; the discounts save {} {}.",
                                    money(quote.list_total_micros),
                                    currency,
                                    money(quote.list_total_micros - quote.total_micros),
                                    currency),
                        io);
    }
    if (const auto release = auto_release_what_if(quote, report.usage, report.auto_release)) {
        write_paragraph(
            fmt::format(
                "Auto-release what-if (release after {} min below {}% GPU utilisation, {} idle "
                "stretch(es) a day): kept running through idle time, the on-demand and spot "
                "instances would cost {} {}; released when idle, {} {} (each stretch's wait "
                "included); the policy saves {} {}.",
                format_number(report.auto_release.idle_minutes),
                format_number(report.auto_release.utilization_threshold * 100),
                format_number(report.auto_release.idle_stretches_per_day),
                money(release->always_on_micros),
                currency,
                money(release->released_micros),
                currency,
                money(release->saving_micros),
                currency),
            io);
    }
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

namespace {

// CSV, Markdown: the parts as the JSON's "parts" (a rate per hour or per month, billed in
// instance-hours or -months: the other column empty); the warnings to stderr.
void print_parts_data(const PriceReport& report, Io& io) {
    const Quote& quote = *report.chosen->result.quote;
    Json parts = Json::array();
    for (const PricedPart& part : quote.parts) {
        parts.push_back(part_json(part, quote));
    }
    const std::vector<DataColumn> columns{
        {"tier", "/tier"},
        {"plan", "/plan"},
        {"share", "/share", Align::right},
        {"currency", "/rate/currency"},
        {"rate_per_hour", "/rate/per_hour", Align::right},
        {"rate_per_month", "/rate/per_month", Align::right},
        {"list_rate_per_hour", "/list_rate/per_hour", Align::right},
        {"list_rate_per_month", "/list_rate/per_month", Align::right},
        {"discount", "/discount/id"},
        {"estimated", "/estimated"},
        {"billed_instance_hours", "/billed_instance_hours", Align::right},
        {"billed_instance_months", "/billed_instance_months", Align::right},
        {"cost", "/cost/total", Align::right},
        {"basis", "/basis"}};
    render_table(data_table(columns, parts), io);
    for (const std::string& warning : report.warnings) {
        if (!io.quiet) {
            io.err << "gpuadvisor: warning: " << terminal_safe(warning) << '\n';
        }
    }
}

} // namespace

void print_price(const PriceReport& report, const FxTable& fx, Io& io) {
    if (io.format == OutputFormat::json) {
        write_json(report_json(report, fx), io);
        return;
    }
    if (io.format != OutputFormat::table) {
        print_parts_data(report, io);
        return;
    }
    const Quote& quote = *report.chosen->result.quote;
    write_paragraph(fmt::format("{} ({} {}x {}) in {}: {} = {} instance-hours",
                                terminal_safe(report.instance->id),
                                report.instance->provider,
                                format_number(report.instance->gpu_count),
                                report.instance->gpu,
                                report.chosen->row->region,
                                usage_text(report.usage),
                                format_number(report.usage.used_instance_hours())),
                    io);
    io.out << '\n';
    render_table(parts_table(quote, report), io);
    print_notes(quote, report, fx, io);
    if (report.data) {
        write_paragraph(terminal_safe(fmt::format("{}; total with the data: {} {}",
                                                  data_move_line(*report.data, 0),
                                                  format_cents(total_with_data(report)),
                                                  quote.currency)),
                        io);
    }
    io.out << "\nThe same usage in every region, cheapest first:\n";
    Table regions{{{"REGION"}, {"COST", Align::right}, {"CUR"}, {"NOTE", Align::left, true}}, {}};
    for (const RegionQuote& region : report.regions) {
        const auto& other = region.result.quote;
        regions.rows.push_back({region.row->region,
                                other ? format_cents(other->total_micros) : std::string(),
                                other ? other->currency : std::string(),
                                other ? std::string() : region.result.error});
    }
    render_table(regions, io);
}

} // namespace gpuadvisor::cli
