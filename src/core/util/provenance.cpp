#include "gpuadvisor/provenance.hpp"

namespace gpuadvisor {

std::string_view to_string(Confidence confidence) {
    switch (confidence) {
    case Confidence::high:
        return "high";
    case Confidence::medium:
        return "medium";
    case Confidence::low:
        return "low";
    }
    return "high";
}

std::optional<Confidence> parse_confidence(std::string_view text) {
    for (const Confidence c : {Confidence::high, Confidence::medium, Confidence::low}) {
        if (to_string(c) == text) {
            return c;
        }
    }
    return std::nullopt;
}

} // namespace gpuadvisor
