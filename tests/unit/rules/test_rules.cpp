// The rule language: decoding, every diagnostic, evaluation, and the shipped rules.
#include "gpuadvisor/rules.hpp"
#include "test_helpers.hpp"

#include <catch2/catch.hpp>

using namespace gpuadvisor;

namespace {

RuleLoad rules_from(const std::string& text) {
    const NamedText file{"r.yaml", text};
    return load_rule_texts(std::span(&file, 1));
}

Facts training_facts(double params) {
    Facts facts;
    facts.set("kind", std::string("training"));
    facts.set("params", params);
    facts.set("interruptible", false);
    return facts;
}

} // namespace

TEST_CASE("rules decode: fields, operators, quantities, all / any / not") {
    const RuleLoad load = rules_from(R"(schema_version: 1
rules:
  - id: mid
    when: {kind: {in: [training, finetune]}, params: {between: [1B, 10B]}}
    prefer: {any: [{gpu: A100}, {not: {rdma: false}}], total_gpus: {at_most: 8}}
    weight: 2
    reason: "mid-size models"
    source: "test"
    as_of: 2025-01-01
)");
    INFO(test::describe(load.diagnostics));
    REQUIRE_FALSE(load.diagnostics.has_errors());
    REQUIRE(load.rules.size() == 1);
    const Rule& rule = load.rules[0];
    CHECK(rule.effect == RuleEffect::prefer);
    CHECK(rule.weight == 2);
    CHECK(describe(*rule.when) ==
          "kind in [training, finetune] and params from 1000000000 to below 10000000000");
    CHECK(describe(*rule.candidate) ==
          "(gpu is A100 or not (rdma is false)) and total_gpus at most 8");
    CHECK(holds(*rule.when, training_facts(7e9)));
    CHECK_FALSE(holds(*rule.when, training_facts(10e9))); // the upper bound is excluded
    CHECK_FALSE(holds(*rule.when, training_facts(0.5e9)));
    Facts candidate;
    candidate.set("gpu", std::string("A100-80GB")); // by family
    candidate.set("rdma", false);
    candidate.set("total_gpus", 8.0);
    CHECK(holds(*rule.candidate, candidate));
    candidate.set("gpu", std::string("A10G")); // "A100" is no prefix of it
    CHECK_FALSE(holds(*rule.candidate, candidate));
    candidate.set("rdma", true);
    CHECK(holds(*rule.candidate, candidate));
    Facts empty; // a field without a value never matches
    CHECK_FALSE(holds(*rule.when, empty));
}

TEST_CASE("rule files: each mistake has its diagnostic at its position") {
    const RuleLoad load = rules_from(R"(schema_version: 1
rules:
  - id: typo
    when: {knd: training}
    warn: "x"
    reason: "r"
    source: "s"
    as_of: 2025-01-01
  - id: scope
    when: {gpu: A100}
    warn: "x"
    reason: "r"
    source: "s"
    as_of: 2025-01-01
  - id: operator
    require: {total_gpus: {under: 8}}
    reason: "r"
    source: "s"
    as_of: 2025-01-01
  - id: two-effects
    require: {rdma: true}
    warn: "x"
    reason: "r"
    source: "s"
    as_of: 2025-01-01
  - id: range
    when: {params: {between: [10B, 1B]}}
    suggest: "x"
    reason: "r"
    source: "s"
    as_of: 2025-01-01
  - id: text-compare
    require: {provider: {above: aws}}
    reason: "r"
    source: "s"
    as_of: 2025-01-01
  - id: TYPO
    suggest: "x"
    source: "s"
    as_of: 2025-01-01
)");
    CHECK(test::describe(load.diagnostics) ==
          R"(4:12: error[unknown-field]: rules[typo].when: 'knd' is not a field a rule can test
  hint: did you mean 'kind'?
10:12: error[bad-value]: rules[scope].when: 'gpu' describes a candidate, not the workload
  hint: move it to 'require', 'prefer' or 'candidate'
16:28: error[unknown-field]: rules[operator].require.total_gpus: 'under' is not an operator
  hint: operators: equals, in, below, at_most, above, at_least, between
20:5: error[missing-field]: rules[two-effects]: a rule has exactly one of require, prefer, warn, suggest
  hint: give the effect the rule has when its 'when' holds
27:30: error[out-of-range]: rules[range].when.params.between: the range is empty
  hint: write [low, high] with low below high
33:26: error[bad-value]: rules[text-compare].require.provider.above: provider is not a number to compare
  hint: use equals or in
37:5: error[missing-field]: rules[TYPO]: the required field 'reason' is missing
  hint: see docs/catalog-format.md for the fields and their units
)");
}

TEST_CASE("rule ids are unique across files, ignoring case") {
    const std::vector<NamedText> files{
        {"a.yaml",
         "schema_version: 1\nrules:\n  - {id: x, warn: w, reason: r, source: s, as_of: "
         "2025-01-01}\n"},
        {"b.yaml",
         "schema_version: 1\nrules:\n  - {id: X, warn: w, reason: r, source: s, as_of: "
         "2025-01-01}\n"}};
    const RuleLoad load = load_rule_texts(files);
    CHECK(test::describe(load.diagnostics) ==
          "3:5: error[duplicate-id]: a second rule 'X' (the first is at a.yaml:3)\n"
          "  hint: rule ids are unique across every rule file, ignoring case\n");
}

TEST_CASE("the shipped rules load, cite sources, and name only GPUs the catalog has") {
    const std::vector<Rule>& rules = builtin_rules();
    REQUIRE(rules.size() >= 12);
    for (const Rule& rule : rules) {
        INFO(rule.id);
        CHECK_FALSE(rule.reason.empty());
        CHECK(rule.provenance.source.str().find("source document") != std::string::npos);
    }
    Diagnostics names;
    check_rule_names(rules, builtin_catalog(), names);
    CHECK(test::describe(names).empty());
    Diagnostics unknown;
    const RuleLoad typo = rules_from(
        "schema_version: 1\nrules:\n  - {id: t, prefer: {gpu: H1OO}, reason: r, source: s, "
        "as_of: 2025-01-01}\n");
    check_rule_names(typo.rules, builtin_catalog(), unknown);
    CHECK(test::describe(unknown).starts_with(
        "3:5: warning[unknown-reference]: rules[t]: no GPU in the catalog is 'H1OO'"));
}

TEST_CASE("rule shapes that would do nothing are refused") {
    const RuleLoad load = rules_from(R"(schema_version: 1
rules:
  - id: bool-in
    require: {rdma: {in: [true]}}
    reason: "r"
    source: "s"
    as_of: 2025-01-01
  - id: suggest-candidate
    suggest: "x"
    candidate: {rdma: true}
    reason: "r"
    source: "s"
    as_of: 2025-01-01
)");
    CHECK(test::describe(load.diagnostics) ==
          R"(4:22: error[bad-value]: rules[bool-in].require.rdma.in: rdma is true or false
  hint: write rdma: true (or false)
10:16: error[bad-value]: rules[suggest-candidate].candidate: only a warn rule names candidates this way
  hint: a suggestion is about the whole answer: remove 'candidate'
)");
}
