// Where a fact comes from: its source, date and how sure it is (every figure in data/ has one).
#pragma once

#include "gpuadvisor/date.hpp"
#include "gpuadvisor/enum_names.hpp"
#include "gpuadvisor/interned.hpp"

#include <optional>
#include <string_view>

namespace gpuadvisor {

enum class Confidence { high, medium, low };
inline constexpr EnumNames<Confidence, 3> k_confidence_names{
    {{Confidence::high, "high"}, {Confidence::medium, "medium"}, {Confidence::low, "low"}}};
std::string_view to_string(Confidence confidence);
std::optional<Confidence> parse_confidence(std::string_view text);

// Where a fact comes from.
struct Provenance {
    InternedText source;
    Date as_of;
    Confidence confidence = Confidence::high;
    InternedText notes;

    bool operator==(const Provenance&) const = default;
};

} // namespace gpuadvisor
