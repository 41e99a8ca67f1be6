// Pricing plans, term billing, spot overhead, mixes and break-even, computed by hand.
#include "gpuadvisor/catalog_io.hpp"
#include "gpuadvisor/discounts.hpp"
#include "gpuadvisor/fx.hpp"
#include "gpuadvisor/pricing.hpp"
#include "test_helpers.hpp"
#include "text.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

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
    QuoteResult result = price_offer(o, usage, mix, {spot, rules, estimate, {}, {}});
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

TEST_CASE("money times hours: the 64-bit path and the 128-bit one agree at every size") {
    // Reference: the product in 128 bits, divided by 1000 rounding half to even.
    const auto reference = [](std::int64_t rate, double quantity) -> std::optional<std::int64_t> {
        __extension__ using Int128 = __int128;
        const Int128 product = static_cast<Int128>(rate) * std::llround(quantity * 1000);
        Int128 quotient = product / 1000;
        const Int128 twice = (product % 1000) * 2;
        if (twice > 1000 || (twice == 1000 && quotient % 2 != 0)) {
            quotient += 1;
        }
        if (quotient > std::numeric_limits<std::int64_t>::max()) {
            return std::nullopt;
        }
        return static_cast<std::int64_t>(quotient);
    };
    std::uint64_t state = 12345;
    const auto next = [&] { // a fixed linear congruential sequence
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return state >> 11;
    };
    for (int i = 0; i < 20000; ++i) {
        const int scale = i % 16; // rates from 1 micro-unit to about 1e18
        const auto rate = static_cast<std::int64_t>(next() % 1000) *
                          static_cast<std::int64_t>(std::pow(10.0, scale));
        const double quantity = static_cast<double>(next() % 10'000'000) / 1000 *
                                std::pow(10.0, static_cast<double>(i % 9));
        INFO(rate << " x " << quantity);
        CHECK(multiply_money(rate, quantity) == reference(rate, quantity));
    }
    CHECK(multiply_money(std::numeric_limits<std::int64_t>::max(), 0.001) ==
          reference(std::numeric_limits<std::int64_t>::max(), 0.001));
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
    CHECK(month.parts[0].instances == 2);
    CHECK(month.parts[0].billed_quantity == 2 * 8760);
    CHECK(month.total_micros == 336'734'400'000); // 17,520 h x 19.22
    const Quote two_years =
        quote(offer("big.8x", "us-east-1"), {1, 2 * 8760, 1}, {{Plan::reserved_3y, 1}});
    CHECK(two_years.parts[0].billed_quantity == 3 * 8760); // one 3-year term
}

TEST_CASE("reserved capacity does not shrink with utilisation") {
    const Quote low = quote(offer("big.8x", "us-east-1"), {2, 8760, 0.1}, {{Plan::reserved_1y, 1}});
    const Quote full = quote(offer("big.8x", "us-east-1"), {2, 8760, 1}, {{Plan::reserved_1y, 1}});
    CHECK(low.parts[0].instances == 2);
    CHECK(low.total_micros == full.total_micros); // 2 x 8760 h x 19.22 either way
    const Quote od = quote(offer("big.8x", "us-east-1"), {2, 8760, 0.1}, {{Plan::on_demand, 1}});
    CHECK(od.total_micros < low.total_micros); // 10% is below the 58.6% break-even
}

TEST_CASE("spot adds the expected interruption overhead, per instance of one job") {
    // One job on 2 instances stops when either is taken back: 2 x 0.05 x (0.5 + 0.25) = 7.5%.
    const SpotModel job{0.05, 1, 0.25};
    const Quote q = quote(offer("big.8x", "us-east-1"), {2, 730, 1}, {{Plan::spot, 1}}, job);
    CHECK(q.parts[0].billed_quantity == Approx(1460 * 1.075));
    CHECK(q.total_micros == 19'634'445'000);        // 1569.5 instance-hours x 12.51
    CHECK(job.overhead(21) == Approx(21 * 0.0375)); // 79% for a 21-instance job
    // Two serving replicas: each loses only its own work, 3.75%.
    const SpotModel replicas{0.05, 1, 0.25, false};
    const Quote r = quote(offer("big.8x", "us-east-1"), {2, 730, 1}, {{Plan::spot, 1}}, replicas);
    CHECK(r.parts[0].billed_quantity == Approx(1514.75));
    CHECK(r.total_micros == 18'949'522'500);
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
    const QuoteResult refused = price_offer(eu, {1, 730, 1}, reserved, {});
    CHECK_FALSE(refused.quote);
    CHECK(refused.error == "big.8x in eu-west-1 has no reserved-1y price");
    const std::vector<EstimateRule> rules{
        {"doc-reserved-1y-45", Plan::reserved_1y, 0.45, {"any"}, "source document 000"}};
    const Quote q = quote(eu, {1, 730, 1}, reserved, {}, rules, true);
    CHECK(q.parts[0].rate.estimated);
    CHECK(q.parts[0].rate.micros == 19'525'000); // 35.50 x 0.55
    CHECK(q.parts[0].rate.estimate_rule.starts_with("doc-reserved-1y-45 (45% off on-demand"));
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

TEST_CASE("per-hour figures come from the exact rates, not back from rounded totals") {
    // 2 on-demand instances over 708.1234 h: the total is billed to 0.001 h (708.123), so the
    // total over the hours is 65.545180..., while the configuration costs 65.5452 an hour.
    const Quote q = quote(offer("big.8x", "us-east-1"), {2, 708.1234, 1}, {{Plan::on_demand, 1}});
    CHECK(per_running_hour(q) == 65'545'200);
    CHECK(per_running_hour(q.parts[0], q.running_hours) == 65'545'200);
    CHECK(std::llround(static_cast<double>(q.total_micros) / q.running_hours) != 65'545'200);
    // A mix: half reserved for the year (19.22 for 8760 h whatever runs), half on-demand at
    // 25%: per running hour, 19.22 x 8760 / 2190 + 32.7726 = 109.6526.
    const auto mix = parse_mix("reserved-1y=0.5,on-demand=0.5");
    const Quote mixed = quote(offer("big.8x", "us-east-1"), {2, 8760, 0.25}, mix.shares);
    CHECK(per_running_hour(mixed) == 109'652'600);
    CHECK(per_running_hour(mixed, true) == 109'652'600); // no discount: list = paid
}

TEST_CASE("a positive quantity under the 0.001 resolution is billed at it, never as free") {
    const Quote q = quote(offer("big.8x", "us-east-1"), {1, 0.001, 0.0001}, {{Plan::on_demand, 1}});
    CHECK(q.parts[0].billed_quantity == 0.001);
    CHECK(q.total_micros == 32'773); // 32.7726 x 0.001, half to even
}

TEST_CASE("tables round money to cents, but never show a priced amount as 0.00") {
    CHECK(cli::format_cents(47'847'996'000) == "47848.00");
    CHECK(cli::format_cents(5'000) == "0.01");
    CHECK(cli::format_cents(4'999) == "0.004999");
    CHECK(cli::format_cents(526) == "0.000526");
    CHECK(cli::format_cents(0) == "0.00");
    CHECK(cli::format_cents(-4'999) == "-0.004999");
}

TEST_CASE("a quote converted whole, or an error naming the figure that does not fit") {
    const FxTable fx({FxRate{"JPY", 150, {}}});
    const Quote q = quote(offer("big.8x", "us-east-1"), {2, 730, 1}, {{Plan::on_demand, 1}});
    const QuoteResult yen = convert_quote(q, fx, "JPY");
    REQUIRE(yen.quote);
    CHECK(yen.quote->currency == "JPY");
    CHECK(yen.quote->total_micros == std::int64_t{47'847'996'000} * 150);
    CHECK(yen.quote->parts[0].rate.micros == std::int64_t{32'772'600} * 150);
    CHECK(yen.quote->parts[0].total_micros == std::int64_t{47'847'996'000} * 150);
    // 40,000 instances for a year: 11.5 billion USD, 1.7e12 yen at 150; at 1,500 it is 1.7e13.
    const Quote big = quote(offer("big.8x", "us-east-1"), {40000, 8760, 1}, {{Plan::on_demand, 1}});
    REQUIRE(convert_quote(big, fx, "JPY").quote);
    const QuoteResult over = convert_quote(big, FxTable({FxRate{"JPY", 1500, {}}}), "JPY");
    CHECK_FALSE(over.quote);
    CHECK(over.too_large);
    CHECK(over.error == "the total is 11483519040 USD, about 1.72e+13 JPY at 1 USD = 1500 JPY: "
                        "beyond what gpuadvisor can count (9.2e12 currency units)");
    const QuoteResult unknown = convert_quote(q, fx, "CHF");
    CHECK_FALSE(unknown.quote);
    CHECK_FALSE(unknown.too_large);
    CHECK(unknown.error == "no exchange rate from USD to CHF for the total");
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
    CHECK(data.auto_release.utilization_threshold == Approx(0.15));
    CHECK(data.auto_release.idle_minutes == 10);
    CHECK(data.auto_release.idle_stretches_per_day == 1);
    const FxLoad fx =
        load_fx_text("fx.yaml", test::read_text(std::string(GPUADVISOR_DATA) + "/fx.yaml"));
    CHECK_FALSE(fx.diagnostics.has_errors());
    CHECK(fx.table.find("CNY") != nullptr);
}

TEST_CASE("the automatic mix picks the cheapest plans for the usage") {
    const Offer o = offer("big.8x", "us-east-1");
    const QuoteResult busy = cheapest_mix(o, {1, 8760, 1}, 0, {});
    REQUIRE(busy.quote);
    REQUIRE(busy.quote->parts.size() == 1);
    CHECK(busy.quote->parts[0].plan == Plan::reserved_1y); // 168,367.20 < 3y's 304,059.60
    CHECK(busy.quote->total_micros == 168'367'200'000);
    const QuoteResult idle = cheapest_mix(o, {1, 8760, 0.3}, 0, {});
    CHECK(idle.quote->parts[0].plan == Plan::on_demand); // 30% is below the 58.6% break-even
    CHECK(idle.quote->total_micros == *multiply_money(32'772'600, 2628));
    const QuoteResult half = cheapest_mix(o, {1, 8760, 1}, 0.5, {});
    REQUIRE(half.quote->parts.size() == 2);
    CHECK(half.quote->parts[0].plan == Plan::spot);        // the interruptible half
    CHECK(half.quote->parts[1].plan == Plan::reserved_1y); // the steady half never on spot
}

TEST_CASE("a baseline and bursts: each tier gets its own cheapest plan") {
    const Offer o = offer("big.8x", "us-east-1");
    // 2 instances always on, 4 more running 25% of a year.
    const Usage usage{6, 8760, 0.25, 2};
    CHECK(usage.used_instance_hours() == 2 * 8760 + 4 * 8760 * 0.25);
    CHECK(usage.running_hours() == 8760);
    const QuoteResult result = cheapest_mix(o, usage, 0, {});
    REQUIRE(result.quote);
    const auto& parts = result.quote->parts;
    REQUIRE(parts.size() == 2);
    CHECK(parts[0].tier == "baseline");
    CHECK(parts[0].plan == Plan::reserved_1y);
    CHECK(parts[0].total_micros == 336'734'400'000); // 2 x 8760 h x 19.22
    CHECK(parts[1].tier == "burst");
    CHECK(parts[1].plan == Plan::on_demand);         // 25% is below the 58.6% break-even
    CHECK(parts[1].total_micros == 287'087'976'000); // 4 x 2190 h x 32.7726
    CHECK(result.quote->total_micros == 623'822'376'000);
    // The same profile under one fixed plan prices both tiers with it.
    const std::vector<PlanShare> on_demand{{Plan::on_demand, 1}};
    const QuoteResult flat = price_offer(o, usage, on_demand, {});
    CHECK(flat.quote->total_micros == *multiply_money(32'772'600, 2 * 8760 + 4 * 2190));
    // A baseline of every instance is always on, whatever the utilisation says.
    const QuoteResult all = price_offer(o, {2, 730, 0.1, 2}, on_demand, {});
    CHECK(all.quote->total_micros == *multiply_money(32'772'600, 1460));
}

TEST_CASE("negotiated discounts: the most specific applies, exactly, with the list beside") {
    const Offer o = offer("big.8x", "us-east-1");
    std::vector<Discount> discounts(3);
    discounts[0].id = "all-od";
    discounts[0].provider = "testcloud";
    discounts[0].plans = {Plan::on_demand};
    discounts[0].off_ppm = 120'000; // 12%
    discounts[1].id = "big-family";
    discounts[1].provider = "testcloud";
    discounts[1].family = o.instance->family;
    discounts[1].plans = {Plan::reserved_1y};
    discounts[1].off_ppm = 300'000; // 30%
    discounts[2].id = "expired";
    discounts[2].provider = "testcloud";
    discounts[2].instance = "big.8x";
    discounts[2].off_ppm = 500'000;
    discounts[2].expires = Date{0};
    const PricingContext context{{}, {}, false, discounts, Date{20000}};
    const auto od = plan_rate(o, Plan::on_demand, context);
    REQUIRE(od);
    CHECK(od->discount == &discounts[0]); // the expired, more specific one is skipped
    CHECK(od->list_micros == 32'772'600);
    CHECK(od->micros == 28'839'888); // 32.7726 x 0.88
    const auto reserved = plan_rate(o, Plan::reserved_1y, context);
    CHECK(reserved->micros == 13'454'000); // 19.22 x 0.70
    CHECK_FALSE(plan_rate(o, Plan::spot, context)->discount);
    const PricingContext later{{}, {}, false, discounts, Date{-1}};
    CHECK(plan_rate(o, Plan::spot, later)->discount == &discounts[2]); // not yet expired
    const std::vector<PlanShare> mix{{Plan::reserved_1y, 0.5}, {Plan::on_demand, 0.5}};
    const QuoteResult q = price_offer(o, {2, 8760, 1}, mix, context);
    REQUIRE(q.quote);
    CHECK(q.quote->parts[0].total_micros == 117'857'040'000); // 8760 h x 13.454
    CHECK(q.quote->parts[1].total_micros == 252'637'418'880); // 8760 h x 28.839888
    CHECK(q.quote->list_total_micros == 455'455'176'000);
    CHECK(q.quote->total_micros == 370'494'458'880);
    // Break-even from the rates as paid: 13.454 / 28.839888.
    CHECK(*q.quote->break_even_reserved_1y == Approx(13.454 / 28.839888));
    // Rounding: half a micro-unit goes to even.
    Discount half;
    half.off_ppm = 500'000;
    CHECK(apply_discount(3, half) == 2); // 1.5 -> 2
    CHECK(apply_discount(5, half) == 2); // 2.5 -> 2
}

TEST_CASE("the auto-release what-if: idle time kept on against released after the wait") {
    const Offer o = offer("big.8x", "us-east-1");
    const std::vector<PlanShare> on_demand{{Plan::on_demand, 1}};
    const Usage usage{2, 720, 0.25}; // 30 days
    const QuoteResult q = price_offer(o, usage, on_demand, {});
    const AutoReleasePolicy policy{0.15, 10, 1, "test"};
    const auto what_if = auto_release_what_if(*q.quote, usage, policy);
    REQUIRE(what_if);
    CHECK(what_if->idle_stretches == 30);
    CHECK(what_if->always_on_micros == *multiply_money(32'772'600, 1440)); // 2 x 720 h
    // Running 2 x 180 h, plus 2 instances x 30 stretches x 10 minutes = 10 h.
    CHECK(what_if->released_micros == *multiply_money(32'772'600, 370));
    CHECK(what_if->saving_micros == *multiply_money(32'772'600, 1070));
    // Nothing to release: always on, or paid for by the term.
    CHECK_FALSE(auto_release_what_if(
        *price_offer(o, {2, 720, 1}, on_demand, {}).quote, {2, 720, 1}, policy));
    const std::vector<PlanShare> reserved{{Plan::reserved_1y, 1}};
    CHECK_FALSE(auto_release_what_if(*price_offer(o, usage, reserved, {}).quote, usage, policy));
}

TEST_CASE("a baseline of every instance runs the whole span; the what-if never overflows") {
    const Usage all{2, 730, 0.25, 2};
    CHECK(all.running_hours() == 730);
    CHECK(all.used_instance_hours() == 1460);
    const Offer o = offer("big.8x", "us-east-1");
    const std::vector<PlanShare> mix{{Plan::on_demand, 0.5}, {Plan::spot, 0.5}};
    const Usage huge{1e6, 565 * 730, 0.0001, 0};
    const QuoteResult q = price_offer(o, huge, mix, {});
    REQUIRE(q.quote);
    const auto what_if = auto_release_what_if(*q.quote, huge, {0.15, 10, 1, "test"});
    CHECK_FALSE(what_if); // kept on all span, it would be beyond 9.2e12: no what-if
}

TEST_CASE("the planner's totals-only pricing gives price_offer's totals, offer by offer") {
    // Every offer of the built-in catalog, every plan, usages flat, partial, tiered, tiny and
    // too large; with a discount, with estimates, with and without the words.
    std::vector<Discount> discounts(1);
    discounts[0].id = "od-aws";
    discounts[0].provider = "aws";
    discounts[0].plans = {Plan::on_demand, Plan::reserved_1y};
    discounts[0].off_ppm = 123'457;
    const std::vector<Usage> usages{{1, 730, 1, 0},
                                    {3, 1234.567, 1, 0},
                                    {8, 730, 0.37, 0},
                                    {10, 730, 0.5, 4},
                                    {4, 730, 0.2, 4},
                                    {1, 0.001, 1, 0},
                                    {7, 26281, 1, 0},
                                    {1e6, 1e6, 1, 0},
                                    {4096, 3e5, 1, 100}};
    std::size_t compared = 0;
    std::size_t too_large = 0;
    for (const bool estimate : {false, true}) {
        for (const bool explain : {false, true}) {
            PricingContext context{{0.05, 1, 0.25}, builtin_pricing().rules, estimate, discounts};
            context.explain = explain;
            for (const Offer& o : builtin_catalog().offers()) {
                for (const Usage& usage : usages) {
                    for (const Plan plan : k_all_plans) {
                        const std::vector<PlanShare> mix{{plan, 1}};
                        const QuoteResult full = price_offer(o, usage, mix, context);
                        const TotalsResult totals = price_offer_totals(o, usage, plan, context);
                        INFO(o.instance->id << " " << o.prices->region << " "
                                            << plan_flag_name(plan) << " " << usage.instances);
                        REQUIRE(totals.too_large == full.too_large);
                        REQUIRE(totals.totals.has_value() == full.quote.has_value());
                        if (full.quote) {
                            CHECK(totals.totals->total_micros == full.quote->total_micros);
                            CHECK(totals.totals->list_total_micros ==
                                  full.quote->list_total_micros);
                            ++compared;
                        }
                        too_large += full.too_large ? 1 : 0;
                    }
                }
            }
        }
    }
    CHECK(compared > 10'000);
    CHECK(too_large > 0);
}
