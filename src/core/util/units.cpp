#include "gpuadvisor/units.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>

namespace gpuadvisor {

namespace {

bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

std::size_t count_digits(std::string_view text, std::size_t from) {
    std::size_t i = from;
    while (i < text.size() && is_digit(text[i])) {
        ++i;
    }
    return i - from;
}

// The grammar -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? over the whole text.
bool is_strict_number_text(std::string_view text) {
    std::size_t i = text.starts_with('-') ? 1 : 0;
    const std::size_t integer = count_digits(text, i);
    if (integer == 0 || (integer > 1 && text[i] == '0')) {
        return false;
    }
    i += integer;
    if (i < text.size() && text[i] == '.') {
        const std::size_t fraction = count_digits(text, i + 1);
        if (fraction == 0) {
            return false;
        }
        i += 1 + fraction;
    }
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        if (i < text.size() && (text[i] == '+' || text[i] == '-')) {
            ++i;
        }
        const std::size_t exponent = count_digits(text, i);
        if (exponent == 0) {
            return false;
        }
        i += exponent;
    }
    return i == text.size();
}

} // namespace

std::optional<std::int64_t> parse_money_micros(std::string_view text) {
    const std::size_t integer = count_digits(text, 0);
    if (integer == 0 || integer > 12 || (integer > 1 && text[0] == '0')) {
        return std::nullopt;
    }
    std::int64_t micros = 0;
    for (std::size_t i = 0; i < integer; ++i) {
        micros = micros * 10 + (text[i] - '0');
    }
    micros *= Money::k_micros_per_unit;
    std::size_t i = integer;
    if (i == text.size()) {
        return micros;
    }
    if (text[i] != '.') {
        return std::nullopt;
    }
    const std::size_t fraction = count_digits(text, i + 1);
    if (fraction == 0 || i + 1 + fraction != text.size()) {
        return std::nullopt;
    }
    const std::string_view digits = text.substr(i + 1);
    std::int64_t scale = Money::k_micros_per_unit / 10;
    for (std::size_t k = 0; k < digits.size() && k < 6; ++k, scale /= 10) {
        micros += (digits[k] - '0') * scale;
    }
    if (digits.size() > 6) { // round half to even on the seventh digit and beyond
        const char next = digits[6];
        const bool rest_nonzero = digits.substr(7).find_first_not_of('0') != std::string_view::npos;
        const bool round_up = next > '5' || (next == '5' && (rest_nonzero || micros % 2 != 0));
        micros += round_up ? 1 : 0;
    }
    return micros;
}

std::string format_micros(std::int64_t micros, int min_decimals) {
    const bool negative = micros < 0;
    const std::uint64_t magnitude = negative ? static_cast<std::uint64_t>(-(micros + 1)) + 1
                                             : static_cast<std::uint64_t>(micros);
    // Written into a buffer (a table of offers formats thousands of prices): "-", 20 digits of
    // units at most, ".", six of the fraction.
    std::array<char, 32> text{};
    char* end = text.data();
    if (negative) {
        *end++ = '-';
    }
    end = std::to_chars(end, text.data() + text.size(), magnitude / 1'000'000).ptr;
    std::array<char, 6> fraction{};
    std::uint64_t rest = magnitude % 1'000'000;
    for (std::size_t k = fraction.size(); k-- > 0; rest /= 10) {
        fraction[k] = static_cast<char>('0' + rest % 10);
    }
    std::size_t kept = fraction.size(); // trailing zeros dropped, down to min_decimals
    while (kept > static_cast<std::size_t>(min_decimals) && fraction[kept - 1] == '0') {
        --kept;
    }
    if (kept > 0) {
        *end++ = '.';
        end = std::copy_n(fraction.data(), kept, end);
    }
    return {text.data(), end};
}

bool is_whole_number_text(std::string_view text) {
    const std::size_t sign = text.starts_with('-') ? 1 : 0;
    const std::size_t digits = count_digits(text, sign);
    return digits > 0 && sign + digits == text.size() && (digits == 1 || text[sign] != '0');
}

std::optional<double> parse_strict_number(std::string_view text) {
    if (!is_strict_number_text(text)) {
        return std::nullopt;
    }
    double value = 0;
    const auto* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc{} || ptr != end || !std::isfinite(value)) {
        return std::nullopt;
    }
    return value;
}

namespace {

struct Suffix {
    std::string_view name;
    double factor;
};

constexpr std::array k_count_suffixes{Suffix{"", 1},
                                      Suffix{"k", 1e3},
                                      Suffix{"m", 1e6},
                                      Suffix{"b", 1e9},
                                      Suffix{"g", 1e9},
                                      Suffix{"t", 1e12}};
constexpr std::array k_byte_suffixes{Suffix{"", 1},
                                     Suffix{"b", 1e-9},
                                     Suffix{"kb", 1e-6},
                                     Suffix{"mb", 1e-3},
                                     Suffix{"gb", 1},
                                     Suffix{"tb", 1e3},
                                     Suffix{"kib", 1024e-9},
                                     Suffix{"mib", 1048576e-9},
                                     Suffix{"gib", 1073741824e-9},
                                     Suffix{"tib", 1099511627776e-9}};
constexpr std::array k_duration_suffixes{
    Suffix{"", 1}, Suffix{"h", 1}, Suffix{"d", 24}, Suffix{"w", 168}};

template <std::size_t N>
std::optional<double> factor_of(std::string_view suffix, const std::array<Suffix, N>& table) {
    std::string lower;
    for (const char c : suffix) {
        lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    }
    for (const auto& entry : table) {
        if (entry.name == lower) {
            return entry.factor;
        }
    }
    return std::nullopt;
}

std::string_view accepted_suffixes(QuantityKind kind) {
    switch (kind) {
    case QuantityKind::count:
        return "a number, optionally with K, M, B or T (e.g. 7B, 1.5T)";
    case QuantityKind::bytes:
        return "a size in GB, or with B, KB, MB, GB, TB, KiB, MiB, GiB, TiB (e.g. 80GB)";
    case QuantityKind::duration_hours:
        return "a duration in hours, or with h, d or w (e.g. 12h, 30d)";
    }
    return "";
}

} // namespace

QuantityParse parse_quantity(std::string_view text, QuantityKind kind) {
    const auto fail = [&](std::string why) {
        return QuantityParse{std::nullopt,
                             fmt::format("{}; expected {}", why, accepted_suffixes(kind))};
    };
    if (text.starts_with('-')) {
        return fail(fmt::format("'{}' is negative", text));
    }
    std::size_t end = 0;
    while (end < text.size() && (is_digit(text[end]) || text[end] == '.')) {
        ++end;
    }
    // An exponent ("1e9", "2.5E+3"), when digits follow it: not a unit.
    if (end < text.size() && (text[end] == 'e' || text[end] == 'E')) {
        std::size_t exponent = end + 1;
        if (exponent < text.size() && (text[exponent] == '+' || text[exponent] == '-')) {
            ++exponent;
        }
        const std::size_t digits = count_digits(text, exponent);
        if (digits > 0) {
            end = exponent + digits;
        }
    }
    const std::string_view number = text.substr(0, end);
    const std::string_view suffix = text.substr(end);
    const auto value = parse_strict_number(number); // not .5, 016, 5.
    if (!value) {
        return fail(fmt::format("'{}' is not a number", text));
    }
    std::optional<double> factor;
    switch (kind) {
    case QuantityKind::count:
        factor = factor_of(suffix, k_count_suffixes);
        break;
    case QuantityKind::bytes:
        factor = factor_of(suffix, k_byte_suffixes);
        break;
    case QuantityKind::duration_hours:
        factor = factor_of(suffix, k_duration_suffixes);
        break;
    }
    if (!factor) {
        return fail(fmt::format("unknown unit '{}' in '{}'", suffix, text));
    }
    const double result = *value * *factor;
    if (!std::isfinite(result)) {
        return fail(fmt::format("'{}' is out of range", text));
    }
    return QuantityParse{result, {}};
}

std::string format_number(double value) {
    if (!std::isfinite(value)) {
        return "null";
    }
    std::array<char, 400> buffer{};
    // Shortest round-trip digits: plain below 10^15 (100000, not 1e+05), then exponent form.
    const auto format =
        std::abs(value) < 1e15 ? std::chars_format::fixed : std::chars_format::scientific;
    const auto [ptr, ec] =
        std::to_chars(buffer.data(), buffer.data() + buffer.size(), value, format);
    return ec == std::errc{} ? std::string(buffer.data(), ptr) : std::string("null");
}

std::string format_ms(double ms) {
    if (!std::isfinite(ms) || ms >= 9.95 || ms <= 0) {
        return fmt::format("{:.0f}", ms);
    }
    // Two significant digits of the value once rounded to them (0.996 is "1.0", not "1.00").
    const auto decimals = [](double x) {
        return 1 - static_cast<int>(std::floor(std::log10(x)));
    };
    const double scale = std::pow(10.0, decimals(ms));
    const double rounded = std::round(ms * scale) / scale;
    return fmt::format("{:.{}f}", rounded, decimals(rounded));
}

} // namespace gpuadvisor
