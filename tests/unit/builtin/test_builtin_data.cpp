// The built-in data files are compiled in as their text: what the binary loads equals data/.
#include "gpuadvisor/models.hpp"
#include "gpuadvisor/rules.hpp"
#include "test_helpers.hpp"

#include <catch2/catch.hpp>

using namespace gpuadvisor;

TEST_CASE("the built-in models and rules equal data/ read from its files") {
    const std::string models = test::read_text(std::string(GPUADVISOR_DATA) + "/models.yaml");
    const ModelLoad slow = load_models_text("data/models.yaml", models);
    REQUIRE(slow.diagnostics.items().empty());
    CHECK(builtin_models().models() == slow.catalog.models());
    const NamedText rules{"data/rules/selection.yaml",
                          test::read_text(std::string(GPUADVISOR_DATA) + "/rules/selection.yaml")};
    const RuleLoad slow_rules = load_rule_texts({&rules, 1});
    REQUIRE(slow_rules.diagnostics.items().empty());
    CHECK(builtin_rules() == slow_rules.rules);
}
