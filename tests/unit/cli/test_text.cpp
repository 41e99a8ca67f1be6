// What reaches a terminal or a spreadsheet (text.cpp, render_table.cpp): controls, bidi
// controls and bytes that are not UTF-8 are shown escaped; a CSV cell is never a formula.
#include "render_table.hpp"
#include "text.hpp"

#include <catch2/catch.hpp>

using namespace gpuadvisor::cli;

TEST_CASE("terminal_safe: controls and bidi controls become \\u{XXXX}") {
    CHECK(terminal_safe("plain ascii") == "plain ascii");
    CHECK(terminal_safe("a\x1b[31mb") == "a\\u{001B}[31mb");
    CHECK(terminal_safe("tab\there\n") == "tab\\u{0009}here\\u{000A}");
    CHECK(terminal_safe("del\x7f") == "del\\u{007F}");
    CHECK(terminal_safe("c1 \xc2\x9b") == "c1 \\u{009B}");           // U+009B, CSI
    CHECK(terminal_safe("bidi \xe2\x80\xae!") == "bidi \\u{202E}!"); // U+202E
    CHECK(terminal_safe("caf\xc3\xa9 \xe6\x97\xa5\xf0\x9f\x98\x80") ==
          "caf\xc3\xa9 \xe6\x97\xa5\xf0\x9f\x98\x80"); // printable UTF-8 as it is
}

TEST_CASE("terminal_safe: each byte that is not well-formed UTF-8 becomes \\xXX") {
    CHECK(terminal_safe("lone \x9b csi") == "lone \\x9B csi"); // a CSI to 8-bit terminals
    CHECK(terminal_safe("inv\xc3(x") == "inv\\xC3(x");         // lead byte, no continuation
    CHECK(terminal_safe("\xf0\x9b") == "\\xF0\\x9B");          // truncated at the end
    CHECK(terminal_safe("\xf0\x9b\x1b[1m") == "\\xF0\\x9B\\u{001B}[1m"); // ESC not swallowed
    CHECK(terminal_safe("\xc0\x9b") == "\\xC0\\x9B");                    // overlong ESC-like
    CHECK(terminal_safe("\xe0\x80\xaf") == "\\xE0\\x80\\xAF");           // overlong '/'
    CHECK(terminal_safe("\xed\xa0\x80") == "\\xED\\xA0\\x80");           // a surrogate
    CHECK(terminal_safe("\xf4\x90\x80\x80") == "\\xF4\\x90\\x80\\x80");  // above U+10FFFF
    CHECK(terminal_safe("\xff\xfe") == "\\xFF\\xFE");
}

TEST_CASE("csv_cell: a text cell a spreadsheet would evaluate gets a leading quote") {
    CHECK(csv_cell("=1+2") == "'=1+2");
    CHECK(csv_cell("+1") == "'+1");
    CHECK(csv_cell("-1+2") == "'-1+2");
    CHECK(csv_cell("@SUM(A1:A9)") == "'@SUM(A1:A9)");
    CHECK(csv_cell("-") == "'-");
    CHECK(csv_cell("\t=1") == "'\\u{0009}=1");
    CHECK(csv_cell("\r=1") == "'\\u{000D}=1");
    CHECK(csv_cell("=HYPERLINK(\"http://x\",\"y\")") ==
          "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"");
    CHECK(csv_cell("a=1") == "a=1");
    CHECK(csv_cell("") == "");
}

TEST_CASE("csv_cell: a cell that is exactly a number keeps its sign: it is no formula") {
    CHECK(csv_cell("-5") == "-5");
    CHECK(csv_cell("-12.50") == "-12.50");
    CHECK(csv_cell("-5%") == "-5%");
    CHECK(csv_cell("32.7726") == "32.7726");
    CHECK(csv_cell("-5.") == "'-5.");
    CHECK(csv_cell("-.5") == "'-.5");
    CHECK(csv_cell("-5e3") == "'-5e3");
    CHECK(csv_cell("-5-5") == "'-5-5");
}

TEST_CASE("csv_cell: quoted when it holds a comma or a quote; controls escaped") {
    CHECK(csv_cell("a,b") == "\"a,b\"");
    CHECK(csv_cell("say \"hi\"") == "\"say \"\"hi\"\"\"");
    CHECK(csv_cell("path/\x1b[31m/\x9b") == "path/\\u{001B}[31m/\\x9B");
    CHECK(csv_cell("two\nlines") == "two\\u{000A}lines");
}
