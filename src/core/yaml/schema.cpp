#include "yaml/schema.hpp"

#include "gpuadvisor/spelling.hpp"
#include "gpuadvisor/units.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

namespace gpuadvisor {

std::string join_path(std::string_view path, std::string_view key) {
    if (path.empty()) {
        return std::string(key);
    }
    std::string joined; // appended, not formatted: a large catalog joins a path per field read
    joined.reserve(path.size() + 1 + key.size());
    joined.append(path).append(1, '.').append(key);
    return joined;
}

namespace {

bool in_range(double number, const Range& range) {
    const bool below = range.min_inclusive ? !(number >= range.min) : !(number > range.min);
    return !below && number <= range.max;
}

// The first character text must not hold: a C0 or C1 control other than tab and line feed,
// DEL, or a bidirectional control (U+202A-U+202E, U+2066-U+2069). The bytes are valid UTF-8.
std::optional<char32_t> unsafe_character(std::string_view text) {
    for (std::size_t i = 0; i < text.size();) {
        const auto byte = static_cast<unsigned char>(text[i]);
        const std::size_t length = byte < 0x80 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4;
        const unsigned lead_bits = length == 1 ? 0x7Fu : 0x7Fu >> length;
        auto c = static_cast<char32_t>(byte & lead_bits);
        for (std::size_t k = 1; k < length && i + k < text.size(); ++k) {
            const auto continuation = static_cast<unsigned char>(text[i + k]) & 0x3Fu;
            c = static_cast<char32_t>((c << 6) | continuation);
        }
        const bool control = (c < 0x20 && c != '\t' && c != '\n') || (c >= 0x7F && c <= 0x9F);
        const bool bidi = (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069);
        if (control || bidi) {
            return c;
        }
        i += length;
    }
    return std::nullopt;
}

std::string describe(const YamlNode& node) {
    switch (node.kind) {
    case YamlNode::Kind::null:
        return "null";
    case YamlNode::Kind::scalar:
        return fmt::format("'{}'",
                           node.text.size() > 40 ? std::string(node.text.substr(0, 40)) + "..."
                                                 : std::string(node.text));
    case YamlNode::Kind::sequence:
        return "a list";
    case YamlNode::Kind::mapping:
        return "a mapping";
    }
    return "?";
}

std::string range_text(const Range& range) {
    return fmt::format("{} {} and at most {}",
                       range.min_inclusive ? "at least" : "above",
                       format_number(range.min),
                       format_number(range.max));
}

// Why a scalar that should be a number is not one, as a hint.
std::string number_hint(const YamlNode& node) {
    const std::string_view text = node.text;
    if (!node.plain) {
        return "remove the quotes: numbers are written plain";
    }
    const std::string lower = to_lower(text);
    if (lower.find("nan") != std::string::npos || lower.find("inf") != std::string::npos) {
        return "write a finite number";
    }
    if (lower.starts_with("0x") || lower.starts_with("0o") || lower.starts_with("0b")) {
        return "write the number in decimal";
    }
    if (text.size() > 1 && text[0] == '0' && text[1] != '.') {
        return "remove the leading zeros (010 would be read as octal elsewhere)";
    }
    if (text.find(',') != std::string::npos || text.find('_') != std::string::npos) {
        return "write the number without separators, with '.' as the decimal point";
    }
    if (!text.empty() && (std::isdigit(static_cast<unsigned char>(text[0])) != 0) &&
        text.find_first_not_of("0123456789.eE+-") != std::string::npos) {
        return "write the number alone: the unit is in the field's name";
    }
    if (text.starts_with('+')) {
        return "remove the '+'";
    }
    return "write a plain decimal number such as 19.5";
}

} // namespace

void FieldReader::wrong_type(const YamlNode& node,
                             std::string_view path,
                             std::string_view expected) {
    m_diagnostics.error(
        pos(node),
        "wrong-type",
        fmt::format(
            "{}: expected {}, found {}", path.empty() ? "(top)" : path, expected, describe(node)));
}

bool FieldReader::mapping(const YamlNode& node,
                          std::string_view path,
                          std::string_view what,
                          std::span<const std::string_view> fields) {
    return fields_given(node, path, what, fields).has_value();
}

std::optional<std::uint64_t> FieldReader::fields_given(const YamlNode& node,
                                                       std::string_view path,
                                                       std::string_view what,
                                                       std::span<const std::string_view> fields) {
    if (node.kind != YamlNode::Kind::mapping) {
        wrong_type(node, path, fmt::format("{} (a mapping of fields)", what));
        return std::nullopt;
    }
    std::uint64_t given = 0;
    for (const auto& [key, value] : node.entries) {
        const auto field = std::find(fields.begin(), fields.end(), std::string_view(key.text));
        if (field != fields.end()) {
            const auto index = static_cast<std::size_t>(field - fields.begin());
            given |= index < 64 ? std::uint64_t{1} << index : 0;
            continue;
        }
        const std::vector<std::string> known(fields.begin(), fields.end()); // a typo's rare
        std::string hint = did_you_mean(nearest_names(key.text, known));
        if (hint.empty()) {
            hint = fmt::format("the fields of {} are: {}", what, fmt::join(fields, ", "));
        }
        m_diagnostics.error(pos(key),
                            "unknown-field",
                            fmt::format("{}: '{}' is not a field of {}",
                                        path.empty() ? "(top)" : path,
                                        key.text.size() > 64
                                            ? std::string(key.text.substr(0, 64)) + "..."
                                            : std::string(key.text),
                                        what),
                            std::move(hint));
    }
    return given;
}

Provenance FieldReader::provenance(const YamlNode& map, std::string_view path) {
    static constexpr auto k_confidences = names_only(k_confidence_names);
    Provenance result;
    result.source = text(map, "source", path, Need::required).value_or("");
    result.as_of = date(map, "as_of", path, Need::required).value_or(Date{});
    result.confidence =
        parse_confidence(
            one_of(map, "confidence", path, Need::optional, k_confidences).value_or(""))
            .value_or(Confidence::high);
    result.notes = text(map, "notes", path, Need::optional).value_or("");
    return result;
}

const YamlNode*
FieldReader::value(const YamlNode& map, std::string_view key, std::string_view path, Need need) {
    const YamlNode* node = map.find(key);
    if (node == nullptr) {
        if (need == Need::required) {
            m_diagnostics.error(pos(map),
                                "missing-field",
                                fmt::format("{}: the required field '{}' is missing",
                                            path.empty() ? "(top)" : path,
                                            key),
                                "see docs/catalog-format.md for the fields and their units");
        }
        return nullptr;
    }
    if (node->kind == YamlNode::Kind::null) {
        if (need == Need::required) {
            m_diagnostics.error(pos(*node),
                                "null-value",
                                fmt::format("{}: the required field is null", join_path(path, key)),
                                "give it a value");
        }
        return nullptr;
    }
    return node;
}

const YamlNode* FieldReader::scalar(const YamlNode& map,
                                    std::string_view key,
                                    std::string_view path,
                                    Need need,
                                    std::string_view expected) {
    const YamlNode* node = value(map, key, path, need);
    if (node != nullptr && node->kind != YamlNode::Kind::scalar) {
        wrong_type(*node, join_path(path, key), expected);
        return nullptr;
    }
    return node;
}

const std::span<const YamlNode>*
FieldReader::list(const YamlNode& map, std::string_view key, std::string_view path, Need need) {
    const YamlNode* node = value(map, key, path, need);
    if (node == nullptr) {
        return nullptr;
    }
    if (node->kind != YamlNode::Kind::sequence) {
        wrong_type(*node, join_path(path, key), "a list");
        return nullptr;
    }
    return &node->items;
}

std::optional<double>
FieldReader::number_node(const YamlNode& node, std::string_view path, Range range) {
    if (node.kind != YamlNode::Kind::scalar) {
        wrong_type(node, path, "a number");
        return std::nullopt;
    }
    const auto number = node.plain ? parse_strict_number(node.text) : std::nullopt;
    if (!number) {
        m_diagnostics.error(pos(node),
                            "bad-number",
                            fmt::format("{}: {} is not a number", path, describe(node)),
                            number_hint(node));
        return std::nullopt;
    }
    if (!in_range(*number, range)) {
        m_diagnostics.error(pos(node),
                            "out-of-range",
                            fmt::format("{}: {} is out of range", path, node.text),
                            fmt::format("it must be {}", range_text(range)));
        return std::nullopt;
    }
    return number;
}

std::optional<double> FieldReader::number(
    const YamlNode& map, std::string_view key, std::string_view path, Need need, Range range) {
    const YamlNode* node = value(map, key, path, need);
    if (node == nullptr) {
        return std::nullopt;
    }
    if (node->kind == YamlNode::Kind::scalar && node->plain) { // the common case: no path to word
        const auto number = parse_strict_number(node->text);
        if (number && in_range(*number, range)) {
            return number;
        }
    }
    return number_node(*node, join_path(path, key), range);
}

std::optional<int> FieldReader::whole(
    const YamlNode& map, std::string_view key, std::string_view path, Need need, Range range) {
    const auto number = this->number(map, key, path, need, range);
    if (!number) {
        return std::nullopt;
    }
    const YamlNode& node = *map.find(key);
    if (!is_whole_number_text(node.text)) { // 192.0 and 9.6e1 are whole, but not counts
        const bool whole = std::floor(*number) == *number;
        m_diagnostics.error(pos(node),
                            "bad-number",
                            fmt::format("{}: {} is not a whole number{}",
                                        join_path(path, key),
                                        node.text,
                                        whole ? " written in digits" : ""),
                            whole ? fmt::format("write it as {}", format_number(*number))
                                  : "write a count such as 8");
        return std::nullopt;
    }
    return static_cast<int>(*number);
}

std::optional<std::int64_t>
FieldReader::money(const YamlNode& map, std::string_view key, std::string_view path) {
    const YamlNode* node = scalar(map, key, path, Need::optional, "a price");
    if (node == nullptr) {
        return std::nullopt;
    }
    const auto micros = node->plain ? parse_money_micros(node->text) : std::nullopt;
    if (micros && *micros > 0) {
        return micros; // the common case: no path to word
    }
    const std::string field = join_path(path, key);
    if (node->plain && node->text.starts_with('-') && parse_strict_number(node->text)) {
        m_diagnostics.error(pos(*node),
                            "out-of-range",
                            fmt::format("{}: {} is negative", field, node->text),
                            "a price is above 0; leave the plan out where it is not sold");
        return std::nullopt;
    }
    if (!micros) {
        const bool exponent = node->plain && parse_strict_number(node->text).has_value();
        m_diagnostics.error(pos(*node),
                            "bad-number",
                            fmt::format("{}: {} is not a price", field, describe(*node)),
                            exponent ? "write the price as a plain decimal such as 32.7726, "
                                       "below 10^12"
                                     : number_hint(*node));
        return std::nullopt;
    }
    if (*micros == 0) {
        m_diagnostics.error(pos(*node),
                            "out-of-range",
                            fmt::format("{}: the price is 0", field),
                            "a price is above 0; leave the plan out where it is not sold");
        return std::nullopt;
    }
    return micros;
}

std::optional<bool>
FieldReader::boolean(const YamlNode& map, std::string_view key, std::string_view path, Need need) {
    const YamlNode* node = scalar(map, key, path, need, "true or false");
    if (node == nullptr) {
        return std::nullopt;
    }
    if (node->plain && (node->text == "true" || node->text == "false")) {
        return node->text == "true";
    }
    m_diagnostics.error(
        pos(*node),
        "bad-value",
        fmt::format("{}: {} is not true or false", join_path(path, key), describe(*node)),
        "write true or false, without quotes");
    return std::nullopt;
}

std::optional<std::string>
FieldReader::text(const YamlNode& map, std::string_view key, std::string_view path, Need need) {
    const YamlNode* node = scalar(map, key, path, need, "text");
    if (node == nullptr) {
        return std::nullopt;
    }
    if (const auto unsafe = unsafe_character(node->text)) {
        m_diagnostics.error(
            pos(*node),
            "bad-value",
            fmt::format("{}: the text holds {} U+{:04X}",
                        join_path(path, key),
                        *unsafe >= 0x202A ? "the bidirectional control" : "the control character",
                        static_cast<std::uint32_t>(*unsafe)),
            *unsafe >= 0x202A ? "remove it: it makes text display other than it reads"
                              : "remove it (an escape such as \\x07 in a quoted string)");
        return std::nullopt;
    }
    return std::string(node->text);
}

bool FieldReader::is_valid_id(std::string_view text) const {
    if (text.empty() || text.size() > 128) {
        return false;
    }
    // By table, not find_first_not_of (a search of the 67 allowed per character): a large
    // catalog reads an id or two per row.
    static constexpr std::array<bool, 256> k_allowed = [] {
        std::array<bool, 256> table{};
        for (const char c : std::string_view("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                             "0123456789._-+/")) {
            table[static_cast<unsigned char>(c)] = true;
        }
        return table;
    }();
    return std::all_of(
        text.begin(), text.end(), [](char c) { return k_allowed[static_cast<unsigned char>(c)]; });
}

std::optional<std::string>
FieldReader::id(const YamlNode& map, std::string_view key, std::string_view path, Need need) {
    const YamlNode* node = scalar(map, key, path, need, "an id");
    if (node == nullptr) {
        return std::nullopt;
    }
    if (!is_valid_id(node->text)) {
        m_diagnostics.error(
            pos(*node),
            "bad-value",
            fmt::format("{}: {} is not a valid id", join_path(path, key), describe(*node)),
            "ids are 1-128 characters from A-Z a-z 0-9 . _ - + /");
        return std::nullopt;
    }
    return std::string(node->text);
}

std::optional<std::string> FieldReader::one_of(const YamlNode& map,
                                               std::string_view key,
                                               std::string_view path,
                                               Need need,
                                               std::span<const std::string_view> allowed) {
    const YamlNode* node = scalar(map, key, path, need, "a name");
    if (node == nullptr) {
        return std::nullopt;
    }
    if (std::find(allowed.begin(), allowed.end(), std::string_view(node->text)) != allowed.end()) {
        return std::string(node->text);
    }
    std::string hint = did_you_mean(
        nearest_names(node->text, std::vector<std::string>(allowed.begin(), allowed.end())));
    if (hint.empty()) {
        hint = fmt::format("one of: {}", fmt::join(allowed, ", "));
    }
    m_diagnostics.error(
        pos(*node),
        "bad-value",
        fmt::format("{}: {} is not an accepted value", join_path(path, key), describe(*node)),
        std::move(hint));
    return std::nullopt;
}

std::optional<Date>
FieldReader::date(const YamlNode& map, std::string_view key, std::string_view path, Need need) {
    const YamlNode* node = scalar(map, key, path, need, "a date");
    if (node == nullptr) {
        return std::nullopt;
    }
    const auto date = parse_date(node->text);
    if (!date) {
        m_diagnostics.error(
            pos(*node),
            "bad-value",
            fmt::format("{}: {} is not a date", join_path(path, key), describe(*node)),
            "write a calendar date as YYYY-MM-DD, e.g. 2025-06-01");
    }
    return date;
}

} // namespace gpuadvisor
