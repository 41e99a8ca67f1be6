// Reading typed fields out of a YamlNode tree with precise diagnostics: the closed-schema
// helpers every decoder uses (presence, type, strict numbers, ranges, enums, ids, dates).
#pragma once

#include "gpuadvisor/date.hpp"
#include "gpuadvisor/diagnostic.hpp"
#include "gpuadvisor/provenance.hpp"
#include "yaml/yaml_reader.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gpuadvisor {

struct Range {
    double min = 0;
    bool min_inclusive = false; // false: strictly above min
    double max = 1e12;
};

enum class Need { required, optional };

// The bit of `key` among `fields`, as FieldReader::fields_given sets it (a compile error when
// `key` is not one of them).
consteval std::uint64_t bit_of(std::span<const std::string_view> fields, std::string_view key) {
    for (std::size_t i = 0; i < fields.size() && i < 64; ++i) {
        if (fields[i] == key) {
            return std::uint64_t{1} << i;
        }
    }
    throw "not one of the fields";
}

class FieldReader {
  public:
    FieldReader(std::string file, Diagnostics& diagnostics)
        : m_file(std::move(file)), m_diagnostics(diagnostics) {}

    SourcePos pos(const YamlNode& node) const { return {m_file, node.line, node.column}; }
    const std::string& file() const { return m_file; }
    Diagnostics& diagnostics() { return m_diagnostics; }

    // True if node is a mapping; reports each key not in `fields` (with did-you-mean).
    bool mapping(const YamlNode& node,
                 std::string_view path,
                 std::string_view what,
                 std::span<const std::string_view> fields);
    // mapping(), giving which of `fields` (at most 64) the node gives, a bit each in their
    // order (bit_of): so a reader skips the optional fields left out without looking each up.
    // nullopt when the node is not a mapping.
    std::optional<std::uint64_t> fields_given(const YamlNode& node,
                                              std::string_view path,
                                              std::string_view what,
                                              std::span<const std::string_view> fields);
    // The list under `key` (absent: empty list and, if required, missing-field).
    const std::span<const YamlNode>*
    list(const YamlNode& map, std::string_view key, std::string_view path, Need need);

    std::optional<double> number(
        const YamlNode& map, std::string_view key, std::string_view path, Need need, Range range);
    std::optional<int>
    whole(const YamlNode& map, std::string_view key, std::string_view path, Need need, Range range);
    std::optional<std::int64_t>
    money(const YamlNode& map, std::string_view key, std::string_view path);
    std::optional<bool>
    boolean(const YamlNode& map, std::string_view key, std::string_view path, Need need);
    std::optional<std::string>
    text(const YamlNode& map, std::string_view key, std::string_view path, Need need);
    std::optional<std::string>
    id(const YamlNode& map, std::string_view key, std::string_view path, Need need);
    std::optional<std::string> one_of(const YamlNode& map,
                                      std::string_view key,
                                      std::string_view path,
                                      Need need,
                                      std::span<const std::string_view> allowed);
    std::optional<Date>
    date(const YamlNode& map, std::string_view key, std::string_view path, Need need);
    // A fact's source and as_of (required), confidence (high, medium or low; default high)
    // and notes, as every data file but the catalog writes them (the catalog inherits them).
    Provenance provenance(const YamlNode& map, std::string_view path);

    // The raw value node if present and not null; reports missing/null for required fields.
    const YamlNode*
    value(const YamlNode& map, std::string_view key, std::string_view path, Need need);

    // Number from one scalar node (used for list items too).
    std::optional<double> number_node(const YamlNode& node, std::string_view path, Range range);
    bool is_valid_id(std::string_view text) const;

  private:
    const YamlNode* scalar(const YamlNode& map,
                           std::string_view key,
                           std::string_view path,
                           Need need,
                           std::string_view expected);
    void wrong_type(const YamlNode& node, std::string_view path, std::string_view expected);

    std::string m_file;
    Diagnostics& m_diagnostics;
};

// "gpus[3]" or "gpus[A100-80GB]" joined with ".field".
std::string join_path(std::string_view path, std::string_view key);

// A kind of data file (models, assumptions, fx, pricing, tco, a workload profile): what its
// messages call it and its top-level keys.
struct DataFileKind {
    std::string_view what;                 // "a models file"
    std::span<const std::string_view> top; // every key the top level may have
    std::string_view empty = {};           // if set, an empty file is this error
    std::string_view empty_hint = {};
};

// The prologue every such loader shares: parses `text` from `file`, checks the top level is a
// mapping of `kind.top` keys (an unknown one is an error, with the nearest known key), then
// has decode(read, root, load) read the rest. Diagnostics go to load.diagnostics.
template <class Load, class Decode>
Load load_data_file(const std::string& file,
                    std::string_view text,
                    const DataFileKind& kind,
                    Decode decode) {
    Load load;
    const YamlDocument document = parse_yaml(file, text, LoadLimits{}, load.diagnostics);
    if (!document.root) {
        return load;
    }
    FieldReader read(file, load.diagnostics);
    const YamlNode& root = *document.root;
    if (!kind.empty.empty() && root.kind == YamlNode::Kind::null) {
        load.diagnostics.error(read.pos(root),
                               "schema-version",
                               std::string(kind.empty),
                               std::string(kind.empty_hint));
        return load;
    }
    if (read.mapping(root, "", kind.what, kind.top)) {
        decode(read, root, load);
    }
    return load;
}

} // namespace gpuadvisor
