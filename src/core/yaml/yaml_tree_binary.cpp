#include "yaml/yaml_tree_binary.hpp"

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

namespace gpuadvisor {

namespace {

constexpr std::string_view k_magic = "GPUADVY1";
constexpr int k_max_depth = 64; // the parser's own limit: no compiled tree is deeper

void put(std::string& out, std::uint32_t value) {
    char raw[sizeof value];
    std::memcpy(raw, &value, sizeof value);
    out.append(raw, sizeof value);
}

void put(std::string& out, std::string_view text) {
    put(out, static_cast<std::uint32_t>(text.size()));
    out.append(text);
}

void put(std::string& out, const YamlNode& node) {
    out.push_back(static_cast<char>(node.kind));
    out.push_back(node.plain ? 1 : 0);
    put(out, node.line);
    put(out, node.column);
    put(out, node.text);
    put(out, static_cast<std::uint32_t>(node.items.size()));
    for (const YamlNode& item : node.items) {
        put(out, item);
    }
    put(out, static_cast<std::uint32_t>(node.entries.size()));
    for (const YamlEntry& entry : node.entries) {
        put(out, entry.key);
        put(out, entry.value);
    }
}

class TreeReader {
  public:
    TreeReader(std::string_view bytes, YamlStorage& storage) : m_rest(bytes), m_storage(storage) {}
    bool done() const { return m_ok && m_rest.empty(); }

    bool take(std::uint32_t& value) {
        if (!m_ok || m_rest.size() < sizeof value) {
            return m_ok = false;
        }
        std::memcpy(&value, m_rest.data(), sizeof value);
        m_rest.remove_prefix(sizeof value);
        return true;
    }
    bool take(std::string& text) {
        std::string_view kept;
        text.assign(take(kept) ? kept : std::string_view());
        return m_ok;
    }
    bool take(std::string_view& text) { // a view of the bytes read
        std::uint32_t size = 0;
        if (!take(size) || m_rest.size() < size) {
            return m_ok = false;
        }
        text = m_rest.substr(0, size);
        m_rest.remove_prefix(size);
        return true;
    }
    bool take(YamlNode& node, int depth) {
        if (!m_ok || depth > k_max_depth || m_rest.size() < 2 ||
            static_cast<unsigned char>(m_rest[0]) > static_cast<int>(YamlNode::Kind::mapping)) {
            return m_ok = false;
        }
        node.kind = static_cast<YamlNode::Kind>(m_rest[0]);
        node.plain = m_rest[1] == 1;
        m_rest.remove_prefix(2);
        std::uint32_t items = 0;
        std::uint32_t entries = 0;
        std::string_view text;
        if (!take(node.line) || !take(node.column) || !take(text) || !take(items) ||
            items > m_rest.size()) {
            return m_ok = false;
        }
        node.text = m_storage.keep(text);
        std::vector<YamlNode> item_nodes(items);
        for (YamlNode& item : item_nodes) {
            take(item, depth + 1);
        }
        node.items = m_storage.keep(std::span<const YamlNode>(item_nodes));
        if (!take(entries) || entries > m_rest.size()) {
            return m_ok = false;
        }
        std::vector<YamlEntry> entry_nodes(entries);
        for (YamlEntry& entry : entry_nodes) {
            take(entry.key, depth + 1);
            take(entry.value, depth + 1);
        }
        node.entries = m_storage.keep(std::span<const YamlEntry>(entry_nodes));
        return m_ok;
    }

  private:
    std::string_view m_rest;
    YamlStorage& m_storage;
    bool m_ok = true;
};

} // namespace

std::string serialize_document(const YamlDocument& document) {
    std::string out(k_magic);
    put(out, document.file);
    put(out, static_cast<std::uint32_t>(document.root ? 1 : 0));
    if (document.root) {
        put(out, *document.root);
    }
    return out;
}

std::optional<YamlDocument> deserialize_document(std::string_view bytes) {
    if (!bytes.starts_with(k_magic) || bytes.size() < k_magic.size() + 5) {
        return std::nullopt;
    }
    YamlDocument document;
    document.storage = std::make_shared<YamlStorage>();
    TreeReader reader(bytes.substr(k_magic.size()), *document.storage);
    if (!reader.take(document.file)) {
        return std::nullopt;
    }
    std::uint32_t has_root = 0;
    if (!reader.take(has_root) || has_root > 1) {
        return std::nullopt;
    }
    if (has_root == 1) {
        document.root.emplace();
        reader.take(*document.root, 0);
    }
    return reader.done() ? std::optional(std::move(document)) : std::nullopt;
}

} // namespace gpuadvisor
