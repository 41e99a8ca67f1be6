// What reaches a terminal (text.cpp): controls, bidi controls and bytes that are not UTF-8
// are shown escaped.
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
