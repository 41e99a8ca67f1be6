// One table model, rendered as an aligned terminal table, CSV or Markdown.
#pragma once

#include "io.hpp"

#include <string>
#include <string_view>
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

// Writes `table` in io.format (table, csv or markdown). Cells are made terminal-safe, in CSV
// too (csv_cell); an empty cell means "no value": '-' in tables and Markdown, empty in CSV.
void render_table(const Table& table, Io& io);

// One CSV field (RFC 4180): terminal-safe (text.hpp), quoted when it holds a comma, a quote
// or a line end, and a text cell a spreadsheet would evaluate as a formula ('=', '+', '-',
// '@', tab or CR first) prefixed with a single quote, as OWASP advises. A cell that is
// exactly a number ("-12.50", "-5%") is left as it is: it cannot be a formula.
std::string csv_cell(std::string_view cell);

} // namespace gpuadvisor::cli
