// An item of a catalog instance type -> its hourly price; the newest of each (instance type,
// region, plan) kept; at the end, the prices, the unknown GPU sizes and the summary.
#include "../core/util/currency_codes.hpp"
#include "azure_import.hpp"
#include "gpuadvisor/pricing.hpp"
#include "gpuadvisor/units.hpp"
#include "text.hpp"

#include <cmath>
#include <filesystem>

namespace gpuadvisor::cli {

namespace {

// The absurd-price bound of the sheet format (sheet_values.cpp): 10,000 USD an instance-hour.
constexpr std::int64_t k_max_hourly_usd_micros = 10'000LL * 1'000'000;
// A reservation's unitPrice is the whole term's; its hourly price is that over the term's hours
// (a year of 8760 h, as pricing.hpp counts).
constexpr double k_hours_1y = k_hours_per_year;
constexpr double k_hours_3y = 3 * k_hours_per_year;

bool ends_with(std::string_view text, std::string_view tail) {
    return text.size() >= tail.size() && text.substr(text.size() - tail.size()) == tail;
}

} // namespace

// The price in micros of the currency an hour (a term's price over its hours); nullopt after
// an error, or with m_ok still true for a price of 0 (skipped, counted).
std::optional<std::int64_t> AzureReader::micros(std::string_view currency, double hours) {
    const auto found = m_value->find("unitPrice");
    if (found == m_value->end() || found->is_null()) {
        error(AzureField::unitPrice, "missing-field", "missing", "the item's price");
        return std::nullopt;
    }
    for (const AzureField field : {AzureField::unitPrice, AzureField::retailPrice}) {
        const auto value = m_value->find(std::string(to_string(field)));
        if (value != m_value->end() && !value->is_number()) {
            error(field,
                  "wrong-type",
                  fmt::format("{} is a JSON {}, not a number",
                              value->dump().substr(0, 40),
                              value->type_name()),
                  "a plain JSON number: 27.197");
        }
    }
    if (!m_ok) {
        return std::nullopt;
    }
    const double value = found->get<double>();
    const std::string_view written = m_page->number_text(*m_item, AzureField::unitPrice);
    if (value < 0 || !std::isfinite(value)) {
        error(AzureField::unitPrice,
              "out-of-range",
              fmt::format("{} is not above 0", written),
              "a price is above 0");
        return std::nullopt;
    }
    if (value == 0) {
        skip("zero price");
        return std::nullopt;
    }
    const auto exact = parse_money_micros(written); // "27.197": exact; "1E-05": via double
    const double term = exact ? static_cast<double>(*exact) : std::round(value * 1e6);
    if (term / hours > 1e15) { // a billion an hour, whatever the currency
        error(AzureField::unitPrice,
              "out-of-range",
              fmt::format("{} is absurd", written),
              "a Consumption price is per hour; a Reservation's is the whole term's");
        return std::nullopt;
    }
    const auto hourly = static_cast<std::int64_t>(std::llround(term / hours));
    if (hourly == 0) { // under half a micro-unit an hour
        skip("zero price");
        return std::nullopt;
    }
    const auto usd = m_context.fx.convert(hourly, currency, "USD");
    if (usd && *usd > k_max_hourly_usd_micros) {
        error(AzureField::unitPrice,
              "out-of-range",
              fmt::format("{} {} is over 10,000 USD an instance-hour{}",
                          written,
                          currency,
                          hours > 1 ? fmt::format(" ({} h of the term)", hours) : ""),
              "a Consumption price is per hour; a Reservation's is the whole term's");
        return std::nullopt;
    }
    return hourly;
}

void AzureReader::price_item(const InstanceType& type,
                             std::string_view kind,
                             std::string_view meter) {
    Plan plan = ends_with(meter, " Spot") ? Plan::spot : Plan::on_demand;
    double hours = 1;
    std::string term;
    if (kind == "Reservation") {
        const auto given = text(AzureField::reservationTerm);
        if (!given) {
            return;
        }
        if (*given != "1 Year" && *given != "3 Years") {
            // 5 Years: no plan of the catalog
            skip(*given == "5 Years" ? "reservationTerm 5 Years" : "other reservationTerm");
            return;
        }
        term = *given;
        plan = term == "1 Year" ? Plan::reserved_1y : Plan::reserved_3y;
        hours = term == "1 Year" ? k_hours_1y : k_hours_3y;
    }
    const auto unit = text(AzureField::unitOfMeasure);
    const auto region = text(AzureField::armRegionName);
    const auto currency = text(AzureField::currencyCode);
    const auto meter_id = text(AzureField::meterId);
    const auto sku_id = text(AzureField::skuId);
    const auto start = date(AzureField::effectiveStartDate);
    std::optional<Date> end;
    if (m_value->contains("effectiveEndDate") && !(*m_value)["effectiveEndDate"].is_null()) {
        end = date(AzureField::effectiveEndDate);
    }
    if (currency && !is_iso4217_code(*currency)) {
        error(AzureField::currencyCode,
              "bad-value",
              fmt::format("'{}' is not an ISO 4217 code", *currency),
              "three capitals: USD, EUR, JPY...");
    }
    if (unit && *unit != "1 Hour") {
        m_result.diagnostics.warning(
            pos(AzureField::unitOfMeasure),
            "bad-value",
            fmt::format("{}: '{}', not '1 Hour': the price is not imported",
                        path(AzureField::unitOfMeasure),
                        *unit),
            "the catalog's prices are per instance-hour");
        skip("not per hour");
        return;
    }
    if (!m_ok || !unit || !region || !currency || !meter_id || !sku_id || !start) {
        return;
    }
    const auto hourly = micros(*currency, hours);
    if (!hourly || !region_known(*region)) {
        return;
    }
    if (m_context.today < *start) {
        skip("effective after today");
        return;
    }
    if (end && *end < m_context.today) {
        skip("ended");
        return;
    }
    Chosen chosen;
    chosen.price.provider = "azure";
    chosen.price.instance = type.id;
    chosen.price.region = *region;
    chosen.price.plan = plan;
    chosen.price.micros = *hourly;
    chosen.price.currency = *currency;
    chosen.price.pos = m_page->pos(m_item->pos);
    chosen.start = *start;
    chosen.file = terminal_safe(std::filesystem::path(m_page->file).filename().string());
    chosen.term = term;
    chosen.term_micros =
        parse_money_micros(m_page->number_text(*m_item, AzureField::unitPrice)).value_or(0);
    choose(
        std::move(chosen),
        fmt::format(
            "{}|{}|{}|{}|{}|{}", *meter_id, *sku_id, kind, term, format_date(*start), *currency));
}

void AzureReader::choose(Chosen chosen, const std::string& identity) {
    const auto [seen, fresh] = m_seen.emplace(identity, chosen.price.pos);
    if (!fresh) {
        m_result.diagnostics.error(
            chosen.price.pos,
            "duplicate-id",
            fmt::format("Items[{}]: the same item again (meterId, skuId, type, reservationTerm, "
                        "effectiveStartDate and currencyCode)",
                        m_index),
            fmt::format("the first is at {}:{}:{}; a page saved twice?",
                        seen->second.file.str(),
                        seen->second.line,
                        seen->second.column));
        return;
    }
    const auto key = std::make_tuple(chosen.price.instance, chosen.price.region, chosen.price.plan);
    auto [it, first] = m_chosen.try_emplace(key, chosen);
    Chosen& kept = it->second;
    if (first) {
        kept.items = 1;
        return;
    }
    if (kept.price.currency != chosen.price.currency) {
        m_result.diagnostics.error(
            chosen.price.pos,
            "bad-value",
            fmt::format("Items[{}]: {} {} {} is priced in {} here and in {} at {}:{}:{}",
                        m_index,
                        chosen.price.instance,
                        chosen.price.region,
                        to_string(chosen.price.plan),
                        chosen.price.currency,
                        kept.price.currency,
                        kept.price.pos.file.str(),
                        kept.price.pos.line,
                        kept.price.pos.column),
            "import the pages of one currency (the currencyCode the fetch asked for)");
        return;
    }
    ++kept.items;
    if (kept.start < chosen.start) {
        chosen.items = kept.items;
        kept = std::move(chosen);
    } else if (kept.start == chosen.start && kept.price.micros != chosen.price.micros) {
        m_result.diagnostics.error(
            chosen.price.pos,
            "bad-value",
            fmt::format("Items[{}]: {} {} {} has another price effective the same day ({})",
                        m_index,
                        chosen.price.instance,
                        chosen.price.region,
                        to_string(chosen.price.plan),
                        format_date(chosen.start)),
            fmt::format("the other is at {}:{}:{}; which one holds is not known",
                        kept.price.pos.file.str(),
                        kept.price.pos.line,
                        kept.price.pos.column));
    }
}

} // namespace gpuadvisor::cli
