#include "data_options.hpp"

#include "app.hpp"
#include "exit_status.hpp"
#include "gpuadvisor/assumptions.hpp"
#include "gpuadvisor/spelling.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace gpuadvisor::cli {

namespace {

constexpr double k_max_dataset_tb = 100'000; // 100 PB

int unknown(std::string_view command,
            const std::string& code,
            const std::string& what,
            const std::string& name,
            const std::vector<std::string>& known,
            Io& io) {
    const std::string hint = did_you_mean(nearest_names(name, known));
    return fail(command,
                code,
                fmt::format("--data-region: no {} is called '{}'", what, name),
                hint.empty() ? fmt::format("{}s: {}", what, fmt::join(known, ", ")) : hint,
                k_exit_usage,
                io);
}

} // namespace

void add_data_flags(CLI::App& cmd, DataFlags& flags) {
    const auto group = "Data";
    cmd.add_option("--dataset-tb",
                   flags.dataset_tb,
                   "Move a dataset of this many TB (10^12 bytes) to the instances and store it "
                   "for the job: transfer time, egress and storage are added")
        ->check(finite_range(0.001, k_max_dataset_tb))
        ->type_name("TB")
        ->group(group);
    cmd.add_option("--data-region",
                   flags.data_region,
                   "Where the dataset is (default: in each row's region): egress from there")
        ->type_name("PROVIDER:REGION")
        ->group(group);
    cmd.add_option("--link-gbps",
                   flags.link_gbps,
                   "The transfer's throughput in Gbit/s, instead of the path's assumption "
                   "(still capped by the instance's network)")
        ->check(finite_range(0.001, 100'000))
        ->type_name("G")
        ->group(group);
}

bool read_data_flags(const DataFlags& flags,
                     const Catalog& catalog,
                     std::string_view command,
                     Io& io,
                     std::optional<DataMoveRequest>& request) {
    request.reset();
    if (!flags.dataset_tb) {
        if (!flags.data_region.empty() || flags.link_gbps) {
            fail(command,
                 "usage",
                 fmt::format("{}: there is no dataset to move",
                             flags.link_gbps ? "--link-gbps" : "--data-region"),
                 "add --dataset-tb N",
                 k_exit_usage,
                 io);
            return false;
        }
        return true;
    }
    DataMoveRequest r{*flags.dataset_tb, "", "", flags.link_gbps};
    if (!flags.data_region.empty()) {
        const auto colon = flags.data_region.find(':');
        if (colon == std::string::npos || colon == 0 || colon + 1 == flags.data_region.size()) {
            fail(command,
                 "usage",
                 fmt::format("--data-region: '{}' is not PROVIDER:REGION", flags.data_region),
                 "for example --data-region aws:us-east-1",
                 k_exit_usage,
                 io);
            return false;
        }
        r.data_provider = flags.data_region.substr(0, colon);
        r.data_region = flags.data_region.substr(colon + 1);
        const Provider* provider = catalog.find_provider(r.data_provider);
        std::vector<std::string> known;
        if (provider == nullptr || catalog.transfer().find(r.data_provider) == nullptr) {
            for (const Provider& p : catalog.providers()) {
                if (catalog.transfer().find(p.id) != nullptr) {
                    known.push_back(p.id);
                }
            }
            unknown(command, "unknown-provider", "provider", r.data_provider, known, io);
            return false;
        }
        for (const RegionInfo& region : provider->regions) {
            known.push_back(region.id);
        }
        if (std::find(known.begin(), known.end(), r.data_region) == known.end()) {
            unknown(command,
                    "unknown-region",
                    fmt::format("{} region", r.data_provider),
                    r.data_region,
                    known,
                    io);
            return false;
        }
    }
    request = r;
    return true;
}

std::shared_ptr<const DataMove> data_move_for(const DataMoveRequest& request,
                                              const TransferData& transfer,
                                              const InstanceType& instance,
                                              std::string_view region,
                                              int instances,
                                              double run_hours,
                                              const std::string& currency,
                                              const FxTable& fx,
                                              std::string& error) {
    DataMove move = plan_data_move(
        request, instance, region, instances, run_hours, transfer, builtin_assumptions());
    if (!move.error.empty()) {
        error = move.error;
        return nullptr;
    }
    const std::string& to = currency.empty() ? move.storage_currency : currency;
    const auto egress = move.egress_micros > 0
                            ? fx.convert(move.egress_micros, move.egress_currency, to)
                            : std::optional<std::int64_t>(0);
    const auto storage = fx.convert(move.storage_micros, move.storage_currency, to);
    if (!egress || !storage) {
        error = fmt::format("no rate from {} to {}", move.egress_currency, to);
        return nullptr;
    }
    move.egress_converted_micros = *egress;
    move.storage_converted_micros = *storage;
    return std::make_shared<const DataMove>(std::move(move));
}

} // namespace gpuadvisor::cli
