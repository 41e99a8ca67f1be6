#include "gpuadvisor/catalog_io.hpp"

#include "catalog_cache.hpp"
#include "catalog_checks.hpp"
#include "catalog_decode.hpp"
#include "helper_thread.hpp"
#include "yaml_reader.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <filesystem>
#include <system_error>
#include <thread>

namespace gpuadvisor {

namespace {

bool is_yaml_name(const std::filesystem::path& path) {
    const std::string extension = path.extension().string();
    return extension == ".yaml" || extension == ".yml";
}

// The files a path names: itself, or a folder's *.yaml and *.yml in name order.
std::vector<std::string> expand_path(const std::string& path, Diagnostics& diagnostics) {
    std::error_code error;
    if (!std::filesystem::is_directory(path, error)) {
        return {path};
    }
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(path, error)) {
        std::error_code entry_error;
        if (entry.is_regular_file(entry_error) && is_yaml_name(entry.path())) {
            files.push_back(entry.path().string());
        }
    }
    if (error) {
        diagnostics.error({path, 0, 0}, "io", "cannot list the folder: " + error.message());
    }
    std::sort(files.begin(), files.end());
    return files;
}

void load_text(const std::string& name,
               std::string_view text,
               const LoadLimits& limits,
               std::vector<CatalogFragment>& fragments,
               Diagnostics& diagnostics) {
    const YamlDocument document = parse_yaml(name, text, limits, diagnostics);
    fragments.push_back(decode_catalog(document, diagnostics));
}

bool clean(const Diagnostics& diagnostics) {
    return diagnostics.items().empty() && diagnostics.dropped() == 0;
}

// One file's part of a load: its fragment, from the cache or parsed, and what parsing said.
struct FileLoad {
    std::vector<CatalogFragment> fragment; // none, or the file's one
    Diagnostics diagnostics;
    bool parsed = false;
    std::exception_ptr error; // thrown while loading on a helper thread (out of memory)
};

// The file's fragment from the cache while the file is unchanged, else parsed. A clean file's
// fragment is kept in the cache, and used while the file is unchanged; a file with any
// diagnostic is parsed every time, so its report never goes stale. Kept here, on the thread
// that parsed it, so files are written while others are still parsed.
void load_file(const FileStamp& file,
               std::string_view text,
               const LoadLimits& limits,
               const FileCache& cache,
               FileLoad& load) {
    if (auto cached = cached_fragment(cache, file, limits)) {
        load.fragment.push_back(std::move(*cached));
        return;
    }
    load.parsed = true;
    load_text(file.path, text, limits, load.fragment, load.diagnostics);
    if (clean(load.diagnostics)) {
        store_fragment(cache, file, limits, load.fragment.front());
    }
}

// The i-th file's stamp: its size and hash when the cache is on, else its name alone.
FileStamp stamp_at(const std::vector<std::string>& files,
                   const std::vector<FileStamp>& stamps,
                   std::size_t i) {
    return stamps.empty() ? FileStamp{files[i]} : stamps[i];
}

// Below this many bytes in all, the files are read on the calling thread alone.
constexpr std::size_t k_bytes_for_threads = 256 * 1024;
constexpr std::size_t k_max_threads = 8;

// Threads to use on `files` totalling `bytes`: one below k_bytes_for_threads, else one per
// file up to one per core (at most k_max_threads).
std::size_t threads_for(std::size_t files, std::uintmax_t bytes) {
    return bytes < k_bytes_for_threads
               ? 1
               : std::max<std::size_t>(
                     1,
                     std::min<std::size_t>({files,
                                            std::max(1u, std::thread::hardware_concurrency()),
                                            k_max_threads}));
}

// Each file read, its fragment loaded (load_file), on several threads when there is enough to
// parse: each thread takes the next file not yet taken, and drops its text once loaded (peak
// memory stays near one copy of the files). Results in file order, as one thread gives them.
std::vector<FileLoad> load_files(const std::vector<std::string>& files,
                                 std::vector<std::optional<std::string>>& texts,
                                 const std::vector<FileStamp>& stamps,
                                 const LoadLimits& limits,
                                 const FileCache& cache) {
    std::vector<FileLoad> loads(files.size());
    std::size_t bytes = 0;
    std::size_t to_parse = 0;
    for (const auto& text : texts) {
        bytes += text ? text->size() : 0;
        to_parse += text ? 1U : 0U;
    }
    const std::size_t threads = threads_for(to_parse, bytes);
    std::atomic<std::size_t> next{0};
    run_on_threads(threads, [&](std::size_t /*thread*/) {
        for (std::size_t i = next++; i < files.size(); i = next++) {
            if (!texts[i]) {
                continue;
            }
            try {
                load_file(stamp_at(files, stamps, i), *texts[i], limits, cache, loads[i]);
            } catch (...) {
                loads[i].error = std::current_exception();
            }
            texts[i].reset(); // its fragment holds it now
        }
    });
    return loads;
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

std::vector<std::string> list_catalog_files(const std::vector<std::string>& paths) {
    Diagnostics ignored;
    std::vector<std::string> files;
    for (const std::string& path : paths) {
        const auto expanded = expand_path(path, ignored);
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
    std::atomic<std::size_t> next{0};
    run_on_threads(threads_for(files.size(), bytes), [&](std::size_t /*thread*/) {
        Diagnostics probe; // a file that cannot be read is reported by the usual path
        for (std::size_t i = next++; i < files.size(); i = next++) {
            try {
                stamps[i] = read_stamp(files[i], limits, probe);
            } catch (...) { // (out of memory) left unstamped: the usual path reads it
            }
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
std::optional<Catalog> cached_set(const FileCache& cache,
                                  std::string_view base,
                                  const std::vector<std::string>& files,
                                  const CheckOptions& checks,
                                  const LoadLimits& limits) {
    if (base.empty() || cache.dir.empty()) {
        return std::nullopt;
    }
    const auto stamps = read_stamps(files, limits);
    if (!stamps) {
        return std::nullopt;
    }
    return cached_catalog(cache, base, *stamps, checks, limits);
}

} // namespace

CatalogLoad load_through_cache(const Catalog* base_catalog,
                               std::string_view base,
                               const std::vector<std::string>& paths,
                               const CheckOptions& checks,
                               const LoadLimits& limits,
                               const FileCache& cache) {
    Diagnostics diagnostics;
    std::vector<std::string> files;
    for (const std::string& path : paths) {
        for (const std::string& file : expand_path(path, diagnostics)) {
            files.push_back(file);
        }
    }
    if (auto cached = diagnostics.has_errors() ? std::nullopt
                                               : cached_set(cache, base, files, checks, limits)) {
        const std::size_t all = files.size();
        return {std::move(*cached), std::move(diagnostics), std::move(files), 0, all};
    }
    std::vector<std::optional<std::string>> texts; // each file read once, kept until decoded
    for (const std::string& file : files) {
        texts.push_back(read_file_capped(file, limits, diagnostics));
    }
    std::vector<FileStamp> stamps; // the bytes read, hashed once for the cache
    if (!cache.dir.empty()) {
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
        return {*base_catalog, std::move(diagnostics), std::move(files), parsed, cached};
    }
    CatalogLoad load = finish(
        base_catalog, std::move(fragments), std::move(files), std::move(diagnostics), checks);
    load.files_parsed = parsed;
    load.files_cached = cached;
    if (whole_set && clean(load.diagnostics)) {
        store_catalog(cache, base, stamps, checks, limits, load.catalog);
    }
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
