// Text that is safe to print: data from files may hold control or bidi characters.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace gpuadvisor::cli {

// Replaces C0/C1 controls, DEL and Unicode bidi controls with \u{XXXX} escapes, for terminals.
std::string terminal_safe(std::string_view text);

// Display width in terminal columns (code points; wide East Asian characters count 2).
std::size_t display_width(std::string_view text);

// "32.77" style amount for tables: two decimals, or more where the price has them (to 4).
std::string format_price(std::int64_t micros);

} // namespace gpuadvisor::cli
