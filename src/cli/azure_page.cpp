#include "azure_page.hpp"

#include "gpuadvisor/input.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace gpuadvisor::cli {

namespace {

constexpr std::array<std::string_view, k_azure_fields> k_field_names{"currencyCode",
                                                                     "unitPrice",
                                                                     "retailPrice",
                                                                     "armRegionName",
                                                                     "location",
                                                                     "effectiveStartDate",
                                                                     "effectiveEndDate",
                                                                     "meterId",
                                                                     "meterName",
                                                                     "skuId",
                                                                     "productName",
                                                                     "serviceName",
                                                                     "unitOfMeasure",
                                                                     "type",
                                                                     "armSkuName",
                                                                     "reservationTerm"};

std::optional<std::size_t> field_index(std::string_view key) {
    const auto found = std::find(k_field_names.begin(), k_field_names.end(), key);
    if (found == k_field_names.end()) {
        return std::nullopt;
    }
    return static_cast<std::size_t>(found - k_field_names.begin());
}

// One pass over the page's bytes, before the JSON parser sees them: the nesting depth (refused
// over the limit, so no hostile file builds a deep tree) and the positions of Items' elements
// and their fields. Safe on any bytes; positions mean something only when the JSON is valid.
class Scanner {
  public:
    explicit Scanner(std::string_view text) : m_text(text) {}

    // False when the nesting goes over `max_depth` (`deep` is where).
    bool run(std::size_t max_depth) {
        while (m_at < m_text.size()) {
            const char c = m_text[m_at];
            if (c == '"') {
                string();
            } else if (c == '{' || c == '[') {
                value_starts();
                if (m_stack.size() >= max_depth) {
                    deep = here();
                    return false;
                }
                m_stack.push_back({c == '{', m_items_next, m_item_next, c == '{', {}});
                m_items_next = m_item_next = false;
                step();
            } else if (c == '}' || c == ']') {
                if (!m_stack.empty()) {
                    m_stack.pop_back();
                }
                step();
            } else if (c == ',') {
                if (!m_stack.empty() && m_stack.back().object) {
                    m_stack.back().want_key = true;
                }
                step();
            } else if (c == ':' || c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                step();
            } else {
                value_starts();
                while (m_at < m_text.size() && std::string_view(",]} \t\r\n").find(m_text[m_at]) ==
                                                   std::string_view::npos) {
                    step();
                }
            }
        }
        return true;
    }

    std::vector<AzureItem> items;
    std::size_t items_keys = 0; // the top object's "Items" keys
    TextPos deep;

  private:
    struct Frame {
        bool object;
        bool items;    // the top object's "Items" array
        bool item;     // an element of it
        bool want_key; // an object, before a key
        std::string key;
    };
    std::string_view m_text;
    std::size_t m_at = 0;
    std::uint32_t m_line = 1;
    std::uint32_t m_column = 1;
    std::vector<Frame> m_stack;
    bool m_items_next = false; // the array about to open is Items
    bool m_item_next = false;  // the object about to open is an item

    TextPos here() const { return {m_at, m_line, m_column}; }
    void step() {
        const auto byte = static_cast<unsigned char>(m_text[m_at++]);
        if (byte == '\n') {
            ++m_line;
            m_column = 1;
        } else if ((byte & 0xC0) != 0x80) { // not a UTF-8 continuation byte
            ++m_column;
        }
    }

    void string() {
        const std::size_t begin = m_at + 1;
        const TextPos start = here();
        step();
        while (m_at < m_text.size() && m_text[m_at] != '"') {
            if (m_text[m_at] == '\\' && m_at + 1 < m_text.size()) {
                step();
            }
            step();
        }
        const std::string_view body = m_text.substr(begin, m_at - begin);
        if (m_at < m_text.size()) {
            step();
        }
        if (!m_stack.empty() && m_stack.back().want_key) {
            m_stack.back().want_key = false;
            m_stack.back().key = body;
            return;
        }
        value_starts(start);
    }

    void value_starts() { value_starts(here()); }
    // A value starts at `at`: an item, an item's field, or Items itself. The flags say what
    // the container about to open (if the value is one) is.
    void value_starts(const TextPos& at) {
        m_items_next = m_item_next = false;
        if (m_stack.empty()) {
            return;
        }
        Frame& frame = m_stack.back();
        if (frame.items) {
            items.push_back({at, {}, {}});
            m_item_next = true;
        } else if (frame.item && frame.object) {
            AzureItem& item = items.back();
            if (const auto index = field_index(frame.key)) {
                if (item.fields[*index].line != 0) {
                    item.repeated.emplace_back(frame.key, at);
                } else {
                    item.fields[*index] = at;
                }
            }
        } else if (m_stack.size() == 1 && frame.object && frame.key == "Items") {
            m_items_next = true;
            ++items_keys;
        }
    }
};

TextPos position_of(std::string_view text, std::size_t offset) {
    TextPos at{offset, 1, 1};
    for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
        const auto byte = static_cast<unsigned char>(text[i]);
        if (byte == '\n') {
            ++at.line;
            at.column = 1;
        } else if ((byte & 0xC0) != 0x80) {
            ++at.column;
        }
    }
    return at;
}

// nlohmann's message without its prefix: "[json.exception.parse_error.101] parse error at
// line 3, column 5: syntax error while parsing value - ..." -> "syntax error while parsing ...".
std::string parse_message(const std::string& what) {
    const std::size_t column = what.find(", column ");
    const std::size_t colon = what.find(": ", column == std::string::npos ? 0 : column);
    return colon == std::string::npos ? what : what.substr(colon + 2);
}

} // namespace

std::string_view to_string(AzureField field) {
    return k_field_names[static_cast<std::size_t>(field)];
}

std::string_view AzurePage::number_text(const AzureItem& item, AzureField field) const {
    const TextPos& at = item.fields[static_cast<std::size_t>(field)];
    if (at.line == 0) {
        return {};
    }
    std::size_t end = at.offset;
    while (end < text.size() &&
           std::string_view("+-.0123456789eE").find(text[end]) != std::string_view::npos) {
        ++end;
    }
    return std::string_view(text).substr(at.offset, end - at.offset);
}

std::optional<AzurePage> read_azure_page(const std::string& file, Diagnostics& diagnostics) {
    auto text = read_file_capped(file, LoadLimits{}, diagnostics);
    if (!text) {
        return std::nullopt;
    }
    return parse_azure_page(file, std::move(*text), diagnostics);
}

std::optional<AzurePage>
parse_azure_page(const std::string& file, std::string text, Diagnostics& diagnostics) {
    AzurePage page{file, std::move(text), {}, {}};
    Scanner scanner(page.text);
    if (!scanner.run(LoadLimits{}.max_depth)) {
        diagnostics.error(page.pos(scanner.deep),
                          "limit",
                          fmt::format("nested over {} levels deep", LoadLimits{}.max_depth),
                          "a Retail Prices API page is an object of an Items array of objects");
        return std::nullopt;
    }
    try {
        page.json = nlohmann::json::parse(page.text);
    } catch (const nlohmann::json::parse_error& e) {
        const std::size_t offset = e.byte == 0 ? 0 : e.byte - 1;
        diagnostics.error(page.pos(position_of(page.text, offset)),
                          "syntax",
                          fmt::format("not JSON: {}", parse_message(e.what())),
                          "a Retail Prices API response as saved (a truncated download?)");
        return std::nullopt;
    }
    const SourcePos start{file, 1, 1};
    if (!page.json.is_object()) {
        diagnostics.error(
            start,
            "wrong-type",
            fmt::format("the page is a JSON {}, not an object", page.json.type_name()),
            "a Retail Prices API response: {\"Items\": [...], ...}");
        return std::nullopt;
    }
    const auto items = page.json.find("Items");
    if (items == page.json.end()) {
        diagnostics.error(
            start,
            "missing-field",
            "Items: the page has no Items array",
            "a Retail Prices API response: {\"Items\": [...], \"NextPageLink\": ...}");
        return std::nullopt;
    }
    if (!items->is_array()) {
        diagnostics.error(start,
                          "wrong-type",
                          fmt::format("Items: a JSON {}, not an array", items->type_name()),
                          "Items is the list of price items: [{...}, {...}]");
        return std::nullopt;
    }
    if (scanner.items_keys != 1 || scanner.items.size() != items->size()) { // JSON keeps the last
        diagnostics.error(start,
                          "duplicate-key",
                          "Items: the page has more than one Items array",
                          "one Items array a page");
        return std::nullopt;
    }
    const auto count = page.json.find("Count");
    if (count != page.json.end() && count->is_number_unsigned() &&
        count->get<std::size_t>() != items->size()) {
        diagnostics.warning(
            start,
            "bad-value",
            fmt::format("Count: {}, but Items has {}", count->get<std::size_t>(), items->size()),
            "the page may be incomplete: fetch it again");
    }
    page.items = std::move(scanner.items);
    return page;
}

} // namespace gpuadvisor::cli
