// XXH64 (Yann Collet's xxHash, 64-bit variant, as specified in its xxhash_spec.md): the
// content hash that keys the catalog cache. Not cryptographic: it detects changed files, not
// forged ones.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace gpuadvisor {

std::uint64_t xxh64(std::string_view bytes, std::uint64_t seed = 0);

// XXH64 over bytes given piece by piece (a file read in blocks): the same value as xxh64 of
// all of them at once.
class Xxh64Stream {
  public:
    explicit Xxh64Stream(std::uint64_t seed = 0);
    void update(std::string_view bytes);
    std::uint64_t digest() const;

  private:
    std::uint64_t m_seed;
    std::array<std::uint64_t, 4> m_lanes{};
    std::uint64_t m_total = 0;
    std::array<char, 32> m_buffer{}; // a stripe begun but not complete
    std::size_t m_buffered = 0;
};

} // namespace gpuadvisor
