// The fields of a provenance and of a price row, in the order every JSON listing gives them, for
// any sink with text(key, value), number(key, value or nullopt for null) and money(key,
// currency, amount key, micro-units or nullopt for null): a JSON object
// (JsonFields), or an offer written straight to the output (offers_json.cpp). One list of fields,
// whichever way they are written.
#pragma once

#include "gpuadvisor/catalog.hpp"
#include "gpuadvisor/date.hpp"
#include "output.hpp"

#include <fmt/format.h>

#include <optional>
#include <string>
#include <string_view>

namespace gpuadvisor::cli {

template <class Sink> void provenance_fields(const Provenance& provenance, Sink& sink) {
    sink.text("source", provenance.source);
    sink.text("as_of", format_date(provenance.as_of));
    sink.text("confidence", to_string(provenance.confidence));
    if (!provenance.notes.empty()) {
        sink.text("notes", provenance.notes);
    }
}

template <class Sink> void price_row_fields(const PriceRow& row, Sink& sink) {
    sink.text("region", row.region);
    sink.text("currency", row.currency);
    for (const Plan plan : k_all_plans) { // each a money object: the rate, every digit
        sink.money(to_string(plan),
                   row.currency,
                   plan == Plan::subscription_monthly ? "per_month" : "per_hour",
                   row.price(plan));
    }
    if (row.spot_interruption.empty()) {
        sink.number("spot_interruption", std::nullopt); // null
    } else {
        sink.text("spot_interruption", row.spot_interruption);
    }
    provenance_fields(row.provenance, sink);
    sink.text("defined_at", fmt::format("{}:{}", row.origin.file.str(), row.origin.line));
}

// The fields added to a JSON object, in order.
struct JsonFields {
    Json& json;
    void text(std::string_view key, std::string_view value) {
        json[std::string(key)] = std::string(value);
    }
    void number(std::string_view key, std::optional<double> value) {
        json[std::string(key)] = value ? Json(*value) : Json(nullptr);
    }
    void money(std::string_view key,
               std::string_view currency,
               std::string_view amount_key,
               const std::optional<std::int64_t>& micros) {
        json[std::string(key)] =
            micros ? money_json(currency, {{amount_key, rate_amount(*micros)}}) : Json(nullptr);
    }
};

} // namespace gpuadvisor::cli
