// Storage and data transfer prices per provider: the catalog's `transfer:` list
// (docs/catalog-format.md), what `--dataset-tb` prices with (gpuadvisor/transfer.hpp).
#pragma once

#include "gpuadvisor/diagnostic.hpp"
#include "gpuadvisor/provenance.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuadvisor {

enum class StorageTier { object, block, local_nvme, distributed };
std::string_view to_string(StorageTier tier);

struct StorageProduct {
    StorageTier tier = StorageTier::object;
    std::string product;
    std::int64_t per_gb_month_micros = 0;
    Provenance provenance;

    bool operator==(const StorageProduct&) const = default;
};

// One step of a monthly tiered price: applies up to `up_to_tb` cumulative TB (nullopt: the rest).
struct EgressStep {
    std::optional<double> up_to_tb;
    std::int64_t per_gb_micros = 0;

    bool operator==(const EgressStep&) const = default;
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
    bool operator==(const ProviderTransfer&) const = default;
};

// The catalog's transfer prices, one entry per provider, sorted by provider.
struct TransferData {
    std::vector<ProviderTransfer> providers;
    const ProviderTransfer* find(std::string_view provider) const;

    bool operator==(const TransferData&) const = default;
};

} // namespace gpuadvisor
