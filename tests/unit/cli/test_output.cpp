// Money in JSON (output.cpp): exact decimal strings from integer micro-units, rates with every
// digit, billed amounts to the cent as the tables show them; and the two agree on a real run.
#include "app.hpp"
#include "output.hpp"
#include "text.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

using namespace gpuadvisor::cli;

namespace {

constexpr std::int64_t k_max = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t k_min = std::numeric_limits<std::int64_t>::min();

// The command's stdout, run in-process as main runs it, on the test catalog.
std::string run(std::vector<std::string> args) {
    std::vector<std::string> all{"gpuadvisor",
                                 "--no-default-catalog",
                                 "--no-cache",
                                 "--catalog",
                                 GPUADVISOR_FIXTURES "/catalog"};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& arg : all) {
        argv.push_back(arg.data());
    }
    argv.push_back(nullptr);
    std::ostringstream out;
    std::ostringstream err;
    const int status = run_app(static_cast<int>(all.size()), argv.data(), out, err);
    INFO(err.str());
    REQUIRE(status == 0);
    return out.str();
}

// The fields of a CSV line up to the first quoted one (the columns before WHY hold no comma).
std::vector<std::string> csv_fields(const std::string& line) {
    std::vector<std::string> fields;
    std::istringstream in(line);
    for (std::string field; std::getline(in, field, ',');) {
        fields.push_back(field);
    }
    return fields;
}

} // namespace

TEST_CASE("money json: a rate keeps every digit its micro-units have, at least two decimals") {
    CHECK(rate_amount(32'772'600) == "32.7726");
    CHECK(rate_amount(1) == "0.000001");
    CHECK(rate_amount(5'000'000) == "5.00");
    CHECK(rate_amount(0) == "0.00");
    CHECK(rate_amount(-1) == "-0.000001");
    CHECK(rate_amount(-32'772'600) == "-32.7726");
    // int64's limits: 9223372036854775807 micro-units are 9223372036854.775807 units.
    CHECK(rate_amount(k_max) == "9223372036854.775807");
    CHECK(rate_amount(k_min) == "-9223372036854.775808");
    CHECK(rate_amount(std::nullopt).is_null());
}

TEST_CASE("money json: a billed amount is to the cent, half a cent away from zero, as tables") {
    // 287087.984999 is under half a cent above .98; 287087.985 is half a cent: up to .99.
    CHECK(billed_amount(287'087'984'999) == "287087.98");
    CHECK(billed_amount(287'087'985'000) == "287087.99");
    CHECK(billed_amount(1'005'000) == "1.01");
    CHECK(billed_amount(1'004'999) == "1.00");
    CHECK(billed_amount(2'675'000) == "2.68"); // 2.675: a double would round it to 2.67
    CHECK(billed_amount(-1'005'000) == "-1.01");
    CHECK(billed_amount(-1'004'999) == "-1.00");
    CHECK(billed_amount(23'592'000'000) == "23592.00");
    CHECK(billed_amount(0) == "0.00");
    // Half a cent is a cent; under it the amount keeps its digits rather than read as free.
    CHECK(billed_amount(5'000) == "0.01");
    CHECK(billed_amount(4'999) == "0.004999");
    CHECK(billed_amount(-4'999) == "-0.004999");
    // 9223372036854.775807 has 0.5807 of a cent beyond ...77 cents: up to .78, no overflow.
    CHECK(billed_amount(k_max) == "9223372036854.78");
    CHECK(billed_amount(k_min) == "-9223372036854.78");
    CHECK(billed_amount(std::nullopt).is_null());
    for (const std::int64_t micros :
         std::initializer_list<std::int64_t>{0, 4'999, 5'000, 1'005'000, -1'005'000, k_max}) {
        CHECK(billed_amount(micros) == format_cents(micros)); // the table's cell, the same text
    }
}

TEST_CASE("money json: one object, the currency first, then each amount as a string or null") {
    const Json cost = money_json(
        "USD", {{"per_hour", rate_amount(32'772'600)}, {"total", billed_amount(287'087'984'999)}});
    CHECK(cost.dump() == R"({"currency":"USD","per_hour":"32.7726","total":"287087.98"})");
    CHECK(total_json("EUR", -1'005'000).dump() == R"({"currency":"EUR","total":"-1.01"})");
    CHECK(money_json("USD", {{"per_month", rate_amount(std::nullopt)}}).dump() ==
          R"({"currency":"USD","per_month":null})");
}

TEST_CASE("money json: counts are integers when whole") {
    CHECK(count_json(2.0).dump() == "2");
    CHECK(count_json(0.0).dump() == "0");
    CHECK(count_json(2.5).dump() == "2.5");
}

TEST_CASE("money json: every document starts with schema_version 2, its command and ok") {
    CHECK(json_document("price").dump() == R"({"schema_version":2,"command":"price","ok":true})");
}

namespace {

// The line of a terminal table whose first word is `rank` ("3" or "3*").
std::string table_line(const std::string& table, int rank) {
    std::istringstream in(table);
    for (std::string line; std::getline(in, line);) {
        std::istringstream words(line);
        std::string first;
        words >> first;
        if (first == std::to_string(rank) || first == std::to_string(rank) + "*") {
            return line;
        }
    }
    return {};
}

} // namespace

TEST_CASE("money json: recommend's cost total is the table's TOTAL and CSV's total, row by row") {
    const std::vector<std::string> args{
        "recommend", "training", "--model", "llama-2-7b", "--tokens", "10B", "--top", "5"};
    std::vector<std::string> with_csv = args;
    with_csv.insert(with_csv.end(), {"-o", "csv"});
    std::vector<std::string> with_json = args;
    with_json.insert(with_json.end(), {"-o", "json"});
    std::istringstream csv(run(with_csv));
    const std::string table = run(args);
    const Json document = Json::parse(run(with_json));

    std::string line;
    REQUIRE(std::getline(csv, line));
    const std::vector<std::string> header = csv_fields(line);
    REQUIRE(header.size() > 11);
    REQUIRE(header[0] == "rank");
    REQUIRE(header[9] == "currency");
    REQUIRE(header[11] == "total");
    const Json& recommendations = document.at("recommendations");
    REQUIRE(recommendations.size() >= 2);
    std::size_t rows = 0;
    for (; std::getline(csv, line); ++rows) {
        REQUIRE(rows < recommendations.size());
        const Json& recommendation = recommendations[rows];
        const Json& cost = recommendation.at("cost");
        const std::string total = cost.at("total").get<std::string>();
        INFO(line);
        CHECK(csv_fields(line).at(0) == std::to_string(recommendation.at("rank").get<int>()));
        CHECK(csv_fields(line).at(11) == total);
        CHECK(csv_fields(line).at(9) == "USD");
        CHECK(table_line(table, recommendation.at("rank").get<int>()).find("  " + total + "  ") !=
              std::string::npos);
        CHECK(cost.at("currency") == "USD");
    }
    CHECK(rows == recommendations.size());
}
