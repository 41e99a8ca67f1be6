// Rule files: the same loading pipeline as catalog files, then a closed schema for rules
// and conditions (docs/rules.md).
#include "gpuadvisor/catalog_io.hpp"
#include "gpuadvisor/rules.hpp"
#include "gpuadvisor/spelling.hpp"
#include "yaml/schema.hpp"
#include "yaml/yaml_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>

namespace gpuadvisor {

namespace {

constexpr std::array<std::string_view, 2> k_top{"schema_version", "rules"};
constexpr std::array<std::string_view, 13> k_rule_fields{"id",
                                                         "when",
                                                         "require",
                                                         "prefer",
                                                         "warn",
                                                         "suggest",
                                                         "candidate",
                                                         "weight",
                                                         "reason",
                                                         "source",
                                                         "as_of",
                                                         "confidence",
                                                         "notes"};
constexpr std::array<std::pair<std::string_view, Condition::Op>, 7> k_operators{{
    {"equals", Condition::Op::equals},
    {"in", Condition::Op::in},
    {"below", Condition::Op::below},
    {"at_most", Condition::Op::at_most},
    {"above", Condition::Op::above},
    {"at_least", Condition::Op::at_least},
    {"between", Condition::Op::between},
}};

std::string hint_or(std::string hint, std::string fallback) {
    return hint.empty() ? fallback : hint;
}

std::vector<std::string> field_names() {
    std::vector<std::string> names{"all", "any", "not"};
    for (const FieldInfo& field : rule_fields()) {
        names.emplace_back(field.name);
    }
    return names;
}

class RuleDecoder {
  public:
    RuleDecoder(const std::string& file, Diagnostics& diagnostics) : m_read(file, diagnostics) {}

    std::vector<Rule> decode(const YamlNode& root);

  private:
    std::optional<Rule> rule(const YamlNode& node, const std::string& path);
    std::optional<Condition> condition(const YamlNode& node, const std::string& path, FieldScope);
    std::optional<Condition>
    compound(const YamlNode& key, const YamlNode& value, const std::string& path, FieldScope scope);
    std::optional<Condition>
    comparison(const FieldInfo& field, const YamlNode& value, const std::string& path);
    bool value_into(const FieldInfo& field,
                    const YamlNode& node,
                    const std::string& path,
                    Condition& out);
    void error(const YamlNode& node, std::string code, std::string message, std::string hint) {
        m_read.diagnostics().error(
            m_read.pos(node), std::move(code), std::move(message), std::move(hint));
    }

    FieldReader m_read;
};

// One value of a field's type into the condition.
bool RuleDecoder::value_into(const FieldInfo& field,
                             const YamlNode& node,
                             const std::string& path,
                             Condition& out) {
    if (!node.is_scalar()) {
        error(node, "wrong-type", fmt::format("{}: not a single value", path), "write a value");
        return false;
    }
    switch (field.type) {
    case FieldType::number: {
        const auto number =
            node.plain ? parse_quantity(node.text, QuantityKind::count).value : std::nullopt;
        if (!number) {
            error(node,
                  "bad-number",
                  fmt::format("{}: '{}' is not a number", path, node.text),
                  "write a plain number, or one with K, M, B or T (7B = 7e9)");
            return false;
        }
        out.numbers.push_back(*number);
        return true;
    }
    case FieldType::boolean:
        if (node.plain && (node.text == "true" || node.text == "false")) {
            out.boolean = node.text == "true";
            return true;
        }
        error(node,
              "bad-value",
              fmt::format("{}: '{}' is not true or false", path, node.text),
              fmt::format("{} is a yes/no field", field.name));
        return false;
    case FieldType::text:
        out.texts.emplace_back(node.text);
        return true;
    }
    return false;
}

std::optional<Condition>
RuleDecoder::comparison(const FieldInfo& field, const YamlNode& value, const std::string& path) {
    Condition c;
    c.field = std::string(field.name);
    c.op = Condition::Op::equals;
    if (value.is_scalar()) { // `kind: inference` is `kind: {equals: inference}`
        return value_into(field, value, path, c) ? std::optional(c) : std::nullopt;
    }
    if (value.kind != YamlNode::Kind::mapping || value.entries.size() != 1) {
        error(value,
              "wrong-type",
              fmt::format("{}: a comparison is one operator and its value", path),
              "e.g. {below: 1B}, {in: [A100, H100]}, {between: [1B, 10B]}");
        return std::nullopt;
    }
    const YamlNode& key = value.entries.front().key;
    const YamlNode& operand = value.entries.front().value;
    const auto op = std::find_if(
        k_operators.begin(), k_operators.end(), [&](const auto& o) { return o.first == key.text; });
    if (op == k_operators.end()) {
        std::vector<std::string> names;
        for (const auto& o : k_operators) {
            names.emplace_back(o.first);
        }
        error(key,
              "unknown-field",
              fmt::format("{}: '{}' is not an operator", path, key.text),
              hint_or(did_you_mean(nearest_names(key.text, names)),
                      "operators: equals, in, below, at_most, above, at_least, between"));
        return std::nullopt;
    }
    c.op = op->second;
    const std::string where = path + "." + std::string(key.text);
    const bool ordered = c.op != Condition::Op::equals && c.op != Condition::Op::in;
    if (c.op != Condition::Op::equals && field.type == FieldType::boolean) {
        error(key,
              "bad-value",
              fmt::format("{}: {} is true or false", where, field.name),
              fmt::format("write {}: true (or false)", field.name));
        return std::nullopt;
    }
    if (ordered && field.type != FieldType::number) {
        error(key,
              "bad-value",
              fmt::format("{}: {} is not a number to compare", where, field.name),
              "use equals or in");
        return std::nullopt;
    }
    const bool list = c.op == Condition::Op::in || c.op == Condition::Op::between;
    if (!list) {
        return value_into(field, operand, where, c) ? std::optional(c) : std::nullopt;
    }
    if (operand.kind != YamlNode::Kind::sequence || operand.items.empty() ||
        (c.op == Condition::Op::between && operand.items.size() != 2)) {
        error(operand,
              "wrong-type",
              fmt::format("{}: expected a list", where),
              c.op == Condition::Op::between ? "write [low, high]: low included, high not"
                                             : "write [a, b, ...]");
        return std::nullopt;
    }
    for (const YamlNode& item : operand.items) {
        if (!value_into(field, item, where, c)) {
            return std::nullopt;
        }
    }
    if (c.op == Condition::Op::between && !(c.numbers[0] < c.numbers[1])) {
        error(operand,
              "out-of-range",
              fmt::format("{}: the range is empty", where),
              "write [low, high] with low below high");
        return std::nullopt;
    }
    return c;
}

std::optional<Condition> RuleDecoder::compound(const YamlNode& key,
                                               const YamlNode& value,
                                               const std::string& path,
                                               FieldScope scope) {
    Condition c;
    c.op = key.text == "all"   ? Condition::Op::all
           : key.text == "any" ? Condition::Op::any
                               : Condition::Op::none;
    const std::string where = path + "." + std::string(key.text);
    if (key.text == "not") {
        auto child = condition(value, where, scope);
        if (!child) {
            return std::nullopt;
        }
        c.children.push_back(std::move(*child));
        return c;
    }
    if (value.kind != YamlNode::Kind::sequence || value.items.empty()) {
        error(value, "wrong-type", fmt::format("{}: expected a list of conditions", where), "");
        return std::nullopt;
    }
    for (std::size_t i = 0; i < value.items.size(); ++i) {
        auto child = condition(value.items[i], fmt::format("{}[{}]", where, i), scope);
        if (!child) {
            return std::nullopt;
        }
        c.children.push_back(std::move(*child));
    }
    return c;
}

// A mapping of field -> value or {operator: value}, and all / any / not; every entry holds.
std::optional<Condition>
RuleDecoder::condition(const YamlNode& node, const std::string& path, FieldScope scope) {
    if (node.kind != YamlNode::Kind::mapping || node.entries.empty()) {
        error(node,
              "wrong-type",
              fmt::format("{}: a condition is a mapping of fields", path),
              "e.g. {kind: training, params: {below: 1B}}");
        return std::nullopt;
    }
    Condition all;
    for (const auto& [key, value] : node.entries) {
        std::optional<Condition> part;
        if (key.text == "all" || key.text == "any" || key.text == "not") {
            part = compound(key, value, path, scope);
        } else if (const FieldInfo* field = find_rule_field(key.text)) {
            if (field->scope == FieldScope::candidate && scope == FieldScope::workload) {
                error(
                    key,
                    "bad-value",
                    fmt::format("{}: '{}' describes a candidate, not the workload", path, key.text),
                    "move it to 'require', 'prefer' or 'candidate'");
                return std::nullopt;
            }
            part = comparison(*field, value, path + "." + std::string(key.text));
        } else {
            error(key,
                  "unknown-field",
                  fmt::format("{}: '{}' is not a field a rule can test", path, key.text),
                  hint_or(did_you_mean(nearest_names(key.text, field_names())),
                          "see docs/rules.md for the fields"));
            return std::nullopt;
        }
        if (!part) {
            return std::nullopt;
        }
        all.children.push_back(std::move(*part));
    }
    if (all.children.size() == 1) {
        return std::move(all.children.front());
    }
    return all;
}

std::optional<Rule> RuleDecoder::rule(const YamlNode& node, const std::string& path) {
    const std::size_t before = m_read.diagnostics().error_count();
    if (!m_read.mapping(node, path, "a rule", k_rule_fields)) {
        return std::nullopt;
    }
    Rule rule;
    rule.origin = m_read.pos(node);
    rule.id = m_read.id(node, "id", path, Need::required).value_or("");
    if (const YamlNode* when = m_read.value(node, "when", path, Need::optional)) {
        rule.when = condition(*when, path + ".when", FieldScope::workload);
    }
    int effects = 0;
    for (const RuleEffect effect :
         {RuleEffect::require, RuleEffect::prefer, RuleEffect::warn, RuleEffect::suggest}) {
        const YamlNode* value = m_read.value(node, to_string(effect), path, Need::optional);
        if (value == nullptr) {
            continue;
        }
        ++effects;
        rule.effect = effect;
        const std::string where = path + "." + std::string(to_string(effect));
        if (effect == RuleEffect::require || effect == RuleEffect::prefer) {
            rule.candidate = condition(*value, where, FieldScope::candidate);
        } else {
            rule.message = m_read.text(node, to_string(effect), path, Need::required).value_or("");
        }
    }
    if (effects != 1) {
        error(node,
              "missing-field",
              fmt::format("{}: a rule has exactly one of require, prefer, warn, suggest", path),
              "give the effect the rule has when its 'when' holds");
    }
    if (const YamlNode* candidate = m_read.value(node, "candidate", path, Need::optional)) {
        if (rule.effect != RuleEffect::warn) {
            error(*candidate,
                  "bad-value",
                  fmt::format("{}.candidate: only a warn rule names candidates this way", path),
                  rule.effect == RuleEffect::suggest
                      ? "a suggestion is about the whole answer: remove 'candidate'"
                      : "the require / prefer condition already names them: remove 'candidate'");
        } else {
            rule.candidate = condition(*candidate, path + ".candidate", FieldScope::candidate);
        }
    }
    rule.weight = m_read.number(node, "weight", path, Need::optional, {0, false, 100}).value_or(1);
    rule.reason = m_read.text(node, "reason", path, Need::required).value_or("");
    rule.provenance = m_read.provenance(node, path);
    if (m_read.diagnostics().error_count() != before) {
        return std::nullopt;
    }
    return rule;
}

std::vector<Rule> RuleDecoder::decode(const YamlNode& root) {
    std::vector<Rule> rules;
    if (!m_read.mapping(root, "", "a rule file", k_top)) {
        return rules;
    }
    const YamlNode* version = m_read.value(root, "schema_version", "", Need::required);
    if (version != nullptr && !(version->is_scalar() && version->plain && version->text == "1")) {
        error(*version,
              "schema-version",
              fmt::format("schema_version {} is not supported", version->text),
              "this gpuadvisor reads rule files with schema_version 1");
        return rules;
    }
    if (const auto* list = m_read.list(root, "rules", "", Need::required)) {
        for (std::size_t i = 0; i < list->size(); ++i) {
            const YamlNode& node = (*list)[i];
            const YamlNode* id = node.kind == YamlNode::Kind::mapping ? node.find("id") : nullptr;
            const std::string path = id != nullptr && id->is_scalar()
                                         ? fmt::format("rules[{}]", id->text)
                                         : fmt::format("rules[{}]", i);
            if (auto rule = this->rule(node, path)) {
                rules.push_back(std::move(*rule));
            }
        }
    }
    return rules;
}

void check_unique_ids(const std::vector<Rule>& rules, Diagnostics& diagnostics) {
    std::map<std::string, const Rule*> seen;
    for (const Rule& rule : rules) {
        const auto [it, inserted] = seen.emplace(to_lower(rule.id), &rule);
        if (!inserted) {
            diagnostics.error(rule.origin,
                              "duplicate-id",
                              fmt::format("a second rule '{}' (the first is at {}:{})",
                                          rule.id,
                                          it->second->origin.file,
                                          it->second->origin.line),
                              "rule ids are unique across every rule file, ignoring case");
        }
    }
}

void load_one(const YamlDocument& document, RuleLoad& load) {
    load.files.push_back(document.file);
    if (!document.root) {
        return;
    }
    RuleDecoder decoder(document.file, load.diagnostics);
    for (Rule& rule : decoder.decode(*document.root)) {
        load.rules.push_back(std::move(rule));
    }
}

} // namespace

RuleLoad load_rule_texts(std::span<const NamedText> texts) {
    RuleLoad load;
    for (const NamedText& text : texts) {
        load_one(parse_yaml(text.name, text.text, LoadLimits{}, load.diagnostics), load);
    }
    check_unique_ids(load.rules, load.diagnostics);
    load.diagnostics.sort();
    return load;
}

RuleLoad load_rule_files(const std::vector<std::string>& paths) {
    RuleLoad load;
    for (const std::string& file : list_catalog_files(paths, &load.diagnostics)) {
        if (const auto text = read_file_capped(file, LoadLimits{}, load.diagnostics)) {
            load_one(parse_yaml(file, *text, LoadLimits{}, load.diagnostics), load);
        } else {
            load.files.push_back(file);
        }
    }
    check_unique_ids(load.rules, load.diagnostics);
    load.diagnostics.sort();
    return load;
}

} // namespace gpuadvisor
