// One table model, rendered as an aligned terminal table, CSV or Markdown.
#pragma once

#include "io.hpp"

#include <string>
#include <vector>

namespace gpuadvisor::cli {

enum class Align { left, right };

struct Column {
    std::string header;
    Align align = Align::left;
};

struct Table {
    std::vector<Column> columns;
    std::vector<std::vector<std::string>> rows;
};

// Writes `table` in io.format (table, csv or markdown). Cells are made terminal-safe;
// an empty cell means "no value": '-' in tables and Markdown, empty in CSV.
void render_table(const Table& table, Io& io);

} // namespace gpuadvisor::cli
