#include "catalog/catalog_cache.hpp"

#include "catalog/catalog_binary.hpp"
#include "util/content_hash.hpp"
#include "yaml/yaml_reader.hpp"

#include <fmt/format.h>

#include <filesystem>

#ifndef GPUADVISOR_DECODER_ID
#error "GPUADVISOR_DECODER_ID (version and a hash of the decoder's sources) comes from CMake"
#endif

namespace gpuadvisor {

namespace {

// Version 2: named by content, the body's checksum seeded with the header's hash.
constexpr std::string_view k_entry_magic = "GPUADVK2";

std::string limits_text(const LoadLimits& limits) {
    return fmt::format("{} {} {} {}",
                       limits.max_file_bytes,
                       limits.max_depth,
                       limits.max_nodes,
                       limits.max_scalar_bytes);
}

// What an entry must match to be used: the build, the limits, and the file's size and content
// hash. Not its path: two spellings of one file share the entry, and positions are renamed to
// the path as given when it is read.
std::string entry_header(const FileStamp& file, const LoadLimits& limits) {
    return fmt::format("{}\n{}\n{}\n{} {:016x}\n",
                       k_entry_magic,
                       GPUADVISOR_DECODER_ID,
                       limits_text(limits),
                       file.size,
                       file.hash);
}

// Named by content and limits, not by build: a new build overwrites the old build's entries.
std::string entry_name(const FileStamp& file, const LoadLimits& limits) {
    const std::string key = fmt::format(
        "{}\n{}\n{} {:016x}\n", k_entry_magic, limits_text(limits), file.size, file.hash);
    return fmt::format("{:016x}.bin", xxh64(key));
}

// The seed of an entry's body checksum: the header's hash, so that the checksum covers the
// whole entry and a header laid on another entry's body is refused.
std::uint64_t seed_of(std::string_view header) {
    return xxh64(header);
}

// Writes an entry: its header, then its body seeded by the header (catalog_binary.hpp).
void write_entry(CacheFolder& cache,
                 const std::string& name,
                 std::string_view header,
                 const SerializedParts& body) {
    cache.write(name, {header, body.head, body.payload});
}

constexpr std::string_view k_set_magic = "GPUADVS2";

// What names a set entry: one per base, paths as given and options, whatever the build or
// content (an edit rewrites it in place). The paths as given, unlike a file's entry: the merged
// catalog holds the base's positions beside each file's, and a file's could not be renamed
// safely to another spelling (the base may have a file of the same name).
std::string set_name_key(std::string_view base,
                         const std::vector<FileStamp>& files,
                         const CheckOptions& checks,
                         const LoadLimits& limits) {
    std::string key = fmt::format("{}\n{}\n{}\n{}\n",
                                  k_set_magic,
                                  base,
                                  limits_text(limits),
                                  checks.max_age_days.value_or(-1));
    for (const FileStamp& file : files) {
        key += file.path;
        key += '\n';
    }
    return key;
}

// What a set entry must match to be used: its name's key, the build, today, every file.
std::string set_header(std::string_view base,
                       const std::vector<FileStamp>& files,
                       const CheckOptions& checks,
                       const LoadLimits& limits) {
    std::string header = set_name_key(base, files, checks, limits);
    header += fmt::format("{}\ntoday {}\n", GPUADVISOR_DECODER_ID, checks.today.days);
    for (const FileStamp& file : files) {
        header += fmt::format("{} {:016x}\n", file.size, file.hash);
    }
    return header + "end\n";
}

std::string set_entry_name(std::string_view base,
                           const std::vector<FileStamp>& files,
                           const CheckOptions& checks,
                           const LoadLimits& limits) {
    return fmt::format("set-{:016x}.bin", xxh64(set_name_key(base, files, checks, limits)));
}

std::uint64_t total_size(const std::vector<FileStamp>& files) {
    std::uint64_t total = 0;
    for (const FileStamp& file : files) {
        total += file.size;
    }
    return total;
}

} // namespace

FileStamp stamp_of(const std::string& path, std::string_view text) {
    return {path, text.size(), xxh64(text)};
}

std::optional<FileStamp>
read_stamp(const std::string& path, const LoadLimits& limits, Diagnostics& diagnostics) {
    Xxh64Stream hash;
    std::uint64_t size = 0;
    const bool read = read_file_blocks(
        path,
        limits,
        diagnostics,
        [](std::uintmax_t) {},
        [&](std::string_view block) {
            hash.update(block);
            size += block.size();
        });
    return read ? std::optional(FileStamp{path, size, hash.digest()}) : std::nullopt;
}

std::optional<Catalog> cached_catalog(CacheFolder& cache,
                                      std::string_view base,
                                      const std::vector<FileStamp>& files,
                                      const CheckOptions& checks,
                                      const LoadLimits& limits) {
    const std::uint64_t size = total_size(files);
    if (files.empty() || !cache.wanted(size)) {
        return std::nullopt;
    }
    const std::string header = set_header(base, files, checks, limits);
    const auto bytes =
        cache.read(set_entry_name(base, files, checks, limits), 4 * size + (1u << 20));
    if (!bytes || !bytes->starts_with(header)) {
        return std::nullopt;
    }
    return deserialize_catalog(std::string_view(*bytes).substr(header.size()), seed_of(header));
}

void store_catalog(CacheFolder& cache,
                   std::string_view base,
                   const std::vector<FileStamp>& files,
                   const CheckOptions& checks,
                   const LoadLimits& limits,
                   const Catalog& catalog) {
    if (files.empty() || !cache.wanted(total_size(files))) {
        return;
    }
    const std::string header = set_header(base, files, checks, limits);
    write_entry(cache,
                set_entry_name(base, files, checks, limits),
                header,
                serialize_catalog_parts(catalog, seed_of(header)));
}

std::string
cache_entry_path(const FileCache& cache, const FileStamp& file, const LoadLimits& limits) {
    if (cache.dir.empty()) {
        return {};
    }
    return (std::filesystem::path(cache.dir) / entry_name(file, limits)).string();
}

std::optional<CatalogFragment>
cached_fragment(CacheFolder& cache, const FileStamp& file, const LoadLimits& limits) {
    if (!cache.wanted(file.size)) {
        return std::nullopt;
    }
    // A decoded file is never more than a few times its text; anything larger is corrupt.
    const auto bytes = cache.read(entry_name(file, limits), 4 * file.size + 4096);
    const std::string header = entry_header(file, limits);
    if (!bytes || !bytes->starts_with(header)) {
        return std::nullopt;
    }
    auto fragment =
        deserialize_fragment(std::string_view(*bytes).substr(header.size()), seed_of(header));
    if (fragment) {
        rename_origins(*fragment, file.path); // stored under another spelling, perhaps
    }
    return fragment;
}

void store_fragment(CacheFolder& cache,
                    const FileStamp& file,
                    const LoadLimits& limits,
                    const CatalogFragment& fragment) {
    if (!cache.wanted(file.size)) {
        return;
    }
    const std::string header = entry_header(file, limits);
    write_entry(cache,
                entry_name(file, limits),
                header,
                serialize_fragment_parts(fragment, seed_of(header)));
}

} // namespace gpuadvisor
