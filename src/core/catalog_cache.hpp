// The cache of large catalog files, in two levels: each file's decoded fragment, reused while
// the file's bytes, its path, the load limits and this build are the same; and the merged
// catalog of a whole set of files, reused while all of them (and the options) are the same.
#pragma once

#include "catalog_decode.hpp"
#include "gpuadvisor/catalog_io.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

// A catalog file as read: its path, size and content hash.
struct FileStamp {
    std::string path;
    std::uint64_t size = 0;
    std::uint64_t hash = 0;
    bool operator==(const FileStamp&) const = default;
};

// Each file read and hashed; nullopt if one cannot be read (the load will say why).
std::optional<std::vector<FileStamp>> stamp_files(const std::vector<std::string>& files,
                                                  const LoadLimits& limits);

// The whole merged catalog of a set of files over a base ("builtin" or "none"): kept when
// the load had no diagnostic at all, used while every file, the base, the limits, the check
// options (today included) and the build are the same. nullopt: parse as usual.
std::optional<Catalog> cached_catalog(const FileCache& cache,
                                      std::string_view base,
                                      const std::vector<FileStamp>& files,
                                      const CheckOptions& checks,
                                      const LoadLimits& limits);
void store_catalog(const FileCache& cache,
                   std::string_view base,
                   const std::vector<FileStamp>& files,
                   const CheckOptions& checks,
                   const LoadLimits& limits,
                   const Catalog& catalog);

// Where the cache entry for a path lives (empty without a cache dir).
std::string
cache_entry_path(const FileCache& cache, const std::string& path, const LoadLimits& limits);

} // namespace gpuadvisor
