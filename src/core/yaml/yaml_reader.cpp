#include "yaml/yaml_reader.hpp"

#include <fmt/format.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <sstream>
#include <sys/stat.h>
#include <unordered_set>

namespace gpuadvisor {

const YamlNode* YamlNode::find(std::string_view key) const {
    for (const auto& [k, v] : entries) {
        if (k.text == key) {
            return &v;
        }
    }
    return nullptr;
}

bool YamlNode::operator==(const YamlNode& other) const {
    return kind == other.kind && line == other.line && column == other.column &&
           plain == other.plain && text == other.text &&
           std::equal(items.begin(), items.end(), other.items.begin(), other.items.end()) &&
           std::equal(entries.begin(), entries.end(), other.entries.begin(), other.entries.end());
}

std::string_view to_string(YamlNode::Kind kind) {
    switch (kind) {
    case YamlNode::Kind::null:
        return "null";
    case YamlNode::Kind::scalar:
        return "scalar";
    case YamlNode::Kind::sequence:
        return "list";
    case YamlNode::Kind::mapping:
        return "mapping";
    }
    return "?";
}

bool read_file_blocks(const std::string& path,
                      const LoadLimits& limits,
                      Diagnostics& diagnostics,
                      const std::function<void(std::uintmax_t)>& size,
                      const std::function<void(std::string_view)>& each) {
    const SourcePos pos{path, 0, 0};
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) {
        diagnostics.error(pos, "io", "cannot read the file: it does not exist or is not readable");
        return false;
    }
    if (!S_ISREG(info.st_mode)) {
        diagnostics.error(pos,
                          "io",
                          "not a regular file (a folder, device or pipe)",
                          "name a .yaml file, or a folder of them with --catalog");
        return false;
    }
    const auto too_big = [&] {
        diagnostics.error(pos,
                          "io",
                          fmt::format("the file is larger than the limit of {}",
                                      limits.max_file_bytes >= (1u << 20)
                                          ? fmt::format("{} MiB", limits.max_file_bytes >> 20)
                                          : fmt::format("{} bytes", limits.max_file_bytes)),
                          "split it into several files");
    };
    if (static_cast<std::uintmax_t>(info.st_size) > limits.max_file_bytes) {
        too_big();
        return false;
    }
    std::FILE* file = std::fopen(path.c_str(), "rb");
    if (file == nullptr) {
        diagnostics.error(pos, "io", "cannot open the file for reading");
        return false;
    }
    size(static_cast<std::uintmax_t>(info.st_size));
    char buffer[1 << 16];
    std::size_t got = 0;
    std::uintmax_t total = 0;
    while (total <= limits.max_file_bytes &&
           (got = std::fread(buffer, 1, sizeof buffer, file)) > 0) {
        total += got;
        each(std::string_view(buffer, got));
    }
    const bool failed = std::ferror(file) != 0;
    std::fclose(file);
    if (failed) {
        diagnostics.error(pos, "io", "reading the file failed");
        return false;
    }
    if (total > limits.max_file_bytes) { // it grew since stat
        too_big();
        return false;
    }
    return true;
}

std::optional<std::string>
read_file_capped(const std::string& path, const LoadLimits& limits, Diagnostics& diagnostics) {
    std::string bytes;
    const bool read = read_file_blocks(
        path,
        limits,
        diagnostics,
        [&](std::uintmax_t size) { bytes.reserve(static_cast<std::size_t>(size)); },
        [&](std::string_view block) { bytes.append(block); });
    return read ? std::optional(std::move(bytes)) : std::nullopt;
}

namespace {

// Length of the UTF-8 sequence starting at text[i], or 0 if invalid.
std::size_t utf8_sequence_length(std::string_view text, std::size_t i) {
    const auto byte = [&](std::size_t k) {
        return static_cast<unsigned char>(text[k]);
    };
    const unsigned char lead = byte(i);
    std::size_t length = 0;
    std::uint32_t min_code = 0;
    std::uint32_t code = 0;
    if (lead < 0x80) {
        return 1;
    }
    if ((lead & 0xE0) == 0xC0) {
        length = 2, min_code = 0x80, code = lead & 0x1Fu;
    } else if ((lead & 0xF0) == 0xE0) {
        length = 3, min_code = 0x800, code = lead & 0x0Fu;
    } else if ((lead & 0xF8) == 0xF0) {
        length = 4, min_code = 0x10000, code = lead & 0x07u;
    } else {
        return 0;
    }
    if (i + length > text.size()) {
        return 0;
    }
    for (std::size_t k = 1; k < length; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80) {
            return 0;
        }
        code = (code << 6) | (byte(i + k) & 0x3Fu);
    }
    const bool surrogate = code >= 0xD800 && code <= 0xDFFF;
    if (code < min_code || code > 0x10FFFF || surrogate) {
        return 0;
    }
    return length;
}

// Checks the bytes before any parsing. Returns the text without a BOM, or nullopt.
std::optional<std::string_view>
check_bytes(const std::string& file, std::string_view text, Diagnostics& diagnostics) {
    if (text.starts_with("\xFF\xFE") || text.starts_with("\xFE\xFF")) {
        diagnostics.error({file, 1, 1},
                          "encoding",
                          "the file is UTF-16; gpuadvisor reads UTF-8",
                          "convert it: iconv -f UTF-16 -t UTF-8");
        return std::nullopt;
    }
    if (text.starts_with("\xEF\xBB\xBF")) {
        text.remove_prefix(3);
    }
    std::uint32_t line = 1;
    std::uint32_t column = 1;
    for (std::size_t i = 0; i < text.size();) {
        if (i + 8 <= text.size() && printable_ascii8(text, i)) { // most of every file
            i += 8, column += 8;
            continue;
        }
        const auto byte = static_cast<unsigned char>(text[i]);
        if (byte >= 0x20 && byte < 0x7F) { // printable ASCII
            ++i, ++column;
            continue;
        }
        if (byte == '\n') {
            ++line, column = 1, ++i;
            continue;
        }
        const SourcePos pos{file, line, column}; // not per byte: it copies the file name
        if (byte == '\r') {
            if (i + 1 >= text.size() || text[i + 1] != '\n') {
                diagnostics.error(pos,
                                  "encoding",
                                  "a line ends with a bare CR",
                                  "save the file with LF (or CRLF) line endings");
                return std::nullopt;
            }
            ++i;
            continue;
        }
        if ((byte < 0x20 && byte != '\t') || byte == 0x7F) {
            diagnostics.error(pos,
                              "encoding",
                              fmt::format("control byte 0x{:02X} in the text", byte),
                              "the file may be binary, or corrupted");
            return std::nullopt;
        }
        const std::size_t length = utf8_sequence_length(text, i);
        if (length == 0) {
            diagnostics.error(pos,
                              "encoding",
                              fmt::format("invalid UTF-8 (byte 0x{:02X})", byte),
                              "save the file as UTF-8 (it may be Latin-1)");
            return std::nullopt;
        }
        i += length;
        ++column;
    }
    return text;
}

// Thrown by the handler to stop yaml-cpp at the first refused construct.
struct Refusal {
    Diagnostic diagnostic;
};

class TreeBuilder final : public YAML::EventHandler {
  public:
    TreeBuilder(std::string file,
                std::string_view text,
                const LoadLimits& limits,
                YamlStorage& storage)
        : m_file(std::move(file)), m_text(text), m_limits(limits), m_storage(storage) {}

    std::optional<YamlNode> take_root() { return std::move(m_root); }
    int documents() const { return m_documents; }

    void OnDocumentStart(const YAML::Mark& mark) override {
        if (m_documents == 1 && mark.pos == m_first_document_pos) {
            // yaml-cpp made no progress (a lone ',' and the like): LoadAll would loop forever.
            const auto at = static_cast<std::size_t>(mark.pos);
            refuse(mark,
                   "syntax",
                   at < m_text.size() ? fmt::format("unexpected '{}'", m_text[at])
                                      : std::string("unexpected end of the file"),
                   "a catalog file is a mapping that starts with 'schema_version: 1'");
        }
        m_first_document_pos = m_documents == 0 ? mark.pos : m_first_document_pos;
        if (++m_documents > 1) {
            refuse(mark,
                   "yaml-feature",
                   "a second YAML document starts here",
                   "a gpuadvisor file holds one document: remove '---' and what follows, or "
                   "split the file");
        }
    }
    void OnDocumentEnd() override {}

    void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
        check_anchor(mark, anchor);
        YamlNode node = make(mark, YamlNode::Kind::null);
        complete(std::move(node));
    }
    void OnAlias(const YAML::Mark& mark, YAML::anchor_t /*anchor*/) override {
        refuse(mark,
               "yaml-feature",
               "aliases (*name) are not supported",
               "write the value out in full");
    }
    void OnScalar(const YAML::Mark& mark,
                  const std::string& tag,
                  YAML::anchor_t anchor,
                  const std::string& value) override {
        check_anchor(mark, anchor);
        check_tag(mark, tag, true);
        if (value.size() > m_limits.max_scalar_bytes) {
            refuse(mark,
                   "limit",
                   fmt::format("a value of {} bytes; the limit is {} bytes",
                               value.size(),
                               m_limits.max_scalar_bytes),
                   "");
        }
        if (tag != "?") {
            check_quote_closed(mark);
        }
        YamlNode node = make(mark, YamlNode::Kind::scalar);
        node.plain = tag == "?";
        node.text = m_storage.keep(value);
        complete(std::move(node));
    }
    void OnSequenceStart(const YAML::Mark& mark,
                         const std::string& tag,
                         YAML::anchor_t anchor,
                         YAML::EmitterStyle::value /*style*/) override {
        open(mark, tag, anchor, YamlNode::Kind::sequence);
    }
    void OnSequenceEnd() override { close(); }
    void OnMapStart(const YAML::Mark& mark,
                    const std::string& tag,
                    YAML::anchor_t anchor,
                    YAML::EmitterStyle::value /*style*/) override {
        open(mark, tag, anchor, YamlNode::Kind::mapping);
    }
    void OnMapEnd() override { close(); }
    void OnAnchor(const YAML::Mark& mark, const std::string& /*name*/) override {
        check_anchor(mark, 1);
    }

  private:
    struct Frame {
        YamlNode node;
        std::vector<YamlNode> items; // kept in the storage once the collection ends
        std::vector<YamlEntry> entries;
        std::optional<YamlNode> pending_key;
        std::unordered_set<std::string_view> keys; // filled once a mapping grows past a few
    };

    [[noreturn]] void
    refuse(const YAML::Mark& mark, std::string code, std::string message, std::string hint) {
        throw Refusal{{position(mark),
                       Severity::error,
                       std::move(code),
                       std::move(message),
                       std::move(hint)}};
    }
    SourcePos position(const YAML::Mark& mark) const {
        return {m_file,
                static_cast<std::uint32_t>(mark.line + 1),
                static_cast<std::uint32_t>(mark.column + 1)};
    }
    YamlNode make(const YAML::Mark& mark, YamlNode::Kind kind) {
        if (++m_nodes > m_limits.max_nodes) {
            refuse(mark,
                   "limit",
                   fmt::format("more than {} values in one file", m_limits.max_nodes),
                   "split the file");
        }
        YamlNode node;
        node.kind = kind;
        node.line = static_cast<std::uint32_t>(mark.line + 1);
        node.column = static_cast<std::uint32_t>(mark.column + 1);
        return node;
    }
    // yaml-cpp 0.7 ends an unclosed quoted string at the end of the file without an error.
    void check_quote_closed(const YAML::Mark& mark) {
        const auto start = static_cast<std::size_t>(mark.pos);
        if (mark.pos < 0 || start >= m_text.size() ||
            (m_text[start] != '"' && m_text[start] != '\'')) {
            return;
        }
        const char quote = m_text[start];
        for (std::size_t i = start + 1; i < m_text.size(); ++i) {
            if (quote == '"' && m_text[i] == '\\') {
                ++i;
            } else if (m_text[i] == quote) {
                if (quote == '\'' && i + 1 < m_text.size() && m_text[i + 1] == '\'') {
                    ++i; // '' is an escaped quote
                } else {
                    return;
                }
            }
        }
        refuse(mark,
               "syntax",
               "this quoted string is never closed",
               fmt::format("add the closing {}", quote));
    }
    void check_anchor(const YAML::Mark& mark, YAML::anchor_t anchor) {
        if (anchor != 0) {
            refuse(mark,
                   "yaml-feature",
                   "anchors (&name) are not supported",
                   "write each value out in full");
        }
    }
    void check_tag(const YAML::Mark& mark, const std::string& tag, bool scalar) {
        const bool untagged = tag == "?" || (scalar && tag == "!");
        if (!untagged) {
            refuse(mark,
                   "yaml-feature",
                   fmt::format("tags ({}) are not supported", tag),
                   "remove the tag; values are typed by their field");
        }
    }
    void open(const YAML::Mark& mark,
              const std::string& tag,
              YAML::anchor_t anchor,
              YamlNode::Kind kind) {
        check_anchor(mark, anchor);
        check_tag(mark, tag, false);
        if (m_stack.size() >= m_limits.max_depth) {
            refuse(mark,
                   "limit",
                   fmt::format("nesting deeper than {} levels", m_limits.max_depth),
                   "");
        }
        m_stack.push_back(Frame{make(mark, kind), {}, {}, std::nullopt, {}});
    }
    void close() {
        Frame frame = std::move(m_stack.back());
        m_stack.pop_back();
        frame.node.items = m_storage.keep(std::span<const YamlNode>(frame.items));
        frame.node.entries = m_storage.keep(std::span<const YamlEntry>(frame.entries));
        complete(frame.node);
    }
    void add_key(Frame& frame, YamlNode key) {
        const YAML::Mark mark = to_mark(key);
        if (key.kind != YamlNode::Kind::scalar) {
            refuse(mark,
                   "wrong-type",
                   "a mapping key must be a plain name",
                   "keys are field names such as 'memory_gb'");
        }
        if (key.plain && key.text == "<<") {
            refuse(mark,
                   "yaml-feature",
                   "merge keys (<<) are not supported",
                   "write the fields out in full");
        }
        const YamlNode* earlier = nullptr;
        const auto& entries = frame.entries;
        if (entries.size() < 8) {
            for (const auto& [k, v] : entries) {
                if (k.text == key.text) {
                    earlier = &k;
                }
            }
        } else {
            if (frame.keys.empty()) {
                for (const auto& [k, v] : entries) {
                    frame.keys.insert(k.text);
                }
            }
            if (!frame.keys.insert(key.text).second) {
                earlier = &find_key(entries, key.text);
            }
        }
        if (earlier != nullptr) {
            refuse(mark,
                   "duplicate-key",
                   fmt::format("'{}' is given twice in this mapping (first at line {}, column {})",
                               key.text,
                               earlier->line,
                               earlier->column),
                   "keep one of them");
        }
        frame.pending_key = std::move(key);
    }
    static const YamlNode& find_key(const std::vector<YamlEntry>& entries, std::string_view text) {
        for (const auto& [k, v] : entries) {
            if (k.text == text) {
                return k;
            }
        }
        return entries.front().key;
    }
    static YAML::Mark to_mark(const YamlNode& node) {
        YAML::Mark mark = YAML::Mark::null_mark();
        mark.line = static_cast<int>(node.line) - 1;
        mark.column = static_cast<int>(node.column) - 1;
        return mark;
    }
    void complete(YamlNode node) {
        if (m_stack.empty()) {
            m_root = std::move(node);
            return;
        }
        Frame& parent = m_stack.back();
        if (parent.node.kind == YamlNode::Kind::sequence) {
            parent.items.push_back(node);
        } else if (!parent.pending_key) {
            add_key(parent, node);
        } else {
            parent.entries.push_back({*parent.pending_key, node});
            parent.pending_key.reset();
        }
    }

    std::string m_file;
    std::string_view m_text;
    const LoadLimits& m_limits;
    YamlStorage& m_storage;
    std::vector<Frame> m_stack;
    std::optional<YamlNode> m_root;
    std::size_t m_nodes = 0;
    int m_documents = 0;
    int m_first_document_pos = -1;
};

} // namespace

namespace {

// yaml-cpp's event parser over text past check_bytes.
YamlDocument parse_body_events(std::string file,
                               std::string_view body,
                               const LoadLimits& limits,
                               Diagnostics& diagnostics);

// The byte checks, then the subset reader when `subset`, else (or when it gives up) yaml-cpp.
YamlDocument read_yaml(std::string file,
                       std::string_view text,
                       const LoadLimits& limits,
                       Diagnostics& diagnostics,
                       bool subset) {
    const auto body = check_bytes(file, text, diagnostics);
    if (!body) {
        return {std::move(file), std::nullopt, nullptr};
    }
    if (subset) {
        auto storage = std::make_shared<YamlStorage>();
        const std::string_view kept = storage->keep(*body); // the scalars' texts point into it
        if (std::optional<YamlNode> root = parse_yaml_subset(kept, limits, *storage)) {
            return {std::move(file), root, std::move(storage)};
        }
    }
    return parse_body_events(std::move(file), *body, limits, diagnostics);
}

} // namespace

YamlDocument parse_yaml(std::string file,
                        std::string_view text,
                        const LoadLimits& limits,
                        Diagnostics& diagnostics) {
    return read_yaml(std::move(file), text, limits, diagnostics, true);
}

YamlDocument parse_yaml_events(std::string file,
                               std::string_view text,
                               const LoadLimits& limits,
                               Diagnostics& diagnostics) {
    return read_yaml(std::move(file), text, limits, diagnostics, false);
}

namespace {

YamlDocument parse_body_events(std::string file,
                               std::string_view body,
                               const LoadLimits& limits,
                               Diagnostics& diagnostics) {
    YamlDocument document{file, std::nullopt, std::make_shared<YamlStorage>()};
    std::istringstream stream{std::string(body)};
    TreeBuilder builder(file, body, limits, *document.storage);
    try {
        YAML::Parser parser(stream);
        if (!parser.HandleNextDocument(builder)) {
            // Empty or comment-only: an empty document.
            document.root = YamlNode{};
            document.root->line = 1;
            document.root->column = 1;
            return document;
        }
        parser.HandleNextDocument(builder); // a second document is refused by the handler
        document.root = builder.take_root();
        if (!document.root) {
            document.root = YamlNode{};
        }
    } catch (const Refusal& refusal) {
        diagnostics.add(refusal.diagnostic);
    } catch (const YAML::Exception& error) {
        const SourcePos pos{file,
                            static_cast<std::uint32_t>(error.mark.line + 1),
                            static_cast<std::uint32_t>(error.mark.column + 1)};
        if (error.msg == YAML::ErrorMsg::UNKNOWN_ANCHOR) {
            diagnostics.error(pos,
                              "yaml-feature",
                              "aliases (*name) are not supported",
                              "write the value out in full");
        } else {
            diagnostics.error(error.mark.is_null() ? SourcePos{file, 0, 0} : pos,
                              "syntax",
                              error.msg,
                              "check the indentation and quoting here, or just before");
        }
    } catch (const std::exception& error) {
        diagnostics.error({file, 0, 0}, "io", fmt::format("could not parse: {}", error.what()));
    }
    return document;
}

} // namespace

} // namespace gpuadvisor
