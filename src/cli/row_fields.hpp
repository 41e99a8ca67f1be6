// The fields of a provenance and of a price row, in the order every JSON listing gives them, for
// any sink with text(key, value) and number(key, value or nullopt for null): a JSON object
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
    for (const Plan plan : k_all_plans) {
        const auto& price = row.price(plan);
        // A catalog row's prices stay numbers in the row's currency, as the catalog file
        // writes them (docs/cli.md, "JSON contract"): exact to the micro-unit.
        sink.number(to_string(plan),
                    price ? std::optional(static_cast<double>(*price) /
                                          static_cast<double>(Money::k_micros_per_unit))
                          : std::nullopt);
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
};

} // namespace gpuadvisor::cli
