// The workload flags shared by `size` (and later `recommend`): CLI.md "Workload flags".
#pragma once

#include "gpuadvisor/sizing.hpp"
#include "io.hpp"

#include <CLI/CLI.hpp>

#include <array>
#include <optional>
#include <string>

namespace gpuadvisor::cli {

// A flag of k_workload_fields as given: a number's text, or whether a switch was.
struct FieldFlag {
    std::string text;
    bool on = false;
};

struct WorkloadFlags {
    std::string kind;
    std::string profile;
    std::string model;
    std::string precision;
    std::string method;
    std::array<FieldFlag, k_workload_fields.size()> fields; // by row of k_workload_fields
};

void add_workload_flags(CLI::App& command, WorkloadFlags& flags);

// Profile file (if any) overlaid by the flags, normalised with the built-in presets.
// On failure prints the diagnostics and returns nullopt with `exit_code` set (2 for a bad
// flag, 3 for a bad profile file).
std::optional<NormalizedWorkload>
read_workload(const WorkloadFlags& flags, std::string_view command, Io& io, int& exit_code);

} // namespace gpuadvisor::cli
