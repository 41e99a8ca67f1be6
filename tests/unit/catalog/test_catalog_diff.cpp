// The diff of two catalogs (tests/fixtures/diff/old and new): what is added, removed, repriced.
#include "gpuadvisor/catalog_diff.hpp"
#include "test_helpers.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace gpuadvisor;

namespace {

Catalog load_alone(const std::string& folder) {
    CatalogLoad load = load_catalog_over(nullptr, {test::fixture(folder)}, test::fixed_checks());
    REQUIRE_FALSE(load.diagnostics.has_errors());
    return std::move(load.catalog);
}

const PriceChange& find(const CatalogDiff& d, const std::string& region, Plan plan) {
    const auto found =
        std::find_if(d.price_changes.begin(), d.price_changes.end(), [&](const PriceChange& c) {
            return c.offer.instance == "big.8x" && c.offer.region == region && c.plan == plan;
        });
    REQUIRE(found != d.price_changes.end());
    return *found;
}

} // namespace

TEST_CASE("a catalog's diff with itself is empty") {
    const Catalog catalog = load_alone("diff/old");
    const CatalogDiff d = diff(catalog, catalog);
    CHECK(d.price_changes.empty());
    CHECK(d.spec_changes.empty());
    CHECK(d.instances_added.empty());
    CHECK(d.offers_removed.empty());
    CHECK(d.provenance_changes.empty());
}

TEST_CASE("diff: instance types and offers added and removed") {
    const CatalogDiff d = diff(load_alone("diff/old"), load_alone("diff/new"));
    REQUIRE(d.instances_added == std::vector<DiffKey>{{"testcloud", "tiny.1x", ""}});
    REQUIRE(d.instances_removed == std::vector<DiffKey>{{"testcloud", "small.1x", ""}});
    REQUIRE(d.offers_added == std::vector<DiffKey>{{"testcloud", "big.8x", "eu-north-1"}});
    REQUIRE(d.offers_removed == std::vector<DiffKey>{{"testcloud", "big.8x", "ap-northeast-1"}});
    CHECK(d.gpus_added.empty());
    CHECK(d.gpus_removed.empty());
}

TEST_CASE("diff: prices per plan, exact and in their currency") {
    const CatalogDiff d = diff(load_alone("diff/old"), load_alone("diff/new"));
    const PriceChange& on_demand = find(d, "us-east-1", Plan::on_demand);
    CHECK(on_demand.kind == PriceChangeKind::changed);
    CHECK(on_demand.delta_micros() == 36'050'000 - 32'772'600);
    CHECK(*on_demand.percent() == Approx(10.0004272).margin(1e-6)); // 3.2774 / 32.7726
    CHECK(find(d, "us-east-1", Plan::reserved_3y).kind == PriceChangeKind::disappeared);
    const PriceChange& currency = find(d, "eu-west-1", Plan::on_demand);
    CHECK(currency.kind == PriceChangeKind::currency);
    CHECK(currency.old_currency == "USD");
    CHECK(currency.new_currency == "EUR");
    CHECK_FALSE(currency.percent().has_value()); // never across currencies
    CHECK(find(d, "eu-west-1", Plan::spot).kind == PriceChangeKind::appeared);
    // reserved_1y did not move: no change listed
    CHECK(std::none_of(d.price_changes.begin(), d.price_changes.end(), [](const PriceChange& c) {
        return c.plan == Plan::reserved_1y;
    }));
    // sorted by |percent|: spot -20.06% before on-demand +10.0004%, then mid.2x +2.5%
    REQUIRE(d.price_changes.size() >= 3);
    CHECK(d.price_changes[0].plan == Plan::spot);
    CHECK(d.price_changes[1].plan == Plan::on_demand);
    CHECK(d.price_changes[2].offer.instance == "mid.2x");
    CHECK(d.price_changes.back().kind == PriceChangeKind::currency);
}

TEST_CASE("diff: spec changes of instance types and GPUs, provenance counted apart") {
    const CatalogDiff d = diff(load_alone("diff/old"), load_alone("diff/new"));
    REQUIRE(d.spec_changes.size() == 2);
    CHECK(d.spec_changes[0].kind == "gpu");
    CHECK(d.spec_changes[0].item.instance == "A100-40GB");
    CHECK(d.spec_changes[0].field == "tdp_w");
    CHECK(d.spec_changes[0].old_value == "400");
    CHECK(d.spec_changes[0].new_value == "450");
    CHECK(d.spec_changes[1].kind == "instance");
    CHECK(d.spec_changes[1].field == "network_gbps");
    CHECK(d.spec_changes[1].new_value == "800");
    // big.8x's two rows (the provider's source changed) and mid.2x's (its own)
    CHECK(d.provenance_changes == std::vector<DiffKey>{{"testcloud", "big.8x", "eu-west-1"},
                                                       {"testcloud", "big.8x", "us-east-1"},
                                                       {"testcloud", "mid.2x", "us-east-1"}});
}
