// Efficiency factors and defaults of the sizing model (data/assumptions.yaml).
#pragma once

#include "gpuadvisor/diagnostic.hpp"

#include <map>
#include <string>
#include <string_view>

namespace gpuadvisor {

struct Assumption {
    double value = 0;
    std::string unit;
    std::string source;
};

class Assumptions {
  public:
    Assumptions() = default;
    explicit Assumptions(std::map<std::string, Assumption, std::less<>> values)
        : m_values(std::move(values)) {}

    // The value of a known factor; throws std::out_of_range for a name not in the data
    // (a programming error: tests load the shipped file and call every name).
    double get(std::string_view name) const;
    const std::map<std::string, Assumption, std::less<>>& all() const { return m_values; }

  private:
    std::map<std::string, Assumption, std::less<>> m_values;
};

struct AssumptionsLoad {
    Assumptions assumptions;
    Diagnostics diagnostics;
};
AssumptionsLoad load_assumptions_text(const std::string& file, std::string_view text);
const Assumptions& builtin_assumptions();

} // namespace gpuadvisor
