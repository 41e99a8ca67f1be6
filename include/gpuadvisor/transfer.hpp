// Moving a dataset to a configuration and keeping it there, at the catalog's transfer prices:
// transfer time over the effective link, egress between regions and providers, storage for the
// job's span.
#pragma once

#include "gpuadvisor/catalog.hpp"
#include "gpuadvisor/diagnostic.hpp"
#include "gpuadvisor/provenance.hpp"
#include "gpuadvisor/transfer_prices.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuadvisor {

class Assumptions;

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
    int storage_copies = 1;   // block: a volume per instance (one attaches to one instance)
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

// The parts for `instances` x `instance` in `region`, running `run_hours` (services: one
// month). The data crosses from its region once; a block volume is stored once per instance.
DataMove plan_data_move(const DataMoveRequest& request,
                        const InstanceType& instance,
                        std::string_view region,
                        int instances,
                        double run_hours,
                        const TransferData& data,
                        const Assumptions& assumptions);

} // namespace gpuadvisor
