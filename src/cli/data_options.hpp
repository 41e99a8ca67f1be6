// --dataset-tb, --data-region and --link-gbps: the data flags recommend, price and size share.
#pragma once

#include "gpuadvisor/catalog.hpp"
#include "gpuadvisor/fx.hpp"
#include "gpuadvisor/transfer.hpp"
#include "output.hpp"

#include <CLI/CLI.hpp>

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace gpuadvisor::cli {

struct DataFlags {
    std::optional<double> dataset_tb;
    std::string data_region; // PROVIDER:REGION
    std::optional<double> link_gbps;
};

void add_data_flags(CLI::App& cmd, DataFlags& flags);

// The request the flags make (nullopt in `request` without --dataset-tb); false after a usage
// error was printed (a region flag without a dataset, a malformed or unknown PROVIDER:REGION).
bool read_data_flags(const DataFlags& flags,
                     const Catalog& catalog,
                     std::string_view command,
                     Io& io,
                     std::optional<DataMoveRequest>& request);

// The hint when a configuration's data parts cannot be priced.
inline constexpr std::string_view k_data_hint =
    "a catalog file's transfer: entry gives a provider's storage and transfer prices "
    "(docs/catalog-format.md; formulas: docs/pricing.md)";

// The data parts of `instance` in `region` running `run_hours`, with the money converted to
// `currency` (empty: the instance's provider's); nullptr with `error` set when not priced.
std::shared_ptr<const DataMove> data_move_for(const DataMoveRequest& request,
                                              const TransferData& transfer,
                                              const InstanceType& instance,
                                              std::string_view region,
                                              int instances,
                                              double run_hours,
                                              const std::string& currency,
                                              const FxTable& fx,
                                              std::string& error);

} // namespace gpuadvisor::cli
