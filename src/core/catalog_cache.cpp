#include "catalog_cache.hpp"

#include "catalog_binary.hpp"
#include "content_hash.hpp"
#include "yaml_reader.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

#ifndef GPUADVISOR_DECODER_ID
#error "GPUADVISOR_DECODER_ID (version and a hash of the decoder's sources) comes from CMake"
#endif

namespace gpuadvisor {

namespace {

constexpr std::string_view k_entry_magic = "GPUADVK1";

// What an entry must match to be used: the build, the path as given (positions name it), the
// limits, and the file's size and content hash.
std::string entry_header(const FileStamp& file, const LoadLimits& limits) {
    return fmt::format("{}\n{}\n{}\n{} {} {} {}\n{} {:016x}\n",
                       k_entry_magic,
                       GPUADVISOR_DECODER_ID,
                       file.path,
                       limits.max_file_bytes,
                       limits.max_depth,
                       limits.max_nodes,
                       limits.max_scalar_bytes,
                       file.size,
                       file.hash);
}

bool usable(const FileCache& cache, std::uint64_t size) {
    return !cache.dir.empty() && size >= cache.min_bytes;
}

struct FileCloser {
    void operator()(std::FILE* file) const { std::fclose(file); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

// The whole entry, read in one piece (entries are megabytes: no growing buffer).
std::optional<std::string> read_entry(const std::string& entry, std::size_t max_bytes) {
    File file(std::fopen(entry.c_str(), "rb"));
    struct stat info {};
    if (!file || ::fstat(::fileno(file.get()), &info) != 0 || info.st_size < 0 ||
        static_cast<std::uintmax_t>(info.st_size) > max_bytes) {
        return std::nullopt;
    }
    std::string bytes(static_cast<std::size_t>(info.st_size) + 1, '\0');
    const std::size_t got = std::fread(bytes.data(), 1, bytes.size(), file.get());
    if (std::ferror(file.get()) || got != bytes.size() - 1) { // changed size meanwhile
        return std::nullopt;
    }
    bytes.resize(got);
    return bytes;
}

// Writes a whole entry (its header, then the body's two parts) or nothing: readers see the old
// entry or the new one, never a part. The pieces are written in turn, not joined first: a body
// is megabytes.
void write_entry(const FileCache& cache,
                 const std::string& entry,
                 std::string_view header,
                 const SerializedParts& body) {
    std::error_code error;
    std::filesystem::create_directories(cache.dir, error);
    const std::string temporary = fmt::format("{}.{}.tmp", entry, ::getpid());
    File file(std::fopen(temporary.c_str(), "wb"));
    if (!file) {
        return;
    }
    bool written = true;
    for (const std::string_view piece :
         {header, std::string_view(body.head), std::string_view(body.payload)}) {
        written = written && std::fwrite(piece.data(), 1, piece.size(), file.get()) == piece.size();
    }
    const bool closed = std::fclose(file.release()) == 0;
    if (!written || !closed || std::rename(temporary.c_str(), entry.c_str()) != 0) {
        std::remove(temporary.c_str());
    }
}

constexpr std::string_view k_set_magic = "GPUADVS1";

// What names a set entry: one per base, paths and options, whatever the build or content.
std::string set_name_key(std::string_view base,
                         const std::vector<FileStamp>& files,
                         const CheckOptions& checks,
                         const LoadLimits& limits) {
    std::string key = fmt::format("{}\n{}\n{} {} {} {}\n{}\n",
                                  k_set_magic,
                                  base,
                                  limits.max_file_bytes,
                                  limits.max_depth,
                                  limits.max_nodes,
                                  limits.max_scalar_bytes,
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

std::string set_entry_path(const FileCache& cache,
                           std::string_view base,
                           const std::vector<FileStamp>& files,
                           const CheckOptions& checks,
                           const LoadLimits& limits) {
    const std::uint64_t name = xxh64(set_name_key(base, files, checks, limits));
    return (std::filesystem::path(cache.dir) / fmt::format("set-{:016x}.bin", name)).string();
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

std::optional<Catalog> cached_catalog(const FileCache& cache,
                                      std::string_view base,
                                      const std::vector<FileStamp>& files,
                                      const CheckOptions& checks,
                                      const LoadLimits& limits) {
    const std::uint64_t size = total_size(files);
    if (files.empty() || !usable(cache, size)) {
        return std::nullopt;
    }
    const std::string header = set_header(base, files, checks, limits);
    const auto bytes =
        read_entry(set_entry_path(cache, base, files, checks, limits), 4 * size + (1u << 20));
    if (!bytes || !bytes->starts_with(header)) {
        return std::nullopt;
    }
    return deserialize_catalog(std::string_view(*bytes).substr(header.size()));
}

void store_catalog(const FileCache& cache,
                   std::string_view base,
                   const std::vector<FileStamp>& files,
                   const CheckOptions& checks,
                   const LoadLimits& limits,
                   const Catalog& catalog) {
    if (files.empty() || !usable(cache, total_size(files))) {
        return;
    }
    write_entry(cache,
                set_entry_path(cache, base, files, checks, limits),
                set_header(base, files, checks, limits),
                serialize_catalog_parts(catalog));
}

std::string
cache_entry_path(const FileCache& cache, const std::string& path, const LoadLimits& limits) {
    if (cache.dir.empty()) {
        return {};
    }
    // Named by path and limits only, not by build or content: a new build or an edited file
    // overwrites the old entry, so the cache holds one entry per file.
    const std::string key = fmt::format("{}\n{}\n{} {} {} {}\n",
                                        k_entry_magic,
                                        path,
                                        limits.max_file_bytes,
                                        limits.max_depth,
                                        limits.max_nodes,
                                        limits.max_scalar_bytes);
    return (std::filesystem::path(cache.dir) / fmt::format("{:016x}.bin", xxh64(key))).string();
}

std::optional<CatalogFragment>
cached_fragment(const FileCache& cache, const FileStamp& file, const LoadLimits& limits) {
    if (!usable(cache, file.size)) {
        return std::nullopt;
    }
    // A decoded file is never more than a few times its text; anything larger is corrupt.
    const auto bytes = read_entry(cache_entry_path(cache, file.path, limits), 4 * file.size + 4096);
    const std::string header = entry_header(file, limits);
    if (!bytes || !bytes->starts_with(header)) {
        return std::nullopt;
    }
    return deserialize_fragment(std::string_view(*bytes).substr(header.size()));
}

void store_fragment(const FileCache& cache,
                    const FileStamp& file,
                    const LoadLimits& limits,
                    const CatalogFragment& fragment) {
    if (!usable(cache, file.size)) {
        return;
    }
    write_entry(cache,
                cache_entry_path(cache, file.path, limits),
                entry_header(file, limits),
                serialize_fragment_parts(fragment));
}

} // namespace gpuadvisor
