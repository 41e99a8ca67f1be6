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

std::string serialize_catalog(const Catalog& catalog);

// nullopt if the bytes are truncated, corrupt (checksum) or of another format version.
std::optional<Catalog> deserialize_catalog(std::string_view bytes);

// One catalog file as decoded, before the merge: what the cache of large files keeps.
std::string serialize_fragment(const CatalogFragment& fragment);
std::optional<CatalogFragment> deserialize_fragment(std::string_view bytes);

} // namespace gpuadvisor
