// `catalog list offers -o json`, written offer by offer. Building a JSON object per offer (an
// ordered map of a dozen strings and numbers) and freeing it cost most of the command on a large
// catalog; here each offer is appended to one buffer as nlohmann's dump(2) writes it, and the
// values that need it (numbers, strings with escapes or bytes that are not UTF-8) are written by
// nlohmann itself, so the bytes are the same (a unit test compares them).
#include "catalog_listing.hpp"
#include "row_fields.hpp"
#include "text.hpp"

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
        return printable_ascii(c) && c != '"' && c != '\\';
    });
    if (plain) {
        out.append(1, '"').append(text).append(1, '"');
        return;
    }
    out += Json(std::string(text)).dump(-1, ' ', false, Json::error_handler_t::replace);
}

// An offer's fields, each on a line of its own six spaces in, as dump(2) lays them out.
class OfferFields {
  public:
    explicit OfferFields(std::string& out) : m_out(out) {}
    void text(std::string_view key, std::string_view value) {
        start(key);
        append_string(m_out, value);
    }
    void number(std::string_view key, std::optional<double> value) {
        start(key);
        m_out += value ? Json(*value).dump() : "null"; // nlohmann's form ("8.0", "32.7726")
    }
    void count(std::string_view key, double value) {
        start(key);
        m_out += count_json(value).dump(); // "8", as an integer where whole
    }
    // A money object one level in: {"currency": ..., "per_hour": "32.7726"}, as dump(2) nests it.
    void money(std::string_view key,
               std::string_view currency,
               std::string_view amount_key,
               const std::optional<std::int64_t>& micros) {
        start(key);
        if (!micros) {
            m_out += "null";
            return;
        }
        m_out += "{\n        \"currency\": ";
        append_string(m_out, currency);
        m_out.append(",\n        \"").append(amount_key).append("\": \"");
        m_out.append(format_micros(*micros, 2)).append("\"\n      }");
    }

  private:
    void start(std::string_view key) {
        m_out.append(m_first ? "\n      \"" : ",\n      \"").append(key).append("\": ");
        m_first = false;
    }
    std::string& m_out;
    bool m_first = true;
};

void append_offer(std::string& out, const Offer& offer) {
    out.append("    {");
    OfferFields fields(out);
    fields.text("provider", offer.instance->provider);
    fields.text("instance", offer.instance->id);
    fields.text("gpu", offer.instance->gpu);
    fields.count("gpu_count", offer.instance->gpu_count);
    price_row_fields(*offer.prices, fields);
    out.append("\n    }");
}

} // namespace

void write_offers_json(const std::vector<Offer>& offers,
                       const OffersNotes& notes,
                       const FxTable& fx,
                       std::ostream& out) {
    Json head = json_document("catalog list offers");
    head["conversions"] = conversions_json(fx, notes.converted_from, notes.converted_to);
    head["warnings"] = notes.warnings;
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
