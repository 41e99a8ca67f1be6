// Pricing plans, term billing, spot overhead, mixes and break-even, computed by hand.
#include "gpuadvisor/fx.hpp"
#include "gpuadvisor/pricing.hpp"
#include "test_helpers.hpp"

#include <catch2/catch.hpp>

using namespace gpuadvisor;

namespace {

Offer offer(const std::string& instance_id, const std::string& region) {
    const auto found = test::test_catalog().match_instances(instance_id);
    REQUIRE(found.size() == 1);
    for (const PriceRow& row : found[0]->regions) {
        if (row.region == region) {
            return {found[0], &row};
        }
    }
    FAIL("no such region");
    return {};
}

Quote quote(const Offer& o,
            const Usage& usage,
            std::vector<PlanShare> mix,
            const SpotModel& spot = {},
            std::span<const EstimateRule> rules = {},
            bool estimate = false) {
    QuoteResult result = price_offer(o, usage, mix, spot, rules, estimate);
    INFO(result.error);
    REQUIRE(result.quote);
    return *result.quote;
}

} // namespace

TEST_CASE("money times hours is exact to the micro-unit") {
    CHECK(multiply_money(32'772'600, 730) == 23'923'998'000);
    CHECK(multiply_money(12'510'000, 1514.75) == 18'949'522'500);
    CHECK(multiply_money(1, 0.0015) == 0);    // 0.0015 -> 2 thousandths -> 0.002 -> 0
    CHECK(multiply_money(500, 0.003) == 2);   // 1.5 -> half to even: 2
    CHECK(multiply_money(1'500, 0.003) == 4); // 4.5 -> 4
    CHECK_FALSE(multiply_money(1'000'000, -1));
    CHECK_FALSE(multiply_money(1'000'000, 1e300));
    CHECK_FALSE(multiply_money(9'000'000'000'000'000'000, 1000));
    // Summing a price many times in floating point drifts; in micro-units it cannot.
    std::int64_t total = 0;
    for (int i = 0; i < 100000; ++i) {
        total += *multiply_money(100'000, 1); // 0.10 a time
    }
    CHECK(total == 10'000'000'000); // exactly 10,000.00
}

TEST_CASE("on-demand is billed for the hours it runs") {
    const Quote q = quote(offer("big.8x", "us-east-1"), {2, 730, 1}, {{Plan::on_demand, 1}});
    REQUIRE(q.parts.size() == 1);
    CHECK(q.parts[0].billed_quantity == 1460);
    CHECK(q.total_micros == 47'847'996'000);
    const Quote half = quote(offer("big.8x", "us-east-1"), {2, 730, 0.5}, {{Plan::on_demand, 1}});
    CHECK(half.total_micros == 23'923'998'000);
}

TEST_CASE("reserved is billed for the whole term, used or not") {
    const Quote month = quote(offer("big.8x", "us-east-1"), {2, 730, 1}, {{Plan::reserved_1y, 1}});
    CHECK(month.parts[0].capacity == 2);
    CHECK(month.parts[0].billed_quantity == 2 * 8760);
    CHECK(month.total_micros == 336'734'400'000); // 17,520 h x 19.22
    const Quote two_years =
        quote(offer("big.8x", "us-east-1"), {1, 2 * 8760, 1}, {{Plan::reserved_3y, 1}});
    CHECK(two_years.parts[0].billed_quantity == 3 * 8760); // one 3-year term
}

TEST_CASE("reserved capacity does not shrink with utilisation") {
    const Quote low = quote(offer("big.8x", "us-east-1"), {2, 8760, 0.1}, {{Plan::reserved_1y, 1}});
    const Quote full = quote(offer("big.8x", "us-east-1"), {2, 8760, 1}, {{Plan::reserved_1y, 1}});
    CHECK(low.parts[0].capacity == 2);
    CHECK(low.total_micros == full.total_micros); // 2 x 8760 h x 19.22 either way
    const Quote od = quote(offer("big.8x", "us-east-1"), {2, 8760, 0.1}, {{Plan::on_demand, 1}});
    CHECK(od.total_micros < low.total_micros); // 10% is below the 58.6% break-even
}

TEST_CASE("spot adds the expected interruption overhead") {
    const SpotModel spot{0.05, 1, 0.25}; // 0.05 x (0.5 + 0.25) = 3.75%
    const Quote q = quote(offer("big.8x", "us-east-1"), {2, 730, 1}, {{Plan::spot, 1}}, spot);
    CHECK(q.parts[0].billed_quantity == Approx(1514.75));
    CHECK(q.total_micros == 18'949'522'500);
}

TEST_CASE("a mix prices each share and sums them") {
    const auto mix = parse_mix("reserved-1y=0.5,on-demand=0.5");
    REQUIRE(mix.error.empty());
    const Quote q = quote(offer("big.8x", "us-east-1"), {2, 8760, 1}, mix.shares);
    REQUIRE(q.parts.size() == 2);
    CHECK(q.parts[0].total_micros == 168'367'200'000); // 1 reserved instance x 8760 h x 19.22
    CHECK(q.parts[1].total_micros == 287'087'976'000); // 8760 h x 32.7726
    CHECK(q.total_micros == 455'455'176'000);
}

TEST_CASE("break-even utilisation is the term plan's hourly over on-demand") {
    const Quote q = quote(offer("big.8x", "us-east-1"), {1, 730, 1}, {{Plan::on_demand, 1}});
    CHECK(*q.break_even_reserved_1y == Approx(19.22 / 32.7726));
    CHECK(*q.break_even_reserved_3y == Approx(11.57 / 32.7726));
    CHECK_FALSE(q.break_even_subscription);
    const Quote yun =
        quote(offer("yun.t4", "cn-shanghai"), {1, 1460, 1}, {{Plan::subscription_monthly, 1}});
    CHECK(yun.currency == "CNY");
    CHECK(yun.total_micros == 3'000'000'000); // 2 months x 1500
    CHECK(*yun.break_even_subscription == Approx(1500.0 / 730 / 3.5));
}

TEST_CASE("a plan with no price is refused, or estimated from a documented rule on request") {
    const Offer eu = offer("big.8x", "eu-west-1");
    const std::vector<PlanShare> reserved{{Plan::reserved_1y, 1}};
    const QuoteResult refused = price_offer(eu, {1, 730, 1}, reserved, {}, {}, false);
    CHECK_FALSE(refused.quote);
    CHECK(refused.error == "big.8x in eu-west-1 has no reserved-1y price");
    const std::vector<EstimateRule> rules{
        {"doc-reserved-1y-45", Plan::reserved_1y, 0.45, {"any"}, "source document 000"}};
    const Quote q = quote(eu, {1, 730, 1}, reserved, {}, rules, true);
    CHECK(q.parts[0].estimated);
    CHECK(q.parts[0].rate_micros == 19'525'000); // 35.50 x 0.55
    CHECK(q.parts[0].estimate_rule.starts_with("doc-reserved-1y-45 (45% off on-demand"));
}

TEST_CASE("mixes are checked") {
    CHECK(parse_mix("spot=0.3,on-demand=0.7").shares.size() == 2);
    CHECK(parse_mix("spot=0.3,on-demand=0.6").error == "the fractions add up to 0.9, not 1");
    CHECK(parse_mix("spot=0.5,spot=0.5").error == "spot is given twice");
    CHECK(parse_mix("cheap=1").error.starts_with("'cheap=1' is not PLAN=FRACTION"));
    CHECK(parse_mix("spot=nan").error.starts_with("'spot=nan' is not"));
    CHECK_FALSE(parse_mix("").error.empty());
}

TEST_CASE("currency conversion uses the dated rates and names them") {
    const FxLoad load = load_fx_text("fx.yaml",
                                     "schema_version: 1\nbase: USD\nrates:\n"
                                     "  - {currency: CNY, per_usd: 7.25, as_of: "
                                     "2025-02-28, source: \"test\"}\n");
    REQUIRE_FALSE(load.diagnostics.has_errors());
    CHECK(load.table.convert(7'250'000, "CNY", "USD") == 1'000'000);
    CHECK(load.table.convert(1'000'000, "USD", "CNY") == 7'250'000);
    CHECK(load.table.convert(1'000'000, "USD", "USD") == 1'000'000);
    CHECK_FALSE(load.table.convert(1'000'000, "USD", "EUR"));
    CHECK(load.table.describe("CNY", "USD") == "1 CNY = 0.137931 USD (CNY: test, 2025-02-28)");
    const FxLoad bad = load_fx_text("fx.yaml",
                                    "schema_version: 1\nbase: USD\nrates:\n"
                                    "  - {currency: yuan, per_usd: -1, as_of: 2025-02-28, "
                                    "source: \"x\"}\n");
    CHECK(bad.diagnostics.error_count() == 2);
}

TEST_CASE("the shipped pricing data: only typical discounts estimate, provider rules first") {
    const PricingLoad load = load_pricing_data_text(
        "pricing.yaml", test::read_text(std::string(GPUADVISOR_DATA) + "/pricing.yaml"));
    INFO(test::describe(load.diagnostics));
    REQUIRE_FALSE(load.diagnostics.has_errors());
    const PricingData& data = load.data;
    REQUIRE_FALSE(data.rules.empty());
    for (const EstimateRule& rule : data.rules) {
        INFO(rule.id);
        CHECK(rule.id.find("max") == std::string::npos); // "up to" figures never estimate
    }
    const auto first_general =
        std::find_if(data.rules.begin(), data.rules.end(), [](const EstimateRule& r) {
            return r.providers.empty() || r.providers.front() == "any";
        });
    CHECK(std::none_of(first_general, data.rules.end(), [](const EstimateRule& r) {
        return !r.providers.empty() && r.providers.front() != "any";
    }));
    CHECK(data.spot_defaults.checkpoint_interval_hours > 0);
    CHECK(data.auto_release_utilization == Approx(0.15));
    CHECK(data.auto_release_idle_minutes == 10);
    const FxLoad fx =
        load_fx_text("fx.yaml", test::read_text(std::string(GPUADVISOR_DATA) + "/fx.yaml"));
    CHECK_FALSE(fx.diagnostics.has_errors());
    CHECK(fx.table.find("CNY") != nullptr);
}

TEST_CASE("the automatic mix picks the cheapest plans for the usage") {
    const Offer o = offer("big.8x", "us-east-1");
    std::vector<PlanShare> chosen;
    const QuoteResult busy = cheapest_mix(o, {1, 8760, 1}, 0, {}, {}, false, chosen);
    REQUIRE(busy.quote);
    REQUIRE(chosen.size() == 1);
    CHECK(chosen[0].plan == Plan::reserved_1y); // 168,367.20 < 3y's whole term 304,059.60
    CHECK(busy.quote->total_micros == 168'367'200'000);
    const QuoteResult idle = cheapest_mix(o, {1, 8760, 0.3}, 0, {}, {}, false, chosen);
    CHECK(chosen[0].plan == Plan::on_demand); // 30% is below the 58.6% break-even
    CHECK(idle.quote->total_micros == *multiply_money(32'772'600, 2628));
    cheapest_mix(o, {1, 8760, 1}, 0.5, {}, {}, false, chosen);
    REQUIRE(chosen.size() == 2);
    CHECK(chosen[0].plan == Plan::spot);        // the interruptible half
    CHECK(chosen[1].plan == Plan::reserved_1y); // the steady half never runs on spot
}
