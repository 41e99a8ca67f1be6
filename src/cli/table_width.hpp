// The width a human table is fitted to: --wide, COLUMNS, the terminal's width (docs/cli.md
// "Output").
#pragma once

#include <cstddef>
#include <optional>

namespace gpuadvisor::cli {

// No limit: the table is as wide as its widest row.
inline constexpr std::size_t k_no_width_limit = 0;
// The largest COLUMNS taken as a width; above it, a value is taken for a mistake.
inline constexpr std::size_t k_max_columns = 10'000;

// COLUMNS as a width: digits only, 1 to k_max_columns; nullopt otherwise (unset, empty, "0",
// "80x", "-5", "1e3", a number too large).
std::optional<std::size_t> parse_columns(const char* text);

struct WidthSources {
    bool wide = false;                // --wide
    const char* columns = nullptr;    // $COLUMNS (nullptr: not set)
    bool terminal = false;            // stdout is a terminal
    std::size_t terminal_columns = 0; // the terminal's width (0: not known)
};

// --wide: no limit. Else COLUMNS when it is a sane width, whether stdout is a terminal or not
// (`COLUMNS=100 gpuadvisor ... | less` asks for 100; a shell's own COLUMNS is not exported, so a
// plain pipe is not limited). Else, on a terminal, its width, or 80 when it does not say; not on
// a terminal, no limit.
std::size_t table_width(const WidthSources& sources);

// table_width from this process: COLUMNS from the environment, stdout's isatty and TIOCGWINSZ.
std::size_t table_width(bool wide);

} // namespace gpuadvisor::cli
