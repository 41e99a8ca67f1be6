// The data parts of a configuration: transfer time, egress and storage (docs/pricing.md).
#include "gpuadvisor/assumptions.hpp"
#include "gpuadvisor/pricing.hpp"
#include "gpuadvisor/transfer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace gpuadvisor {

namespace {

constexpr std::array<std::string_view, 3> k_path_names{
    "same-region", "inter-region", "cross-provider"};

constexpr double k_seconds_per_hour = 3600;

DataPath path_of(const DataMoveRequest& r, std::string_view provider, std::string_view region) {
    if (r.data_provider.empty() || (r.data_provider == provider && r.data_region == region)) {
        return DataPath::same_region;
    }
    return r.data_provider == provider ? DataPath::inter_region : DataPath::cross_provider;
}

std::string money_text(std::int64_t micros, const std::string& currency) {
    return fmt::format(
        "{} {:.2f}", currency, static_cast<double>(micros) / Money::k_micros_per_unit);
}

// Egress from the data's provider (in its currency) for the path; false when unpriced.
bool price_egress(const DataMoveRequest& r, double gb, const TransferData& data, DataMove& move) {
    if (move.path == DataPath::same_region) {
        return true;
    }
    const ProviderTransfer* source = data.find(r.data_provider);
    if (source == nullptr) {
        move.error = fmt::format("no transfer prices for provider '{}'", r.data_provider);
        return false;
    }
    move.egress_currency = source->currency;
    const auto cost = move.path == DataPath::inter_region
                          ? multiply_money(source->inter_region_per_gb_micros, gb)
                          : tiered_cost_micros(source->internet_egress, gb);
    if (!cost) {
        move.error = "the egress is beyond what gpuadvisor can count";
        return false;
    }
    move.egress_micros = *cost;
    return true;
}

} // namespace

std::string_view to_string(DataPath path) {
    return k_path_names[static_cast<std::size_t>(path)];
}

std::optional<std::int64_t> tiered_cost_micros(const std::vector<EgressStep>& steps, double gb) {
    std::int64_t total = 0;
    double done_gb = 0;
    for (const EgressStep& step : steps) {
        const double end_gb = step.up_to_tb ? *step.up_to_tb * k_gb_per_tb : gb;
        const double here = std::min(gb, end_gb) - done_gb;
        if (here > 0) {
            const auto part = multiply_money(step.per_gb_micros, here);
            if (!part || *part > std::numeric_limits<std::int64_t>::max() - total) {
                return std::nullopt;
            }
            total += *part;
            done_gb += here;
        }
        if (done_gb >= gb) {
            break;
        }
    }
    return total;
}

StorageTier choose_storage_tier(double dataset_tb, double local_storage_gb) {
    if (dataset_tb > 10) {
        return StorageTier::distributed;
    }
    if (dataset_tb > 1 && local_storage_gb >= dataset_tb * k_gb_per_tb) {
        return StorageTier::local_nvme;
    }
    return StorageTier::block;
}

double path_link_gbps(DataPath path, const Assumptions& assumptions) {
    switch (path) {
    case DataPath::same_region:
        return assumptions.get("data_link_same_region_gbps");
    case DataPath::inter_region:
        return assumptions.get("data_link_inter_region_gbps");
    case DataPath::cross_provider:
        break;
    }
    return assumptions.get("data_link_cross_provider_gbps");
}

DataMove plan_data_move(const DataMoveRequest& r,
                        const InstanceType& instance,
                        std::string_view region,
                        int instances,
                        double run_hours,
                        const TransferData& data,
                        const Assumptions& assumptions) {
    DataMove move;
    move.path = path_of(r, instance.provider, region);
    move.link_gbps = r.link_gbps.value_or(path_link_gbps(move.path, assumptions));
    if (instance.network_gbps > 0) {
        move.link_gbps = std::min(move.link_gbps, instance.network_gbps);
    }
    if (!(move.link_gbps > 0)) {
        move.error = "the link's throughput is not above 0 Gbit/s";
        return move;
    }
    const double gb = r.dataset_tb * k_gb_per_tb;
    move.transfer_hours = gb * 8 / move.link_gbps / k_seconds_per_hour;
    const ProviderTransfer* dest = data.find(instance.provider);
    if (dest == nullptr) {
        move.error = fmt::format("no transfer prices for provider '{}'", instance.provider);
        return move;
    }
    if (!price_egress(r, gb, data, move)) {
        return move;
    }
    move.tier = choose_storage_tier(r.dataset_tb, instance.local_storage_gb);
    move.storage = dest->find(move.tier);
    if (move.storage == nullptr && move.tier == StorageTier::distributed) {
        move.tier = StorageTier::object; // no distributed file system listed
        move.storage = dest->find(move.tier);
    }
    if (move.storage == nullptr) {
        move.error =
            fmt::format("no '{}' storage price for {}", to_string(move.tier), dest->provider);
        return move;
    }
    move.storage_currency = dest->currency;
    move.storage_copies = move.tier == StorageTier::block ? std::max(1, instances) : 1;
    move.storage_hours = move.transfer_hours + run_hours;
    const auto ingress = multiply_money(dest->ingress_per_gb_micros, gb);
    const auto storage =
        multiply_money(move.storage->per_gb_month_micros,
                       gb * move.storage_copies * move.storage_hours / k_hours_per_month);
    if (!ingress || !storage || *storage > std::numeric_limits<std::int64_t>::max() - *ingress) {
        move.error = "the storage is beyond what gpuadvisor can count";
        return move;
    }
    move.storage_micros = *storage + *ingress;
    move.basis = fmt::format(
        "{} TB {} at {} Gbit/s = {} h; egress {}; storage {} ({}){} for {} h = {}",
        format_number(r.dataset_tb),
        to_string(move.path),
        format_number(move.link_gbps),
        format_number(std::round(move.transfer_hours * 100) / 100),
        move.path == DataPath::same_region ? std::string("none")
                                           : money_text(move.egress_micros, move.egress_currency),
        to_string(move.tier),
        move.storage->product,
        move.storage_copies > 1 ? fmt::format(" x {} volumes", move.storage_copies) : "",
        format_number(std::round(move.storage_hours * 10) / 10),
        money_text(move.storage_micros, move.storage_currency));
    return move;
}

} // namespace gpuadvisor
