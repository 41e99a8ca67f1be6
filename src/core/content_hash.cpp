#include "content_hash.hpp"

#include <bit>
#include <cstring>

namespace gpuadvisor {

namespace {

constexpr std::uint64_t k_prime1 = 0x9E3779B185EBCA87ULL;
constexpr std::uint64_t k_prime2 = 0xC2B2AE3D27D4EB4FULL;
constexpr std::uint64_t k_prime3 = 0x165667B19E3779F9ULL;
constexpr std::uint64_t k_prime4 = 0x85EBCA77C2B2AE63ULL;
constexpr std::uint64_t k_prime5 = 0x27D4EB2F165667C5ULL;

// A little-endian word of 8 or 4 bytes (XXH64 reads its input little-endian).
template <class Word> std::uint64_t read_le(const char* p) {
    Word value = 0;
    std::memcpy(&value, p, sizeof value);
    if constexpr (std::endian::native == std::endian::big && sizeof(Word) == 8) {
        value = __builtin_bswap64(value);
    } else if constexpr (std::endian::native == std::endian::big) {
        value = __builtin_bswap32(value);
    }
    return value;
}

std::uint64_t round(std::uint64_t accumulator, std::uint64_t input) {
    accumulator += input * k_prime2;
    return std::rotl(accumulator, 31) * k_prime1;
}

std::uint64_t merge_round(std::uint64_t hash, std::uint64_t lane) {
    hash ^= round(0, lane);
    return hash * k_prime1 + k_prime4;
}

// The four-lane loop over 32-byte stripes; advances p.
std::uint64_t stripes(const char*& p, const char* end, std::uint64_t seed) {
    std::uint64_t v1 = seed + k_prime1 + k_prime2;
    std::uint64_t v2 = seed + k_prime2;
    std::uint64_t v3 = seed;
    std::uint64_t v4 = seed - k_prime1;
    for (; end - p >= 32; p += 32) {
        v1 = round(v1, read_le<std::uint64_t>(p));
        v2 = round(v2, read_le<std::uint64_t>(p + 8));
        v3 = round(v3, read_le<std::uint64_t>(p + 16));
        v4 = round(v4, read_le<std::uint64_t>(p + 24));
    }
    std::uint64_t hash =
        std::rotl(v1, 1) + std::rotl(v2, 7) + std::rotl(v3, 12) + std::rotl(v4, 18);
    hash = merge_round(hash, v1);
    hash = merge_round(hash, v2);
    hash = merge_round(hash, v3);
    return merge_round(hash, v4);
}

} // namespace

std::uint64_t xxh64(std::string_view bytes, std::uint64_t seed) {
    const char* p = bytes.data();
    const char* const end = p + bytes.size();
    std::uint64_t hash = bytes.size() >= 32 ? stripes(p, end, seed) : seed + k_prime5;
    hash += bytes.size();
    for (; end - p >= 8; p += 8) {
        hash ^= round(0, read_le<std::uint64_t>(p));
        hash = std::rotl(hash, 27) * k_prime1 + k_prime4;
    }
    if (end - p >= 4) {
        hash ^= read_le<std::uint32_t>(p) * k_prime1;
        hash = std::rotl(hash, 23) * k_prime2 + k_prime3;
        p += 4;
    }
    for (; p < end; ++p) {
        hash ^= static_cast<unsigned char>(*p) * k_prime5;
        hash = std::rotl(hash, 11) * k_prime1;
    }
    hash ^= hash >> 33;
    hash *= k_prime2;
    hash ^= hash >> 29;
    hash *= k_prime3;
    hash ^= hash >> 32;
    return hash;
}

} // namespace gpuadvisor
