#include "gpuadvisor/assumptions.hpp"

#include "yaml/schema.hpp"
#include "yaml/yaml_reader.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

namespace gpuadvisor {

Assumptions::Assumptions() : Assumptions(std::map<std::string, Assumption, std::less<>>{}) {}

Assumptions::Assumptions(std::map<std::string, Assumption, std::less<>> values)
    : m_values(std::move(values)) {
    for (std::size_t i = 0; i < k_factor_names.size(); ++i) {
        const auto it = m_values.find(k_factor_names[i]);
        m_factors[i] =
            it != m_values.end() ? it->second.value : std::numeric_limits<double>::quiet_NaN();
    }
}

double Assumptions::get(Factor factor) const {
    const double value = m_factors[factor.index()];
    if (std::isnan(value)) { // values are read as numbers in [0, 1e15]: never NaN
        throw std::out_of_range(
            fmt::format("no assumption '{}' in data/assumptions.yaml", factor.name()));
    }
    return value;
}

namespace {

constexpr std::array<std::string_view, 2> k_top{"schema_version", "assumptions"};

// The file's contents past its top level.
void decode_assumptions(FieldReader& read, const YamlNode& root, AssumptionsLoad& load) {
    static constexpr std::array<std::string_view, 3> k_fields{"value", "unit", "source"};
    const YamlNode* all = read.value(root, "assumptions", "", Need::required);
    if (all != nullptr && all->kind != YamlNode::Kind::mapping) {
        load.diagnostics.error(read.pos(*all),
                               "wrong-type",
                               "assumptions: expected a mapping of names to {value, unit, source}");
    }
    std::map<std::string, Assumption, std::less<>> values;
    if (all != nullptr && all->kind == YamlNode::Kind::mapping) {
        for (const auto& [key, node] : all->entries) {
            const std::string path = "assumptions." + std::string(key.text);
            if (!read.mapping(node, path, "an assumption", k_fields)) {
                continue;
            }
            Assumption assumption;
            assumption.value =
                read.number(node, "value", path, Need::required, {0, true, 1e15}).value_or(0);
            assumption.unit = read.text(node, "unit", path, Need::required).value_or("");
            assumption.source = read.text(node, "source", path, Need::required).value_or("");
            values.emplace(key.text, std::move(assumption));
        }
    }
    load.assumptions = Assumptions(std::move(values));
}

} // namespace

AssumptionsLoad load_assumptions_text(const std::string& file, std::string_view text) {
    return load_data_file<AssumptionsLoad>(
        file, text, {"an assumptions file", k_top}, decode_assumptions);
}

} // namespace gpuadvisor
