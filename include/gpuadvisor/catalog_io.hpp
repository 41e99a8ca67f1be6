// Loading catalogs: the built-in one, files and folders, overlays, validation.
#pragma once

#include "gpuadvisor/catalog.hpp"
#include "gpuadvisor/diagnostic.hpp"
#include "gpuadvisor/input.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gpuadvisor {

// The built-in catalog: data/catalog/ as parsed and checked at build time.
const Catalog& builtin_catalog();

// The cache of large catalog files (docs/cli.md): each file of at least min_bytes that decodes
// without a diagnostic is kept, decoded, in dir, one entry per content (two spellings of a
// path share it), checked against the file's size and content hash (and this build) before it
// is used. The folder is a trust boundary (docs/reliability.md): used only if it is the user's
// own and no one else may write it.
struct FileCache {
    std::string dir; // empty: no cache
    // A folder that must exist for the cache to be used (the home folder, under which the
    // default place is): it is never created. Empty: dir and any folder above it are created.
    std::string must_exist;
    std::size_t min_bytes = 64u << 10;
    // The bound: after a run that wrote an entry, the least recently used entries are removed
    // until the rest hold at most max_bytes and number at most max_entries (what the run wrote
    // is kept even if it alone is more).
    std::uintmax_t max_bytes = std::uintmax_t{512} << 20; // 512 MiB
    std::size_t max_entries = 1024;
};

struct CatalogSources {
    bool include_builtin = true;
    std::vector<std::string> paths; // files or folders, in overlay order
    FileCache cache;
};

struct CheckOptions {
    std::optional<int> max_age_days; // warn on prices older than this
    Date today = today_utc();
};

struct CatalogLoad {
    Catalog catalog;                // built from the entries that decoded without error
    Diagnostics diagnostics;        // every problem, sorted
    std::vector<std::string> files; // every file read, in order
    // How the files were read (--timings says): parsed, or taken from the cache of large files
    // (the whole catalog, or the file's own entry); the rest of `files` could not be read.
    std::size_t files_parsed = 0;
    std::size_t files_cached = 0;
    // What the cache refused (a folder or entry not the user's own, or writable by others) or
    // why there was none (no home folder): notes for the user, not diagnostics, as the load is
    // what it would be without the cache.
    std::vector<std::string> cache_notes;
};

// Reads, decodes, merges and checks. Never throws on bad input.
CatalogLoad load_catalog(const CatalogSources& sources,
                         const CheckOptions& checks = {},
                         const LoadLimits& limits = {});

// The same, over an explicit base catalog (nullptr: none) instead of the built-in one.
CatalogLoad load_catalog_over(const Catalog* base,
                              const std::vector<std::string>& paths,
                              const CheckOptions& checks = {},
                              const LoadLimits& limits = {},
                              const FileCache& cache = {});

// The files paths name: a file itself, a folder's *.yaml and *.yml in name order. A folder's
// entry with such a name that is not a file (a dangling symlink, a loop, a FIFO, a folder) is
// left out, with a warning in `diagnostics` if given.
std::vector<std::string> list_catalog_files(const std::vector<std::string>& paths,
                                            Diagnostics* diagnostics = nullptr);

// The same pipeline over texts in overlay order (for tests, fuzzing, the built-in catalog).
CatalogLoad load_catalog_texts(std::span<const NamedText> texts,
                               const CheckOptions& checks = {},
                               const LoadLimits& limits = {},
                               const Catalog* base = nullptr);

} // namespace gpuadvisor
