// `gpuadvisor export`: one row of a recommendation (from the flags or a `recommend -o json`
// file) and the files written from it (docs/export.md).
#pragma once

#include "gpuadvisor/diagnostic.hpp"
#include "gpuadvisor/planner.hpp"
#include "gpuadvisor/sizing.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuadvisor::cli {

// The configuration exported: what a ranked row of `recommend` says.
struct ExportSource {
    int rank = 1;
    std::string kind;  // training, finetune, inference, hpc, graphics
    std::string model; // may be empty
    std::string provider;
    std::string instance;
    std::string region;
    std::string gpu; // the catalog's GPU id
    double gpus_per_instance = 1;
    int instance_count = 1;
    std::string pricing; // on-demand, spot, reserved-1y, ..., mix
    std::optional<double> hours;
    std::string currency;
    std::optional<std::int64_t> per_hour_micros; // the whole configuration
    std::optional<double> gpu_memory_gb;         // from the catalog, when it knows the GPU
    std::string gpu_vendor = "nvidia";           // from the catalog, when it knows the GPU
};

// The documents' operating thresholds (document 003): scale out above temp_c or at memory_percent
// of GPU memory for alert_minutes; release an instance idle (below idle_percent) for idle_minutes.
struct ExportPolicy {
    double temp_c = 85;
    double memory_percent = 90;
    double idle_percent = 15;
    int idle_minutes = 10;
    int alert_minutes = 5;
};

// What the launcher files run: the container image, the command, the job's name, a service's port.
struct ExportRun {
    std::string name;
    std::string image;   // empty: the GPU vendor's PyTorch image (run_image)
    std::string command; // empty: the image's own (kubernetes) or the vendor's SMI (run_command)
    int port = 8000;
};

ExportSource
export_source(const Candidate& row, const NormalizedWorkload& workload, std::string_view currency);

// Row `rank` (1-based) of a `recommend -o json` document, read defensively: nullopt with
// errors (the JSON pointer of the field, what was expected and a hint) in `diagnostics`.
std::optional<ExportSource>
read_recommendation(const std::string& path, int rank, Diagnostics& diagnostics);

// A serving kind (inference, graphics) runs as a service; the rest as a job that ends.
bool is_service(const ExportSource& source);

// "A100" from "A100-80GB-PCIe": the family name schedulers and dstack use.
std::string gpu_family(std::string_view gpu);
// SkyPilot's accelerator name (`sky show-gpus`): "A100-80GB", "A100", "H100", "V100-32GB", "T4".
std::string skypilot_accelerator(std::string_view gpu);
// "#1: 8 x p4d.24xlarge (8 x A100-80GB each), aws us-east-1, on-demand, 12.5 h, USD 32.77/h".
std::string describe(const ExportSource& source);
// The auto-release policy in words.
std::string auto_release_text(const ExportPolicy& policy);

// --image, or the GPU vendor's PyTorch container (NGC for NVIDIA, ROCm's for AMD).
std::string run_image(const ExportRun& run, std::string_view gpu_vendor);
// --command, or the vendor's device listing (nvidia-smi, rocm-smi): the launchers need a command.
std::string run_command(const ExportRun& run, std::string_view gpu_vendor);

// Each kind's file, or an error message (what cannot be expressed) with a hint.
struct ExportText {
    std::string text;
    std::string error;
    std::string hint;
};
ExportText render_prometheus(const ExportSource& source, const ExportPolicy& policy);
ExportText
render_kubernetes(const ExportSource& source, const ExportPolicy& policy, const ExportRun& run);
ExportText
render_skypilot(const ExportSource& source, const ExportPolicy& policy, const ExportRun& run);
ExportText
render_dstack(const ExportSource& source, const ExportPolicy& policy, const ExportRun& run);

// A YAML double-quoted scalar (JSON's escapes, which YAML reads the same).
std::string yaml_quote(std::string_view text);

} // namespace gpuadvisor::cli
