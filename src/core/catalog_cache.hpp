// The cache of large catalog files: a file's decoded fragment, kept in a folder and reused
// while the file's bytes, its path, the load limits and this build are the same.
#pragma once

#include "catalog_decode.hpp"
#include "gpuadvisor/catalog_io.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace gpuadvisor {

// The fragment cached for this file's exact text, or nullopt (no cache, too small, missing,
// stale or corrupt: the caller parses and stores a fresh one).
std::optional<CatalogFragment> cached_fragment(const FileCache& cache,
                                               const std::string& path,
                                               std::string_view text,
                                               const LoadLimits& limits);

// Keeps a fragment that decoded without a diagnostic. Failing to write is not an error: the
// cache only saves time.
void store_fragment(const FileCache& cache,
                    const std::string& path,
                    std::string_view text,
                    const LoadLimits& limits,
                    const CatalogFragment& fragment);

// Where the cache entry for a path lives (empty without a cache dir).
std::string
cache_entry_path(const FileCache& cache, const std::string& path, const LoadLimits& limits);

} // namespace gpuadvisor
