// `gpuadvisor upgrade`: a CPU server against GPU instances for one finite job (docs/upgrade.md).
#pragma once

#include "gpuadvisor/planner.hpp"
#include "gpuadvisor/sizing.hpp"
#include "io.hpp"

#include <optional>
#include <string>
#include <vector>

namespace gpuadvisor::cli {

// The CPU server: a CPU model and its sockets (`--cpu 8380x2`: one dual-socket server).
struct CpuServer {
    const Cpu* cpu = nullptr;
    int sockets = 1;
};

// The job on the CPU server, from the same sizing engine as the GPUs.
struct CpuRun {
    double peak_tflops = 0;      // all sockets, at the precision it runs in
    double efficiency = 0;       // the sustained share of that peak (data/assumptions.yaml)
    double model_hours = 0;      // the engine's estimate (0 for hpc: no model of the code)
    double hours = 0;            // model_hours, or --cpu-hours
    bool measured = false;       // hours from --cpu-hours
    double scale = 1;            // hours / model_hours: the size of the job against the model's
    double sustained_tflops = 0; // hpc: the CPU's FP64 rate on the code (roofline)
    std::string precision;
    std::int64_t cost_per_hour_micros = 0; // the report's currency, the whole server
    std::string cost_basis;
};

// One GPU configuration of the recommendation, with the job's time and cost on it.
struct GpuRun {
    const Candidate* candidate = nullptr;
    double hours = 0;
    double speedup = 0;
    std::optional<std::int64_t> cost_micros; // per run, the report's currency
    std::optional<std::int64_t> saving_micros;
    std::optional<double> runs_to_break_even;
    std::optional<double> months_to_pay_back;
};

struct UpgradeReport {
    const NormalizedWorkload* workload = nullptr;
    CpuServer server;
    CpuRun cpu;
    std::vector<GpuRun> gpus;
    double runs_per_month = 1;
    double migration_cost = 0;
    std::string currency = "USD"; // every amount: --currency, or USD
    std::vector<std::string> notes;
};

void print_upgrade(const UpgradeReport& report, Io& io);

inline constexpr int k_max_cpu_sockets = 64;
// `--cpu`: "8380x2" is the 8380 on 2 sockets, "EPYC-9654" one socket; a name the catalog
// has whole is never split. nullopt after a usage error (unknown CPU with did-you-mean, a
// socket count that is not a whole number from 1 to k_max_cpu_sockets).
std::optional<CpuServer> parse_cpu(const Catalog& catalog, const std::string& text, Io& io);

// The CPU presented to the sizing engine as a device: its peaks, bandwidth and memory.
Gpu cpu_device(const Cpu& cpu);
// FP64 TFLOPS a device sustains on an HPC code: compute-bound, or memory-bound when the
// workload gives its bandwidth (its FLOPs per byte = --fp64-tflops / --bandwidth-gb-per-s).
double hpc_rate(const NormalizedWorkload& w, double peak, double efficiency, double bandwidth);
std::int64_t to_micros(double units);
// The job on one configuration of the recommendation: hours (the CPU's job scaled, or the
// HPC work at the GPUs' rate), speed-up, cost per run, saving and payback.
GpuRun run_on_gpus(const NormalizedWorkload& w,
                   const CpuRun& cpu,
                   const Candidate& c,
                   double migration_cost,
                   double runs_per_month);

} // namespace gpuadvisor::cli
