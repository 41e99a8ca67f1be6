// The Azure Retail Prices API page reader (azure_page.cpp): the positions of items and fields
// (one-line JSON, UTF-8, escapes, an "Items" key inside an item), exact number text, and each
// malformed page an error at its place.
#include "azure_page.hpp"

#include <catch2/catch.hpp>

using namespace gpuadvisor;
using namespace gpuadvisor::cli;

namespace {

struct Read {
    std::optional<AzurePage> page;
    Diagnostics diagnostics;
};

Read parse(std::string text) {
    Read result;
    result.page = parse_azure_page("p.json", std::move(text), result.diagnostics);
    return result;
}

std::pair<std::uint32_t, std::uint32_t> at(const TextPos& pos) {
    return {pos.line, pos.column};
}

const TextPos& field(const AzureItem& item, AzureField which) {
    return item.fields[static_cast<std::size_t>(which)];
}

} // namespace

TEST_CASE("azure page: items and fields of one-line JSON, columns in characters") {
    // "é" is two bytes, one character; the escaped quote and brackets in a string are text.
    const Read got = parse(R"({"BillingCurrency":"é","Note":"\"Items\": [{","Items":[)"
                           R"({"unitPrice":27.197,"armSkuName":"Standard_ND96asr_v4"},)"
                           R"( {"Items":[1],"unitPrice":1E-05,"type":"Consumption"}],"Count":2})");
    REQUIRE(got.diagnostics.items().empty());
    REQUIRE(got.page);
    const AzurePage& page = *got.page;
    REQUIRE(page.items.size() == 2);
    CHECK(at(page.items[0].pos) == std::pair<std::uint32_t, std::uint32_t>{1, 56});
    CHECK(at(field(page.items[0], AzureField::unitPrice)) ==
          std::pair<std::uint32_t, std::uint32_t>{1, 69});
    CHECK(page.number_text(page.items[0], AzureField::unitPrice) == "27.197");
    CHECK(field(page.items[0], AzureField::type).line == 0);       // not there
    CHECK(page.pos(page.items[0], AzureField::type).column == 56); // the item's place, then
    CHECK(at(page.items[1].pos) == std::pair<std::uint32_t, std::uint32_t>{1, 113});
    CHECK(page.number_text(page.items[1], AzureField::unitPrice) == "1E-05");
    CHECK(field(page.items[1], AzureField::type).line == 1);
}

TEST_CASE("azure page: positions over lines, a key given twice") {
    const Read got = parse("{\n  \"Items\": [\n    {\n      \"type\": \"Consumption\",\n"
                           "      \"type\": \"Reservation\"\n    }\n  ]\n}\n");
    REQUIRE(got.page);
    const AzureItem& item = got.page->items.at(0);
    CHECK(at(item.pos) == std::pair<std::uint32_t, std::uint32_t>{3, 5});
    CHECK(at(field(item, AzureField::type)) == std::pair<std::uint32_t, std::uint32_t>{4, 15});
    REQUIRE(item.repeated.size() == 1);
    CHECK(item.repeated[0].first == "type");
    CHECK(at(item.repeated[0].second) == std::pair<std::uint32_t, std::uint32_t>{5, 15});
}

TEST_CASE("azure page: malformed pages are errors at their place") {
    struct Case {
        std::string text;
        std::string code;
        std::uint32_t line;
        std::uint32_t column;
    };
    const std::vector<Case> cases{
        {"{\"Items\": [{\"type\": \"Cons", "syntax", 1, 26},
        {"[]", "wrong-type", 1, 1},
        {"{\"Count\": 0}", "missing-field", 1, 1},
        {"{\"Items\": {}}", "wrong-type", 1, 1},
        {"{\"Items\": [], \"Items\": [{}]}", "duplicate-key", 1, 1},
        {std::string(100, '[') + std::string(100, ']'), "limit", 1, 65},
        {"", "syntax", 1, 1},
    };
    for (const Case& each : cases) {
        CAPTURE(each.text);
        const Read got = parse(each.text);
        CHECK_FALSE(got.page);
        REQUIRE(got.diagnostics.items().size() == 1);
        const Diagnostic& problem = got.diagnostics.items()[0];
        CHECK(problem.code == each.code);
        CHECK(problem.pos.line == each.line);
        CHECK(problem.pos.column == each.column);
    }
}

TEST_CASE("azure page: a Count other than the items is a warning") {
    const Read got = parse(R"({"Items": [{}], "Count": 100})");
    REQUIRE(got.page);
    REQUIRE(got.diagnostics.items().size() == 1);
    CHECK(got.diagnostics.items()[0].severity == Severity::warning);
    CHECK(got.diagnostics.items()[0].message == "Count: 100, but Items has 1");
}
