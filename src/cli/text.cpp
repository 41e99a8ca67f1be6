#include "text.hpp"

#include "gpuadvisor/units.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace gpuadvisor::cli {

namespace {

// Decodes one UTF-8 code point at text[i]; returns its length (1 for invalid bytes).
std::size_t decode(std::string_view text, std::size_t i, std::uint32_t& code) {
    const auto byte = static_cast<unsigned char>(text[i]);
    std::size_t length = 1;
    if (byte >= 0xF0) {
        length = 4, code = byte & 0x07u;
    } else if (byte >= 0xE0) {
        length = 3, code = byte & 0x0Fu;
    } else if (byte >= 0xC0) {
        length = 2, code = byte & 0x1Fu;
    } else {
        code = byte;
        return 1;
    }
    if (i + length > text.size()) {
        code = 0xFFFD;
        return 1;
    }
    for (std::size_t k = 1; k < length; ++k) {
        code = (code << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3Fu);
    }
    return length;
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
        if (is_unsafe(code)) {
            safe += fmt::format("\\u{{{:04X}}}", code);
        } else {
            safe.append(text.substr(i, length));
        }
        i += length;
    }
    return safe;
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
    const std::int64_t rounded =
        micros >= 0 ? (micros + 5000) / 10000 * 10000 : -((-micros + 5000) / 10000 * 10000);
    // An amount under half a cent is shown as it is, never as a free 0.00.
    return format_micros(rounded == 0 ? micros : rounded, 2);
}

} // namespace gpuadvisor::cli
