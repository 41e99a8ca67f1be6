// Calendar dates (ISO 8601 YYYY-MM-DD), as days since 1970-01-01.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace gpuadvisor {

struct Date {
    int days = 0; // since 1970-01-01

    auto operator<=>(const Date&) const = default;
};

std::optional<Date> parse_date(std::string_view text);
std::string format_date(Date date);
Date today_utc();

} // namespace gpuadvisor
