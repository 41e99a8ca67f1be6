#include "render_table.hpp"

#include "text.hpp"

#include <algorithm>
#include <ostream>

namespace gpuadvisor::cli {

namespace {

// A cell that is exactly a number ("-5", "-12.50", "-5%"): a spreadsheet reads it as that
// number, never as a formula, so it keeps its sign as it is.
bool plain_number(std::string_view cell) {
    if (cell.starts_with('-')) {
        cell.remove_prefix(1);
    }
    if (cell.ends_with('%')) {
        cell.remove_suffix(1);
    }
    const std::size_t point = cell.find('.');
    const auto digits = [](std::string_view part) {
        return !part.empty() &&
               std::all_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    return digits(cell.substr(0, point)) &&
           (point == std::string_view::npos || digits(cell.substr(point + 1)));
}

// OWASP's advice on CSV injection: a spreadsheet evaluates a cell that starts with '=', '+',
// '-', '@', a tab or a carriage return as a formula.
bool formula_start(std::string_view cell) {
    return !cell.empty() &&
           std::string_view("=+-@\t\r").find(cell.front()) != std::string_view::npos &&
           !plain_number(cell);
}

} // namespace

std::vector<std::string> wrap_words(std::string_view text, std::size_t width) {
    std::vector<std::string> lines(1);
    std::size_t used = 0; // the last line's width
    while (!text.empty()) {
        const std::size_t end = std::min(text.find(' '), text.size());
        const std::string_view word = text.substr(0, end);
        text.remove_prefix(std::min(end + 1, text.size()));
        if (word.empty()) {
            continue;
        }
        const std::size_t size = display_width(word);
        if (used > 0 && used + 1 + size > width) {
            lines.emplace_back();
            used = 0;
        }
        if (used > 0) {
            lines.back() += ' ';
            ++used;
        }
        lines.back() += word;
        used += size;
    }
    return lines;
}

void write_paragraph(std::string_view text, Io& io) {
    if (io.width == 0) {
        io.out << text << '\n';
        return;
    }
    constexpr std::size_t k_indent = 2;
    const std::size_t rest = std::max(io.width > k_indent ? io.width - k_indent : 0, k_min_prose);
    std::string line;
    std::size_t used = 0; // the line's width, but for its indent
    std::size_t room = io.width;
    for (const std::string& word : wrap_words(text, 1)) { // (a word a line)
        const std::size_t size = display_width(word);
        if (used > 0 && used + 1 + size > room) {
            io.out << line << '\n';
            line.assign(k_indent, ' ');
            used = 0;
            room = rest;
        }
        if (used > 0) {
            line += ' ';
            ++used;
        }
        line += word;
        used += size;
    }
    io.out << line << '\n';
}

std::string csv_cell(std::string_view cell) {
    std::string text(formula_start(cell) ? "'" : "");
    text += cell;
    const std::string safe = terminal_safe(text);
    if (safe.find_first_of(",\"\n\r") == std::string::npos) {
        return safe;
    }
    std::string quoted = "\"";
    for (const char c : safe) {
        quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    }
    return quoted + "\"";
}

namespace {

// An empty cell has no value: "-" where a person reads it.
std::string_view shown(const std::string& cell) {
    return cell.empty() ? std::string_view("-") : std::string_view(cell);
}

std::string markdown_cell(const std::string& cell) {
    std::string escaped;
    for (const char c : terminal_safe(shown(cell))) {
        escaped += c == '|' ? std::string("\\|") : std::string(1, c);
    }
    return escaped;
}

// The cell padded with spaces to `width` columns, on the side away from its alignment.
void append_padded(std::string& text, const std::string& cell, std::size_t width, Align align) {
    const std::size_t used = display_width(cell);
    const std::size_t fill = width > used ? width - used : 0;
    if (align == Align::right) {
        text.append(fill, ' ');
    }
    text += cell;
    if (align == Align::left) {
        text.append(fill, ' ');
    }
}

constexpr std::size_t k_prose_indent = 4; // prose below its row

// The widest word of a column's cells.
std::size_t widest_word(const std::vector<std::vector<std::string>>& cells, std::size_t i) {
    std::size_t widest = 0;
    for (const auto& row : cells) {
        if (i < row.size()) {
            for (const std::string& word : wrap_words(row[i], 1)) {
                widest = std::max(widest, display_width(word));
            }
        }
    }
    return widest;
}

// The columns' widths fitted to `limit` (0: none): when the row is wider, the prose columns
// share the room the others leave, the narrowest first, none under k_min_prose (or its own).
// When that room is less than k_min_prose each, or a word would stick out of its column that
// fits on a line below, they are 0: below the row (prose_below).
std::vector<std::size_t> fitted_widths(const Table& table,
                                       const std::vector<std::vector<std::string>>& cells,
                                       std::vector<std::size_t> widths,
                                       std::size_t limit) {
    std::size_t total = 2 * (widths.size() - 1);
    std::size_t fixed = total;
    std::vector<std::size_t> prose;
    for (std::size_t i = 0; i < widths.size(); ++i) {
        total += widths[i];
        if (table.columns[i].prose) {
            prose.push_back(i);
        } else {
            fixed += widths[i];
        }
    }
    if (limit == 0 || total <= limit || prose.empty()) {
        return widths;
    }
    std::sort(prose.begin(), prose.end(), [&](std::size_t a, std::size_t b) {
        return widths[a] < widths[b];
    });
    std::size_t room = limit > fixed ? limit - fixed : 0;
    bool below = room < prose.size() * k_min_prose;
    for (std::size_t n = 0; n < prose.size() && !below; ++n) {
        std::size_t& width = widths[prose[n]];
        const std::size_t share = room / (prose.size() - n);
        width = std::min(width, std::max(share, k_min_prose));
        room -= std::min(room, width);
        const std::size_t word = widest_word(cells, prose[n]);
        below = word > width && word + k_prose_indent <= limit;
    }
    if (below) {
        for (const std::size_t i : prose) {
            widths[i] = 0;
        }
    }
    return widths;
}

// A prose column with no room beside the others: its text goes on lines of its own, below.
bool prose_below(const Table& table, const std::vector<std::size_t>& widths, std::size_t i) {
    return table.columns[i].prose && widths[i] == 0;
}

// A row's cells as lines: a prose cell wrapped to its column's width (none when it is below
// the row), any other as it is.
std::vector<std::vector<std::string>> row_lines(const Table& table,
                                                const std::vector<std::string>& row,
                                                const std::vector<std::size_t>& widths) {
    std::vector<std::vector<std::string>> lines;
    for (std::size_t i = 0; i < row.size(); ++i) {
        if (prose_below(table, widths, i)) {
            continue;
        }
        const bool wraps = table.columns[i].prose && display_width(row[i]) > widths[i];
        std::vector<std::string> cell =
            wraps ? wrap_words(row[i], widths[i]) : std::vector<std::string>{row[i]};
        for (std::size_t n = 0; n < cell.size(); ++n) {
            if (n == lines.size()) {
                lines.emplace_back(row.size());
            }
            lines[n][i] = std::move(cell[n]);
        }
    }
    return lines;
}

// The prose cells that are below their row, indented by k_prose_indent and wrapped to the rest.
void write_prose_below(const Table& table,
                       const std::vector<std::string>& row,
                       const std::vector<std::size_t>& widths,
                       std::size_t limit,
                       Io& io) {
    const std::size_t width =
        std::max(limit > k_prose_indent ? limit - k_prose_indent : 0, k_min_prose);
    for (std::size_t i = 0; i < row.size(); ++i) {
        if (prose_below(table, widths, i) && row[i] != "-") {
            for (const std::string& line : wrap_words(row[i], width)) {
                io.out << std::string(k_prose_indent, ' ') << line << '\n';
            }
        }
    }
}

void render_aligned(const Table& table, Io& io) {
    std::vector<std::size_t> widths;
    for (const Column& column : table.columns) {
        widths.push_back(display_width(column.header));
    }
    std::vector<std::vector<std::string>> cells;
    cells.reserve(table.rows.size());
    for (const auto& row : table.rows) {
        auto& safe = cells.emplace_back();
        safe.reserve(std::min(row.size(), widths.size()));
        for (std::size_t i = 0; i < row.size() && i < widths.size(); ++i) {
            safe.push_back(terminal_safe(shown(row[i])));
            widths[i] = std::max(widths[i], display_width(safe.back()));
        }
    }
    widths = fitted_widths(table, cells, std::move(widths), io.width);
    std::size_t last_shown = 0; // the last column in the row (not below it)
    for (std::size_t i = 0; i < widths.size(); ++i) {
        last_shown = prose_below(table, widths, i) ? last_shown : i;
    }
    std::string text; // one line at a time, its room reused
    const auto line = [&](const std::vector<std::string>& row, bool header) {
        text.clear();
        const bool bold = header && io.color;
        if (bold) {
            text += "\x1b[1m";
        }
        for (std::size_t i = 0; i < row.size(); ++i) {
            if (prose_below(table, widths, i)) {
                continue;
            }
            const bool last = i == last_shown;
            const Align align = table.columns[i].align;
            if (last && align == Align::left) {
                text += row[i];
            } else {
                append_padded(text, row[i], widths[i], align);
            }
            if (!last) {
                text += "  ";
            }
        }
        text.erase(text.find_last_not_of(' ') + 1); // (a continuation line's empty cells)
        if (bold) {
            text += "\x1b[0m";
        }
        text += '\n';
        io.out << text;
    };
    std::vector<std::string> headers;
    for (const Column& column : table.columns) {
        headers.push_back(column.header);
    }
    line(headers, true);
    for (const auto& row : cells) {
        for (const auto& each : row_lines(table, row, widths)) {
            line(each, false);
        }
        write_prose_below(table, row, widths, io.width, io);
    }
}

} // namespace

void render_table(const Table& table, Io& io) {
    switch (io.format) {
    case OutputFormat::csv:
        for (std::size_t i = 0; i < table.columns.size(); ++i) {
            io.out << (i > 0 ? "," : "") << csv_cell(table.columns[i].header);
        }
        io.out << '\n';
        for (const auto& row : table.rows) {
            for (std::size_t i = 0; i < row.size(); ++i) {
                io.out << (i > 0 ? "," : "") << csv_cell(row[i]);
            }
            io.out << '\n';
        }
        return;
    case OutputFormat::markdown:
        io.out << "|";
        for (const Column& column : table.columns) {
            io.out << ' ' << markdown_cell(column.header) << " |";
        }
        io.out << "\n|";
        for (const Column& column : table.columns) {
            io.out << (column.align == Align::right ? " ---: |" : " --- |");
        }
        io.out << '\n';
        for (const auto& row : table.rows) {
            io.out << "|";
            for (const std::string& cell : row) {
                io.out << ' ' << markdown_cell(cell) << " |";
            }
            io.out << '\n';
        }
        return;
    case OutputFormat::table:
    case OutputFormat::json:
    case OutputFormat::github: // (catalog validate's only: refused for tables before this)
    case OutputFormat::sarif:
    case OutputFormat::junit:
    case OutputFormat::html: // (recommend's only, which writes its own page)
    case OutputFormat::svg:
        render_aligned(table, io);
        return;
    }
}

} // namespace gpuadvisor::cli
