// The built-in data files are compiled in as parsed trees: the trees round-trip exactly, a
// damaged tree is refused, and the compiled data equal data/ loaded through the YAML parser.
#include "data/data_documents.hpp"
#include "pricing/pricing_documents.hpp"
#include "rules/rule_documents.hpp"
#include "test_helpers.hpp"
#include "yaml/yaml_tree_binary.hpp"

#include <catch2/catch.hpp>

using namespace gpuadvisor;

namespace {

YamlDocument parse_data_file(const std::string& relative) {
    const std::string path = std::string(GPUADVISOR_DATA) + "/" + relative;
    Diagnostics diagnostics;
    YamlDocument document =
        parse_yaml("data/" + relative, test::read_text(path), LoadLimits{}, diagnostics);
    REQUIRE(diagnostics.items().empty());
    return document;
}

bool same_tree(const YamlNode& a, const YamlNode& b) {
    if (a.kind != b.kind || a.line != b.line || a.column != b.column || a.plain != b.plain ||
        a.text != b.text || a.items.size() != b.items.size() ||
        a.entries.size() != b.entries.size()) {
        return false;
    }
    for (std::size_t i = 0; i < a.items.size(); ++i) {
        if (!same_tree(a.items[i], b.items[i])) {
            return false;
        }
    }
    for (std::size_t i = 0; i < a.entries.size(); ++i) {
        if (!same_tree(a.entries[i].key, b.entries[i].key) ||
            !same_tree(a.entries[i].value, b.entries[i].value)) {
            return false;
        }
    }
    return true;
}

} // namespace

TEST_CASE("every data file's tree survives the round trip through bytes") {
    for (const char* file : {"models.yaml",
                             "assumptions.yaml",
                             "fx.yaml",
                             "pricing.yaml",
                             "tco.yaml",
                             "rules/selection.yaml"}) {
        INFO(file);
        const YamlDocument parsed = parse_data_file(file);
        const auto back = deserialize_document(serialize_document(parsed));
        REQUIRE(back);
        CHECK(back->file == parsed.file);
        REQUIRE(back->root);
        CHECK(same_tree(*back->root, *parsed.root));
    }
}

TEST_CASE("a truncated or damaged tree is refused, never half read") {
    const std::string bytes = serialize_document(parse_data_file("fx.yaml"));
    for (std::size_t size = 0; size < bytes.size(); size += 37) {
        CHECK_FALSE(deserialize_document(std::string_view(bytes).substr(0, size)));
    }
    CHECK_FALSE(deserialize_document(bytes + "x"));
    std::string bad_kind = bytes;
    // The root node's kind byte follows the magic, the file name and the root flag.
    bad_kind[8 + 4 + std::string("data/fx.yaml").size() + 4] = 9;
    CHECK_FALSE(deserialize_document(bad_kind));
}

TEST_CASE("the compiled models and rules equal data/ through the YAML parser") {
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
