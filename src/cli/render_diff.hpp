// catalog diff's output: sections in a table, one row per change in CSV and Markdown, JSON.
#pragma once

#include "gpuadvisor/catalog_diff.hpp"
#include "io.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace gpuadvisor::cli {

struct DiffReport {
    std::string old_name;
    std::string new_name;
    std::vector<std::string> providers; // --provider's, sorted; empty: all
    CatalogDiff diff;
    std::optional<double> threshold; // percent; nullopt: no gate
    std::string direction = "both";  // up, down or both
    std::vector<bool> over;          // per price change: moved more than the threshold
    std::size_t exceeded = 0;        // how many did
};

// Each price change's move beyond the threshold (up, down or both): a change in the same
// currency whose percent is beyond it, or a change from a price of 0 to more (up). Prices
// that appeared, disappeared or changed currency have no percentage and do not count.
void mark_over_threshold(DiffReport& report);

// In io.format: table, CSV or Markdown (render_diff.cpp), JSON (render_diff_json.cpp).
void print_diff(const DiffReport& report, Io& io);
void write_diff_json(const DiffReport& report, Io& io);

} // namespace gpuadvisor::cli
