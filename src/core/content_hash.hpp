// XXH64 (Yann Collet's xxHash, 64-bit variant, as specified in its xxhash_spec.md): the
// content hash that keys the catalog cache. Not cryptographic: it detects changed files, not
// forged ones.
#pragma once

#include <cstdint>
#include <string_view>

namespace gpuadvisor {

std::uint64_t xxh64(std::string_view bytes, std::uint64_t seed = 0);

} // namespace gpuadvisor
