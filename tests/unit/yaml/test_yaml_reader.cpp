// The loading pipeline against hostile and broken bytes (RELIABILITY.md).
#include "test_helpers.hpp"
#include "yaml/yaml_reader.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace gpuadvisor;

namespace {

std::string first_error(const std::string& text) {
    Diagnostics diagnostics;
    parse_yaml("t.yaml", text, LoadLimits{}, diagnostics);
    return diagnostics.items().empty() ? "" : test::describe(diagnostics);
}

} // namespace

TEST_CASE("bytes are checked before parsing") {
    CHECK(first_error(std::string("schema_version: 1\nx: a\0b\n", 24)) ==
          "2:5: error[encoding]: control byte 0x00 in the text\n  hint: the file may be binary, "
          "or corrupted\n");
    CHECK(first_error("a: caf\xE9\n") ==
          "1:7: error[encoding]: invalid UTF-8 (byte 0xE9)\n  hint: save the file as UTF-8 (it "
          "may be Latin-1)\n");
    CHECK(first_error("a: 1\rb: 2\r") == "1:5: error[encoding]: a line ends with a bare CR\n  "
                                         "hint: save the file with LF (or CRLF) line endings\n");
}

TEST_CASE("eight bytes are printable ASCII to the word test just when each byte is") {
    // Every byte value at every place in a word of otherwise printable bytes, and words whose
    // sums would carry (0x7F, 0x80, 0xFF next to each other) or sit at the bounds.
    std::size_t failures = 0;
    for (std::size_t place = 0; place < 8; ++place) {
        for (int value = 0; value < 256; ++value) {
            std::string word = "azAZ09 ~";
            word[place] = static_cast<char>(value);
            const bool printable = value >= 0x20 && value < 0x7F;
            failures += gpuadvisor::printable_ascii8(word, 0) != printable ? 1U : 0U;
        }
    }
    CHECK(failures == 0);
    CHECK(gpuadvisor::printable_ascii8("        ", 0));
    CHECK(gpuadvisor::printable_ascii8("~~~~~~~~", 0));
    CHECK_FALSE(gpuadvisor::printable_ascii8("\x7F\x7F\x7F\x7F\x7F\x7F\x7F\x7F", 0));
    CHECK_FALSE(gpuadvisor::printable_ascii8("\x1F\x7F\x80\xFF\x1F\x7F\x80\xFF", 0));
    CHECK_FALSE(gpuadvisor::printable_ascii8("abcdefg\n", 0));
    CHECK(gpuadvisor::printable_ascii8("\nabcdefgh", 1)); // from any offset
}

TEST_CASE("UTF-16 gets a clear error") {
    const std::string text("\xFF\xFEs\0c\0", 6);
    CHECK(first_error(text) == "1:1: error[encoding]: the file is UTF-16; gpuadvisor reads "
                               "UTF-8\n  hint: convert it: iconv -f UTF-16 -t UTF-8\n");
}

TEST_CASE("a BOM, CRLF line ends and UTF-8 text are accepted") {
    Diagnostics diagnostics;
    const auto document = parse_yaml(
        "t.yaml", "\xEF\xBB\xBFschema_version: 1\r\nname: \"\xE5\x8D\x8E\"\r\n", {}, diagnostics);
    REQUIRE(document.root);
    CHECK(diagnostics.items().empty());
    CHECK(document.root->find("name")->text == "\xE5\x8D\x8E");
    CHECK(document.root->find("name")->line == 2);
}

TEST_CASE("a lone comma, empty and comment-only files end quickly") {
    Diagnostics diagnostics;
    const auto comma = parse_yaml("t.yaml", ",", {}, diagnostics);
    CHECK_FALSE(comma.root);
    CHECK(diagnostics.items().at(0).code == "syntax");
    Diagnostics none;
    CHECK(parse_yaml("t.yaml", "", {}, none).root->kind == YamlNode::Kind::null);
    CHECK(parse_yaml("t.yaml", "# nothing\n", {}, none).root->kind == YamlNode::Kind::null);
    CHECK(none.items().empty());
}

TEST_CASE("100k-deep nesting, flow and block, stops at the depth limit") {
    const std::string flow = std::string(100000, '[') + std::string(100000, ']');
    std::string block;
    for (int i = 0; i < 100000; ++i) {
        block += std::string(static_cast<std::size_t>(i % 200), ' ') + "- \n";
    }
    const auto start = std::chrono::steady_clock::now();
    CHECK(first_error(flow).find("error[limit]: nesting deeper than 64 levels") !=
          std::string::npos);
    std::string nested;
    for (int i = 0; i < 100; ++i) {
        nested += std::string(static_cast<std::size_t>(2 * i), ' ') + "k:\n";
    }
    CHECK(first_error(nested).find("error[limit]") != std::string::npos);
    first_error(block); // whatever yaml-cpp says, it must end
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(20));
}

TEST_CASE("an alias bomb is refused at its first anchor") {
    std::string bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n";
    for (char c = 'b'; c <= 'i'; ++c) {
        bomb += std::string(1, c) + ": &" + c + " [*" + static_cast<char>(c - 1) + ", *" +
                static_cast<char>(c - 1) + "]\n";
    }
    CHECK(first_error(bomb) ==
          "1:4: error[yaml-feature]: anchors (&name) are not supported\n  hint: write each value "
          "out in full\n");
}

TEST_CASE("duplicate keys are found in large mappings too") {
    std::string text;
    for (int i = 0; i < 5000; ++i) {
        text += "k" + std::to_string(i) + ": 1\n";
    }
    text += "k17: 2\n";
    CHECK(first_error(text) == "5001:1: error[duplicate-key]: 'k17' is given twice in this "
                               "mapping (first at line 18, column 1)\n  hint: keep one of them\n");
}

TEST_CASE("oversized values and node counts hit limits") {
    CHECK(first_error("a: " + std::string(1 << 20, 'x') + "\n")
              .starts_with("1:4: error[limit]: a value of 1048576 bytes"));
    LoadLimits small;
    small.max_nodes = 10;
    Diagnostics diagnostics;
    parse_yaml("t.yaml", "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]", small, diagnostics);
    CHECK(diagnostics.items().at(0).code == "limit");
}

TEST_CASE("files are read with a cap, and non-files are refused") {
    Diagnostics diagnostics;
    CHECK_FALSE(read_file_capped("/dev/zero", {}, diagnostics));
    CHECK_FALSE(read_file_capped("/nonexistent/x.yaml", {}, diagnostics));
    CHECK_FALSE(read_file_capped(test::fixture("catalog"), {}, diagnostics));
    const std::string fifo = "/tmp/gpuadvisor-test-fifo-" + std::to_string(::getpid());
    ::mkfifo(fifo.c_str(), 0600);
    CHECK_FALSE(read_file_capped(fifo, {}, diagnostics)); // must not block
    ::unlink(fifo.c_str());
    LoadLimits tiny;
    tiny.max_file_bytes = 16;
    CHECK_FALSE(read_file_capped(test::fixture("catalog/gpus.yaml"), tiny, diagnostics));
    REQUIRE(diagnostics.items().size() == 5);
    CHECK(diagnostics.items()[0].message == "not a regular file (a folder, device or pipe)");
    CHECK(diagnostics.items()[1].message ==
          "cannot read the file: it does not exist or is not readable");
    CHECK(diagnostics.items()[4].message == "the file is larger than the limit of 16 bytes");
}

TEST_CASE("loading works on a thread with a 256 KiB stack") {
    const std::string flow = std::string(100000, '[') + std::string(100000, ']');
    std::string result;
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setstacksize(&attributes, 256 * 1024);
    struct Job {
        const std::string* text;
        std::string* result;
    } job{&flow, &result};
    pthread_t thread;
    const auto body = [](void* raw) -> void* {
        auto* work = static_cast<Job*>(raw);
        *work->result = first_error(*work->text);
        const NamedText file{"t.yaml", test::read_text(test::fixture("catalog/testcloud.yaml"))};
        const NamedText gpus{"g.yaml", test::read_text(test::fixture("catalog/gpus.yaml"))};
        const NamedText both[] = {gpus, file};
        if (load_catalog_texts(both).diagnostics.has_errors()) {
            *work->result += "catalog failed";
        }
        return nullptr;
    };
    REQUIRE(pthread_create(&thread, &attributes, body, &job) == 0);
    pthread_join(thread, nullptr);
    pthread_attr_destroy(&attributes);
    CHECK(result.find("error[limit]") != std::string::npos);
    CHECK(result.find("catalog failed") == std::string::npos);
}

TEST_CASE("a parsed tree outlives the text it was read from, and its copies share it") {
    // Read by the subset reader (flow, quotes with '' inside) and by yaml-cpp (a block
    // scalar): the texts either point into the document's storage or were copied there.
    for (const std::string_view source : {"a: {b: 'it''s', c: [x, \"y z\"]}\nd: plain\n",
                                          "a: {b: 'it''s', c: [x, \"y z\"]}\nd: |\n  plain\n"}) {
        INFO(source);
        std::optional<YamlDocument> copy;
        {
            auto text = std::make_unique<std::string>(source);
            Diagnostics diagnostics;
            const YamlDocument document = parse_yaml("t.yaml", *text, LoadLimits{}, diagnostics);
            REQUIRE(diagnostics.items().empty());
            text.reset(); // the bytes read are gone
            copy = document;
        } // and so is the document the copy was made from
        REQUIRE(copy->root);
        const YamlNode& a = *copy->root->find("a");
        CHECK(a.find("b")->text == "it's");
        REQUIRE(a.find("c")->items.size() == 2);
        CHECK(a.find("c")->items[1].text == "y z");
        CHECK(a.find("c")->items[1].plain == false);
        CHECK(copy->root->find("d")->text.starts_with("plain"));
    }
}
