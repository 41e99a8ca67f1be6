// `catalog list offers -o json`, written offer by offer. Building a JSON object per offer (an
// ordered map of a dozen strings and numbers) and freeing it cost most of the command on a large
// catalog; here each offer is appended to one buffer as nlohmann's dump(2) writes it, and the
// values that need it (numbers, strings with escapes or bytes that are not UTF-8) are written by
// nlohmann itself, so the bytes are the same (a unit test compares them).
#include "catalog_listing.hpp"
#include "gpuadvisor/date.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

namespace gpuadvisor::cli {

namespace {

// A string as dump writes it: printable ASCII without quotes or backslashes as it is (the
// common case), anything else through nlohmann (escapes; U+FFFD for bytes that are not UTF-8).
void append_string(std::string& out, std::string_view text) {
    const bool plain = std::all_of(text.begin(), text.end(), [](char c) {
        return c >= 0x20 && c < 0x7F && c != '"' && c != '\\';
    });
    if (plain) {
        out.append(1, '"').append(text).append(1, '"');
        return;
    }
    out += Json(std::string(text)).dump(-1, ' ', false, Json::error_handler_t::replace);
}

void append_number(std::string& out, double value) {
    out += Json(value).dump(); // nlohmann's shortest round-trip form ("8.0", "32.7726")
}

// A key and its value on a line of their own, six spaces in (an offer's fields).
template <class Value>
void append_field(std::string& out, std::string_view key, Value&& append_value, bool& first) {
    out.append(first ? "\n      \"" : ",\n      \"").append(key).append("\": ");
    first = false;
    append_value(out);
}

void append_offer(std::string& out, const Offer& offer) {
    const InstanceType& instance = *offer.instance;
    const PriceRow& row = *offer.prices;
    bool first = true;
    const auto text = [&](std::string_view key, std::string_view value) {
        append_field(
            out, key, [&](std::string& o) { append_string(o, value); }, first);
    };
    const auto number = [&](std::string_view key, std::optional<double> value) {
        append_field(
            out,
            key,
            [&](std::string& o) { value ? append_number(o, *value) : void(o.append("null")); },
            first);
    };
    out.append("    {");
    text("provider", instance.provider);
    text("instance", instance.id);
    text("gpu", instance.gpu);
    number("gpu_count", instance.gpu_count);
    text("region", row.region);
    text("currency", row.currency);
    for (const Plan plan : k_all_plans) {
        const auto& price = row.price(plan);
        number(to_string(plan), price ? std::optional(money_units(*price)) : std::nullopt);
    }
    if (row.spot_interruption.empty()) {
        number("spot_interruption", std::nullopt);
    } else {
        text("spot_interruption", row.spot_interruption);
    }
    text("source", row.provenance.source);
    text("as_of", format_date(row.provenance.as_of));
    text("confidence", to_string(row.provenance.confidence));
    if (!row.provenance.notes.empty()) {
        text("notes", row.provenance.notes);
    }
    text("defined_at", fmt::format("{}:{}", row.origin.file.str(), row.origin.line));
    out.append("\n    }");
}

} // namespace

void write_offers_json(const std::vector<Offer>& offers, std::ostream& out) {
    Json head = json_document("catalog list offers");
    head["offers"] = Json::array(); // the last key: the offers go where its "[]" is
    std::string text = head.dump(2, ' ', false, Json::error_handler_t::replace);
    constexpr std::string_view k_empty = "[]\n}";
    if (offers.empty() || !text.ends_with(k_empty)) {
        out << text << '\n';
        return;
    }
    text.resize(text.size() - k_empty.size());
    text.append("[\n");
    constexpr std::size_t k_flush_at = 1 << 16;
    for (std::size_t i = 0; i < offers.size(); ++i) {
        if (i > 0) {
            text.append(",\n");
        }
        append_offer(text, offers[i]);
        if (text.size() >= k_flush_at) {
            out << text;
            text.clear();
        }
    }
    text.append("\n  ]\n}\n");
    out << text;
}

} // namespace gpuadvisor::cli
