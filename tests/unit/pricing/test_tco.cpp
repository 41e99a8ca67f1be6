// Owning vs renting, computed by hand from a small TCO data set.
#include "gpuadvisor/tco.hpp"
#include "test_helpers.hpp"

#include <catch2/catch.hpp>

using namespace gpuadvisor;

namespace {

const char* const k_tco = R"(schema_version: 1
servers:
  - {id: box-a100-8, name: "8x A100 40GB box", gpu: A100-40GB, gpus: 8, price: 200000,
     currency: USD, power_kw: 6.5, source: "test", as_of: 2024-01-01}
electricity:
  - {market: test, price_per_kwh: 0.10, currency: USD, source: "test", as_of: 2024-01-01}
defaults:
  pue: {value: 1.5, unit: "x", source: "t"}
  power_load_factor: {value: 0.8, unit: "x", source: "t"}
  colocation_per_kw_month: {value: 100, unit: "x", source: "t"}
  operations_per_server_year: {value: 5000, unit: "x", source: "t"}
  network_storage_share: {value: 0.1, unit: "x", source: "t"}
  depreciation_years: {value: 4, unit: "x", source: "t"}
  maintenance_share_per_year: {value: 0.05, unit: "x", source: "t"}
)";

} // namespace

TEST_CASE("TCO: each line of owning, against on-demand for the same usage") {
    const TcoLoad load = load_tco_text("tco.yaml", k_tco);
    INFO(test::describe(load.diagnostics));
    REQUIRE_FALSE(load.diagnostics.has_errors());
    const auto found = test::test_catalog().match_instances("big.8x");
    const Offer offer{found[0], &found[0]->regions[1]}; // us-east-1, on-demand 32.7726
    REQUIRE(offer.prices->region == "us-east-1");
    const TcoInput input{&offer,
                         {1, 3 * 8760, 0.5},
                         {{Plan::on_demand, 1}},
                         {},
                         nullptr,
                         &load.data.electricity[0],
                         "USD"};
    const TcoResult r = compare_tco(input, load.data, builtin_fx());
    REQUIRE(r.error.empty());
    REQUIRE(r.own.size() == 6);
    CHECK(r.servers == 1);
    CHECK(r.own[0].micros == 150'000'000'000); // 200,000 x 3/4 years
    CHECK(r.own[1].micros == 15'000'000'000);  // 10% network, 3/4 depreciated
    CHECK(r.own[2].micros == 20'498'400'000);  // 6.5 kW x 0.8 x 1.5 x 26,280 h x 0.10
    CHECK(r.own[3].micros == 23'400'000'000);  // 6.5 kW x 36 months x 100
    CHECK(r.own[4].micros == 15'000'000'000);  // 3 server-years x 5,000
    CHECK(r.own[5].micros == 30'000'000'000);  // 5% x 200,000 x 3
    CHECK(r.own_total == 253'898'400'000);
    CHECK(r.cash_outlay == 220'000'000'000);
    CHECK(r.cloud_total == 430'631'964'000); // 13,140 h x 32.7726
    CHECK(*r.break_even_utilization == Approx(253898.4 / (430631.964 / 0.5)));
    // Monthly savings: cloud 430,631.964 / 36 minus running costs (88,898.40 / 36).
    CHECK(*r.payback_months == Approx(220000.0 / ((430631.964 - 88898.4) / 36)));
}

TEST_CASE("TCO: a GPU no server has, and the shipped data loads") {
    const TcoLoad load = load_tco_text("tco.yaml", k_tco);
    const auto found = test::test_catalog().match_instances("small.1x"); // T4
    const Offer offer{found[0], &found[0]->regions[0]};
    const TcoInput input{&offer,
                         {1, 8760, 1},
                         {{Plan::on_demand, 1}},
                         {},
                         nullptr,
                         &load.data.electricity[0],
                         "USD"};
    CHECK(compare_tco(input, load.data, builtin_fx())
              .error.starts_with(
                  "no built-in server has T4 GPUs ('gpuadvisor catalog list servers')"));
    const TcoLoad shipped =
        load_tco_text("tco.yaml", test::read_text(std::string(GPUADVISOR_DATA) + "/tco.yaml"));
    CHECK(test::describe(shipped.diagnostics).empty());
    for (const Server& server : shipped.data.servers) {
        INFO(server.id);
        CHECK(builtin_catalog().find_gpu(server.gpu) != nullptr);
    }
}
