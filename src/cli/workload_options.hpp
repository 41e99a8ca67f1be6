// The workload flags shared by `size` (and later `recommend`): CLI.md "Workload flags".
#pragma once

#include "gpuadvisor/sizing.hpp"
#include "io.hpp"

#include <CLI/CLI.hpp>

#include <optional>
#include <string>

namespace gpuadvisor::cli {

struct WorkloadFlags {
    std::string kind;
    std::string profile;
    std::string model;
    std::string params;
    std::string tokens;
    std::string samples;
    std::string precision;
    std::string method;
    std::string seq_len;
    std::string batch;
    std::string qps;
    std::string latency_ms;
    std::string input_tokens;
    std::string output_tokens;
    std::string fp64_tflops;
    bool fp64_tensor = false;
    bool byo_vgpu = false;
    std::string memory_gb;
    std::string bandwidth_gb_per_s;
    std::string sessions;
    std::string memory_per_session_gb;
    std::string lora_rank;
    std::string ttft_ms;
    std::string tpot_ms;
    std::string deadline;
    std::string budget;
    std::string hours_per_month;
};

void add_workload_flags(CLI::App& command, WorkloadFlags& flags);

// Profile file (if any) overlaid by the flags, normalised with the built-in presets.
// On failure prints the diagnostics and returns nullopt with `exit_code` set (2 for a bad
// flag, 3 for a bad profile file).
std::optional<NormalizedWorkload>
read_workload(const WorkloadFlags& flags, std::string_view command, Io& io, int& exit_code);

} // namespace gpuadvisor::cli
