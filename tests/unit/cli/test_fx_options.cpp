// The user's exchange rates (fx_options.cpp, FxTable::overlaid): --fx-rate's text, and rates
// laid over the built-in ones.
#include "fx_options.hpp"

#include <catch2/catch.hpp>

using namespace gpuadvisor;
using namespace gpuadvisor::cli;

TEST_CASE("parse_fx_rate: CODE=RATE dated today, or @DATE") {
    const Date today = *parse_date("2026-12-02");
    std::string why;
    const auto rate = parse_fx_rate("EUR=0.92", today, why);
    REQUIRE(rate);
    CHECK(rate->currency == "EUR");
    CHECK(rate->per_usd == 0.92);
    CHECK(rate->provenance.as_of == today);
    CHECK(rate->provenance.source == "--fx-rate EUR=0.92");
    const auto dated = parse_fx_rate("CHF=0.88@2026-10-31", today, why);
    REQUIRE(dated);
    CHECK(format_date(dated->provenance.as_of) == "2026-10-31");
}

TEST_CASE("parse_fx_rate: refuses what is not a rate, and says why") {
    const Date today = *parse_date("2026-12-02");
    for (const char* text : {"EUR",
                             "EUR:0.92",
                             "eur=0.92",
                             "EURO=0.9",
                             "=0.9",
                             "EUR=",
                             "EUR=x",
                             "EUR=0.9x",
                             "EUR=0",
                             "EUR=-1",
                             "EUR=1e9",
                             "EUR=nan",
                             "EUR=inf",
                             "USD=1",
                             "EUR=0.9@2026-13-01",
                             "EUR=0.9@"}) {
        std::string why;
        INFO(text);
        CHECK_FALSE(parse_fx_rate(text, today, why));
        CHECK_FALSE(why.empty());
    }
}

TEST_CASE("FxTable::overlaid: a currency's rate replaced, a new one added, the rest kept") {
    const FxTable base({{"EUR", 0.96, {}}, {"CNY", 7.27, {}}});
    const FxTable table = base.overlaid({{"EUR", 0.92, {}}, {"CHF", 0.88, {}}});
    REQUIRE(table.find("EUR") != nullptr);
    CHECK(table.find("EUR")->per_usd == 0.92);
    CHECK(table.find("CNY")->per_usd == 7.27);
    CHECK(table.find("CHF")->per_usd == 0.88);
    CHECK(table.find("USD")->per_usd == 1);
    // 100 EUR at 0.92 per USD is 108.695652 USD (100 / 0.92), to the micro-unit.
    CHECK(table.convert(100'000'000, "EUR", "USD") == 108'695'652);
}
