#include "util/content_hash.hpp"

#include <algorithm>
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

struct Lanes {
    std::uint64_t v1, v2, v3, v4;
};

Lanes start_lanes(std::uint64_t seed) {
    return {seed + k_prime1 + k_prime2, seed + k_prime2, seed, seed - k_prime1};
}

// One 32-byte stripe into the four lanes.
void stripe(Lanes& v, const char* p) {
    v.v1 = round(v.v1, read_le<std::uint64_t>(p));
    v.v2 = round(v.v2, read_le<std::uint64_t>(p + 8));
    v.v3 = round(v.v3, read_le<std::uint64_t>(p + 16));
    v.v4 = round(v.v4, read_le<std::uint64_t>(p + 24));
}

std::uint64_t converge(const Lanes& v) {
    std::uint64_t hash =
        std::rotl(v.v1, 1) + std::rotl(v.v2, 7) + std::rotl(v.v3, 12) + std::rotl(v.v4, 18);
    hash = merge_round(hash, v.v1);
    hash = merge_round(hash, v.v2);
    hash = merge_round(hash, v.v3);
    return merge_round(hash, v.v4);
}

// The last (under 32) bytes, then the avalanche.
std::uint64_t finish(std::uint64_t hash, const char* p, const char* end) {
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

} // namespace

Xxh64Stream::Xxh64Stream(std::uint64_t seed) : m_seed(seed) {
    const Lanes v = start_lanes(seed);
    m_lanes = {v.v1, v.v2, v.v3, v.v4};
}

void Xxh64Stream::update(std::string_view bytes) {
    const char* p = bytes.data();
    const char* const end = p + bytes.size();
    m_total += bytes.size();
    Lanes v{m_lanes[0], m_lanes[1], m_lanes[2], m_lanes[3]};
    if (m_buffered > 0) { // complete the stripe begun by the last piece
        const std::size_t take = std::min<std::size_t>(32 - m_buffered, bytes.size());
        std::memcpy(m_buffer.data() + m_buffered, p, take);
        m_buffered += take;
        p += take;
        if (m_buffered < 32) {
            return;
        }
        stripe(v, m_buffer.data());
        m_buffered = 0;
    }
    for (; end - p >= 32; p += 32) {
        stripe(v, p);
    }
    m_lanes = {v.v1, v.v2, v.v3, v.v4};
    m_buffered = static_cast<std::size_t>(end - p);
    std::memcpy(m_buffer.data(), p, m_buffered);
}

std::uint64_t Xxh64Stream::digest() const {
    const Lanes v{m_lanes[0], m_lanes[1], m_lanes[2], m_lanes[3]};
    std::uint64_t hash = m_total >= 32 ? converge(v) : m_seed + k_prime5;
    hash += m_total;
    return finish(hash, m_buffer.data(), m_buffer.data() + m_buffered);
}

std::uint64_t xxh64(std::string_view bytes, std::uint64_t seed) {
    Xxh64Stream stream(seed);
    stream.update(bytes);
    return stream.digest();
}

} // namespace gpuadvisor
