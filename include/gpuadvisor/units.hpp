// Quantities and money, parsed from text without locale and without floating-point drift.
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gpuadvisor {

// Money as integer millionths of a currency unit (exact for every list price).
struct Money {
    static constexpr std::int64_t k_micros_per_unit = 1'000'000;

    std::int64_t micros = 0;
    std::string currency; // ISO 4217, e.g. "USD"

    bool operator==(const Money&) const = default;
    double units() const { return static_cast<double>(micros) / k_micros_per_unit; }
};

// "32.7726" -> 32'772'600 micros. Plain decimal only (no sign, exponent, spaces);
// more than six decimals are rounded half to even. nullopt if malformed or over 1e12 units.
std::optional<std::int64_t> parse_money_micros(std::string_view text);

// Exact decimal text of a micro amount with at least `min_decimals` decimals and
// trailing zeros beyond that trimmed: (32772600, 2) -> "32.7726", (1500000, 2) -> "1.50".
std::string format_micros(std::int64_t micros, int min_decimals = 2);

// A strict number as written in a data file: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
// Finite only; nullopt otherwise (hex, leading zeros, units, NaN, inf, out of range).
std::optional<double> parse_strict_number(std::string_view text);

// A whole number as written in a data file or a count flag: -?(0|[1-9][0-9]*), digits only
// (not 8.0, 8e0, +8, 010, 0x8).
bool is_whole_number_text(std::string_view text);

enum class QuantityKind { count, bytes, duration_hours };

// Human quantities on the command line: "7B" (1e9), "1.5T", "80GB", "30d", "12h"; the number
// part is a strict number (parse_strict_number: not ".5", "016", "+7", "0x10").
// count: plain, or K/M/B/T suffix (10^3..10^12); bytes: B, KB, MB, GB, TB, KiB, MiB, GiB, TiB
// (a bare number is GB); duration_hours: h, d, w (a bare number is hours).
struct QuantityParse {
    std::optional<double> value;
    std::string error; // why it failed, for a usage message
};
QuantityParse parse_quantity(std::string_view text, QuantityKind kind);

// Shortest round-trip decimal text of a double, locale-independent ("19.5", "312", "0.25";
// "8.086e+22" from 10^15 up).
std::string format_number(double value);
// Milliseconds for prose and tables: whole from 10 up, else 2 significant digits ("1702",
// "2.5", "0.17"): estimates are not more precise than that.
std::string format_ms(double ms);

} // namespace gpuadvisor
