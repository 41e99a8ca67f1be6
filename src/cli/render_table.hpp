// One table model, rendered as an aligned terminal table, CSV or Markdown.
#pragma once

#include "io.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace gpuadvisor::cli {

enum class Align { left, right };

struct Column {
    std::string header;
    Align align = Align::left;
    // Prose (a reason, a basis, a note): in a terminal table wider than io.width, it wraps at
    // spaces onto continuation lines, down to k_min_prose columns; with less room than that
    // beside the others, it goes below its row, indented. Other columns are never cut.
    bool prose = false;
};

// The narrowest a prose column is wrapped to (or its own width, when narrower).
inline constexpr std::size_t k_min_prose = 20;

struct Table {
    std::vector<Column> columns;
    std::vector<std::vector<std::string>> rows;
};

// Writes `table` in io.format (table, csv or markdown). A terminal table fits in io.width (0:
// no limit) as far as its prose columns can wrap. Cells are made terminal-safe, in CSV
// too (csv_cell); an empty cell means "no value": '-' in tables and Markdown, empty in CSV.
void render_table(const Table& table, Io& io);

// One CSV field (RFC 4180): terminal-safe (text.hpp), quoted when it holds a comma, a quote
// or a line end, and a text cell a spreadsheet would evaluate as a formula ('=', '+', '-',
// '@', tab or CR first) prefixed with a single quote, as OWASP advises. A cell that is
// exactly a number ("-12.50", "-5%") is left as it is: it cannot be a formula.
std::string csv_cell(std::string_view cell);

// Text in lines of at most `width` columns, broken at spaces; a word wider than that is a line of
// its own, never cut. At least one line (empty for empty text).
std::vector<std::string> wrap_words(std::string_view text, std::size_t width);

// A line of prose under a table (a note, a warning), wrapped at spaces to io.width (0: as it
// is), each continuation line indented by 2; then a line end. The text is terminal-safe already.
void write_paragraph(std::string_view text, Io& io);

} // namespace gpuadvisor::cli
