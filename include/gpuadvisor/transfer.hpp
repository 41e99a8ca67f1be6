// Moving a dataset to a configuration and keeping it there (data/transfer.yaml): transfer time
// over the effective link, egress between regions and providers, storage for the job's span.
#pragma once

#include "gpuadvisor/catalog.hpp"
#include "gpuadvisor/diagnostic.hpp"
#include "gpuadvisor/provenance.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuadvisor {

class Assumptions;

enum class StorageTier { object, block, local_nvme, distributed };
std::string_view to_string(StorageTier tier);

struct StorageProduct {
    StorageTier tier = StorageTier::object;
    std::string product;
    std::int64_t per_gb_month_micros = 0;
    Provenance provenance;
};

// One step of a monthly tiered price: applies up to `up_to_tb` cumulative TB (nullopt: the rest).
struct EgressStep {
    std::optional<double> up_to_tb;
    std::int64_t per_gb_micros = 0;
};

struct ProviderTransfer {
    std::string provider;
    std::string currency;
    std::vector<StorageProduct> storage;
    std::int64_t ingress_per_gb_micros = 0;
    std::int64_t inter_region_per_gb_micros = 0;
    std::vector<EgressStep> internet_egress; // ascending, the last without a bound
    Provenance provenance;                   // of the transfer prices
    SourcePos origin;

    const StorageProduct* find(StorageTier tier) const;
};

struct TransferData {
    std::vector<ProviderTransfer> providers;
    const ProviderTransfer* find(std::string_view provider) const;
};

struct TransferLoad {
    TransferData data;
    Diagnostics diagnostics;
};
TransferLoad load_transfer_text(const std::string& file, std::string_view text);
const TransferData& builtin_transfer();

// Decimal bytes per TB and GB (the providers price per 10^9 bytes).
inline constexpr double k_gb_per_tb = 1000;

// The cost of `gb` at a tiered monthly price, starting at 0 TB this month (nullopt: too large).
std::optional<std::int64_t> tiered_cost_micros(const std::vector<EgressStep>& steps, double gb);

// Which tier the documents' storage matrix puts a dataset in: up to 1 TB a block volume,
// 1-10 TB the instance's local NVMe if it holds it (else a block volume), over 10 TB a
// distributed file system (object storage where the provider lists none).
StorageTier choose_storage_tier(double dataset_tb, double local_storage_gb);

enum class DataPath { same_region, inter_region, cross_provider };
std::string_view to_string(DataPath path);

// Where the data is and how it moves (--dataset-tb, --data-region, --link-gbps).
struct DataMoveRequest {
    double dataset_tb = 0;
    std::string data_provider; // empty: the data is in each row's own region
    std::string data_region;
    std::optional<double> link_gbps; // overrides the per-path assumption
};

// The data parts of one configuration, in `currency` (the destination provider's).
struct DataMove {
    DataPath path = DataPath::same_region;
    double link_gbps = 0;      // effective: min(instance network, path or --link-gbps)
    double transfer_hours = 0; // dataset bytes / link
    std::int64_t egress_micros = 0;
    std::string egress_currency; // the source provider's
    StorageTier tier = StorageTier::block;
    const StorageProduct* storage = nullptr;
    double storage_hours = 0; // the job's span: transfer + run hours
    std::int64_t storage_micros = 0;
    std::string storage_currency; // the destination provider's
    // Both in the currency the answer compares costs in (set by the planner).
    std::int64_t egress_converted_micros = 0;
    std::int64_t storage_converted_micros = 0;
    std::string basis; // the explanation line
    std::string error; // not priced: no transfer data for a provider, too large
};

// The path's throughput assumption, in Gbit/s (data/assumptions.yaml).
double path_link_gbps(DataPath path, const Assumptions& assumptions);

// The parts for `instance` in `region`, running `run_hours` (services: one month).
DataMove plan_data_move(const DataMoveRequest& request,
                        const InstanceType& instance,
                        std::string_view region,
                        double run_hours,
                        const TransferData& data,
                        const Assumptions& assumptions);

} // namespace gpuadvisor
