#include "gpuadvisor/date.hpp"

#include <fmt/format.h>

#include <charconv>
#include <chrono>

namespace gpuadvisor {

namespace {

bool parse_digits(std::string_view text, int& value) {
    const auto* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    return ec == std::errc{} && ptr == end;
}

} // namespace

std::optional<Date> parse_date(std::string_view text) {
    if (text.size() != 10 || text[4] != '-' || text[7] != '-') {
        return std::nullopt;
    }
    for (const std::size_t i : {0U, 1U, 2U, 3U, 5U, 6U, 8U, 9U}) {
        if (text[i] < '0' || text[i] > '9') {
            return std::nullopt;
        }
    }
    int year = 0;
    int month = 0;
    int day = 0;
    if (!parse_digits(text.substr(0, 4), year) || !parse_digits(text.substr(5, 2), month) ||
        !parse_digits(text.substr(8, 2), day)) {
        return std::nullopt;
    }
    const std::chrono::year_month_day ymd{std::chrono::year{year},
                                          std::chrono::month{static_cast<unsigned>(month)},
                                          std::chrono::day{static_cast<unsigned>(day)}};
    if (!ymd.ok() || year < 1970) {
        return std::nullopt;
    }
    return Date{static_cast<int>(std::chrono::sys_days{ymd}.time_since_epoch().count())};
}

std::string format_date(Date date) {
    const std::chrono::year_month_day ymd{std::chrono::sys_days{std::chrono::days{date.days}}};
    return fmt::format("{:04}-{:02}-{:02}",
                       static_cast<int>(ymd.year()),
                       static_cast<unsigned>(ymd.month()),
                       static_cast<unsigned>(ymd.day()));
}

Date today_utc() {
    const auto now = std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now());
    return Date{static_cast<int>(now.time_since_epoch().count())};
}

} // namespace gpuadvisor
