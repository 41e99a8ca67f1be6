#include "gpuadvisor/catalog_io.hpp"

#include "catalog/catalog_cache.hpp"
#include "catalog/catalog_checks.hpp"
#include "catalog/catalog_decode.hpp"
#include "catalog/catalog_file_loads.hpp"
#include "util/helper_thread.hpp"
#include "yaml/yaml_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <filesystem>
#include <map>
#include <optional>
#include <sys/stat.h>
#include <system_error>
#include <utility>

namespace gpuadvisor {

namespace {

bool is_yaml_name(const std::filesystem::path& path) {
    const std::string extension = path.extension().string();
    return extension == ".yaml" || extension == ".yml";
}

// Why a folder's entry with a YAML name cannot be read as a file, or nullopt when it can: a
// regular file, or a symlink to one. The reason and a hint, for a warning.
std::optional<std::pair<std::string, std::string>>
unreadable_entry(const std::filesystem::path& path) {
    std::error_code error;
    const std::filesystem::file_status status = std::filesystem::status(path, error);
    if (error == std::errc::no_such_file_or_directory) { // stat follows: the link leads nowhere
        std::error_code ignored;
        const auto target = std::filesystem::read_symlink(path, ignored).string();
        if (target.empty()) {
            return std::pair{std::string("it no longer exists"), "list the folder again"};
        }
        return std::pair{fmt::format("a symlink to '{}', which does not exist", target),
                         "fix the link or remove it"};
    }
    if (error == std::errc::too_many_symbolic_link_levels) {
        return std::pair{std::string("a symlink loop"), "fix the link or remove it"};
    }
    if (error) {
        return std::pair{fmt::format("cannot be read: {}", error.message()),
                         "make it a readable file, or remove it"};
    }
    const std::string not_a_file =
        "a catalog file is a regular file or a symlink to one: remove it, or rename it without "
        ".yaml";
    switch (status.type()) {
    case std::filesystem::file_type::regular:
        return std::nullopt;
    case std::filesystem::file_type::directory:
        return std::pair{std::string("a folder (folders are not read recursively)"),
                         "rename it without .yaml, or name it with a --catalog of its own"};
    case std::filesystem::file_type::fifo:
        return std::pair{std::string("a FIFO"), not_a_file};
    case std::filesystem::file_type::socket:
        return std::pair{std::string("a socket"), not_a_file};
    default:
        return std::pair{std::string("a device or other special file"), not_a_file};
    }
}

// The files a path names: itself, or a folder's *.yaml and *.yml in name order. Entries with
// such a name that are not files (a dangling symlink, a loop, a FIFO, a folder) are skipped
// with a warning each.
std::vector<std::string> expand_path(const std::string& path, Diagnostics& diagnostics) {
    std::error_code error;
    if (!std::filesystem::is_directory(path, error)) {
        return {path};
    }
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(path, error)) {
        if (!is_yaml_name(entry.path())) {
            continue;
        }
        if (const auto reason = unreadable_entry(entry.path())) {
            diagnostics.warning({entry.path().string(), 0, 0},
                                "skipped-file",
                                fmt::format("not read: {}", reason->first),
                                reason->second);
        } else {
            files.push_back(entry.path().string());
        }
    }
    if (error) {
        diagnostics.error({path, 0, 0}, "io", "cannot list the folder: " + error.message());
    }
    std::sort(files.begin(), files.end());
    return files;
}

// The files, each read once: a file named twice (two spellings, or a folder and the file in it,
// as `GPUADVISOR_CATALOG=prices/ gpuadvisor catalog validate prices/a.yaml` does) is kept where
// it is last named, under that name, as if named there alone. Reading it twice would lay it
// over itself: harmless for a whole entry, but a `remove: true` row would find nothing the
// second time.
std::vector<std::string> each_once(const std::vector<std::string>& files) {
    std::map<std::pair<dev_t, ino_t>, std::size_t> last;     // a file's (device, inode): last index
    std::vector<std::optional<std::pair<dev_t, ino_t>>> ids; // none: cannot be read (reported)
    for (std::size_t i = 0; i < files.size(); ++i) {
        struct stat info {};
        ids.push_back(::stat(files[i].c_str(), &info) == 0
                          ? std::optional(std::pair(info.st_dev, info.st_ino))
                          : std::nullopt);
        if (ids.back()) {
            last[*ids.back()] = i;
        }
    }
    std::vector<std::string> kept;
    for (std::size_t i = 0; i < files.size(); ++i) {
        if (!ids[i] || last.at(*ids[i]) == i) {
            kept.push_back(files[i]);
        }
    }
    return kept;
}

void load_text(const std::string& name,
               std::string_view text,
               const LoadLimits& limits,
               std::vector<CatalogFragment>& fragments,
               Diagnostics& diagnostics) {
    const YamlDocument document = parse_yaml(name, text, limits, diagnostics);
    fragments.push_back(decode_catalog(document, diagnostics));
}

CatalogLoad finish(const Catalog* base,
                   std::vector<CatalogFragment> fragments,
                   std::vector<std::string> files,
                   Diagnostics diagnostics,
                   const CheckOptions& checks) {
    CatalogLoad load;
    load.catalog = merge_fragments(base, std::move(fragments), checks, diagnostics);
    diagnostics.sort();
    load.diagnostics = std::move(diagnostics);
    load.files = std::move(files);
    return load;
}

} // namespace

std::vector<std::string> list_catalog_files(const std::vector<std::string>& paths,
                                            Diagnostics* diagnostics) {
    Diagnostics ignored;
    std::vector<std::string> files;
    for (const std::string& path : paths) {
        const auto expanded = expand_path(path, diagnostics != nullptr ? *diagnostics : ignored);
        files.insert(files.end(), expanded.begin(), expanded.end());
    }
    return files;
}

CatalogLoad load_catalog_over(const Catalog* base,
                              const std::vector<std::string>& paths,
                              const CheckOptions& checks,
                              const LoadLimits& limits,
                              const FileCache& cache) {
    return load_through_cache(base, {}, paths, checks, limits, cache);
}

namespace {

// The files' stamps (size and content hash), each read in blocks and dropped, on a thread per
// file up to one per core; nullopt if any cannot be read (the usual path reports it).
std::optional<std::vector<FileStamp>> read_stamps(const std::vector<std::string>& files,
                                                  const LoadLimits& limits) {
    std::uintmax_t bytes = 0;
    for (const std::string& file : files) {
        std::error_code error;
        const std::uintmax_t size = std::filesystem::file_size(file, error);
        bytes += error ? 0 : size;
    }
    std::vector<std::optional<FileStamp>> stamps(files.size());
    parallel_for(files.size(), threads_for(files.size(), bytes), [&](std::size_t i, std::size_t) {
        Diagnostics probe; // a file that cannot be read is reported by the usual path
        try {
            stamps[i] = read_stamp(files[i], limits, probe);
        } catch (...) { // (out of memory) left unstamped: the usual path reads it
        }
    });
    std::vector<FileStamp> result;
    for (auto& stamp : stamps) {
        if (!stamp) {
            return std::nullopt;
        }
        result.push_back(std::move(*stamp));
    }
    return result;
}

// The set level's catalog for these files, if it has one: each file only hashed, block by
// block, so a hit keeps no file in memory and parses none. nullopt: read them as usual.
std::optional<Catalog> cached_set(CacheFolder& cache,
                                  std::string_view base,
                                  const std::vector<std::string>& files,
                                  const CheckOptions& checks,
                                  const LoadLimits& limits) {
    if (base.empty() || cache.settings().dir.empty()) {
        return std::nullopt;
    }
    const auto stamps = read_stamps(files, limits);
    if (!stamps) {
        return std::nullopt;
    }
    return cached_catalog(cache, base, *stamps, checks, limits);
}

// load_through_cache's work, every entry through one CacheFolder.
CatalogLoad load_through(CacheFolder& cache,
                         const Catalog* base_catalog,
                         std::string_view base,
                         const std::vector<std::string>& paths,
                         const CheckOptions& checks,
                         const LoadLimits& limits) {
    Diagnostics diagnostics;
    std::vector<std::string> files;
    for (const std::string& path : paths) {
        for (const std::string& file : expand_path(path, diagnostics)) {
            files.push_back(file);
        }
    }
    files = each_once(files);
    if (auto cached = diagnostics.has_errors() ? std::nullopt
                                               : cached_set(cache, base, files, checks, limits)) {
        const std::size_t all = files.size();
        return {std::move(*cached), std::move(diagnostics), std::move(files), 0, all, {}};
    }
    std::vector<std::optional<std::string>> texts; // each file read once, kept until decoded
    for (const std::string& file : files) {
        texts.push_back(read_file_capped(file, limits, diagnostics));
    }
    std::vector<FileStamp> stamps; // the bytes read, hashed once for the cache
    if (!cache.settings().dir.empty()) {
        for (std::size_t i = 0; i < files.size(); ++i) {
            stamps.push_back(texts[i] ? stamp_of(files[i], *texts[i]) : FileStamp{files[i]});
        }
    }
    const bool whole_set = !base.empty() && !stamps.empty() && !diagnostics.has_errors();
    std::vector<CatalogFragment> fragments;
    std::vector<FileLoad> loads = load_files(files, texts, stamps, limits, cache);
    std::size_t parsed = 0;
    std::size_t cached = 0;
    for (std::size_t i = 0; i < loads.size(); ++i) {
        FileLoad& load = loads[i];
        if (load.error) {
            std::rethrow_exception(load.error);
        }
        parsed += load.parsed ? 1 : 0;
        if (load.fragment.empty()) {
            continue; // not read
        }
        cached += load.parsed ? 0 : 1;
        fragments.push_back(std::move(load.fragment.front()));
        diagnostics.append(load.diagnostics);
    }
    if (fragments.empty() && !diagnostics.has_errors() && !checks.max_age_days &&
        base_catalog != nullptr) {
        // Nothing laid over the base, and no check that depends on options: the base as it is.
        return {*base_catalog, std::move(diagnostics), std::move(files), parsed, cached, {}};
    }
    CatalogLoad load = finish(
        base_catalog, std::move(fragments), std::move(files), std::move(diagnostics), checks);
    load.files_parsed = parsed;
    load.files_cached = cached;
    if (whole_set && no_diagnostics(load.diagnostics)) {
        store_catalog(cache, base, stamps, checks, limits, load.catalog);
    }
    return load;
}

} // namespace

CatalogLoad load_through_cache(const Catalog* base_catalog,
                               std::string_view base,
                               const std::vector<std::string>& paths,
                               const CheckOptions& checks,
                               const LoadLimits& limits,
                               const FileCache& cache) {
    CacheFolder folder(cache);
    CatalogLoad load = load_through(folder, base_catalog, base, paths, checks, limits);
    load.cache_notes = folder.finish();
    load.diagnostics.sort(); // (a load from the cache has the listing's diagnostics alone)
    return load;
}

CatalogLoad load_catalog_texts(std::span<const NamedText> texts,
                               const CheckOptions& checks,
                               const LoadLimits& limits,
                               const Catalog* base) {
    Diagnostics diagnostics;
    std::vector<CatalogFragment> fragments;
    std::vector<std::string> files;
    for (const NamedText& text : texts) {
        files.push_back(text.name);
        load_text(text.name, text.text, limits, fragments, diagnostics);
    }
    return finish(base, std::move(fragments), std::move(files), std::move(diagnostics), checks);
}

} // namespace gpuadvisor
