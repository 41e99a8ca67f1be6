// Shared helpers for the unit tests: fixture paths and the frozen test catalog.
#pragma once

#include "gpuadvisor/catalog_io.hpp"

#include <fstream>
#include <sstream>
#include <string>

namespace gpuadvisor::test {

inline std::string fixture(const std::string& relative) {
    return std::string(GPUADVISOR_FIXTURES) + "/" + relative;
}

inline std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

// A fixed "today", so date checks do not depend on when the tests run.
inline CheckOptions fixed_checks() {
    CheckOptions checks;
    checks.today = *parse_date("2026-01-01");
    return checks;
}

// The frozen test catalog (tests/fixtures/catalog), loaded once.
inline const Catalog& test_catalog() {
    static const Catalog catalog =
        load_catalog_over(nullptr, {fixture("catalog")}, fixed_checks()).catalog;
    return catalog;
}

// Diagnostics as "line:col: severity[code]: message" (+ "  hint: ..." lines), file omitted.
inline std::string describe(const Diagnostics& diagnostics) {
    std::string text;
    for (const Diagnostic& d : diagnostics.items()) {
        text += std::to_string(d.pos.line) + ":" + std::to_string(d.pos.column) + ": " +
                std::string(to_string(d.severity)) + "[" + d.code + "]: " + d.message + "\n";
        if (!d.hint.empty()) {
            text += "  hint: " + d.hint + "\n";
        }
    }
    return text;
}

// Loads one YAML text over the test catalog.
inline CatalogLoad load_text(const std::string& text, const std::string& name = "t.yaml") {
    const NamedText file{name, text};
    return load_catalog_texts(std::span(&file, 1), fixed_checks(), {}, &test_catalog());
}

} // namespace gpuadvisor::test
