// Data transfer and storage: the tiered egress, the storage tier by dataset size, the transfer
// time over the effective link, and the catalog entries' errors with their positions.
#include "gpuadvisor/assumptions.hpp"
#include "gpuadvisor/catalog_io.hpp"
#include "gpuadvisor/recommend.hpp"
#include "gpuadvisor/transfer.hpp"
#include "test_helpers.hpp"

#include <catch2/catch.hpp>

using namespace gpuadvisor;

namespace {

const char* const k_head = "schema_version: 1\ntransfer:\n";
const char* const k_provider = R"(  - provider: aws
    currency: USD
    storage:
      - {tier: block, product: gp3, per_gb_month: 0.08, source: t, as_of: 2024-12-01}
    ingress_per_gb: 0
    inter_region_per_gb: 0.02
    internet_egress:
)";

std::string with_steps(const std::string& steps) {
    return std::string(k_head) + k_provider + steps + "    source: t\n    as_of: 2024-12-01\n";
}

InstanceType instance(const std::string& provider, double network_gbps, double local_gb) {
    InstanceType type;
    type.provider = provider;
    type.network_gbps = network_gbps;
    type.local_storage_gb = local_gb;
    return type;
}

} // namespace

TEST_CASE("egress is priced step by step through the monthly tiers") {
    const ProviderTransfer* aws = builtin_catalog().transfer().find("aws");
    REQUIRE(aws != nullptr);
    const auto& steps = aws->internet_egress;
    CHECK(*tiered_cost_micros(steps, 0) == 0);
    CHECK(*tiered_cost_micros(steps, 1000) == 90'000'000);    // 1 TB x 0.09
    CHECK(*tiered_cost_micros(steps, 10'000) == 900'000'000); // the first step, whole
    CHECK(*tiered_cost_micros(steps, 10'001) == 900'085'000); // 1 GB into the second
    // 10 TB x 0.09 + 40 TB x 0.085 + 100 TB x 0.07 + 50 TB x 0.05
    CHECK(*tiered_cost_micros(steps, 200'000) == 13'800'000'000);
    const std::vector<EgressStep> flat{{std::nullopt, 500'000}}; // CNY 0.50 per GB
    CHECK(*tiered_cost_micros(flat, 10'000) == 5'000'000'000);
    CHECK_FALSE(tiered_cost_micros(flat, 1e18).has_value());
}

TEST_CASE("the storage tier follows the documents' matrix: 1 TB, 10 TB, then distributed") {
    CHECK(choose_storage_tier(0.1, 0) == StorageTier::block);
    CHECK(choose_storage_tier(1, 8000) == StorageTier::block); // 100 GB-1 TB: a volume
    CHECK(choose_storage_tier(5, 8000) == StorageTier::local_nvme);
    CHECK(choose_storage_tier(5, 4000) == StorageTier::block); // does not fit locally
    CHECK(choose_storage_tier(10, 30'000) == StorageTier::local_nvme);
    CHECK(choose_storage_tier(10.5, 30'000) == StorageTier::distributed);
}

TEST_CASE("10 TB over the documents' 2 GB/s between regions takes about 1.4 hours") {
    const DataMoveRequest request{10, "aws", "us-east-1", std::nullopt};
    const InstanceType p4d = instance("aws", 400, 8000);
    const DataMove move = plan_data_move(
        request, p4d, "us-west-2", 1, 10, builtin_catalog().transfer(), builtin_assumptions());
    REQUIRE(move.error.empty());
    CHECK(move.path == DataPath::inter_region);
    CHECK(move.link_gbps == 16);                              // 2 GB/s, data/assumptions.yaml
    CHECK(move.transfer_hours == Approx(10e12 / 2e9 / 3600)); // 5,000 s
    CHECK(std::round(move.transfer_hours * 10) / 10 == 1.4);
    CHECK(move.egress_micros == 200'000'000); // 10,000 GB x USD 0.02
    CHECK(move.egress_currency == "USD");
    CHECK(move.tier == StorageTier::block);   // 10 TB does not fit the 8 TB of local NVMe
    CHECK(move.storage_micros == 12'480'960); // 10,000 GB x 0.08 x (10 + 1.389 h) / 730 h
    CHECK(move.storage_hours == Approx(10 + 5000.0 / 3600));
}

TEST_CASE("the link is the least of the instance's network and the path or --link-gbps") {
    const InstanceType slow = instance("aws", 10, 0);
    DataMoveRequest request{2, "", "", std::nullopt};
    const auto& data = builtin_catalog().transfer();
    const DataMove same =
        plan_data_move(request, slow, "us-east-1", 1, 730, data, builtin_assumptions());
    CHECK(same.path == DataPath::same_region);
    CHECK(same.link_gbps == 10);
    CHECK(same.egress_micros == 0);
    CHECK(same.tier == StorageTier::block);
    CHECK(same.storage_micros ==
          Approx(2000 * 80'000 * (730 + same.transfer_hours) / 730).epsilon(1e-6));
    request = {2, "gcp", "us-central1", 4};
    const DataMove cross =
        plan_data_move(request, slow, "us-east-1", 1, 1, data, builtin_assumptions());
    CHECK(cross.path == DataPath::cross_provider);
    CHECK(cross.link_gbps == 4);
    CHECK(cross.transfer_hours == Approx(2e12 * 8 / 4e9 / 3600));
    CHECK(cross.egress_micros == 1000 * 120'000 + 1000 * 110'000); // GCP's 0-1 TB, 1-10 TB
    request = {20, "", "", std::nullopt};
    const DataMove big =
        plan_data_move(request, slow, "us-east-1", 1, 1, data, builtin_assumptions());
    CHECK(big.tier == StorageTier::distributed);
    CHECK(big.storage->product.find("FSx for Lustre") != std::string::npos);
}

TEST_CASE("each instance holds its own block volume; a shared file system is stored once") {
    const InstanceType node = instance("aws", 100, 0);
    const auto& data = builtin_catalog().transfer();
    DataMoveRequest request{1, "aws", "us-west-2", std::nullopt};
    const DataMove one =
        plan_data_move(request, node, "us-east-1", 1, 730, data, builtin_assumptions());
    const DataMove four =
        plan_data_move(request, node, "us-east-1", 4, 730, data, builtin_assumptions());
    REQUIRE(four.tier == StorageTier::block);
    CHECK(one.storage_copies == 1);
    CHECK(four.storage_copies == 4);
    CHECK(four.storage_micros ==
          Approx(4.0 * static_cast<double>(one.storage_micros)).epsilon(1e-6));
    CHECK(four.egress_micros == one.egress_micros); // the data crosses regions once
    CHECK(four.transfer_hours == one.transfer_hours);
    CHECK(four.basis.find("x 4 volumes") != std::string::npos);
    request.dataset_tb = 20; // distributed: one shared copy whatever the count
    const DataMove shared_one =
        plan_data_move(request, node, "us-east-1", 1, 730, data, builtin_assumptions());
    const DataMove shared_four =
        plan_data_move(request, node, "us-east-1", 4, 730, data, builtin_assumptions());
    CHECK(shared_four.tier == StorageTier::distributed);
    CHECK(shared_four.storage_copies == 1);
    CHECK(shared_four.storage_micros == shared_one.storage_micros);
}

TEST_CASE("every provider of the built-in catalog has transfer prices and the four tiers") {
    for (const Provider& provider : builtin_catalog().providers()) {
        INFO(provider.id);
        const ProviderTransfer* p = builtin_catalog().transfer().find(provider.id);
        REQUIRE(p != nullptr);
        CHECK(p->currency == provider.currency);
        CHECK(p->storage.size() == 4);
        CHECK_FALSE(p->provenance.source.empty());
        CHECK_FALSE(p->internet_egress.empty());
    }
}

TEST_CASE("a catalog's transfer entries' errors name the field and its position") {
    const auto errors = [](const std::string& text) {
        const NamedText file{"t.yaml", text}; // over the built-in catalog, which has aws
        CheckOptions checks;
        checks.today = *parse_date("2026-12-02"); // after the built-in catalog's dates
        return test::describe(
            load_catalog_texts(std::span(&file, 1), checks, {}, &builtin_catalog()).diagnostics);
    };
    CHECK(errors(with_steps("      - {up_to_tb: 10, per_gb: 0.09}\n      - {per_gb: 0.05}\n")) ==
          "");
    CHECK(errors(with_steps("      - {up_to_tb: 10, per_gb: 0.09}\n"
                            "      - {up_to_tb: 5, per_gb: 0.08}\n      - {per_gb: 0.05}\n")) ==
          "11:9: error[bad-value]: transfer[aws].internet_egress[1].up_to_tb: 5 is not above "
          "the step before (10)\n"
          "  hint: steps go up: each up_to_tb is the cumulative TB the step ends at\n");
    CHECK(errors(with_steps("      - {up_to_tb: 10, per_gb: 0.09}\n")) ==
          "10:9: error[bad-value]: transfer[aws].internet_egress[0].up_to_tb: the last step "
          "has no bound\n"
          "  hint: leave up_to_tb out of the last step: it prices the rest\n");
    CHECK(errors(with_steps("      - {per_gb: -0.05}\n")) ==
          "10:18: error[out-of-range]: transfer[aws].internet_egress[0].per_gb: -0.05 is "
          "negative\n"
          "  hint: a price is 0 (free, or paid with the instance) or above\n");
    std::string tier = with_steps("      - {per_gb: 0.05}\n");
    tier.replace(tier.find("tier: block"), 11, "tier: blok");
    CHECK(errors(tier) == "6:16: error[bad-value]: transfer[aws].storage[0].tier: 'blok' is not an "
                          "accepted value\n  hint: did you mean 'block'?\n");
    CHECK(errors(std::string(k_head) + k_provider + "      - {per_gb: 0.05}\n") ==
          "3:5: error[missing-field]: transfer[aws]: the required field 'as_of' is missing\n"
          "  hint: see docs/catalog-format.md for the fields and their units\n"
          "3:5: error[missing-field]: transfer[aws]: the required field 'source' is missing\n"
          "  hint: see docs/catalog-format.md for the fields and their units\n");
}

TEST_CASE("recommend with a dataset: each row's total and hours include the data's parts") {
    Workload w;
    w.kind = WorkloadKind::training;
    w.model = "llama-2-7b";
    w.tokens = 1e11;
    const NormalizeResult normalized = normalize(w, builtin_models());
    REQUIRE(normalized.workload);
    const std::vector<Rule> no_rules;
    RecommendOptions options;
    options.rules = &no_rules;
    options.today = *parse_date("2026-12-02");
    options.constraints.plan = Plan::on_demand;
    options.constraints.providers = {"aws", "gcp"};
    options.constraints.top = 10;
    const Recommendation plain = recommend(*normalized.workload, options, builtin_catalog());
    options.constraints.data_move = DataMoveRequest{200, "gcp", "us-central1", std::nullopt};
    const Recommendation moved = recommend(*normalized.workload, options, builtin_catalog());
    REQUIRE_FALSE(moved.result.recommendations.empty());
    for (const Candidate& c : plain.result.recommendations) {
        CHECK(c.data_move == nullptr);
    }
    for (const Candidate& c : moved.result.recommendations) {
        INFO(c.instance->id << " " << c.row->region.str());
        REQUIRE(c.data_move != nullptr);
        const DataMove& d = *c.data_move;
        REQUIRE(c.quote.currency == "USD");
        CHECK(c.total_micros ==
              c.quote.total_micros + d.egress_converted_micros + d.storage_converted_micros);
        CHECK(*c.hours == Approx(c.estimate->hours + d.transfer_hours));
        CHECK(d.tier == StorageTier::distributed); // 200 TB
        if (c.instance->provider == "gcp") {
            CHECK(d.egress_micros == (c.row->region == "us-central1" ? 0 : 4'000'000'000));
        } else { // GCP's internet steps: 1 TB x 0.12 + 9 TB x 0.11 + 190 TB x 0.08
            CHECK(d.egress_micros == 16'310'000'000);
        }
    }
    // Ranked on the totals with the data: non-decreasing cost.
    for (std::size_t i = 1; i < moved.result.recommendations.size(); ++i) {
        CHECK(moved.result.recommendations[i - 1].total_micros <=
              moved.result.recommendations[i].total_micros);
    }
}
