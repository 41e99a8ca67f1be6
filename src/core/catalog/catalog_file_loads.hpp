// Loading a set of catalog files into fragments, on several threads when there is enough to
// parse: each file from the cache while unchanged, else parsed, and its instance types decoded
// in runs that any thread may take, so one large file is not left to one thread.
#pragma once

#include "catalog/catalog_cache.hpp"
#include "catalog/catalog_decode.hpp"

#include <cstddef>
#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <vector>

namespace gpuadvisor {

// One file's part of a load: its fragment, from the cache or parsed, and what parsing said.
struct FileLoad {
    std::vector<CatalogFragment> fragment; // none, or the file's one
    Diagnostics diagnostics;
    bool parsed = false;
    std::exception_ptr error; // thrown while loading on a helper thread (out of memory)
};

// True when the diagnostics hold nothing at all, not even a dropped warning: only such a load
// is kept in the cache, so a report never goes stale.
bool no_diagnostics(const Diagnostics& diagnostics);

// Threads to use on `files` totalling `bytes`: one below 256 KiB in all, else one per file up
// to one per core (at most 8).
std::size_t threads_for(std::size_t files, std::uintmax_t bytes);

// Instance types decoded per run: a file with more is decoded in runs of this many, any thread
// taking the next run (ten price rows each: a few milliseconds per run).
inline constexpr std::size_t k_instances_per_run = 256;

// Each file with a text loaded: from the cache while unchanged, else parsed and decoded. A
// clean file's fragment is kept in the cache (by the thread that finished it, while others
// still parse); a file with any diagnostic is parsed every time, so its report never goes
// stale. Each text is dropped once parsed. `stamps` is empty when the cache is off. Results in
// file order, equal to what one thread gives.
std::vector<FileLoad> load_files(const std::vector<std::string>& files,
                                 std::vector<std::optional<std::string>>& texts,
                                 const std::vector<FileStamp>& stamps,
                                 const LoadLimits& limits,
                                 CacheFolder& cache);

} // namespace gpuadvisor
