#include "text.hpp"

#include "gpuadvisor/units.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace gpuadvisor::cli {

namespace {

constexpr std::uint32_t k_invalid = 0xFFFFFFFF; // a byte that starts no UTF-8 sequence

// The sequence a lead byte starts: its length (0: none), the smallest code point of that
// length (a smaller one is overlong) and the lead byte's bits of the code point.
struct Lead {
    std::size_t length = 0;
    std::uint32_t least = 0;
    std::uint32_t bits = 0;
};

Lead lead(unsigned char byte) {
    if (byte >= 0xC2 && byte <= 0xDF) {
        return {2, 0x80, byte & 0x1Fu};
    }
    if (byte >= 0xE0 && byte <= 0xEF) {
        return {3, 0x800, byte & 0x0Fu};
    }
    if (byte >= 0xF0 && byte <= 0xF4) {
        return {4, 0x10000, byte & 0x07u};
    }
    return {}; // a continuation byte, or 0xC0, 0xC1, 0xF5-0xFF, which start nothing
}

// Decodes one UTF-8 code point at text[i]; returns its length. A byte that does not start a
// well-formed sequence (a stray continuation byte, a truncated or overlong sequence, a
// surrogate, beyond U+10FFFF; RFC 3629) gives k_invalid and length 1.
std::size_t decode(std::string_view text, std::size_t i, std::uint32_t& code) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte < 0x80) {
        code = byte;
        return 1;
    }
    code = k_invalid;
    const Lead first = lead(byte);
    if (first.length == 0 || i + first.length > text.size()) {
        return 1;
    }
    std::uint32_t value = first.bits;
    for (std::size_t k = 1; k < first.length; ++k) {
        const auto next = static_cast<unsigned char>(text[i + k]);
        if ((next & 0xC0u) != 0x80u) {
            return 1;
        }
        value = (value << 6) | (next & 0x3Fu);
    }
    if (value < first.least || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF)) {
        return 1;
    }
    code = value;
    return first.length;
}

bool is_unsafe(std::uint32_t code) {
    const bool c0 = code < 0x20 || code == 0x7F;
    const bool c1 = code >= 0x80 && code < 0xA0;
    const bool bidi = (code >= 0x202A && code <= 0x202E) || (code >= 0x2066 && code <= 0x2069) ||
                      code == 0x200E || code == 0x200F || code == 0x061C;
    return c0 || c1 || bidi;
}

bool is_wide(std::uint32_t code) {
    return (code >= 0x1100 && code <= 0x115F) || (code >= 0x2E80 && code <= 0xA4CF) ||
           (code >= 0xAC00 && code <= 0xD7A3) || (code >= 0xF900 && code <= 0xFAFF) ||
           (code >= 0xFE30 && code <= 0xFE4F) || (code >= 0xFF00 && code <= 0xFF60) ||
           (code >= 0xFFE0 && code <= 0xFFE6) || (code >= 0x1F300 && code <= 0x1FAFF) ||
           (code >= 0x20000 && code <= 0x3FFFD);
}

} // namespace

std::string terminal_safe(std::string_view text) {
    if (std::all_of(text.begin(), text.end(), printable_ascii)) {
        return std::string(text); // nothing to escape
    }
    std::string safe;
    safe.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        std::uint32_t code = 0;
        const std::size_t length = decode(text, i, code);
        if (code == k_invalid) {
            safe += fmt::format("\\x{:02X}", static_cast<unsigned char>(text[i]));
        } else if (is_unsafe(code)) {
            safe += fmt::format("\\u{{{:04X}}}", code);
        } else {
            safe.append(text.substr(i, length));
        }
        i += length;
    }
    return safe;
}

std::size_t utf8_length(std::string_view text, std::size_t i) {
    std::uint32_t code = 0;
    const std::size_t length = decode(text, i, code);
    return code == k_invalid ? 0 : length;
}

std::size_t display_width(std::string_view text) {
    std::size_t width = 0;
    for (std::size_t i = 0; i < text.size();) {
        if (printable_ascii(text[i])) {
            ++width;
            ++i;
            continue;
        }
        std::uint32_t code = 0;
        i += decode(text, i, code);
        width += is_wide(code) ? 2U : 1U;
    }
    return width;
}

std::string format_price(std::int64_t micros) {
    return format_micros(micros, 2);
}

std::string format_cents(std::int64_t micros) {
    // Half a cent and more rounds away from zero: (|micros| + 5000) / 10000 cents, worked on
    // the magnitude in unsigned arithmetic so that no amount up to the int64 limits overflows.
    const bool negative = micros < 0;
    const std::uint64_t magnitude = negative ? static_cast<std::uint64_t>(-(micros + 1)) + 1
                                             : static_cast<std::uint64_t>(micros);
    const std::uint64_t cents = magnitude / 10'000 + (magnitude % 10'000 >= 5'000 ? 1 : 0);
    if (cents == 0) {
        return format_micros(micros, 2); // under half a cent: as it is, never a free 0.00
    }
    return fmt::format("{}{}.{:02}", negative ? "-" : "", cents / 100, cents % 100);
}

} // namespace gpuadvisor::cli
