// The rule engine: the source documents' selection matrix and users' policies as data
// (data/rules/*.yaml, `--rules FILE`), evaluated against a workload and each candidate
// configuration (docs/rules.md).
#pragma once

#include "gpuadvisor/catalog.hpp"
#include "gpuadvisor/diagnostic.hpp"
#include "gpuadvisor/input.hpp"

#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace gpuadvisor {

// What a field describes: the workload (and what it requires), or one candidate.
enum class FieldScope { workload, candidate };
enum class FieldType { number, text, boolean };

struct FieldInfo {
    std::string_view name;
    FieldScope scope;
    FieldType type;
    std::string_view meaning;
};
// Every field a condition may name.
std::span<const FieldInfo> rule_fields();
const FieldInfo* find_rule_field(std::string_view name);

// A condition: all / any / not of others, or one field compared.
struct Condition {
    enum class Op { all, any, none, equals, in, below, at_most, above, at_least, between };
    Op op = Op::all;
    std::string field;
    std::vector<std::string> texts; // equals / in on text fields
    std::vector<double> numbers;    // below ... between (two: [low, high))
    bool boolean = false;           // equals on a boolean field
    std::vector<Condition> children;

    bool operator==(const Condition&) const = default;
};

enum class RuleEffect { require, prefer, warn, suggest };
std::string_view to_string(RuleEffect effect);

struct Rule {
    std::string id;
    std::optional<Condition> when; // on workload fields; absent: always
    RuleEffect effect = RuleEffect::warn;
    std::optional<Condition> candidate; // require / prefer (and optional for warn): which ones
    double weight = 1;                  // prefer: how much matching counts in the ranking
    std::string message;                // warn / suggest: the text shown
    std::string reason;                 // why, in words
    Provenance provenance;
    SourcePos origin;

    bool operator==(const Rule&) const = default;
};

// The values a condition is evaluated on.
using FactValue = std::variant<double, std::string, bool>;
class Facts {
  public:
    Facts() = default;
    // Facts that fall back to `parent` for fields they lack (a candidate's, to the workload's).
    explicit Facts(const Facts* parent) : m_parent(parent) {}

    void reserve(std::size_t fields) { m_values.reserve(fields); }

    void set(std::string_view field, FactValue value);
    // set() for a field not set yet: no search (the planner builds many facts).
    void add(std::string_view field, FactValue value) {
        m_values.emplace_back(std::string(field), std::move(value));
    }
    const FactValue* find(std::string_view field) const;

  private:
    // A handful of fields, looked up a few times each: a flat list beats a tree (the planner
    // builds one per configuration).
    std::vector<std::pair<std::string, FactValue>> m_values;
    const Facts* m_parent = nullptr;
};

// True if the condition holds. A field without a value never matches a comparison.
// `gpu` compares by family: "A100" matches A100-40GB and A100-80GB; "a10" does not match A10G.
bool holds(const Condition& condition, const Facts& facts);
// The condition in words: "gpu in [V100, A10] and total_gpus at most 1".
std::string describe(const Condition& condition);

struct RuleLoad {
    std::vector<Rule> rules;
    Diagnostics diagnostics;
    std::vector<std::string> files;
};
// Rule files (files or folders of *.yaml) in order; ids must be unique across all of them.
RuleLoad load_rule_files(const std::vector<std::string>& paths);
RuleLoad load_rule_texts(std::span<const NamedText> texts);
// data/rules/, checked at build time.
const std::vector<Rule>& builtin_rules();
// Warnings for names in rules that match nothing in the catalog (a GPU, provider, region).
void check_rule_names(const std::vector<Rule>& rules,
                      const Catalog& catalog,
                      Diagnostics& diagnostics);

} // namespace gpuadvisor
