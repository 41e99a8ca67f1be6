// The AWS importer's parts: the streaming reader (positions, the brace scan, the run limit),
// the SAX handler over a small offer file, the reserved arithmetic, and the attribute figures.
#include "import_aws.hpp"
#include "import_aws_plans.hpp"
#include "import_aws_reader.hpp"
#include "import_aws_types.hpp"

#include <catch2/catch.hpp>

#include <cstdio>
#include <memory>
#include <string>

using namespace gpuadvisor;
using namespace gpuadvisor::cli;

namespace {

using File = std::unique_ptr<std::FILE, int (*)(std::FILE*)>;

File file_of(const std::string& text) {
    File file(std::tmpfile(), &std::fclose);
    REQUIRE(file);
    REQUIRE(std::fwrite(text.data(), 1, text.size(), file.get()) == text.size());
    std::rewind(file.get());
    return file;
}

std::string product(const std::string& sku, const std::string& type, const std::string& os) {
    return "\"" + sku + "\" : {\"sku\" : \"" + sku +
           "\", \"productFamily\" : \"Compute Instance\", \"attributes\" : {"
           "\"operatingSystem\" : \"" +
           os + "\", \"instanceType\" : \"" + type +
           "\", \"tenancy\" : \"Shared\", \"preInstalledSw\" : \"NA\", \"capacitystatus\" : "
           "\"Used\", \"licenseModel\" : \"No License required\", \"regionCode\" : "
           "\"us-east-1\", \"gpu\" : \"1\"}}";
}

std::string on_demand(const std::string& sku, const std::string& usd, const std::string& extra) {
    return "\"" + sku + "\" : {\"" + sku + ".T\" : {\"offerTermCode\" : \"T\", " + extra +
           "\"priceDimensions\" : {\"" + sku +
           ".T.R\" : {\"unit\" : \"Hrs\", \"pricePerUnit\" : "
           "{\"USD\" : \"" +
           usd + "\"}, \"appliesTo\" : []}}, \"termAttributes\" : {}}}";
}

AwsFeed read(const std::string& text) {
    const File file = file_of(text);
    return read_aws_feed(file.get(), [](const AwsProduct& p) {
        return p.attributes.at("operatingSystem") == "Linux";
    });
}

AwsTerm reserved(const char* lease,
                 const char* cls,
                 const char* option,
                 const char* hourly,
                 std::optional<std::string> upfront) {
    AwsTerm term;
    term.sku = "S";
    term.code = std::string(lease) + cls + option;
    term.reserved = true;
    term.lease = lease;
    term.offering_class = cls;
    term.purchase = option;
    term.hourly = hourly;
    term.upfront = std::move(upfront);
    return term;
}

} // namespace

TEST_CASE("the reader gives the line and column of the last byte read") {
    const File file = file_of("{\n  \"a\" : 1,\n  \"b\" : 2\n}\n");
    AwsByteReader reader(file.get());
    AwsByteIterator it(reader);
    for (int i = 0; i < 17; ++i) { // through the 'b' of line 3
        REQUIRE(!(it == AwsByteIterator()));
        ++it;
    }
    const AwsPos pos = reader.last();
    CHECK(pos.offset == 16);
    CHECK(pos.line == 3);
    CHECK(pos.column == 4);
}

TEST_CASE("the brace scan stops at the matching brace, past braces and quotes inside strings") {
    const File file = file_of("{ \"x\" : \"}{\\\"}\", \"y\" : { \"z\" : [ {} ] } } , rest");
    AwsByteReader reader(file.get());
    AwsByteIterator it(reader);
    REQUIRE(!(it == AwsByteIterator())); // reads the first buffer
    ++it;                                // the '{'
    reader.skip_object();
    REQUIRE(!(it == AwsByteIterator()));
    CHECK(*it == '}');
    ++it;
    CHECK(*it == ' ');
}

TEST_CASE("a run of over 16 MiB without a quote ends the input as an overrun") {
    std::string text = "\"";
    text.append(AwsByteReader::k_max_run + 10, 'x');
    const File file = file_of(text);
    AwsByteReader reader(file.get());
    AwsByteIterator it(reader);
    std::size_t read = 0;
    while (!(it == AwsByteIterator())) {
        ++it;
        ++read;
    }
    CHECK(reader.overrun());
    CHECK(read < AwsByteReader::k_max_run + 10);
}

TEST_CASE("the handler keeps the kept products' terms only, and skips the others unread") {
    const std::string text =
        "{\"version\" : \"v1\", \"publicationDate\" : \"2026-11-20T00:00:00Z\", "
        "\"products\" : {" +
        product("A", "g4dn.xlarge", "Linux") + ", " + product("B", "g4dn.xlarge", "Windows") +
        "}, \"terms\" : {"
        "\"OnDemand\" : {" +
        on_demand("A", "0.526", "") + ", " + on_demand("B", "0.9", "\"odd\" : \"}}{{\\\"\", ") +
        "}}}";
    const AwsFeed feed = read(text);
    CHECK(feed.problems.empty());
    CHECK(feed.version == "v1");
    CHECK(feed.publication_date == "2026-11-20T00:00:00Z");
    REQUIRE(feed.products.size() == 1);
    CHECK(feed.products.count("A") == 1);
    CHECK(feed.skipped_products == 1);
    REQUIRE(feed.terms.size() == 1);
    CHECK(feed.terms[0].sku == "A");
    CHECK(feed.terms[0].hourly == "0.526");
}

TEST_CASE("a term twice and a wrong type are problems at their place") {
    const std::string twice =
        "{\"products\" : {" + product("A", "g5.xlarge", "Linux") +
        "}, \"terms\" : {\"OnDemand\" : {\"A\" : {\"A.T\" : {}, \"A.T\" : {}}}}}";
    const AwsFeed feed = read(twice);
    REQUIRE(feed.problems.size() == 1);
    CHECK(std::string(feed.problems[0].code) == "duplicate-id");
    const AwsFeed typed = read("{\"products\" : {\"A\" : {\"sku\" : 5}}}");
    REQUIRE(typed.problems.size() == 1);
    CHECK(std::string(typed.problems[0].code) == "wrong-type");
    CHECK(typed.problems[0].pos.line == 1);
    CHECK(typed.problems[0].pos.column == 32); // the 5
}

TEST_CASE("reserved: hourly + upfront / hours of the term, standard No Upfront chosen") {
    const FxTable fx;
    const std::vector<AwsTerm> terms{
        reserved("1yr", "standard", "No Upfront", "0.3310000000", std::nullopt),
        reserved("1yr", "standard", "Partial Upfront", "0.1570000000", "1377"),
        reserved("3yr", "standard", "All Upfront", "0.0000000000", "5350"),
        reserved("3yr", "standard", "No Upfront", "0.2270000000", std::nullopt)};
    std::vector<const AwsTerm*> pointers;
    for (const AwsTerm& term : terms) {
        pointers.push_back(&term);
    }
    std::vector<AwsProblem> problems;
    const auto prices = aws_plan_prices(pointers, fx, problems);
    CHECK(problems.empty());
    REQUIRE(prices.size() == 2);
    CHECK(prices[0].plan == Plan::reserved_1y);
    CHECK(prices[0].micros == 331'000);
    CHECK(prices[1].plan == Plan::reserved_3y);
    CHECK(prices[1].micros == 227'000);
    // 0.157 + 1377 / 8760 = 0.314192; 5350 / 26280 = 0.203577
    CHECK(prices[0].notes.find("1yr standard Partial Upfront 0.314192") != std::string::npos);
    CHECK(prices[0].notes.find("3yr standard All Upfront 0.203577") != std::string::npos);
}

TEST_CASE("a price 'abc' and a negative price are errors; 0.00 is left out with a warning") {
    const FxTable fx;
    AwsTerm abc;
    abc.sku = "S";
    abc.hourly = "abc";
    AwsTerm negative = abc;
    negative.hourly = "-1.0";
    AwsTerm zero = abc;
    zero.hourly = "0.0000000000";
    for (const auto& [term, code, warning] : {std::tuple{&abc, "bad-number", false},
                                              std::tuple{&negative, "out-of-range", false},
                                              std::tuple{&zero, "no-price", true}}) {
        std::vector<AwsProblem> problems;
        CHECK(aws_plan_prices({term}, fx, problems).empty());
        REQUIRE(problems.size() == 1);
        CHECK(std::string(problems[0].code) == code);
        CHECK(problems[0].warning == warning);
    }
}

TEST_CASE("a new type's figures from the product's attributes") {
    AwsProduct product;
    product.attributes = {{"instanceType", "p6-b200.48xlarge"},
                          {"gpu", "8"},
                          {"vcpu", "192"},
                          {"memory", "2,048 GiB"},
                          {"networkPerformance", "Up to 12500 Megabit"},
                          {"storage", "8 x 3840 NVMe SSD"},
                          {"gpuMemory", "1440 GB"}};
    std::string problem;
    const auto type = aws_instance(product, "B200", {}, problem);
    REQUIRE(type);
    CHECK(type->family == "p6-b200");
    CHECK(type->gpu_count == 8);
    CHECK(type->vcpus == 192);
    CHECK(type->memory_gb == 2048);
    CHECK(type->network_gbps == Approx(12.5));
    CHECK(type->local_storage_gb == 30720);
    CHECK(type->gpu_memory_gb == 1440);
    product.attributes["networkPerformance"] = "Moderate";
    CHECK(!aws_instance(product, "B200", {}, problem));
    CHECK(problem == "networkPerformance: 'Moderate' is not a figure");
}

TEST_CASE("a region's country by its id") {
    CHECK(aws_region_country("us-gov-west-1") == "US");
    CHECK(aws_region_country("eu-west-2") == "GB");
    CHECK(aws_region_country("ap-northeast-3") == "JP");
    CHECK(aws_region_country("eu-west-9").empty());
    CHECK(aws_region_country("xx-moon-1").empty());
}
