// upgrade's parts: --cpu read as a CPU and its sockets, the CPU as a device of the sizing engine,
// HPC rates, and each GPU configuration's hours, cost and payback (docs/upgrade.md).
#include "exit_status.hpp"
#include "gpuadvisor/assumptions.hpp"
#include "gpuadvisor/spelling.hpp"
#include "output.hpp"
#include "upgrade.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace gpuadvisor::cli {

std::optional<CpuServer> parse_cpu(const Catalog& catalog, const std::string& text, Io& io) {
    std::string name = text;
    int sockets = 1;
    if (const auto x = text.find_last_of("xX"); x != std::string::npos && x + 1 < text.size() &&
                                                x > 0 && catalog.find_cpu(text) == nullptr) {
        const std::string count = text.substr(x + 1);
        if (count.find_first_not_of("-.0123456789") == std::string::npos) {
            const auto value = parse_strict_number(count);
            if (!value || *value < 1 || *value > k_max_cpu_sockets ||
                std::floor(*value) != *value) {
                fail("upgrade",
                     "usage",
                     fmt::format("--cpu {}: '{}' is not a number of sockets", text, count),
                     fmt::format("write MODELxN with N a whole number from 1 to {} (8380x2: one "
                                 "dual-socket server)",
                                 k_max_cpu_sockets),
                     k_exit_usage,
                     io);
                return std::nullopt;
            }
            name = text.substr(0, x);
            sockets = static_cast<int>(*value);
        }
    }
    const Cpu* cpu = catalog.find_cpu(name);
    if (cpu == nullptr) {
        const std::string near = did_you_mean(catalog.cpu_names_near(name));
        fail("upgrade",
             "unknown-cpu",
             fmt::format("--cpu: '{}' is not a CPU in the catalog", name),
             near.empty() ? "the catalog's `cpus` lists them (docs/catalog-format.md)" : near,
             k_exit_usage,
             io);
        return std::nullopt;
    }
    return CpuServer{cpu, sockets};
}

Gpu cpu_device(const Cpu& cpu) {
    Gpu device;
    device.id = cpu.id;
    device.vendor = cpu.vendor;
    device.architecture = "cpu";
    device.form_factor = "socket";
    device.memory_gb = cpu.max_memory_gb.value_or(1000);
    device.memory_bandwidth_gb_per_s = cpu.memory_bandwidth_gb_per_s;
    device.fp64_tflops = cpu.fp64_tflops;
    device.fp32_tflops = cpu.fp32_tflops;
    return device;
}

double hpc_rate(const NormalizedWorkload& w, double peak, double efficiency, double bandwidth) {
    const double compute = peak * efficiency;
    if (w.bandwidth_gb_per_s <= 0 || w.fp64_tflops <= 0) {
        return compute;
    }
    const double flops_per_byte = w.fp64_tflops * 1e3 / w.bandwidth_gb_per_s;
    const double memory =
        bandwidth * builtin_assumptions().get("hpc_bandwidth_efficiency") * flops_per_byte / 1e3;
    return std::min(compute, memory);
}

std::int64_t to_micros(double units) {
    return std::llround(units * 1e6);
}

GpuRun run_on_gpus(const NormalizedWorkload& w,
                   const CpuRun& cpu,
                   const Candidate& c,
                   double migration_cost,
                   double runs_per_month) {
    GpuRun run;
    run.candidate = &c;
    if (w.kind == WorkloadKind::hpc) {
        const Gpu& gpu = *c.gpu;
        const bool tensor = w.fp64_tensor && gpu.fp64_tensor_tflops.has_value();
        const double peak = (tensor ? *gpu.fp64_tensor_tflops : gpu.fp64_tflops) * c.total_gpus;
        const double rate = hpc_rate(w,
                                     peak,
                                     builtin_assumptions().get("hpc_fp64_efficiency"),
                                     gpu.memory_bandwidth_gb_per_s * c.total_gpus);
        run.hours = cpu.hours * cpu.sustained_tflops / rate;
    } else {
        run.hours = c.hours.value_or(0) * cpu.scale;
    }
    run.speedup = run.hours > 0 ? cpu.hours / run.hours : 0;
    if (c.per_hour_micros) {
        run.cost_micros = std::llround(static_cast<double>(*c.per_hour_micros) * run.hours);
        const double cpu_cost = static_cast<double>(cpu.cost_per_hour_micros) * cpu.hours;
        run.saving_micros = std::llround(cpu_cost) - *run.cost_micros;
        if (*run.saving_micros > 0 && migration_cost > 0) {
            run.runs_to_break_even =
                std::ceil(migration_cost * 1e6 / static_cast<double>(*run.saving_micros));
            run.months_to_pay_back = *run.runs_to_break_even / runs_per_month;
        }
    }
    return run;
}

} // namespace gpuadvisor::cli
