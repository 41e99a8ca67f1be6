// Rendering `size`: the normalised workload, requirements, the estimate and its assumptions.
#pragma once

#include "gpuadvisor/catalog.hpp"
#include "gpuadvisor/sizing.hpp"
#include "gpuadvisor/transfer.hpp"
#include "io.hpp"
#include "output.hpp"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gpuadvisor::cli {

struct SizeReport {
    NormalizedWorkload workload;
    Requirements requirements;
    std::optional<Estimate> estimate;
    std::vector<UsedAssumption> assumptions;
    std::vector<std::string> notes;
    int estimate_gpus = 0;
    std::string estimate_gpu;
    bool count_chosen = false; // size chose the count (none was given)
    // --dataset-tb: the data's parts on the instance, in its provider's currency.
    std::optional<DataMoveRequest> data_request = {};
    std::shared_ptr<const DataMove> data = {};
};

void print_size(const SizeReport& report, Io& io);

// The normalised workload and its requirements as JSON (also in `recommend`).
Json workload_json(const NormalizedWorkload& workload);
Json requirements_json(const Requirements& requirements, WorkloadKind kind);

// "8x A100-40GB" for an instance type.
std::string gpus_label(const InstanceType& instance);

} // namespace gpuadvisor::cli
