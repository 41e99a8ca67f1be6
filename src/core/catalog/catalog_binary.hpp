// A compact binary form of a built Catalog: how the built-in catalog is compiled into the
// binary (parsed and checked at build time, read back in microseconds at run time); and of
// one decoded file, for the cache of large user catalogs (catalog_cache.hpp).
#pragma once

#include "catalog/catalog_decode.hpp"
#include "gpuadvisor/catalog.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gpuadvisor {

// A serialized form in two pieces, its bytes being head then payload: written to a file one
// after the other rather than joined (a large catalog's payload is tens of megabytes).
struct SerializedParts {
    std::string head; // format, checksum and string table
    std::string payload;
    std::string joined() const { return head + payload; }
};

// The checksum over the string table and payload is XXH64 with `seed`: the cache seeds it with
// the hash of its entry's header, so that the checksum covers the whole entry (a header laid
// on another entry's body fails it). The same seed must be given to read the bytes back.
std::string serialize_catalog(const Catalog& catalog);
SerializedParts serialize_catalog_parts(const Catalog& catalog, std::uint64_t seed = 0);

// nullopt if the bytes are truncated, corrupt (checksum, or another seed) or of another format
// version.
std::optional<Catalog> deserialize_catalog(std::string_view bytes, std::uint64_t seed = 0);

// One catalog file as decoded, before the merge: what the cache of large files keeps.
std::string serialize_fragment(const CatalogFragment& fragment);
SerializedParts serialize_fragment_parts(const CatalogFragment& fragment, std::uint64_t seed = 0);
std::optional<CatalogFragment> deserialize_fragment(std::string_view bytes, std::uint64_t seed = 0);

// The fragment as if decoded from `file`: its file name and every position in it that names
// the file it was decoded from (a fragment from the cache, stored under another spelling of
// the same file's path).
void rename_origins(CatalogFragment& fragment, std::string_view file);

} // namespace gpuadvisor
