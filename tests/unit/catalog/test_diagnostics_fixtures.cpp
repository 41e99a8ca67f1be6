// One fixture per diagnostic code: tests/fixtures/diagnostics/NAME.yaml, and the whole
// expected output (every diagnostic, position, message and hint) in NAME.expected.
// UPDATE_GOLDEN=1 rewrites the .expected files.
#include "test_helpers.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

using namespace gpuadvisor;

namespace {

std::vector<std::filesystem::path> fixtures() {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(test::fixture("diagnostics"))) {
        if (entry.path().extension() == ".yaml") {
            files.push_back(entry.path());
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

} // namespace

TEST_CASE("every diagnostics fixture gives exactly its expected diagnostics") {
    const auto files = fixtures();
    REQUIRE(files.size() >= 25);
    for (const auto& path : files) {
        CheckOptions checks = test::fixed_checks();
        if (path.stem().string().starts_with("stale-price")) {
            checks.max_age_days = 365;
        }
        const CatalogLoad load = load_catalog_over(&test::test_catalog(), {path.string()}, checks);
        // A message naming another file (an earlier definition) names it from {fixtures}.
        std::string actual = test::describe(load.diagnostics);
        const std::string root = test::fixture("");
        for (std::size_t at = actual.find(root); at != std::string::npos;
             at = actual.find(root, at)) {
            actual.replace(at, root.size(), "{fixtures}/");
        }
        auto expected_path = path;
        expected_path.replace_extension(".expected");
        if (std::getenv("UPDATE_GOLDEN") != nullptr) {
            std::ofstream(expected_path) << actual;
        }
        INFO("fixture " << path.filename().string());
        CHECK(!actual.empty());
        CHECK(actual == test::read_text(expected_path.string()));
    }
}

TEST_CASE("the fixture set covers every diagnostic code the loader can emit") {
    std::set<std::string> codes;
    for (const auto& path : fixtures()) {
        const std::string stem = path.stem().string();
        for (const char* code : {"syntax",
                                 "yaml-feature",
                                 "limit",
                                 "duplicate-key",
                                 "schema-version",
                                 "unknown-field",
                                 "missing-field",
                                 "null-value",
                                 "wrong-type",
                                 "bad-number",
                                 "out-of-range",
                                 "bad-value",
                                 "no-price",
                                 "unknown-gpu",
                                 "ambiguous-gpu",
                                 "duplicate-id",
                                 "alias-conflict",
                                 "unknown-region",
                                 "price-above-on-demand",
                                 "gpu-memory-mismatch",
                                 "reserved-order",
                                 "stale-price",
                                 "future-date",
                                 "unknown-reference",
                                 "discount-overlap",
                                 "discount-expired",
                                 "implausible-discount",
                                 "removed-row",
                                 "dropped-price",
                                 "nothing-to-remove",
                                 "implausible-bandwidth",
                                 "fp64-above-fp32",
                                 "sparse-figure",
                                 "implausible-interruption",
                                 "implausible-price"}) {
            if (stem.starts_with(code)) {
                codes.insert(code);
            }
        }
    }
    CHECK(codes.size() == 35);
}
