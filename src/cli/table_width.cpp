#include "table_width.hpp"

#include <cstdlib>
#include <string_view>
#include <sys/ioctl.h>
#include <unistd.h>

namespace gpuadvisor::cli {

namespace {

constexpr std::size_t k_fallback_columns = 80;

} // namespace

std::optional<std::size_t> parse_columns(const char* text) {
    if (text == nullptr) {
        return std::nullopt;
    }
    const std::string_view digits(text);
    if (digits.empty() || digits.size() > 5) { // (k_max_columns has 5 digits)
        return std::nullopt;
    }
    std::size_t value = 0;
    for (const char c : digits) {
        if (c < '0' || c > '9') {
            return std::nullopt;
        }
        value = value * 10 + static_cast<std::size_t>(c - '0');
    }
    if (value == 0 || value > k_max_columns) {
        return std::nullopt;
    }
    return value;
}

std::size_t table_width(const WidthSources& sources) {
    if (sources.wide) {
        return k_no_width_limit;
    }
    if (const auto columns = parse_columns(sources.columns)) {
        return *columns;
    }
    if (!sources.terminal) {
        return k_no_width_limit;
    }
    return sources.terminal_columns > 0 ? sources.terminal_columns : k_fallback_columns;
}

std::size_t table_width(bool wide) {
    WidthSources sources{wide, std::getenv("COLUMNS"), ::isatty(STDOUT_FILENO) == 1, 0};
    if (winsize size{}; sources.terminal && ::ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0) {
        sources.terminal_columns = size.ws_col;
    }
    return table_width(sources);
}

} // namespace gpuadvisor::cli
