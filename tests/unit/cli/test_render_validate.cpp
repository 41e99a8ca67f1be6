// catalog validate's CI formats (render_validate.cpp): GitHub's escaping of workflow commands,
// SARIF's URI references and XML text. Expected values from GitHub's documented escapes
// (% %25, CR %0D, LF %0A, : %3A, , %2C), RFC 3986's unreserved set and XML 1.0's entities.
#include "render_validate.hpp"

#include <catch2/catch.hpp>

using namespace gpuadvisor::cli;

TEST_CASE("render_validate: a workflow command's property escapes %, CR, LF, ':' and ','") {
    CHECK(github_property("prices/aws.yaml") == "prices/aws.yaml");
    CHECK(github_property("50%,off:x.yaml") == "50%25%2Coff%3Ax.yaml");
    CHECK(github_property("a\r\nb") == "a%0D%0Ab");
    CHECK(github_property("esc\x1b") == "esc\\u{001B}"); // other controls as on stderr
}

TEST_CASE("render_validate: a workflow command's message escapes %, CR and LF only") {
    CHECK(github_message("a: b, 50%\r\nhint: c") == "a: b, 50%25%0D%0Ahint: c");
    CHECK(github_message("%0A") == "%250A"); // an escape in the text is not one
}

TEST_CASE("render_validate: a SARIF uri percent-encodes all but unreserved bytes and '/'") {
    CHECK(uri_reference("prices/aws-1_x.~.yaml") == "prices/aws-1_x.~.yaml");
    CHECK(uri_reference("my prices/50%,off.yaml") == "my%20prices/50%25%2Coff.yaml");
    CHECK(uri_reference("caf\xc3\xa9") == "caf%C3%A9");
}

TEST_CASE("render_validate: XML text escapes the five entities and shows controls escaped") {
    CHECK(xml_text("<a href=\"x\">'&'</a>") ==
          "&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;");
    CHECK(xml_text("line\nend\x1b") == "line\\u{000A}end\\u{001B}");
    CHECK(xml_text("caf\xe9") == "caf\\xE9"); // not UTF-8: no byte XML cannot hold
}
