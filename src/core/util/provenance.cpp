#include "gpuadvisor/provenance.hpp"

namespace gpuadvisor {

std::string_view to_string(Confidence confidence) {
    return name_of(k_confidence_names, confidence);
}

std::optional<Confidence> parse_confidence(std::string_view text) {
    return value_named(k_confidence_names, text);
}

} // namespace gpuadvisor
