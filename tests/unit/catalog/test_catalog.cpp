// The catalog: GPU name matching, overlays, inheritance, and the compiled built-in catalog.
#include "catalog/catalog_binary.hpp"
#include "catalog/catalog_decode.hpp"
#include "gpuadvisor/spelling.hpp"
#include "test_helpers.hpp"
#include "util/content_hash.hpp"

#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <unistd.h>

using namespace gpuadvisor;

namespace {

std::vector<std::string> ids(const std::vector<const Gpu*>& gpus) {
    std::vector<std::string> result;
    for (const Gpu* gpu : gpus) {
        result.push_back(gpu->id);
    }
    return result;
}

const InstanceType& instance(const Catalog& catalog, const std::string& id) {
    const auto found = catalog.match_instances(id);
    REQUIRE(found.size() == 1);
    return *found[0];
}

} // namespace

TEST_CASE("GPU names: ids and aliases give one GPU, a family name gives all its variants") {
    const Catalog& catalog = test::test_catalog();
    CHECK(ids(catalog.match_gpus("A100-40GB")) == std::vector<std::string>{"A100-40GB"});
    CHECK(ids(catalog.match_gpus("a100-sxm4-80gb")) == std::vector<std::string>{"A100-80GB"});
    CHECK(ids(catalog.match_gpus("A100")) == std::vector<std::string>{"A100-40GB", "A100-80GB"});
    CHECK(ids(catalog.match_gpus("tesla-t4")) == std::vector<std::string>{"T4"});
    CHECK(catalog.match_gpus("A10").empty()); // not a dash-prefix of A100-...
    CHECK(catalog.match_gpus("").empty());
}

TEST_CASE("did-you-mean finds near names") {
    CHECK(nearest_names("on_demand_prce", {"on_demand", "spot", "region"}) ==
          std::vector<std::string>{"on_demand"});
    CHECK(edit_distance("us-east1", "us-east-1") == 1);
    // A name that differs only in case is the answer, not its one-letter neighbours.
    CHECK(nearest_names("q", {"Q", "B", "A", "C"}) == std::vector<std::string>{"Q"});
    CHECK(did_you_mean({"a", "b", "c"}) == "did you mean 'a', 'b' or 'c'?");
    CHECK(did_you_mean({}).empty());
}

TEST_CASE("the test catalog loads clean, with instance ids resolved to canonical GPUs") {
    const auto load = load_catalog_over(nullptr, {test::fixture("catalog")}, test::fixed_checks());
    CHECK(test::describe(load.diagnostics).empty());
    CHECK(instance(load.catalog, "small.1x").gpu == "T4"); // written as the alias Tesla-T4
    CHECK(load.catalog.offers().size() == 5);
    CHECK(load.catalog.offer_count() == 5);
    CHECK(Catalog().offer_count() == 0);
    CHECK(builtin_catalog().offer_count() == builtin_catalog().offers().size());
    CHECK(builtin_catalog().offer_count() > 600);
}

TEST_CASE("price rows inherit currency and provenance from their instance and provider") {
    const InstanceType& yun = instance(test::test_catalog(), "yun.t4");
    REQUIRE(yun.regions.size() == 2);
    const PriceRow& international = yun.regions[0]; // sorted: ap-southeast-1 first
    CHECK(international.region == "ap-southeast-1");
    CHECK(international.currency == "USD");
    CHECK(international.provenance.confidence == Confidence::low);
    CHECK(international.provenance.source == "test fixture");
    const PriceRow& shanghai = yun.regions[1];
    CHECK(shanghai.currency == "CNY");
    CHECK(shanghai.subscription_monthly == 1'500'000'000);
    CHECK(format_date(shanghai.provenance.as_of) == "2025-01-01");
}

TEST_CASE("every optional field of an instance type and a price row is read when given") {
    const CatalogLoad load = test::load_text(
        "schema_version: 1\nprovider: {id: testcloud}\ninstances:\n"
        "  - {id: full.4x, family: full, gpu: A100-40GB, gpu_count: 4, gpu_memory_gb: 160,\n"
        "     vcpus: 48, memory_gb: 576, network_gbps: 100, rdma: true, nvlink: true,\n"
        "     local_storage_gb: 3800, source: own quote, as_of: 2025-02-01, confidence: medium,\n"
        "     notes: negotiated,\n"
        "     regions: [{region: us-east-1, on_demand: 20, spot: 8, reserved_1y: 14,\n"
        "                reserved_3y: 10, subscription_monthly: 9000, currency: EUR,\n"
        "                spot_interruption: '5-10%', source: row quote, as_of: 2025-03-01,\n"
        "                confidence: low, notes: row note},\n"
        "               {region: eu-west-1, on_demand: 21}]}\n");
    REQUIRE(test::describe(load.diagnostics).empty());
    const InstanceType& full = instance(load.catalog, "full.4x");
    CHECK(full.gpu_memory_gb == 160);
    CHECK(full.local_storage_gb == 3800);
    CHECK(full.provenance.source == "own quote");
    CHECK(full.provenance.confidence == Confidence::medium);
    CHECK(full.provenance.notes == "negotiated");
    REQUIRE(full.regions.size() == 2);
    const PriceRow& given = full.regions[1]; // sorted: eu-west-1 first
    CHECK(given.region == "us-east-1");
    CHECK(given.spot == 8'000'000);
    CHECK(given.reserved_1y == 14'000'000);
    CHECK(given.reserved_3y == 10'000'000);
    CHECK(given.subscription_monthly == 9'000'000'000);
    CHECK(given.currency == "EUR");
    CHECK(given.spot_interruption == "5-10%");
    CHECK(given.provenance.source == "row quote");
    CHECK(format_date(given.provenance.as_of) == "2025-03-01");
    CHECK(given.provenance.confidence == Confidence::low);
    CHECK(given.provenance.notes == "row note");
    const PriceRow& inherited = full.regions[0];
    CHECK(inherited.currency == "USD");
    CHECK(inherited.spot_interruption.empty());
    CHECK(inherited.provenance.source == "own quote");
    CHECK(format_date(inherited.provenance.as_of) == "2025-02-01");
    CHECK(inherited.provenance.notes.empty()); // notes are not inherited
}

TEST_CASE("an overlay replaces an instance's fields, merges its rows and updates its provider") {
    const auto load = test::load_text(R"(schema_version: 1
provider:
  id: testcloud
  source: "negotiated 2025"
instances:
  - id: big.8x
    family: big
    gpu: A100-80GB
    gpu_count: 8
    vcpus: 96
    memory_gb: 1152
    network_gbps: 400
    rdma: true
    nvlink: true
    regions:
      - region: us-east-1
        on_demand: 28.5
)");
    // The row replaced lost the spot and reserved prices the overlay does not restate: said.
    CHECK(test::describe(load.diagnostics) ==
          "16:9: info[dropped-price]: instances[big.8x].regions[us-east-1]: this row replaces "
          "the one at " +
              test::fixture("catalog/testcloud.yaml") +
              ":23 whole, so its spot 12.51, reserved_1y 19.22, reserved_3y 11.57 USD is no "
              "longer in the catalog\n  hint: give it in this row too to keep it (a row's "
              "prices go with its source)\n");
    const InstanceType& big = instance(load.catalog, "big.8x");
    CHECK(big.gpu == "A100-80GB");
    REQUIRE(big.regions.size() == 2); // eu-west-1's row, not named, stays
    const PriceRow& kept = big.regions[0];
    const PriceRow& replaced = big.regions[1];
    REQUIRE(kept.region == "eu-west-1");
    CHECK(kept.on_demand == 35'500'000);
    CHECK(kept.provenance.source == "test fixture"); // its own file's, not the overlay's
    REQUIRE(replaced.region == "us-east-1");
    CHECK(replaced.on_demand == 28'500'000);
    CHECK_FALSE(replaced.spot);
    CHECK(replaced.currency == "USD"); // the provider's, from the base catalog
    CHECK(replaced.provenance.source == "negotiated 2025");
    CHECK(big.provenance.source == "negotiated 2025");
    CHECK(load.catalog.find_provider("testcloud")->name == "Test Cloud");
    CHECK(instance(load.catalog, "small.1x").regions.size() == 1); // untouched
}

TEST_CASE("a row keeps the currency and source of its own file under a later overlay") {
    // a.yaml prices big.8x in us-east-1 under testcloud's currency (USD) and source; b.yaml,
    // later, says testcloud's prices are in EUR from "B sheet" and prices eu-west-1. a.yaml's
    // row must stay USD and "test fixture": b.yaml's provider block speaks for b.yaml's rows.
    const std::string instance_head = R"(instances:
  - id: big.8x
    family: big
    gpu: A100-40GB
    gpu_count: 8
    vcpus: 96
    memory_gb: 1152
    network_gbps: 400
    rdma: true
    nvlink: true
    regions:
)";
    const std::vector<NamedText> files{
        {"a.yaml",
         "schema_version: 1\nprovider: {id: testcloud}\n" + instance_head +
             "      - {region: us-east-1, on_demand: 21.96}\n"},
        {"b.yaml",
         "schema_version: 1\nprovider: {id: testcloud, currency: EUR, source: \"B sheet\", "
         "as_of: 2025-06-01}\n" +
             instance_head + "      - {region: eu-west-1, on_demand: 30}\n"}};
    const CatalogLoad load =
        load_catalog_texts(files, test::fixed_checks(), {}, &test::test_catalog());
    INFO(test::describe(load.diagnostics));
    REQUIRE_FALSE(load.diagnostics.has_errors());
    const InstanceType& big = instance(load.catalog, "big.8x");
    REQUIRE(big.regions.size() == 2);
    const PriceRow& eu = big.regions[0];
    const PriceRow& us = big.regions[1];
    REQUIRE(us.region == "us-east-1");
    CHECK(us.on_demand == 21'960'000);
    CHECK(us.currency == "USD");
    CHECK(us.provenance.source == "test fixture");
    CHECK(format_date(us.provenance.as_of) == "2025-01-01");
    REQUIRE(eu.region == "eu-west-1");
    CHECK(eu.currency == "EUR");
    CHECK(eu.provenance.source == "B sheet");
    // The same with a.yaml's row not in the later definition at all (only specs restated).
    const std::vector<NamedText> specs_only{
        files[0],
        {"b.yaml",
         "schema_version: 1\nprovider: {id: testcloud, currency: EUR, source: \"B sheet\", "
         "as_of: 2025-06-01}\n" +
             instance_head.substr(0, instance_head.size() - 1) + " []\n"}};
    const CatalogLoad kept =
        load_catalog_texts(specs_only, test::fixed_checks(), {}, &test::test_catalog());
    INFO(test::describe(kept.diagnostics));
    const InstanceType& big2 = instance(kept.catalog, "big.8x");
    REQUIRE(big2.regions.size() == 2);
    CHECK(big2.regions[1].currency == "USD");
    CHECK(big2.regions[1].provenance.source == "test fixture");
}

TEST_CASE("a remove under an instance type whose earlier definition has an error: no warning") {
    // The error is reported where it is; the later file's remove finds no merged row because
    // the flawed definition was set aside, which is no news to the user.
    const std::string head = R"(schema_version: 1
provider: {id: testcloud}
instances:
  - id: flawed.1x
    family: flawed
    gpu: T4
    gpu_count: 1
    memory_gb: 16
    network_gbps: 25
    rdma: false
    nvlink: false
)";
    const std::vector<NamedText> files{
        {"a.yaml",
         head + "    vcpus: 4.0\n    regions:\n      - {region: us-east-1, on_demand: 1}\n"},
        {"b.yaml",
         head + "    vcpus: 4\n    regions:\n      - {region: us-east-1, remove: true}\n"}};
    const CatalogLoad load =
        load_catalog_texts(files, test::fixed_checks(), {}, &test::test_catalog());
    const std::string described = test::describe(load.diagnostics);
    INFO(described);
    CHECK(load.diagnostics.error_count() == 1);
    CHECK(described.find("bad-number") != std::string::npos);
    CHECK(described.find("nothing-to-remove") == std::string::npos);
}

TEST_CASE("a new provider must be complete once merged") {
    const auto load = test::load_text("schema_version: 1\nprovider: {id: newcloud}\n");
    CHECK(test::describe(load.diagnostics).find("'newcloud' has no 'name' in any file") !=
          std::string::npos);
    CHECK(load.diagnostics.error_count() == 4);
}

TEST_CASE("a GPU overlay replaces the GPU whole") {
    const auto load = test::load_text(R"(schema_version: 1
gpus:
  - id: T4
    vendor: nvidia
    architecture: turing
    form_factor: pcie
    memory_gb: 16
    memory_bandwidth_gb_per_s: 320
    fp64_tflops: 0.25
    fp32_tflops: 8.1
    source: "corrected"
    as_of: 2025-01-01
)");
    CHECK(test::describe(load.diagnostics).empty());
    const Gpu* t4 = load.catalog.find_gpu("T4");
    REQUIRE(t4);
    CHECK(t4->memory_bandwidth_gb_per_s == 320);
    CHECK(t4->aliases.empty());
    CHECK_FALSE(t4->fp16_tflops.has_value());
}

TEST_CASE("the binary form round-trips and detects corruption") {
    const CatalogLoad load = load_catalog_over(
        &test::test_catalog(), {test::fixture("discounts")}, test::fixed_checks());
    REQUIRE(test::describe(load.diagnostics).empty());
    const Catalog& catalog = load.catalog;
    REQUIRE(catalog.discounts().size() == 2);
    const std::string bytes = serialize_catalog(catalog);
    const auto back = deserialize_catalog(bytes);
    REQUIRE(back);
    CHECK(back->gpus() == catalog.gpus());
    CHECK(back->providers() == catalog.providers());
    CHECK(back->instances() == catalog.instances());
    CHECK(back->discounts() == catalog.discounts());
    std::string corrupt = bytes;
    corrupt[corrupt.size() / 2] ^= 0x5A;
    CHECK_FALSE(deserialize_catalog(corrupt));
    CHECK_FALSE(deserialize_catalog(bytes.substr(0, bytes.size() - 3)));
    CHECK_FALSE(deserialize_catalog("GPUADVC1"));
    CHECK_FALSE(deserialize_catalog(""));
}

TEST_CASE("a catalog's CPUs round-trip through the binary form and a file's through the cache") {
    const std::string cpus = test::fixture("cpus/cpus.yaml");
    const CatalogLoad load = load_catalog_over(&test::test_catalog(), {cpus}, test::fixed_checks());
    REQUIRE(test::describe(load.diagnostics).empty());
    REQUIRE(load.catalog.cpus().size() == 2);
    const Cpu* cpu = load.catalog.find_cpu("8380"); // an alias, any case
    REQUIRE(cpu);
    CHECK(cpu == load.catalog.find_cpu("xeon-platinum-8380"));
    CHECK(cpu->fp64_tflops == 2.944);
    CHECK(cpu->memory_type == "DDR4");
    CHECK_FALSE(cpu->avx_clock_ghz.has_value());
    const auto back = deserialize_catalog(serialize_catalog(load.catalog));
    REQUIRE(back);
    CHECK(back->cpus() == load.catalog.cpus());
    Diagnostics diagnostics;
    const std::string text = test::read_text(cpus);
    const YamlDocument document = parse_yaml(cpus, text, LoadLimits{}, diagnostics);
    const CatalogFragment fragment = decode_catalog(document, diagnostics);
    REQUIRE(fragment.cpus.size() == 2);
    const auto cached = deserialize_fragment(serialize_fragment(fragment));
    REQUIRE(cached);
    CHECK(cached->cpus == fragment.cpus);
    CHECK(load.catalog.cpu_names_near("8830") == std::vector<std::string>{"8380"});
}

TEST_CASE("the binary form of a large catalog is decoded in chunks, in order, on threads") {
    // The built-in instance types copied under new ids until there are several chunks.
    std::vector<InstanceType> instances;
    const auto& builtin = builtin_catalog().instances();
    for (std::size_t copy = 0; instances.size() < 5000; ++copy) {
        for (InstanceType instance : builtin) {
            instance.id += "-copy" + std::to_string(copy);
            instances.push_back(std::move(instance));
        }
    }
    const Catalog big(builtin_catalog().gpus(), builtin_catalog().providers(), instances);
    const std::string bytes = serialize_catalog(big);
    const auto back = deserialize_catalog(bytes);
    REQUIRE(back);
    CHECK(back->instances() == big.instances());
    CHECK(serialize_catalog(*back) == bytes);
    // A damaged chunk is refused even when the checksum is made to agree: the frame is
    // magic, checksum, payload, and a chunk's length no longer matching its instances.
    std::string damaged = bytes;
    const std::size_t middle = damaged.size() / 2;
    damaged[middle] = static_cast<char>(damaged[middle] ^ 0x5A);
    const std::string_view payload = std::string_view(damaged).substr(8 + 8);
    const std::uint64_t sum = xxh64(payload);
    std::memcpy(damaged.data() + 8, &sum, sizeof sum);
    const auto refused = deserialize_catalog(damaged);
    if (refused) { // the flipped byte was a number: decoded, and then it differs
        CHECK_FALSE(refused->instances() == big.instances());
    }
}

TEST_CASE("discounts: later files replace the same id; each reference is checked") {
    const std::vector<NamedText> texts{
        {"a.yaml",
         "schema_version: 1\ndiscounts:\n  - {id: edp, provider: testcloud, percent: 10, "
         "source: a, as_of: 2025-01-01}\n"},
        {"b.yaml",
         "schema_version: 1\ndiscounts:\n  - {id: EDP, provider: testcloud, percent: 15, "
         "plans: [spot], source: b, as_of: 2025-01-01}\n"}};
    const CatalogLoad load =
        load_catalog_texts(texts, test::fixed_checks(), {}, &test::test_catalog());
    REQUIRE(test::describe(load.diagnostics).empty());
    REQUIRE(load.catalog.discounts().size() == 1);
    const Discount& edp = load.catalog.discounts()[0];
    CHECK(edp.off_ppm == 150'000);
    CHECK(edp.plans == std::vector<Plan>{Plan::spot});
    CHECK(edp.origin.file == "b.yaml");
    // The instances keep their list prices: a discount changes what is paid, not the data.
    CHECK(load.catalog.instances() == test::test_catalog().instances());
}

TEST_CASE("a folder's entries named *.yaml that are not files are left out with a warning") {
    namespace fs = std::filesystem;
    const fs::path folder =
        fs::temp_directory_path() / ("gpuadvisor-folder-" + std::to_string(::getpid()));
    fs::remove_all(folder);
    fs::create_directories(folder / "nested.yaml");
    fs::copy_file(test::fixture("catalog/gpus.yaml"), folder / "gpus.yaml");
    fs::create_symlink("gone.yaml", folder / "dangling.yaml");
    fs::create_symlink("loop.yml", folder / "loop.yml");
    fs::create_directories(folder / "real"); // not a YAML name: not listed
    fs::copy_file(test::fixture("catalog/testcloud.yaml"), folder / "real" / "testcloud.yaml");
    fs::create_symlink("real/testcloud.yaml", folder / "alias.yaml"); // a link to a file is read
    fs::create_directories(folder / "notes");                         // not a YAML name: not listed
    const CatalogLoad load = load_catalog_over(nullptr, {folder.string()}, test::fixed_checks());
    // A file named twice (itself, then through its folder) is read once, where last named.
    const CatalogLoad twice = load_catalog_over(
        nullptr, {(folder / "gpus.yaml").string(), folder.string()}, test::fixed_checks());
    std::string described;
    for (const Diagnostic& d : load.diagnostics.items()) {
        described += format_diagnostic(d) + " / " + d.hint + "\n";
    }
    fs::remove_all(folder);
    const std::string base = folder.string() + "/";
    CHECK(load.files == std::vector<std::string>{base + "alias.yaml", base + "gpus.yaml"});
    CHECK(twice.files == load.files);
    CHECK(twice.catalog.instances().size() == load.catalog.instances().size());
    CHECK(load.diagnostics.error_count() == 0);
    CHECK(load.diagnostics.warning_count() == 3);
    CHECK(described.find(base + "dangling.yaml: warning[skipped-file]: not read: a symlink to "
                                "'gone.yaml', which does not exist / fix the link or remove it") !=
          std::string::npos);
    CHECK(described.find(base + "loop.yml: warning[skipped-file]: not read: a symlink loop") !=
          std::string::npos);
    CHECK(described.find(base +
                         "nested.yaml: warning[skipped-file]: not read: a folder (folders are "
                         "not read recursively) / rename it without .yaml, or name it with a "
                         "--catalog of its own") != std::string::npos);
}

TEST_CASE("entries with an error are checked but not merged, and what names them is quiet") {
    const CatalogLoad load = test::load_text(
        "schema_version: 1\n"
        "gpus:\n"
        "  - {id: Q-1, vendor: nvidia, architecture: x, form_factor: sxm, memory_gb: -1,\n"
        "     memory_bandwidth_gb_per_s: 900, fp64_tflops: 1, fp32_tflops: 2, source: s,\n"
        "     as_of: 2025-01-01}\n"
        "provider: {id: testcloud}\n"
        "instances:\n"
        "  - {id: on.q, family: q, gpu: Q-1, gpu_count: 1, gpu_memory_gb: 999, vcpus: 8,\n"
        "     memory_gb: 64, network_gbps: 10, rdma: false, nvlink: false,\n"
        "     regions: [{region: us-east-1, on_demand: 1.5}]}\n"
        "  - {id: bad.1, family: b, gpu: T4, gpu_count: 1, vcpus: 8, memory_gb: 64,\n"
        "     network_gbps: 10, rdma: maybe, nvlink: false,\n"
        "     regions: [{region: us-east-1, on_demand: 1.5, spot: 9}]}\n"
        "discounts:\n"
        "  - {id: d, provider: testcloud, instance: bad.1, percent: 5, source: s,\n"
        "     as_of: 2025-01-01}\n");
    // The GPU's and bad.1's own errors, bad.1's spot above on-demand; nothing about on.q
    // naming the GPU with an error, nor about the discount naming bad.1.
    CHECK(test::describe(load.diagnostics) ==
          "3:77: error[out-of-range]: gpus[Q-1].memory_gb: -1 is out of range\n"
          "  hint: it must be at least 0.1 and at most 2000\n"
          "12:30: error[bad-value]: instances[bad.1].rdma: 'maybe' is not true or false\n"
          "  hint: write true or false, without quotes\n"
          "13:16: warning[price-above-on-demand]: instances[bad.1].regions[us-east-1]: spot "
          "9.00 is above on-demand 1.50\n"
          "  hint: check the spot price and its unit\n");
    // Neither the GPU nor an instance type that needs it or has an error is in the catalog.
    CHECK(load.catalog.find_gpu("Q-1") == nullptr);
    CHECK(load.catalog.match_instances("on.q").empty());
    CHECK(load.catalog.match_instances("bad.1").empty());
    CHECK(load.catalog.instances().size() == test::test_catalog().instances().size());
}

TEST_CASE("the compiled built-in catalog equals data/ loaded through the slow path") {
    const auto slow = load_catalog_over(nullptr,
                                        {std::string(GPUADVISOR_DATA) + "/catalog/gpus.yaml",
                                         std::string(GPUADVISOR_DATA) + "/catalog/cpus.yaml",
                                         std::string(GPUADVISOR_DATA) + "/catalog/providers"});
    REQUIRE_FALSE(slow.diagnostics.has_errors());
    const Catalog& builtin = builtin_catalog();
    CHECK(builtin.gpus().size() == slow.catalog.gpus().size());
    REQUIRE(builtin.cpus().size() >= 5);
    auto strip_cpus = [](std::vector<Cpu> list) {
        for (auto& cpu : list) {
            cpu.origin = {};
        }
        return list;
    };
    CHECK(strip_cpus(builtin.cpus()) == strip_cpus(slow.catalog.cpus()));
    CHECK(builtin.instances().size() == slow.catalog.instances().size());
    // Positions name the source files the same way the build did: compare all but origins.
    auto strip = [](std::vector<InstanceType> list) {
        for (auto& i : list) {
            i.origin = i.gpu_pos = {};
            for (auto& row : i.regions) {
                row.origin = {};
            }
        }
        return list;
    };
    CHECK(strip(builtin.instances()) == strip(slow.catalog.instances()));
}
