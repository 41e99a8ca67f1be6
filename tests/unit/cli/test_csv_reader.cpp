// The price sheet's CSV reader (csv_reader.cpp): RFC 4180 fields, positions in characters, and
// each malformed input an error at its place.
#include "csv_reader.hpp"

#include <catch2/catch.hpp>

using namespace gpuadvisor;
using namespace gpuadvisor::cli;

namespace {

struct Read {
    std::vector<CsvRecord> records;
    Diagnostics diagnostics;
};

Read read(std::string_view text) {
    Read result;
    read_csv("s.csv", text, result.diagnostics, [&](const CsvRecord& record) {
        result.records.push_back(record);
        return true;
    });
    return result;
}

std::vector<std::string> texts(const CsvRecord& record) {
    std::vector<std::string> out;
    for (const CsvField& field : record.fields) {
        out.push_back(field.text);
    }
    return out;
}

} // namespace

TEST_CASE("csv: quoted fields, doubled quotes, CRLF, a BOM, blank lines") {
    const Read got = read("\xEF\xBB\xBF"
                          "a,b\r\n\r\n\"x, \"\"y\"\"\",\"\"\n"
                          "last,row");
    REQUIRE(got.diagnostics.items().empty());
    REQUIRE(got.records.size() == 3);
    CHECK(texts(got.records[0]) == std::vector<std::string>{"a", "b"});
    CHECK(texts(got.records[1]) == std::vector<std::string>{"x, \"y\"", ""});
    CHECK(got.records[1].line == 3);
    CHECK(texts(got.records[2]) == std::vector<std::string>{"last", "row"});
    CHECK(got.records[0].fields[0].column == 1); // the BOM is not a character of the field
}

TEST_CASE("csv: a field's column counts characters, not bytes") {
    const Read got = read("\xc2\xa5\xe6\x97\xa5,x\n");
    REQUIRE(got.records.size() == 1);
    CHECK(got.records[0].fields[1].column == 4);
}

TEST_CASE("csv: a quoted line break stays in the field, the next record on the line after it") {
    const Read got = read("\"a\nb\",c\nd\n");
    REQUIRE(got.records.size() == 2);
    CHECK(got.records[0].fields[0].text == "a\nb");
    CHECK(got.records[1].line == 3);
}

TEST_CASE("csv: malformed input is an error at its place") {
    const auto first = [](std::string_view text) {
        const Read got = read(text);
        REQUIRE(!got.diagnostics.items().empty());
        const Diagnostic& d = got.diagnostics.items().front();
        return std::make_tuple(d.code, d.pos.line, d.pos.column);
    };
    CHECK(first("a,\"open\n") == std::make_tuple(std::string("syntax"), 1u, 3u));
    CHECK(first("a,b\"c\n") == std::make_tuple(std::string("syntax"), 1u, 4u));
    CHECK(first("\"a\"b,c\n") == std::make_tuple(std::string("syntax"), 1u, 4u));
    CHECK(first(std::string_view("ok\na\0b\n", 7)) ==
          std::make_tuple(std::string("encoding"), 2u, 2u));
    CHECK(first("a\rb\n") == std::make_tuple(std::string("encoding"), 1u, 2u));
    CHECK(first("a,\xff\n") == std::make_tuple(std::string("encoding"), 1u, 3u));
}

TEST_CASE("csv: a record with a syntax error is left out, the next ones are read") {
    const Read got = read("a,b\"c\nd,e\n");
    CHECK(got.diagnostics.error_count() == 1);
    REQUIRE(got.records.size() == 1);
    CHECK(texts(got.records[0]) == std::vector<std::string>{"d", "e"});
}
