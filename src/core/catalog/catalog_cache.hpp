// The cache of large catalog files, in two levels: each file's decoded fragment, reused while
// the file's bytes, the load limits and this build are the same (whatever the path's
// spelling); and the merged catalog of a whole set of files, reused while all of them (and
// the options) are the same. Every entry goes through the CacheFolder (cache_folder.hpp).
#pragma once

#include "catalog/cache_folder.hpp"
#include "catalog/catalog_decode.hpp"
#include "gpuadvisor/catalog_io.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuadvisor {

// A catalog file as read: its path, size and content hash (XXH64).
struct FileStamp {
    std::string path;
    std::uint64_t size = 0;
    std::uint64_t hash = 0;
};
FileStamp stamp_of(const std::string& path, std::string_view text);
// The stamp of a file on disk, read block by block (nothing kept in memory); nullopt, with
// the error, as read_file_capped would.
std::optional<FileStamp>
read_stamp(const std::string& path, const LoadLimits& limits, Diagnostics& diagnostics);

// The fragment cached for the file so stamped, or nullopt (no cache, too small, missing,
// stale, corrupt or untrusted: the caller parses and stores a fresh one). A fragment stored
// under another spelling of the file's path comes back naming the path as given.
std::optional<CatalogFragment>
cached_fragment(CacheFolder& cache, const FileStamp& file, const LoadLimits& limits);

// Keeps a fragment that decoded without a diagnostic. Failing to write is not an error: the
// cache only saves time.
void store_fragment(CacheFolder& cache,
                    const FileStamp& file,
                    const LoadLimits& limits,
                    const CatalogFragment& fragment);

// The whole merged catalog of a set of files over a base (builtin_data_key() or "none"): kept
// when the load had no diagnostic at all, used while every file (its path as given, size and
// hash), the base, the limits, the check options (today included) and the build are the same.
// nullopt: parse as usual.
std::optional<Catalog> cached_catalog(CacheFolder& cache,
                                      std::string_view base,
                                      const std::vector<FileStamp>& files,
                                      const CheckOptions& checks,
                                      const LoadLimits& limits);
void store_catalog(CacheFolder& cache,
                   std::string_view base,
                   const std::vector<FileStamp>& files,
                   const CheckOptions& checks,
                   const LoadLimits& limits,
                   const Catalog& catalog);

// Reads, decodes, merges and checks like load_catalog_over, through both levels of the cache
// (catalog_io.cpp). `base` names the base catalog for the set level (builtin_data_key(),
// "none"); empty: a base that cannot be named, and no set level. The cache's notes come back
// in the load's cache_notes.
CatalogLoad load_through_cache(const Catalog* base_catalog,
                               std::string_view base,
                               const std::vector<std::string>& paths,
                               const CheckOptions& checks,
                               const LoadLimits& limits,
                               const FileCache& cache);

// Where the cache entry for a file of this content lives (empty without a cache dir).
std::string
cache_entry_path(const FileCache& cache, const FileStamp& file, const LoadLimits& limits);

// What names the built-in data as a base in set entries: "builtin " and a hash of every byte
// of data compiled into this binary (the catalog, fx, pricing and the rest), so that a binary
// rebuilt with other data never takes a set entry written by the old one (builtin_data.cpp).
std::string_view builtin_data_key();

} // namespace gpuadvisor
