// The catalog: GPU models, providers, instance types and their per-region prices.
// Immutable once built; indexed by id and alias.
#pragma once

#include "gpuadvisor/diagnostic.hpp"
#include "gpuadvisor/provenance.hpp"
#include "gpuadvisor/spelling.hpp"
#include "gpuadvisor/transfer_prices.hpp"
#include "gpuadvisor/units.hpp"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuadvisor {

struct Gpu {
    std::string id;
    std::vector<std::string> aliases;
    std::string vendor;
    std::string architecture;
    std::string form_factor;
    double memory_gb = 0;
    std::string memory_type;
    double memory_bandwidth_gb_per_s = 0;
    double fp64_tflops = 0;
    std::optional<double> fp64_tensor_tflops;
    double fp32_tflops = 0;
    std::optional<double> tf32_tflops;
    std::optional<double> fp16_tflops;
    std::optional<double> bf16_tflops;
    std::optional<double> fp8_tflops;
    std::optional<double> int8_tops;
    std::optional<double> tdp_w;
    double nvlink_gb_per_s = 0;
    std::optional<int> pcie_gen;
    int mig_max_instances = 0;
    int logical_devices = 1;
    std::vector<double> vgpu_profiles_gb;
    Provenance provenance;
    SourcePos origin;

    bool operator==(const Gpu&) const = default;
};

// A server CPU, per socket, from its datasheet: what `upgrade` compares GPUs with.
struct Cpu {
    std::string id;
    std::vector<std::string> aliases;
    std::string vendor; // intel, amd
    int cores = 0;
    double base_clock_ghz = 0;
    std::optional<double> avx_clock_ghz; // all-core clock under the widest vectors; absent: unknown
    double fp64_flops_per_cycle = 0;     // per core: FMA units x lanes x 2
    double fp32_flops_per_cycle = 0;
    double fp64_tflops = 0; // peak per socket
    double fp32_tflops = 0;
    std::string peak_basis; // how the peaks were derived: `base_clock`, `avx_clock` or `vendor`
    int memory_channels = 0;
    double memory_mt_per_s = 0;
    std::string memory_type;              // DDR4, DDR5
    double memory_bandwidth_gb_per_s = 0; // per socket: channels x MT/s x 8 B
    std::optional<double> max_memory_gb;  // per socket
    double tdp_w = 0;
    Provenance provenance;
    SourcePos origin;

    bool operator==(const Cpu&) const = default;
};

// "nvlink" where the GPU has a GPU-to-GPU link, else "pcie".
std::string_view interconnect(const Gpu& gpu);

struct RegionInfo {
    std::string id;
    std::string name;
    std::string country; // ISO 3166 alpha-2

    bool operator==(const RegionInfo&) const = default;
};

struct Provider {
    std::string id;
    std::string name;
    std::string currency;
    Provenance provenance;
    std::vector<RegionInfo> regions;
    SourcePos origin;

    bool operator==(const Provider&) const = default;
};

enum class Plan { on_demand, spot, reserved_1y, reserved_3y, subscription_monthly };
std::string_view to_string(Plan plan);
inline constexpr Plan k_all_plans[] = {
    Plan::on_demand, Plan::spot, Plan::reserved_1y, Plan::reserved_3y, Plan::subscription_monthly};

// One region's prices of one instance type. Hourly plans are per instance-hour;
// subscription_monthly is per instance-month. Absent: the plan is not sold there.
struct PriceRow {
    // Interned: a few distinct values shared by many rows, so each row holds a pointer.
    InternedText region;
    InternedText currency;
    std::optional<std::int64_t> on_demand;
    std::optional<std::int64_t> spot;
    std::optional<std::int64_t> reserved_1y;
    std::optional<std::int64_t> reserved_3y;
    std::optional<std::int64_t> subscription_monthly;
    InternedText spot_interruption;
    Provenance provenance;
    SourcePos origin;

    const std::optional<std::int64_t>& price(Plan plan) const {
        switch (plan) { // inline: a planner's pass asks some 400k times per 100k offers
        case Plan::on_demand:
            return on_demand;
        case Plan::spot:
            return spot;
        case Plan::reserved_1y:
            return reserved_1y;
        case Plan::reserved_3y:
            return reserved_3y;
        case Plan::subscription_monthly:
            return subscription_monthly;
        }
        return on_demand;
    }
    bool operator==(const PriceRow&) const = default;
};

struct InstanceType {
    std::string provider;
    std::string id;
    std::string family;
    std::string gpu; // canonical GPU id once the catalog is built
    double gpu_count = 0;
    std::optional<double> gpu_memory_gb; // as the provider states it (total)
    int vcpus = 0;
    double memory_gb = 0;
    double network_gbps = 0;
    bool rdma = false;
    bool nvlink = false;
    // The GPU fabric between instances (InfiniBand, EFA, RoCE, GPUDirect-TCPX), apart from the
    // Ethernet of network_gbps; empty and 0 where the type has none.
    std::string fabric;
    double fabric_gbps = 0;
    // The NVIDIA vGPU profile series the provider sells the GPU with: Q (virtual workstation),
    // B (virtual PC), A (virtual apps) or C (compute only, no desktops); empty where unsaid.
    std::string vgpu_series;
    double local_storage_gb = 0;
    Provenance provenance;
    std::vector<PriceRow> regions;
    SourcePos origin;
    SourcePos gpu_pos; // where `gpu:` was written, for reference errors

    bool operator==(const InstanceType&) const = default;
};

// A negotiated discount from a user's catalog file: a share off the list price of every offer
// and plan it covers (docs/catalog-format.md, "Discounts"). Empty lists and names cover all.
struct Discount {
    std::string id;
    std::string provider;
    std::vector<Plan> plans;
    std::string family;
    std::string instance;
    std::vector<std::string> regions;
    std::int64_t off_ppm = 0; // parts per million off the list price: 12% is 120000
    std::optional<Date> expires;
    Provenance provenance;
    SourcePos origin;

    bool operator==(const Discount&) const = default;
};

// An instance type in one region: the unit the planner prices.
struct Offer {
    const InstanceType* instance = nullptr;
    const PriceRow* prices = nullptr;
};

class Catalog {
  public:
    Catalog() = default;
    Catalog(std::vector<Gpu> gpus,
            std::vector<Provider> providers,
            std::vector<InstanceType> instances,
            std::vector<Discount> discounts = {},
            std::vector<Cpu> cpus = {},
            TransferData transfer = {});

    // Sorted: GPUs by id; providers by id; instances by provider, family, GPU count, vCPUs, id;
    // each instance type's rows by region.
    const std::vector<Gpu>& gpus() const { return m_gpus; }
    const std::vector<Provider>& providers() const { return m_providers; }
    const std::vector<InstanceType>& instances() const { return m_instances; }
    // Sorted by provider, then id.
    const std::vector<Discount>& discounts() const { return m_discounts; }
    // Sorted by id.
    const std::vector<Cpu>& cpus() const { return m_cpus; }
    // A CPU by id or alias, case-insensitive; nullptr if none.
    const Cpu* find_cpu(std::string_view name) const;
    std::vector<std::string> cpu_names_near(std::string_view name) const;
    // Storage and transfer prices, one entry per provider, sorted by provider.
    const TransferData& transfer() const { return m_transfer; }
    std::vector<Offer> offers() const;
    std::size_t offer_count() const; // offers().size(), without making them

    const Gpu* find_gpu(std::string_view id) const;           // canonical id, exact
    const Provider* find_provider(std::string_view id) const; // exact
    // A region's country (ISO 3166 alpha-2) from its provider's region list; "" if unknown.
    std::string country_of(std::string_view provider, std::string_view region) const;
    // Every GPU a user's name means: an id or alias (case-insensitive) gives one;
    // a dash-separated prefix ("A100", "h100-80gb") gives all it starts.
    std::vector<const Gpu*> match_gpus(std::string_view name) const;
    // Instance types with this id (case-insensitive), from any provider.
    std::vector<const InstanceType*> match_instances(std::string_view name) const;
    // Known names near a misspelt one, for hints.
    std::vector<std::string> gpu_names_near(std::string_view name) const;
    std::vector<std::string> instance_names_near(std::string_view name) const;

  private:
    std::vector<Gpu> m_gpus;
    std::vector<Provider> m_providers;
    std::vector<InstanceType> m_instances;
    std::vector<Discount> m_discounts;
    std::vector<Cpu> m_cpus;
    TransferData m_transfer;
    std::map<std::string, std::size_t, std::less<>> m_gpu_by_name; // lower-case id/alias
};

} // namespace gpuadvisor
