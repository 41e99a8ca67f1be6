// One table of names per enum, read to parse a name, to print a value, for the names a flag or
// a data file accepts (with did-you-mean) and for help text: each enum's names are spelled once.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace gpuadvisor {

template <class Enum> struct EnumName {
    Enum value;
    std::string_view name;
};

template <class Enum, std::size_t N> using EnumNames = std::array<EnumName<Enum>, N>;

// The name of `value`; the first entry's for a value the table lacks.
template <class Enum, std::size_t N>
constexpr std::string_view name_of(const EnumNames<Enum, N>& names, Enum value) {
    for (const EnumName<Enum>& entry : names) {
        if (entry.value == value) {
            return entry.name;
        }
    }
    return names.front().name;
}

// The value named exactly `text`, if any.
template <class Enum, std::size_t N>
constexpr std::optional<Enum> value_named(const EnumNames<Enum, N>& names, std::string_view text) {
    for (const EnumName<Enum>& entry : names) {
        if (entry.name == text) {
            return entry.value;
        }
    }
    return std::nullopt;
}

// The names alone, in the table's order.
template <class Enum, std::size_t N>
constexpr std::array<std::string_view, N> names_only(const EnumNames<Enum, N>& names) {
    std::array<std::string_view, N> result{};
    for (std::size_t i = 0; i < N; ++i) {
        result[i] = names[i].name;
    }
    return result;
}

} // namespace gpuadvisor
