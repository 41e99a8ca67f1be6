// What every reader of files takes: limits on what it reads, and files already in memory.
#pragma once

#include "gpuadvisor/diagnostic.hpp"

#include <cstddef>
#include <optional>
#include <string>

namespace gpuadvisor {

// Limits on every file read (RELIABILITY.md). Defaults fit the largest real catalogs.
struct LoadLimits {
    std::size_t max_file_bytes = 64u << 20; // 64 MiB
    std::size_t max_depth = 64;
    std::size_t max_nodes = 8'000'000;
    std::size_t max_scalar_bytes = 4096;
};

// A file already in memory: its name for diagnostics, and its bytes.
struct NamedText {
    std::string name;
    std::string text;
};

// A file's bytes, read within `limits`' size cap after checking it is a regular file; nullopt
// with an `io` error at the file (not there, not a file, too large, unreadable) in diagnostics.
std::optional<std::string>
read_file_capped(const std::string& path, const LoadLimits& limits, Diagnostics& diagnostics);

} // namespace gpuadvisor
