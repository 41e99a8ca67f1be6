// The width human tables are fitted to (table_width.cpp): --wide, then a sane COLUMNS, then the
// terminal's width (80 when it does not say), and no limit off a terminal; a table's prose
// columns wrap to fit it (render_table.cpp); CSV and Markdown cells are JSON values (data_table).
#include "data_table.hpp"
#include "render_table.hpp"
#include "table_width.hpp"

#include <catch2/catch.hpp>

#include <sstream>
#include <string>

using namespace gpuadvisor::cli;

TEST_CASE("parse_columns: digits only, 1 to 10000") {
    CHECK(parse_columns("100") == 100U);
    CHECK(parse_columns("1") == 1U);
    CHECK(parse_columns("10000") == 10'000U);
    CHECK_FALSE(parse_columns(nullptr));
    CHECK_FALSE(parse_columns(""));
    CHECK_FALSE(parse_columns("0"));
    CHECK_FALSE(parse_columns("00000"));
    CHECK_FALSE(parse_columns("10001"));
    CHECK_FALSE(parse_columns("99999999999999999999999")); // would overflow
    CHECK_FALSE(parse_columns("-5"));
    CHECK_FALSE(parse_columns("+80"));
    CHECK_FALSE(parse_columns("80x"));
    CHECK_FALSE(parse_columns(" 80"));
    CHECK_FALSE(parse_columns("1e3"));
    CHECK_FALSE(parse_columns("eighty"));
}

TEST_CASE("table_width: --wide is no limit, whatever COLUMNS and the terminal say") {
    CHECK(table_width(WidthSources{true, "100", true, 120}) == k_no_width_limit);
    CHECK(table_width(WidthSources{true, nullptr, false, 0}) == k_no_width_limit);
}

TEST_CASE("table_width: a sane COLUMNS is the width, on a terminal or not") {
    CHECK(table_width(WidthSources{false, "100", true, 120}) == 100U);
    CHECK(table_width(WidthSources{false, "100", false, 0}) == 100U);
    CHECK(table_width(WidthSources{false, "10000", false, 0}) == 10'000U);
}

TEST_CASE("table_width: COLUMNS unset or not a width falls back to the terminal") {
    for (const char* columns : {static_cast<const char*>(nullptr),
                                "",
                                "0",
                                "garbage",
                                "-1",
                                "123456789012345678901234567890"}) {
        INFO((columns == nullptr ? "(unset)" : columns));
        CHECK(table_width(WidthSources{false, columns, true, 132}) == 132U);
        CHECK(table_width(WidthSources{false, columns, true, 0}) == 80U); // width not known
        CHECK(table_width(WidthSources{false, columns, false, 0}) == k_no_width_limit);
    }
}

TEST_CASE("wrap_words: at spaces, a long word whole on its own line") {
    using Lines = std::vector<std::string>;
    CHECK(wrap_words("one two three four", 9) == Lines{"one two", "three", "four"});
    CHECK(wrap_words("one two three four", 100) == Lines{"one two three four"});
    CHECK(wrap_words("a  b", 3) == Lines{"a b"}); // spaces between words are one
    CHECK(wrap_words("p4de.24xlarge fits", 5) == Lines{"p4de.24xlarge", "fits"}); // never cut
    CHECK(wrap_words("", 5) == Lines{""});
    CHECK(wrap_words("\xe6\x97\xa5\xe6\x97\xa5 ab", 5) == Lines{"\xe6\x97\xa5\xe6\x97\xa5", "ab"});
}

namespace {

std::string rendered(std::size_t width) {
    const Table table{{{"#", Align::right}, {"NAME"}, {"WHY", Align::left, true}},
                      {{"1", "p4de.24xlarge", "rules: prefer-fast; fits in memory with room"},
                       {"12", "g5.xlarge", "cheap"}}};
    std::ostringstream out;
    std::ostringstream err;
    Io io{out, err, OutputFormat::table};
    io.width = width;
    render_table(table, io);
    return out.str();
}

} // namespace

TEST_CASE("render_table: a prose column wraps onto continuation lines to fit the width") {
    CHECK(rendered(k_no_width_limit) == " #  NAME           WHY\n"
                                        " 1  p4de.24xlarge  rules: prefer-fast; fits in memory "
                                        "with room\n"
                                        "12  g5.xlarge      cheap\n");
    CHECK(rendered(40) == " #  NAME           WHY\n"
                          " 1  p4de.24xlarge  rules: prefer-fast;\n"
                          "                   fits in memory with\n"
                          "                   room\n"
                          "12  g5.xlarge      cheap\n");
    // No room for 20 columns of prose beside the others: it goes below its row, indented, the
    // header without it; names and numbers stay whole even when wider than the width.
    CHECK(rendered(30) == " #  NAME\n"
                          " 1  p4de.24xlarge\n"
                          "    rules: prefer-fast; fits\n"
                          "    in memory with room\n"
                          "12  g5.xlarge\n"
                          "    cheap\n");
    CHECK(rendered(10) == " #  NAME\n"
                          " 1  p4de.24xlarge\n"
                          "    rules: prefer-fast;\n"
                          "    fits in memory with\n"
                          "    room\n"
                          "12  g5.xlarge\n"
                          "    cheap\n");
}

TEST_CASE("render_table: prose goes below its row when a word of it would stick out beside") {
    const Table table{{{"#", Align::right}, {"NAME"}, {"SOURCE", Align::left, true}},
                      {{"1", "p4de.24xlarge", "see https://example.com/a/long/path/to/it now"}}};
    std::ostringstream out;
    std::ostringstream err;
    Io io{out, err, OutputFormat::table};
    io.width = 50; // 31 columns beside NAME: the 35-column URL fits only below
    render_table(table, io);
    CHECK(out.str() == "#  NAME\n"
                       "1  p4de.24xlarge\n"
                       "    see https://example.com/a/long/path/to/it now\n");
    out.str("");
    io.width = 38; // 20 beside; below, the URL would not fit either: beside, never cut
    render_table(table, io);
    CHECK(out.str() == "#  NAME           SOURCE\n"
                       "1  p4de.24xlarge  see\n"
                       "                  https://example.com/a/long/path/to/it\n"
                       "                  now\n");
}

TEST_CASE("write_paragraph: a note wrapped to the width, continuation lines indented by 2") {
    std::ostringstream out;
    std::ostringstream err;
    Io io{out, err, OutputFormat::table};
    write_paragraph("Note: one two three four five", io); // no limit: as it is
    io.width = 12;
    write_paragraph("Note: one two three four five", io);
    write_paragraph("Warning: https://example.com/x", io); // a word wider stays whole
    CHECK(out.str() == "Note: one two three four five\n"
                       "Note: one\n"
                       "  two three four five\n" // (continuations get k_min_prose at least)
                       "Warning:\n"
                       "  https://example.com/x\n");
}

TEST_CASE("render_table: CSV and Markdown never wrap") {
    const Table table{{{"WHY", Align::left, true}}, {{"a long reason that would wrap"}}};
    std::ostringstream out;
    std::ostringstream err;
    Io io{out, err, OutputFormat::csv};
    io.width = 10;
    render_table(table, io);
    CHECK(out.str() == "WHY\na long reason that would wrap\n");
}

TEST_CASE("data_table: a cell a JSON value, lists joined, absent or null empty") {
    const Json objects = Json::parse(R"([
        {"rank": 1, "cost": {"currency": "USD", "total": "12.50"}, "reasons": ["a", "b, c"],
         "pareto": true},
        {"rank": 2, "cost": null, "pareto": false, "hours": 1.5}])");
    const Table table = data_table({{"rank", "/rank", Align::right},
                                    {"currency", "/cost/currency"},
                                    {"total", "/cost/total", Align::right},
                                    {"reasons", "/reasons"},
                                    {"pareto", "/pareto"},
                                    {"hours", "/hours"}},
                                   objects);
    REQUIRE(table.columns.size() == 6);
    CHECK(table.columns[0].header == "rank");
    CHECK(table.columns[2].align == Align::right);
    using Row = std::vector<std::string>;
    REQUIRE(table.rows.size() == 2);
    CHECK(table.rows[0] == Row{"1", "USD", "12.50", "a; b, c", "true", ""});
    CHECK(table.rows[1] == Row{"2", "", "", "", "false", "1.5"});
}

TEST_CASE("key_columns: every key once in the order met; money as its amount; numbers right") {
    const Json objects = Json::parse(R"([
        {"id": "a", "fp8": null, "price": {"currency": "USD", "total": "1.00"},
         "nested": {"x": 1, "y": 2}},
        {"id": "b", "fp8": 9.5, "notes": "only here"}])");
    const std::vector<DataColumn> columns = key_columns(objects);
    REQUIRE(columns.size() == 4);
    CHECK(columns[0].key == "id");
    CHECK(columns[0].align == Align::left);
    CHECK(columns[1].key == "fp8");
    CHECK(columns[1].align == Align::right); // a number in a later row
    CHECK(columns[2].key == "price");
    CHECK(columns[2].pointer == "/price/total");
    CHECK(columns[3].key == "notes"); // (not "nested": an object that is not money)
}
