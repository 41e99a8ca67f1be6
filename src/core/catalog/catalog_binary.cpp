#include "catalog/catalog_binary.hpp"

#include "util/content_hash.hpp"
#include "util/helper_thread.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <system_error>
#include <type_traits>
#include <unordered_map>

namespace gpuadvisor {

namespace {

constexpr std::string_view k_magic = "GPUADVC4";
constexpr std::string_view k_fragment_magic = "GPUADVF1";

// Detects corruption; fast enough (several GB/s) to run on every start.
std::uint64_t checksum(std::string_view bytes, std::uint64_t seed) {
    return xxh64(bytes, seed);
}

// Instance types are written in chunks of this many, each with its length, so that a reader
// can decode the chunks on several threads.
constexpr std::size_t k_instances_per_chunk = 2048;

// One description of each type's fields serves both directions.
template <class Archive> void visit(Archive& a, SourcePos& p) {
    a(p.file), a(p.line), a(p.column);
}
template <class Archive> void visit(Archive& a, Date& d) {
    a(d.days);
}
template <class Archive> void visit(Archive& a, Provenance& p) {
    a(p.source), a(p.as_of), a(p.confidence), a(p.notes);
}
template <class Archive> void visit(Archive& a, Gpu& g) {
    a(g.id), a(g.aliases), a(g.vendor), a(g.architecture), a(g.form_factor), a(g.memory_gb);
    a(g.memory_type), a(g.memory_bandwidth_gb_per_s), a(g.fp64_tflops), a(g.fp64_tensor_tflops);
    a(g.fp32_tflops), a(g.tf32_tflops), a(g.fp16_tflops), a(g.bf16_tflops), a(g.fp8_tflops);
    a(g.int8_tops), a(g.tdp_w), a(g.nvlink_gb_per_s), a(g.pcie_gen), a(g.mig_max_instances);
    a(g.logical_devices), a(g.vgpu_profiles_gb), a(g.provenance), a(g.origin);
}
template <class Archive> void visit(Archive& a, Cpu& c) {
    a(c.id), a(c.aliases), a(c.vendor), a(c.cores), a(c.base_clock_ghz), a(c.avx_clock_ghz);
    a(c.fp64_flops_per_cycle), a(c.fp32_flops_per_cycle), a(c.fp64_tflops), a(c.fp32_tflops);
    a(c.peak_basis), a(c.memory_channels), a(c.memory_mt_per_s), a(c.memory_type);
    a(c.memory_bandwidth_gb_per_s), a(c.max_memory_gb), a(c.tdp_w), a(c.provenance), a(c.origin);
}
template <class Archive> void visit(Archive& a, StorageProduct& s) {
    a(s.tier), a(s.product), a(s.per_gb_month_micros), a(s.provenance);
}
template <class Archive> void visit(Archive& a, EgressStep& s) {
    a(s.up_to_tb), a(s.per_gb_micros);
}
template <class Archive> void visit(Archive& a, ProviderTransfer& p) {
    a(p.provider), a(p.currency), a(p.storage), a(p.ingress_per_gb_micros);
    a(p.inter_region_per_gb_micros), a(p.internet_egress), a(p.provenance), a(p.origin);
}
template <class Archive> void visit(Archive& a, RegionInfo& r) {
    a(r.id), a(r.name), a(r.country);
}
template <class Archive> void visit(Archive& a, Provider& p) {
    a(p.id), a(p.name), a(p.currency), a(p.provenance), a(p.regions), a(p.origin);
}
template <class Archive> void visit(Archive& a, PriceRow& r) {
    a(r.region), a(r.currency), a(r.on_demand), a(r.spot), a(r.reserved_1y), a(r.reserved_3y);
    a(r.subscription_monthly), a(r.spot_interruption), a(r.provenance), a(r.origin);
}
template <class Archive> void visit(Archive& a, InstanceType& i) {
    a(i.provider), a(i.id), a(i.family), a(i.gpu), a(i.gpu_count), a(i.gpu_memory_gb);
    a(i.vcpus), a(i.memory_gb), a(i.network_gbps), a(i.rdma), a(i.nvlink), a(i.fabric),
        a(i.fabric_gbps), a(i.vgpu_series), a(i.local_storage_gb);
    a(i.provenance), a(i.regions), a(i.origin), a(i.gpu_pos);
}

template <class Archive> void visit(Archive& a, Discount& d) {
    a(d.id), a(d.provider), a(d.plans), a(d.family), a(d.instance), a(d.regions), a(d.off_ppm);
    a(d.expires), a(d.provenance), a(d.origin);
}

// A catalog file as decoded, before the merge (the cache of large user files).
template <class Archive> void visit(Archive& a, ProvenanceInput& p) {
    a(p.source), a(p.as_of), a(p.confidence), a(p.notes), a(p.as_of_pos);
}
template <class Archive> void visit(Archive& a, ProviderInput& p) {
    a(p.id), a(p.name), a(p.currency), a(p.provenance), a(p.regions), a(p.origin);
}
template <class Archive> void visit(Archive& a, PriceRowInput& r) {
    a(r.row), a(r.currency), a(r.provenance), a(r.remove);
}
template <class Archive> void visit(Archive& a, InstanceInput& i) {
    a(i.instance), a(i.provenance), a(i.rows);
}
template <class Archive> void visit(Archive& a, GpuInput& g) {
    a(g.gpu), a(g.provenance);
}
template <class Archive> void visit(Archive& a, CatalogFragment& f) {
    a(f.file), a(f.gpus), a(f.provider), a(f.instances), a(f.discounts), a(f.cpus);
    a(f.transfer);
}

template <class T>
inline constexpr bool k_is_trivial = std::is_arithmetic_v<T> || std::is_enum_v<T>;

// Strings are written once, in a table, and referred to by index: sources, notes and
// file names repeat on every price row.
class Writer {
  public:
    std::string bytes;
    std::vector<std::string> strings;

    template <class T> void operator()(const T& value) {
        if constexpr (k_is_trivial<T>) {
            char raw[sizeof(T)];
            std::memcpy(raw, &value, sizeof(T));
            bytes.append(raw, sizeof(T));
        } else {
            visit(*this, const_cast<T&>(value)); // visit only reads through a Writer
        }
    }
    void operator()(const std::string& value) { (*this)(index_of(value)); }
    // An interned text is one object per text, so its index is remembered by address in a
    // small table first: a price row's six texts are nearly always those of the row before,
    // and hashing and looking up each one's characters again was about half the instructions
    // of writing a large catalog's entry (the table's indices, and so the bytes, are the same
    // either way).
    void operator()(const InternedText& value) {
        const std::string* text = &value.str();
        Known& slot = m_known[(reinterpret_cast<std::uintptr_t>(text) >> 4) % m_known.size()];
        if (slot.text != text) {
            slot = {text, index_of(*text)};
        }
        (*this)(slot.index);
    }
    template <class T> void operator()(const std::optional<T>& value) {
        (*this)(value.has_value());
        if (value) {
            (*this)(*value);
        }
    }
    template <class T> void operator()(const std::vector<T>& values) {
        (*this)(static_cast<std::uint32_t>(values.size()));
        for (const T& value : values) {
            (*this)(value);
        }
    }

  private:
    std::uint32_t index_of(const std::string& value) {
        const auto [it, inserted] =
            m_index.try_emplace(value, static_cast<std::uint32_t>(strings.size()));
        if (inserted) {
            strings.push_back(value);
        }
        return it->second;
    }

    struct Known {
        const std::string* text = nullptr;
        std::uint32_t index = 0;
    };
    std::unordered_map<std::string, std::uint32_t> m_index;
    std::array<Known, 64> m_known{}; // interned texts' indices, by address
};

class Reader {
  public:
    explicit Reader(std::string_view bytes) : m_bytes(bytes) {}
    // A reader of part of the payload, with the string table already read by `whole`.
    Reader(std::string_view part, const Reader& whole) : m_bytes(part), m_table(whole.m_table) {}
    Reader(const Reader& other)
        : m_bytes(other.m_bytes), m_strings(other.m_strings),
          m_table(other.m_table == &other.m_strings ? &m_strings : other.m_table),
          m_offset(other.m_offset), m_ok(other.m_ok) {}
    Reader& operator=(const Reader&) = delete;
    bool ok() const { return m_ok; }
    bool at_end() const { return m_offset == m_bytes.size(); }
    // The next `size` bytes, skipped.
    std::string_view skip(std::size_t size) {
        return take(size) ? m_bytes.substr(m_offset - size, size) : std::string_view{};
    }

    template <class T> void operator()(T& value) {
        if constexpr (k_is_trivial<T>) {
            if (!take(sizeof(T))) {
                return;
            }
            std::memcpy(&value, m_bytes.data() + m_offset - sizeof(T), sizeof(T));
        } else {
            visit(*this, value);
        }
    }
    // The string table, read before anything that refers to it.
    void read_strings() {
        std::uint32_t count = 0;
        (*this)(count);
        for (std::uint32_t i = 0; i < count && m_ok; ++i) {
            std::uint32_t size = 0;
            (*this)(size);
            if (take(size)) {
                m_strings.emplace_back(m_bytes.data() + m_offset - size, size);
            }
        }
        m_table = &m_strings;
    }
    void operator()(std::string& value) {
        std::uint32_t index = 0;
        (*this)(index);
        if (m_ok && m_table != nullptr && index < m_table->size()) {
            value.assign((*m_table)[index]);
        } else {
            m_ok = false;
        }
    }
    // Interned once per table entry (per reader): rows then share it.
    void operator()(InternedText& value) {
        std::uint32_t index = 0;
        (*this)(index);
        if (!m_ok || m_table == nullptr || index >= m_table->size()) {
            m_ok = false;
            return;
        }
        m_interned.resize(m_table->size());
        if (!m_interned[index]) {
            m_interned[index] = InternedText((*m_table)[index]);
        }
        value = *m_interned[index];
    }
    void operator()(bool& value) {
        unsigned char raw = 0;
        (*this)(raw);
        m_ok = m_ok && raw <= 1;
        value = raw == 1;
    }
    template <class T> void operator()(std::optional<T>& value) {
        bool present = false;
        (*this)(present);
        if (present && m_ok) {
            (*this)(value.emplace());
        }
    }
    template <class T> void operator()(std::vector<T>& values) {
        std::uint32_t size = 0;
        (*this)(size);
        if (!m_ok || size > m_bytes.size() - m_offset) { // each element takes at least a byte
            m_ok = false;
            return;
        }
        values.resize(size);
        for (T& value : values) {
            (*this)(value);
        }
    }

  private:
    bool take(std::size_t size) {
        if (!m_ok || size > m_bytes.size() - m_offset) {
            m_ok = false;
            return false;
        }
        m_offset += size;
        return true;
    }

    std::string_view m_bytes;
    std::vector<std::string_view> m_strings;
    const std::vector<std::string_view>* m_table = nullptr; // m_strings, or the whole's
    std::vector<std::optional<InternedText>> m_interned;    // by table index, as used
    std::size_t m_offset = 0;
    bool m_ok = true;
};

// The instance types in chunks, each preceded by its length in bytes.
void write_instances(Writer& writer, const std::vector<InstanceType>& instances) {
    writer(static_cast<std::uint32_t>(instances.size()));
    for (std::size_t first = 0; first < instances.size(); first += k_instances_per_chunk) {
        const std::size_t at = writer.bytes.size();
        writer(std::uint64_t{0});
        const std::size_t end = std::min(instances.size(), first + k_instances_per_chunk);
        for (std::size_t i = first; i < end; ++i) {
            writer(instances[i]);
        }
        const std::uint64_t length = writer.bytes.size() - at - sizeof(std::uint64_t);
        std::memcpy(writer.bytes.data() + at, &length, sizeof length);
    }
}

// Decodes the chunks, on several threads when there are several; false if any is damaged.
bool read_instances(Reader& reader, std::vector<InstanceType>& instances) {
    std::uint32_t count = 0;
    reader(count);
    std::vector<std::string_view> chunks;
    for (std::size_t first = 0; reader.ok() && first < count; first += k_instances_per_chunk) {
        std::uint64_t length = 0;
        reader(length);
        chunks.push_back(reader.skip(static_cast<std::size_t>(length)));
    }
    if (!reader.ok() || count > chunks.size() * k_instances_per_chunk) {
        return false;
    }
    instances.resize(count);
    std::vector<char> decoded(chunks.size(), 0);
    const auto decode = [&](std::size_t c, std::size_t /*thread*/) {
        Reader part(chunks[c], reader);
        const std::size_t first = c * k_instances_per_chunk;
        const std::size_t end = std::min<std::size_t>(count, first + k_instances_per_chunk);
        for (std::size_t i = first; i < end; ++i) {
            part(instances[i]);
        }
        decoded[c] = part.ok() && part.at_end() ? 1 : 0;
    };
    parallel_for(chunks.size(), threads_for_shares(chunks.size()), decode);
    return std::all_of(decoded.begin(), decoded.end(), [](char ok) { return ok == 1; });
}

// A header of magic and checksum, the string table, and the payload, in two pieces: the
// payload is not copied (a large catalog's is tens of megabytes, each copy fresh memory). The
// checksum is XXH64 with the given seed (see catalog_binary.hpp).
SerializedParts frame(std::string_view magic, Writer&& payload, std::uint64_t seed) {
    Writer table;
    table(static_cast<std::uint32_t>(payload.strings.size()));
    for (const std::string& text : payload.strings) {
        table(static_cast<std::uint32_t>(text.size()));
        table.bytes += text;
    }
    Xxh64Stream body_hash(seed); // checksum() of table and payload together
    body_hash.update(table.bytes);
    body_hash.update(payload.bytes);
    Writer header;
    header.bytes = magic;
    header(body_hash.digest());
    header.bytes += table.bytes;
    return {std::move(header.bytes), std::move(payload.bytes)};
}

// Room for a payload of about `rows` price rows, asked for once: grown by doubling from
// nothing, a large catalog's payload was copied again at each step. Room never written is
// never touched.
void reserve_rows(Writer& writer, std::size_t rows, std::size_t instances) {
    constexpr std::size_t k_bytes_per_row = 96; // about 80 in the synthetic catalogs
    constexpr std::size_t k_bytes_per_instance = 256;
    writer.bytes.reserve(rows * k_bytes_per_row + instances * k_bytes_per_instance + 4096);
}

// A reader over a framed payload, its string table read; nullopt if the frame is not intact.
std::optional<Reader> unframe(std::string_view magic, std::string_view bytes, std::uint64_t seed) {
    const std::size_t header_size = magic.size() + sizeof(std::uint64_t);
    if (bytes.size() < header_size || !bytes.starts_with(magic)) {
        return std::nullopt;
    }
    std::uint64_t stored = 0;
    std::memcpy(&stored, bytes.data() + magic.size(), sizeof stored);
    const std::string_view payload = bytes.substr(header_size);
    if (stored != checksum(payload, seed)) {
        return std::nullopt;
    }
    Reader reader(payload);
    reader.read_strings();
    return reader;
}

// Walks a value as the Writer does, touching only positions: each one in file `from` is moved
// to file `to`. Texts that merely read like the path (a note, a source) are left alone.
class OriginRenamer {
  public:
    OriginRenamer(InternedText from, InternedText to) : m_from(from), m_to(to) {}

    template <class T> void operator()(T& value) {
        if constexpr (!k_is_trivial<T>) {
            visit(*this, value);
        }
    }
    void operator()(std::string& /*text*/) {}
    void operator()(InternedText& /*text*/) {}
    void operator()(SourcePos& pos) {
        if (pos.file == m_from) { // interned: one comparison of pointers
            pos.file = m_to;
        }
    }
    template <class T> void operator()(std::optional<T>& value) {
        if (value) {
            (*this)(*value);
        }
    }
    template <class T> void operator()(std::vector<T>& values) {
        for (T& value : values) {
            (*this)(value);
        }
    }

  private:
    InternedText m_from;
    InternedText m_to;
};

} // namespace

SerializedParts serialize_catalog_parts(const Catalog& catalog, std::uint64_t seed) {
    Writer payload;
    reserve_rows(payload, catalog.offer_count(), catalog.instances().size());
    payload(catalog.gpus());
    payload(catalog.providers());
    write_instances(payload, catalog.instances());
    payload(catalog.discounts());
    payload(catalog.cpus());
    payload(catalog.transfer().providers);
    return frame(k_magic, std::move(payload), seed);
}

std::string serialize_catalog(const Catalog& catalog) {
    return serialize_catalog_parts(catalog).joined();
}

std::optional<Catalog> deserialize_catalog(std::string_view bytes, std::uint64_t seed) {
    std::optional<Reader> reader = unframe(k_magic, bytes, seed);
    if (!reader) {
        return std::nullopt;
    }
    std::vector<Gpu> gpus;
    std::vector<Provider> providers;
    std::vector<InstanceType> instances;
    std::vector<Discount> discounts;
    std::vector<Cpu> cpus;
    TransferData transfer;
    (*reader)(gpus);
    (*reader)(providers);
    if (!read_instances(*reader, instances)) {
        return std::nullopt;
    }
    (*reader)(discounts);
    (*reader)(cpus);
    (*reader)(transfer.providers);
    if (!reader->ok() || !reader->at_end()) {
        return std::nullopt;
    }
    return Catalog(std::move(gpus),
                   std::move(providers),
                   std::move(instances),
                   std::move(discounts),
                   std::move(cpus),
                   std::move(transfer));
}

SerializedParts serialize_fragment_parts(const CatalogFragment& fragment, std::uint64_t seed) {
    Writer payload;
    std::size_t rows = 0;
    for (const InstanceInput& instance : fragment.instances) {
        rows += instance.rows.size();
    }
    reserve_rows(payload, rows, fragment.instances.size());
    payload(fragment);
    return frame(k_fragment_magic, std::move(payload), seed);
}

std::string serialize_fragment(const CatalogFragment& fragment) {
    return serialize_fragment_parts(fragment).joined();
}

std::optional<CatalogFragment> deserialize_fragment(std::string_view bytes, std::uint64_t seed) {
    std::optional<Reader> reader = unframe(k_fragment_magic, bytes, seed);
    if (!reader) {
        return std::nullopt;
    }
    CatalogFragment fragment;
    (*reader)(fragment);
    if (!reader->ok() || !reader->at_end()) {
        return std::nullopt;
    }
    return fragment;
}

void rename_origins(CatalogFragment& fragment, std::string_view file) {
    if (fragment.file == file) {
        return;
    }
    OriginRenamer renamer{InternedText(fragment.file), InternedText(file)};
    renamer(fragment);
    fragment.file = file;
}

} // namespace gpuadvisor
