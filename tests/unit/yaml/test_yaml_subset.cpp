// The subset reader (yaml_subset.cpp) against yaml-cpp's event parser: what it accepts must be
// the tree yaml-cpp gives, and what it leaves must go to yaml-cpp, diagnostics and all.
#include "test_helpers.hpp"
#include "yaml/yaml_reader.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>

using namespace gpuadvisor;

namespace {

// A tree with the storage it points into.
struct Tree {
    std::shared_ptr<YamlStorage> storage = std::make_shared<YamlStorage>();
    std::optional<YamlNode> root;

    bool operator==(const Tree& other) const { return root == other.root; }
    explicit operator bool() const { return root.has_value(); }
};

Tree events_tree(const std::string& text, const LoadLimits& limits = {}) {
    Diagnostics diagnostics;
    YamlDocument document = parse_yaml_events("t.yaml", text, limits, diagnostics);
    return {document.storage, document.root};
}

// The subset's tree: its texts point into `text`.
Tree subset_tree(const std::string& text, const LoadLimits& limits = {}) {
    Tree tree;
    tree.root = parse_yaml_subset(text, limits, *tree.storage);
    return tree;
}

std::string file_text(const std::filesystem::path& path) {
    std::ifstream file(path, std::ios::binary);
    std::stringstream bytes;
    bytes << file.rdbuf();
    return bytes.str();
}

// A catalog-like text from a seed: block and flow collections, quoted and plain scalars,
// comments, nulls, non-ASCII, and now and then something outside the subset.
std::string generated_text(std::mt19937& random) {
    static const std::vector<std::string> common = {
        "a",       "id", "名前",           "x y", "k-1", "-5",   "-.5", "1.5e3", "true",
        "null",    "~",  "http://a.b/c#d", "a:b", "a#b", "北京", "€",   "v2",    "'it''s'",
        "\"q r\"", "''"};
    static const std::vector<std::string> odd = {"<<",
                                                 "a #b",
                                                 "a,b",
                                                 "- a",
                                                 "?x",
                                                 ":x",
                                                 "%x",
                                                 "!x",
                                                 "&x",
                                                 "*x",
                                                 "|",
                                                 "\"a\\b\"",
                                                 "x:",
                                                 "a  "};
    const auto pick = [&](std::size_t n) {
        return std::uniform_int_distribution<std::size_t>(0, n - 1)(random);
    };
    const auto scalar = [&] {
        return pick(30) == 0 ? odd[pick(odd.size())] : common[pick(common.size())];
    };
    const auto flow = [&] {
        std::string text = pick(2) == 0 ? "{" : "[";
        const bool mapping = text == "{";
        for (std::size_t i = 0, n = pick(4); i < n; ++i) {
            text += (i > 0 ? ", " : "") + scalar() + (mapping ? ": " + scalar() : "");
        }
        return text + (mapping ? "}" : "]");
    };
    const auto value = [&] {
        return pick(4) == 0 ? flow() : scalar();
    };
    const auto comment = [&] {
        return pick(6) == 0 ? std::string(" # c") : std::string();
    };
    std::string text;
    std::function<void(std::size_t, int)> block = [&](std::size_t indent, int depth) {
        const std::string pad(indent, ' ');
        const bool sequence = depth > 0 && pick(3) == 0;
        for (std::size_t i = 0, n = 1 + pick(4); i < n; ++i) {
            const std::string head = sequence ? pad + "-" : pad + scalar() + ":";
            if (depth < 4 && pick(3) == 0) {
                text += head + comment() + "\n";
                block(indent + 2 + (pick(8) == 0 ? 1 : 0), depth + 1);
            } else if (sequence && depth < 4 && pick(3) == 0) {
                text += pad + "- " + scalar() + ": " + value() + "\n";
                text += pad + "  " + scalar() + ": " + value() + comment() + "\n";
            } else {
                text += head + " " + value() + comment() + "\n";
            }
            if (pick(10) == 0) {
                text += pick(2) == 0 ? "\n" : pad + "# a comment\n";
            }
        }
    };
    block(0, 0);
    return text;
}

} // namespace

TEST_CASE("yaml subset: every YAML file gpuadvisor ships is read in the subset as yaml-cpp reads "
          "it") {
    std::size_t files = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(GPUADVISOR_DATA)) {
        if (entry.path().extension() != ".yaml") {
            continue;
        }
        INFO(entry.path().string());
        const std::string text = file_text(entry.path());
        const Tree subset = subset_tree(text);
        REQUIRE(subset);
        CHECK(subset == events_tree(text));
        ++files;
    }
    CHECK(files >= 10);
}

TEST_CASE("yaml subset: the text it accepts is read as yaml-cpp reads it") {
    const std::vector<std::string> texts = {
        "schema_version: 1\nprovider:\n  id: p # the id\n  name: \"P, Inc.\"\n",
        "instances:\n  - id: a\n    regions:\n      - {region: r1, on_demand: 1.5}\n"
        "      - {region: r2, currency: CNY, spot: -0.5}\n  - id: b\n    tags: [x, 'y''s', \"\"]\n",
        "a: null\nb: ~\nc: NULL\nd: [null, ~]\ne: {f: Null}\n",
        // Near-nulls are text: a null is asked of yaml-cpp only for what might be one.
        "a: nul\nb: nulls\nc: NuLL\nd: [nUll, ~~, '~', \"null\"]\ne: {f: None, g: n, h: N}\n",
        "名前: 北京\nurl: https://example.com/a#b\n",
        "# head\n\nroot:\n\n  # inside\n  k: v   # trailing\nz: 'x'\n",
        "a: {b: {c: [1, [2, {d: e}]]}, f: []}\ng: {}\n",
        "- a\n- b: c\n  d: e\n-\n  f: g\n",
    };
    for (const std::string& text : texts) {
        INFO(text);
        const Tree events = events_tree(text);
        const Tree subset = subset_tree(text);
        REQUIRE(subset);
        CHECK(subset == events);
    }
}

TEST_CASE("yaml subset: what it does not read goes to yaml-cpp, with yaml-cpp's diagnostics") {
    std::string many_keys;
    for (int i = 0; i < 40; ++i) {
        many_keys += "k" + std::to_string(i) + ": 1\n";
    }
    const std::vector<std::string> texts = {"a:\tb\n",
                                            "a: 1\r\nb: 2\r\n",
                                            "a: &x 1\nb: *x\n",
                                            "a: !!str 1\n",
                                            "<<: {a: 1}\n",
                                            "a: 1\n---\nb: 2\n",
                                            "a: |\n  text\n",
                                            "a: two\n  lines\n",
                                            "a:\nb: 1\n",
                                            "a: [1,\n  2]\n",
                                            "a: \"x\\ny\"\n",
                                            "a: 1\na: 2\n",
                                            many_keys + "k7: 2\n",
                                            "a: 1\n b: 2\n",
                                            "a: [1, 2,]\n",
                                            "? a\n: b\n",
                                            "a: \"open\n",
                                            "",
                                            "# only a comment\n",
                                            "  a: 1\n",
                                            "a: {b: 1, b: 2}\n",
                                            "a: b # c\n\xC2\x85: d\n",
                                            "a:\n- 1\n",
                                            "k: a: b\n"};
    for (const std::string& text : texts) {
        INFO(text);
        CHECK_FALSE(subset_tree(text));
        Diagnostics both;
        Diagnostics events_only;
        const YamlDocument read = parse_yaml("t.yaml", text, LoadLimits{}, both);
        const YamlDocument events = parse_yaml_events("t.yaml", text, LoadLimits{}, events_only);
        CHECK(read.root == events.root);
        CHECK(test::describe(both) == test::describe(events_only));
    }
}

TEST_CASE("yaml subset: the limits on values, nesting and length are yaml-cpp's") {
    const std::string text = "a: {b: [1, 2]}\nc: xyz\n"; // 9 values, 3 deep, 3 bytes at most
    LoadLimits limits;
    limits.max_nodes = 9;
    limits.max_depth = 3;
    limits.max_scalar_bytes = 3;
    CHECK(subset_tree(text, limits) == events_tree(text, limits));
    CHECK(subset_tree(text, limits));
    LoadLimits fewer = limits;
    fewer.max_nodes = 8;
    LoadLimits shallower = limits;
    shallower.max_depth = 2;
    LoadLimits shorter = limits;
    shorter.max_scalar_bytes = 2;
    for (const LoadLimits& tighter : {fewer, shallower, shorter}) {
        CHECK_FALSE(subset_tree(text, tighter));
        CHECK_FALSE(events_tree(text, tighter)); // refused there, with its diagnostic
    }
}

TEST_CASE("yaml subset: generated texts it accepts are yaml-cpp's trees") {
    std::mt19937 random(7);
    std::size_t accepted = 0;
    const std::size_t texts = 600;
    for (std::size_t i = 0; i < texts; ++i) {
        const std::string text = generated_text(random);
        const Tree subset = subset_tree(text);
        if (subset) {
            INFO(text);
            CHECK(subset == events_tree(text));
            ++accepted;
        }
    }
    CHECK(accepted > texts / 4); // the subset is exercised, not just left
}
