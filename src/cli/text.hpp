// Text that is safe to print: data from files may hold control or bidi characters.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace gpuadvisor::cli {

// A byte that is a printable ASCII character: safe to print as it is, one column wide, and
// needing no escape in JSON but for '"' and '\\' (most of what is shown).
inline bool printable_ascii(char c) {
    const auto byte = static_cast<unsigned char>(c);
    return byte >= 0x20 && byte < 0x7F;
}

// For terminals: C0/C1 controls, DEL and Unicode bidi controls become \u{XXXX} escapes
// ("\u{001B}"), and each byte that is not part of well-formed UTF-8 becomes \xXX ("\x9B":
// a lone 0x9B is a CSI to some terminals). Text from files and paths from the command line
// both pass through it; valid UTF-8 that is printable is left as it is.
std::string terminal_safe(std::string_view text);

// Display width in terminal columns (code points; wide East Asian characters count 2).
std::size_t display_width(std::string_view text);
// The length of the well-formed UTF-8 sequence at text[i] (1 to 4; RFC 3629), or 0 when the
// bytes there are not one.
std::size_t utf8_length(std::string_view text, std::size_t i);

// An exact amount with at least two decimals: "35.50", "32.7726".
std::string format_price(std::int64_t micros);

// An amount billed rounded half up (away from zero) to cents: "47848.00", "-12.35"; one under
// half a cent exactly ("0.000983"), so a priced amount never reads as free. Tables, CSV,
// Markdown and JSON's billed amounts (output.hpp billed_amount) all show totals through it.
std::string format_cents(std::int64_t micros);

} // namespace gpuadvisor::cli
