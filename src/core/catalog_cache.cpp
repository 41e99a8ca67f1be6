#include "catalog_cache.hpp"

#include "catalog_binary.hpp"
#include "content_hash.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <memory>
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
std::string entry_header(const std::string& path, std::string_view text, const LoadLimits& limits) {
    return fmt::format("{}\n{}\n{}\n{} {} {} {}\n{} {:016x}\n",
                       k_entry_magic,
                       GPUADVISOR_DECODER_ID,
                       path,
                       limits.max_file_bytes,
                       limits.max_depth,
                       limits.max_nodes,
                       limits.max_scalar_bytes,
                       text.size(),
                       xxh64(text));
}

bool usable(const FileCache& cache, std::string_view text) {
    return !cache.dir.empty() && text.size() >= cache.min_bytes;
}

struct FileCloser {
    void operator()(std::FILE* file) const { std::fclose(file); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

std::optional<std::string> read_entry(const std::string& entry, std::size_t max_bytes) {
    File file(std::fopen(entry.c_str(), "rb"));
    if (!file) {
        return std::nullopt;
    }
    std::string bytes;
    char buffer[1 << 16];
    std::size_t got = 0;
    while ((got = std::fread(buffer, 1, sizeof buffer, file.get())) > 0) {
        if (bytes.size() + got > max_bytes) {
            return std::nullopt;
        }
        bytes.append(buffer, got);
    }
    return std::ferror(file.get()) ? std::nullopt : std::optional(std::move(bytes));
}

} // namespace

std::string
cache_entry_path(const FileCache& cache, const std::string& path, const LoadLimits& limits) {
    if (cache.dir.empty()) {
        return {};
    }
    const std::string key = entry_header(path, {}, limits);
    return (std::filesystem::path(cache.dir) / fmt::format("{:016x}.bin", xxh64(key))).string();
}

std::optional<CatalogFragment> cached_fragment(const FileCache& cache,
                                               const std::string& path,
                                               std::string_view text,
                                               const LoadLimits& limits) {
    if (!usable(cache, text)) {
        return std::nullopt;
    }
    // A decoded file is never more than a few times its text; anything larger is corrupt.
    const auto bytes = read_entry(cache_entry_path(cache, path, limits), 4 * text.size() + 4096);
    const std::string header = entry_header(path, text, limits);
    if (!bytes || !bytes->starts_with(header)) {
        return std::nullopt;
    }
    return deserialize_fragment(std::string_view(*bytes).substr(header.size()));
}

void store_fragment(const FileCache& cache,
                    const std::string& path,
                    std::string_view text,
                    const LoadLimits& limits,
                    const CatalogFragment& fragment) {
    if (!usable(cache, text)) {
        return;
    }
    std::error_code error;
    std::filesystem::create_directories(cache.dir, error);
    const std::string entry = cache_entry_path(cache, path, limits);
    const std::string temporary = fmt::format("{}.{}.tmp", entry, ::getpid());
    const std::string bytes = entry_header(path, text, limits) + serialize_fragment(fragment);
    File file(std::fopen(temporary.c_str(), "wb"));
    if (!file) {
        return;
    }
    const bool written = std::fwrite(bytes.data(), 1, bytes.size(), file.get()) == bytes.size();
    const bool closed = std::fclose(file.release()) == 0;
    // Readers see the old entry or the whole new one, never a part.
    if (!written || !closed || std::rename(temporary.c_str(), entry.c_str()) != 0) {
        std::remove(temporary.c_str());
    }
}

} // namespace gpuadvisor
