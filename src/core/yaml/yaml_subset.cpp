// The plain subset of YAML that catalogs are written in, read without yaml-cpp: block mappings
// and lists, one-line flow mappings and lists, one-line plain and quoted scalars, comments.
// It gives the tree parse_yaml's yaml-cpp path gives, or nothing the moment the text steps
// outside the subset or might hold an error, and parse_yaml then reads the file with yaml-cpp:
// so every diagnostic still comes from that path, and the subset only ever makes it faster.
// Whatever it accepts must equal yaml-cpp's tree (tests/unit/yaml/test_yaml_subset.cpp, and
// fuzz_files compares the two on every input).
#include "yaml/yaml_reader.hpp"

#include <yaml-cpp/null.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <iterator>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace gpuadvisor {

namespace {

// Thrown when the text leaves the subset: caught in read, never escapes.
struct Outside {};

// The bytes that neither end a plain scalar nor might take it outside the subset, in a block
// or a flow collection: plain() passes over them without a look.
constexpr std::array<bool, 256> k_in_plain = [] {
    std::array<bool, 256> table{};
    for (std::size_t byte = 0x20; byte < table.size(); ++byte) {
        table[byte] =
            std::string_view(":#,[]{}?").find(static_cast<char>(byte)) == std::string_view::npos;
    }
    return table;
}();

class SubsetReader {
  public:
    SubsetReader(std::string_view text, const LoadLimits& limits, YamlStorage& storage)
        : m_text(text), m_limits(limits), m_storage(storage) {}

    std::optional<YamlNode> read() {
        try {
            if (!plain_bytes()) {
                return std::nullopt;
            }
            if (next_content_line() != 0) {
                return std::nullopt; // empty, or an indented root
            }
            YamlNode root = block_collection(0);
            if (m_next_indent != k_end) {
                return std::nullopt;
            }
            return root;
        } catch (const Outside&) {
            return std::nullopt;
        }
    }

  private:
    static constexpr long k_end = -1; // m_next_indent at the end of the text

    [[noreturn]] static void outside() { throw Outside{}; }

    // No tab or CR (yaml-cpp's rules for them are subtle), and none of the characters YAML
    // 1.1 reads as line breaks (NEL, LS, PS) or a byte order mark past the start.
    bool plain_bytes() const {
        for (std::size_t i = 0; i < m_text.size(); ++i) {
            while (i + 8 <= m_text.size() && printable_ascii8(m_text, i)) {
                i += 8;
            }
            if (i == m_text.size()) {
                break;
            }
            const auto byte = static_cast<unsigned char>(m_text[i]);
            if (byte >= 0x20 && byte < 0xC2) { // ASCII text, or inside a character
                continue;
            }
            const std::string_view rest = m_text.substr(i, 3);
            if (byte == '\t' || byte == '\r' || rest.starts_with("\xC2\x85") ||
                rest == "\xE2\x80\xA8" || rest == "\xE2\x80\xA9" || rest == "\xEF\xBB\xBF") {
                return false;
            }
        }
        return true;
    }

    char at(std::size_t i) const { return i < m_text.size() ? m_text[i] : '\0'; }
    bool blank(std::size_t i) const {
        const char c = at(i);
        return c == ' ' || c == '\n' || c == '\0';
    }
    YamlNode make_at(std::size_t pos, YamlNode::Kind kind) {
        if (++m_nodes > m_limits.max_nodes) {
            outside();
        }
        YamlNode node;
        node.kind = kind;
        node.line = m_line + 1;
        node.column = static_cast<std::uint32_t>(pos - m_line_start) + 1; // in bytes, as yaml-cpp
        return node;
    }
    // A collection opened at m_depth (after the call), its entries or items gathered in
    // m_entries_at[m_depth] or m_items_at[m_depth] (empty on opening).
    YamlNode open(YamlNode::Kind kind) {
        if (m_depth >= m_limits.max_depth) {
            outside();
        }
        ++m_depth;
        if (m_entries_at.size() <= m_depth) {
            m_entries_at.resize(m_depth + 1);
            m_items_at.resize(m_depth + 1);
        }
        return make_at(m_i, kind);
    }
    // A collection's entries or items, gathered, copied into the storage at their size once.
    template <class T> std::span<const T> take(std::vector<T>& gathered) {
        const std::span<const T> kept = m_storage.keep(std::span<const T>(gathered));
        gathered.clear(); // its room kept for the next collection at this depth
        return kept;
    }
    void skip_spaces() {
        while (at(m_i) == ' ') {
            ++m_i;
        }
    }

    // From the start of a line, past blank and comment lines to the next line's first
    // character: its indentation (m_next_indent), or k_end.
    long next_content_line() {
        for (;;) {
            skip_spaces();
            const char c = at(m_i);
            if (c == '\0') {
                return m_next_indent = k_end;
            }
            if (c == '#' || c == '\n') {
                m_i = std::min(m_text.find('\n', m_i), m_text.size());
                new_line();
                continue;
            }
            const auto indent = static_cast<long>(m_i - m_line_start);
            const std::string_view rest = m_text.substr(m_i, 3);
            if (indent == 0 && (rest == "---" || rest == "...")) {
                outside(); // a document marker
            }
            return m_next_indent = indent;
        }
    }
    void new_line() {
        if (at(m_i) == '\n') {
            ++m_i;
            ++m_line;
            m_line_start = m_i;
        }
    }
    // After a value: spaces, an optional comment, then the end of the line.
    void end_of_line() {
        skip_spaces();
        if (at(m_i) == '#' && m_i > 0 && at(m_i - 1) == ' ') {
            m_i = std::min(m_text.find('\n', m_i), m_text.size());
        }
        if (at(m_i) != '\n' && at(m_i) != '\0') {
            outside();
        }
        new_line();
    }

    bool sequence_entry() const { return at(m_i) == '-' && blank(m_i + 1); }

    // A mapping or a list in block style whose first character is at column `indent`.
    YamlNode block_collection(long indent) {
        return sequence_entry() ? block_sequence(indent) : block_mapping(indent);
    }

    YamlNode block_mapping(long indent) {
        YamlNode mapping = open(YamlNode::Kind::mapping);
        const std::size_t depth = m_depth;
        std::unordered_set<std::string_view> keys;
        do {
            YamlNode key = block_key();
            add_key(depth, key, keys);
            YamlNode value = value_after_indicator(indent);
            m_entries_at[depth].push_back({std::move(key), std::move(value)});
            if (m_next_indent == indent && sequence_entry()) {
                outside(); // a list at the key's indentation: yaml-cpp's rules differ
            }
        } while (m_next_indent == indent);
        mapping.entries = take(m_entries_at[depth]);
        end_collection(indent);
        return mapping;
    }

    YamlNode block_sequence(long indent) {
        YamlNode sequence = open(YamlNode::Kind::sequence);
        const std::size_t depth = m_depth;
        do {
            ++m_i; // the '-'
            skip_spaces();
            if (at(m_i) != '\n' && at(m_i) != '\0' && at(m_i) != '#' && key_ahead()) {
                YamlNode item = block_mapping(static_cast<long>(m_i - m_line_start));
                m_items_at[depth].push_back(std::move(item));
                if (m_next_indent > indent) {
                    outside();
                }
            } else {
                YamlNode item = value_after_indicator(indent);
                m_items_at[depth].push_back(std::move(item));
            }
        } while (m_next_indent == indent && sequence_entry());
        sequence.items = take(m_items_at[depth]);
        end_collection(indent);
        return sequence;
    }

    // A block collection ends where a line is indented less (or the text ends).
    void end_collection(long indent) {
        if (m_next_indent >= indent) {
            outside();
        }
        --m_depth;
    }

    // The value after "key:" or "- " of a collection at `indent`: on this line, or a block
    // collection indented more on the next. Leaves m_i at the next content line.
    YamlNode value_after_indicator(long indent) {
        skip_spaces();
        const char c = at(m_i);
        if (c == '\n' || c == '\0' || c == '#') {
            end_of_line();
            if (next_content_line() <= indent) {
                outside(); // an empty value: a null, left to yaml-cpp
            }
            return block_collection(m_next_indent);
        }
        YamlNode value = flow_node(); // a scalar, or a collection in flow style
        end_of_line();
        if (next_content_line() > indent) {
            outside(); // a plain scalar going on to the next line, or an error
        }
        return value;
    }

    // Whether the line from here holds "key:" (a mapping starts here).
    bool key_ahead() const {
        std::size_t i = m_i;
        if (at(i) == '{' || at(i) == '[') {
            return false; // a flow collection (as a key, it leaves the subset later)
        }
        if (at(i) == '"' || at(i) == '\'') {
            const std::size_t close = m_text.find(at(i), i + 1);
            return close != std::string_view::npos && at(close + 1) == ':';
        }
        for (; at(i) != '\n' && at(i) != '\0'; ++i) {
            if (at(i) == ':' && blank(i + 1)) {
                return true;
            }
            if (at(i) == '#' && at(i - 1) == ' ') {
                return false;
            }
        }
        return false;
    }

    YamlNode block_key() {
        YamlNode key = at(m_i) == '"' || at(m_i) == '\'' ? quoted() : plain(true);
        if (at(m_i) != ':' || !blank(m_i + 1)) {
            outside();
        }
        ++m_i;
        return key;
    }

    // Refuses a key yaml-cpp's path refuses or might: not a plain name, a merge key, a key
    // given twice (the entries so far of the mapping open at `depth`; `keys`: their keys,
    // filled once it grows large).
    void
    add_key(std::size_t depth, const YamlNode& key, std::unordered_set<std::string_view>& keys) {
        if (key.kind != YamlNode::Kind::scalar || (key.plain && key.text == "<<") ||
            key.text.size() > 1024) {
            outside();
        }
        const std::vector<YamlEntry>& entries = m_entries_at[depth];
        if (entries.size() < 32) {
            for (const YamlEntry& entry : entries) {
                if (entry.key.text == key.text) {
                    outside(); // a duplicate key: yaml-cpp's path says where
                }
            }
            return;
        }
        if (keys.empty()) {
            for (const YamlEntry& entry : entries) {
                keys.insert(entry.key.text);
            }
        }
        if (!keys.insert(key.text).second) {
            outside();
        }
    }

    YamlNode scalar(std::size_t pos, std::string_view text, bool is_plain) {
        if (text.size() > m_limits.max_scalar_bytes) {
            outside();
        }
        YamlNode node = make_at(pos, YamlNode::Kind::scalar);
        node.plain = is_plain;
        node.text = text;
        return node;
    }

    // A quoted scalar closed on its line, without escapes ('' in single quotes).
    YamlNode quoted() {
        const char quote = at(m_i);
        const std::size_t start = m_i;
        std::string text; // when a '' is met: the text so far, unescaped
        bool escaped = false;
        for (std::size_t i = start + 1;; ++i) {
            const char c = at(i);
            if (c == '\n' || c == '\0' || (c == '\\' && quote == '"')) {
                outside();
            }
            if (c == quote) {
                if (quote == '\'' && at(i + 1) == '\'') {
                    if (!escaped) {
                        text.assign(m_text.substr(start + 1, i - start - 1));
                        escaped = true;
                    }
                    text += '\'';
                    ++i;
                    continue;
                }
                YamlNode node =
                    scalar(start,
                           escaped ? m_storage.keep(text) : m_text.substr(start + 1, i - start - 1),
                           false);
                m_i = i + 1;
                return node;
            }
            if (escaped) {
                text += c;
            }
        }
    }

    // A plain scalar: in a block, to the end of the line, a comment, or ": " when a key; in
    // a flow collection, to the next , ] } or ": ". Anything that might be read otherwise
    // (an indicator first, '?' '#' '[' '{' or a lone ':' in a flow) leaves the subset.
    YamlNode plain(bool key) {
        const char first = at(m_i);
        const bool dash_number =
            first == '-' &&
            (std::isdigit(static_cast<unsigned char>(at(m_i + 1))) != 0 || at(m_i + 1) == '.');
        if (std::string_view("-?:,[]{}#&*!|>'\"%@`").find(first) != std::string_view::npos &&
            !dash_number) {
            outside();
        }
        const std::size_t start = m_i;
        std::size_t i = m_i;
        for (;; ++i) {
            while (i < m_text.size() && k_in_plain[static_cast<unsigned char>(m_text[i])]) {
                ++i; // most of a scalar's bytes: nothing to decide
            }
            const char c = at(i);
            if (c == '\n' || c == '\0') {
                if (m_flow > 0) {
                    outside(); // a flow collection open past the line
                }
                break;
            }
            if (c == ':' && (blank(i + 1) || (m_flow > 0 && is_flow_end(at(i + 1))))) {
                break;
            }
            if (m_flow > 0) {
                if (is_flow_end(c)) {
                    break;
                }
                if (c == '?' || c == ':' || c == '#' || c == '[' || c == '{') {
                    outside();
                }
            } else if (c == '#' && at(i - 1) == ' ') {
                break;
            }
        }
        std::size_t end = i;
        while (end > start && m_text[end - 1] == ' ') {
            --end;
        }
        if (end == start || (key ? at(i) != ':' || i != end : at(i) == ':')) {
            outside(); // "a: b: c", "a : b", or a key that never gets its ':'
        }
        const std::string_view text = m_text.substr(start, end - start);
        m_i = end;
        // A null to yaml-cpp ("~", "null" and the like: four bytes at most, starting '~', 'n' or
        // 'N'), asked of yaml-cpp only for text that might be one: the call costs 270
        // instructions, a tenth of reading a catalog.
        if (maybe_null(text) && YAML::IsNullString(std::string(text))) {
            if (key) {
                outside();
            }
            return make_at(start, YamlNode::Kind::null);
        }
        return scalar(start, text, true);
    }

    static bool is_flow_end(char c) { return c == ',' || c == ']' || c == '}'; }
    static bool maybe_null(std::string_view text) {
        return text.size() <= 4 && (text[0] == '~' || text[0] == 'n' || text[0] == 'N');
    }

    // A value on this line: a flow collection, a quoted or a plain scalar.
    YamlNode flow_node() {
        skip_spaces();
        switch (at(m_i)) {
        case '{':
            return flow_mapping();
        case '[':
            return flow_sequence();
        case '"':
        case '\'':
            return quoted();
        default:
            return plain(false);
        }
    }

    // After a flow entry: ", " and another, or the closing bracket (true when closed).
    bool flow_next(char close) {
        skip_spaces();
        if (at(m_i) == close) {
            ++m_i;
            return true;
        }
        if (at(m_i) != ',') {
            outside();
        }
        ++m_i;
        skip_spaces();
        if (at(m_i) == close) {
            outside(); // a trailing comma
        }
        return false;
    }

    // Past a flow collection's opening bracket: true if it closes at once.
    bool flow_start(char close) {
        ++m_i;
        ++m_flow;
        skip_spaces();
        const bool closed = at(m_i) == close;
        m_i += closed ? 1 : 0;
        return closed;
    }
    void flow_end() {
        --m_flow;
        --m_depth;
    }

    YamlNode flow_mapping() {
        YamlNode mapping = open(YamlNode::Kind::mapping);
        const std::size_t depth = m_depth;
        std::unordered_set<std::string_view> keys;
        for (bool closed = flow_start('}'); !closed;) {
            YamlNode key = at(m_i) == '"' || at(m_i) == '\'' ? quoted() : plain(true);
            if (at(m_i) != ':' || at(m_i + 1) != ' ') {
                outside();
            }
            ++m_i;
            add_key(depth, key, keys);
            YamlNode value = flow_node();
            m_entries_at[depth].push_back({std::move(key), std::move(value)});
            closed = flow_next('}');
        }
        mapping.entries = take(m_entries_at[depth]);
        flow_end();
        return mapping;
    }

    YamlNode flow_sequence() {
        YamlNode sequence = open(YamlNode::Kind::sequence);
        const std::size_t depth = m_depth;
        for (bool closed = flow_start(']'); !closed;) {
            YamlNode item = flow_node();
            m_items_at[depth].push_back(std::move(item));
            closed = flow_next(']');
        }
        sequence.items = take(m_items_at[depth]);
        flow_end();
        return sequence;
    }

    std::string_view m_text;
    const LoadLimits& m_limits;
    YamlStorage& m_storage;
    std::size_t m_i = 0;
    std::size_t m_line_start = 0;
    std::uint32_t m_line = 0;
    long m_next_indent = k_end;
    std::size_t m_nodes = 0;
    std::size_t m_depth = 0;
    int m_flow = 0;
    // By depth: the entries or items of the collection open there, gathered (open, take).
    std::vector<std::vector<YamlEntry>> m_entries_at;
    std::vector<std::vector<YamlNode>> m_items_at;
};

} // namespace

std::optional<YamlNode>
parse_yaml_subset(std::string_view body, const LoadLimits& limits, YamlStorage& storage) {
    return SubsetReader(body, limits, storage).read();
}

} // namespace gpuadvisor
