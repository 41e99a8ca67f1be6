// A compact binary form of a built Catalog: how the built-in catalog is compiled into the
// binary (parsed and checked at build time, read back in microseconds at run time); and of
// one decoded file, for the cache of large user catalogs (catalog_cache.hpp).
#pragma once

#include "catalog_decode.hpp"
#include "gpuadvisor/catalog.hpp"

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

std::string serialize_catalog(const Catalog& catalog);
SerializedParts serialize_catalog_parts(const Catalog& catalog);

// nullopt if the bytes are truncated, corrupt (checksum) or of another format version.
std::optional<Catalog> deserialize_catalog(std::string_view bytes);

// One catalog file as decoded, before the merge: what the cache of large files keeps.
std::string serialize_fragment(const CatalogFragment& fragment);
SerializedParts serialize_fragment_parts(const CatalogFragment& fragment);
std::optional<CatalogFragment> deserialize_fragment(std::string_view bytes);

} // namespace gpuadvisor
