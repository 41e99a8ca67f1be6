// The catalog's `transfer:` list: a later file's entry replaces a provider's, an entry for a
// provider the catalog lacks is refused, and the entries round-trip through the binary form
// and a decoded file's cache entry.
#include "catalog/catalog_binary.hpp"
#include "catalog/catalog_decode.hpp"
#include "gpuadvisor/transfer.hpp"
#include "test_helpers.hpp"

#include <catch2/catch.hpp>

using namespace gpuadvisor;

namespace {

const std::string k_testcloud = "transfer/testcloud.yaml";

} // namespace

TEST_CASE("a transfer entry in a later file replaces the provider's entry whole") {
    const CatalogLoad first = load_catalog_over(
        &test::test_catalog(), {test::fixture(k_testcloud)}, test::fixed_checks());
    REQUIRE(test::describe(first.diagnostics).empty());
    const ProviderTransfer* testcloud = first.catalog.transfer().find("testcloud");
    REQUIRE(testcloud != nullptr);
    CHECK(testcloud->storage.size() == 2);
    CHECK(testcloud->inter_region_per_gb_micros == 10'000);
    CHECK(first.catalog.transfer().find("yuncloud") == nullptr);
    const CatalogLoad later = test::load_text(test::read_text(test::fixture(k_testcloud)));
    REQUIRE(later.catalog.transfer().providers.size() == 1);
    const NamedText overlay{"negotiated.yaml",
                            "schema_version: 1\ntransfer:\n"
                            "  - provider: testcloud\n    currency: EUR\n    storage:\n"
                            "      - {tier: block, product: ours, per_gb_month: 0.04, source: s, "
                            "as_of: 2025-09-01}\n"
                            "    ingress_per_gb: 0\n    inter_region_per_gb: 0\n"
                            "    internet_egress: [{per_gb: 0.01}]\n"
                            "    source: our contract\n    as_of: 2025-09-01\n"};
    const CatalogLoad replaced =
        load_catalog_texts(std::span(&overlay, 1), test::fixed_checks(), {}, &first.catalog);
    REQUIRE(test::describe(replaced.diagnostics).empty());
    const ProviderTransfer* now = replaced.catalog.transfer().find("testcloud");
    REQUIRE(now != nullptr);
    CHECK(now->currency == "EUR");
    CHECK(now->storage.size() == 1); // whole: the earlier object tier is gone
    CHECK(now->find(StorageTier::object) == nullptr);
    CHECK(now->find(StorageTier::block)->per_gb_month_micros == 40'000);
    CHECK(now->provenance.source == "our contract");
    CHECK(now->origin.file == "negotiated.yaml");
}

TEST_CASE("a transfer entry for a provider the catalog lacks is an error with did-you-mean") {
    std::string text = test::read_text(test::fixture(k_testcloud));
    text.replace(text.find("provider: testcloud"), 19, "provider: testclod");
    const CatalogLoad load = test::load_text(text);
    CHECK(test::describe(load.diagnostics) ==
          "5:5: error[unknown-reference]: transfer[testclod].provider: 'testclod' is not in the "
          "catalog\n  hint: did you mean 'testcloud'?\n");
    CHECK(load.catalog.transfer().providers.empty());
}

TEST_CASE("transfer entries round-trip through the binary form and a file's cache entry") {
    const std::string file = test::fixture(k_testcloud);
    const CatalogLoad load = load_catalog_over(&test::test_catalog(), {file}, test::fixed_checks());
    REQUIRE(load.catalog.transfer().providers.size() == 1);
    const auto back = deserialize_catalog(serialize_catalog(load.catalog));
    REQUIRE(back);
    CHECK(back->transfer() == load.catalog.transfer());
    Diagnostics diagnostics;
    const std::string text = test::read_text(file);
    const YamlDocument document = parse_yaml(file, text, LoadLimits{}, diagnostics);
    const CatalogFragment fragment = decode_catalog(document, diagnostics);
    REQUIRE(fragment.transfer.size() == 1);
    const auto cached = deserialize_fragment(serialize_fragment(fragment));
    REQUIRE(cached);
    CHECK(cached->transfer == fragment.transfer);
    CHECK(cached->transfer[0].internet_egress == fragment.transfer[0].internet_egress);
}

TEST_CASE("the built-in catalog carries data/catalog/transfer.yaml's entries") {
    const TransferData& data = builtin_catalog().transfer();
    REQUIRE(data.find("aws") != nullptr);
    CHECK(data.find("aws")->origin.file == "data/catalog/transfer.yaml");
    CHECK(data.find("aws")->internet_egress.size() == 4);
    CHECK(std::is_sorted(data.providers.begin(),
                         data.providers.end(),
                         [](const auto& a, const auto& b) { return a.provider < b.provider; }));
}
