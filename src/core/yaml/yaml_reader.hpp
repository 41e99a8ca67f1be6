// The one way gpuadvisor reads a YAML file: capped read, byte checks, yaml-cpp's event
// parser into a small positioned tree, with anchors, aliases, tags, merge keys, extra
// documents and duplicate keys refused (RELIABILITY.md). Never throws.
#pragma once

#include "gpuadvisor/diagnostic.hpp"
#include "gpuadvisor/input.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpuadvisor {

struct YamlEntry;

// A node of a parsed document: a few words that point into the document's YamlStorage (its
// texts and lists), so a tree of millions of nodes is made without an allocation each and
// dropped at once. Valid while the storage is.
struct YamlNode {
    enum class Kind : std::uint8_t { null, scalar, sequence, mapping };

    Kind kind = Kind::null;
    bool plain = true;      // scalar written without quotes or block style
    std::uint32_t line = 0; // 1-based
    std::uint32_t column = 0;
    std::string_view text;              // scalar value
    std::span<const YamlNode> items;    // sequence items
    std::span<const YamlEntry> entries; // mapping key -> value, in file order

    const YamlNode* find(std::string_view key) const;
    bool is_scalar() const { return kind == Kind::scalar; }
    bool operator==(const YamlNode& other) const; // the trees, compared deep
};

// A mapping's entry (a struct, not std::pair: std::pair needs complete types).
struct YamlEntry {
    YamlNode key;
    YamlNode value;
    bool operator==(const YamlEntry& other) const = default;
};

std::string_view to_string(YamlNode::Kind kind);

// What a document's nodes point into: copies of their texts and lists, kept in blocks that
// never move while the storage lives.
class YamlStorage {
  public:
    std::string_view keep(std::string_view text) { return as_text(m_chars.keep(text)); }
    std::span<const YamlNode> keep(std::span<const YamlNode> items) { return m_nodes.keep(items); }
    std::span<const YamlEntry> keep(std::span<const YamlEntry> entries) {
        return m_entries.keep(entries);
    }

  private:
    template <class T, std::size_t BlockSize> class Blocks {
      public:
        std::span<const T> keep(std::span<const T> from) {
            if (from.empty()) {
                return {};
            }
            if (from.size() > BlockSize / 4) { // a block of its own: no room wasted
                m_blocks.push_back(std::make_unique_for_overwrite<T[]>(from.size()));
                std::copy(from.begin(), from.end(), m_blocks.back().get());
                return {m_blocks.back().get(), from.size()};
            }
            if (from.size() > m_room) {
                m_blocks.push_back(std::make_unique_for_overwrite<T[]>(BlockSize));
                m_next = m_blocks.back().get();
                m_room = BlockSize;
            }
            T* kept = m_next;
            std::copy(from.begin(), from.end(), kept);
            m_next += from.size();
            m_room -= from.size();
            return {kept, from.size()};
        }

      private:
        std::vector<std::unique_ptr<T[]>> m_blocks;
        T* m_next = nullptr;
        std::size_t m_room = 0;
    };
    static std::string_view as_text(std::span<const char> chars) {
        return {chars.data(), chars.size()};
    }

    Blocks<char, 64 * 1024> m_chars;
    Blocks<YamlNode, 4096> m_nodes;
    Blocks<YamlEntry, 2048> m_entries;
};

struct YamlDocument {
    std::string file;
    std::optional<YamlNode> root;         // nullopt when the file could not be read
    std::shared_ptr<YamlStorage> storage; // what root points into
};

// Reads a file block by block after the checks (it exists, is a regular file, is within the
// size cap), giving `size` the size stat reports, then `each` every block; false, with the
// error added, if a check or a read fails.
bool read_file_blocks(const std::string& path,
                      const LoadLimits& limits,
                      Diagnostics& diagnostics,
                      const std::function<void(std::uintmax_t)>& size,
                      const std::function<void(std::string_view)>& each);

// Parses text that came from `file`. On any error, root is nullopt and the error is added.
// Text in the plain subset catalogs are written in is read by parse_yaml_subset, the rest
// (and every error) by yaml-cpp's event parser: the tree is the same either way.
YamlDocument parse_yaml(std::string file,
                        std::string_view text,
                        const LoadLimits& limits,
                        Diagnostics& diagnostics);

// parse_yaml with yaml-cpp's event parser alone.
YamlDocument parse_yaml_events(std::string file,
                               std::string_view text,
                               const LoadLimits& limits,
                               Diagnostics& diagnostics);

// The tree yaml-cpp's event parser gives for `body` (text past parse_yaml's byte checks:
// valid UTF-8, no byte order mark), when the text is in the plain subset (yaml_subset.cpp);
// nullopt when it is not, or might hold an error. Never throws.
// Its texts point into `body` (which must live as long as the tree), its lists into `storage`.
std::optional<YamlNode>
parse_yaml_subset(std::string_view body, const LoadLimits& limits, YamlStorage& storage);

// Whether the eight bytes from `i` (i + 8 <= text.size()) are all printable ASCII (0x20 to
// 0x7E): tested a word at a time, so the byte checks pass over most of a file eight bytes a
// step. No byte carries into the next: each is below 0x80 when the sums are taken.
inline bool printable_ascii8(std::string_view text, std::size_t i) {
    constexpr std::uint64_t k_high = 0x8080808080808080;
    std::uint64_t word = 0;
    std::memcpy(&word, text.data() + i, sizeof word);
    return (word & k_high) == 0 &&                             // below 0x80
           ((word + 0x6060606060606060) & k_high) == k_high && // 0x20 or above
           ((word + 0x0101010101010101) & k_high) == 0;        // not 0x7F
}

} // namespace gpuadvisor
