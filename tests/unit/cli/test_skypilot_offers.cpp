// The SkyPilot importer's pieces: accelerator names to GPU ids, GpuInfo, GCP pairs, zone folding.
#include "gpuadvisor/catalog_io.hpp"
#include "skypilot_offers.hpp"

#include <catch2/catch.hpp>

using namespace gpuadvisor;
using namespace gpuadvisor::cli;

TEST_CASE("A SkyPilot accelerator name becomes the catalog GPU its memory tells apart") {
    const Catalog& catalog = builtin_catalog();
    CHECK(resolve_gpu(catalog, "T4", std::nullopt).id == "T4");
    CHECK(resolve_gpu(catalog, "A100", 40960.0).id == "A100-40GB");
    CHECK(resolve_gpu(catalog, "A100", 81920.0).id == "A100-80GB");
    CHECK(resolve_gpu(catalog, "A100-80GB", std::nullopt).id == "A100-80GB");
    CHECK(resolve_gpu(catalog, "H100-MEGA", 81920.0).id == "H100-80GB");
    CHECK(resolve_gpu(catalog, "A10G", 22888.0).id == "A10G");
    CHECK(resolve_gpu(catalog, "Radeon MI25", std::nullopt).id == "MI25");
}

TEST_CASE("A name that fits several GPUs without memory, or none, gives candidates, not a guess") {
    const Catalog& catalog = builtin_catalog();
    const GpuMatch v100 = resolve_gpu(catalog, "V100", std::nullopt);
    CHECK(v100.id.empty());
    CHECK(v100.ambiguous);
    CHECK(v100.candidates ==
          std::vector<std::string>{"V100-16GB", "V100-16GB-PCIe", "V100-32GB", "V100-32GB-PCIe"});
    const GpuMatch typo = resolve_gpu(catalog, "T44", std::nullopt);
    CHECK(typo.id.empty());
    CHECK_FALSE(typo.ambiguous);
    CHECK(std::find(typo.candidates.begin(), typo.candidates.end(), "T4") != typo.candidates.end());
    CHECK(resolve_gpu(catalog, "Inferentia", 8192.0).id.empty());
}

TEST_CASE("GpuInfo's per-GPU memory is read from AWS's and GCP's forms, else nothing") {
    CHECK(gpu_memory_mib("{'Gpus': [{'Name': 'T4', 'Manufacturer': 'NVIDIA', 'Count': 1, "
                         "'MemoryInfo': {'SizeInMiB': 16384}}], 'TotalGpuMemoryInMiB': 16384}") ==
          16384.0);
    CHECK(gpu_memory_mib("{'Gpus': [{'MemoryInfo': {'SizeInMiB': 40960}}]}") == 40960.0);
    CHECK_FALSE(gpu_memory_mib("V100").has_value());
    CHECK_FALSE(gpu_memory_mib("'SizeInMiB': 0").has_value());
    CHECK_FALSE(gpu_memory_mib("'SizeInMiB': 99999999999999999999").has_value());
}

TEST_CASE("A catalog GCP type names its machine-type row and its accelerator row") {
    InstanceType n1;
    n1.id = "n1-standard-8+1xT4";
    CHECK(gcp_parts(n1).machine == "n1-standard-8");
    CHECK(gcp_parts(n1).accelerator == "T4");
    InstanceType a3;
    a3.id = "a3-megagpu-8g";
    CHECK(gcp_parts(a3).machine == "a3-megagpu-8g");
    CHECK(gcp_parts(a3).accelerator == "H100-MEGA");
    InstanceType other;
    other.id = "c3-standard-8";
    CHECK(gcp_parts(other).machine.empty());
}

TEST_CASE("Zone quotes fold into one row: the lowest on-demand, the cheapest spot, the spread") {
    ZoneOffer offer;
    offer.provider = "aws";
    offer.instance = "g4dn.xlarge";
    offer.region = "us-east-1";
    offer.zones = {{"use1-az1", 526'000, 201'000, {}},
                   {"use1-az2", 530'000, 186'000, {}},
                   {"use1-az4", 526'000, std::nullopt, {}}};
    ImportResult result;
    add_offer_prices(offer, result);
    REQUIRE(result.prices.size() == 2);
    CHECK(result.prices[0].plan == Plan::on_demand);
    CHECK(result.prices[0].micros == 526'000);
    CHECK(result.prices[1].plan == Plan::spot);
    CHECK(result.prices[1].micros == 186'000);
    CHECK(result.prices[0].notes == "on-demand 0.526-0.53 by zone: the lowest taken; spot "
                                    "0.186-0.201 over 2 zones (the cheapest taken)");
    offer.zones = {{"use1-az1", 526'000, std::nullopt, {}}};
    ImportResult no_spot;
    add_offer_prices(offer, no_spot);
    REQUIRE(no_spot.prices.size() == 1);
    CHECK(no_spot.prices[0].notes.empty());
}
