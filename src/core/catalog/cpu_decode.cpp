#include "catalog/cpu_decode.hpp"

#include "gpuadvisor/units.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>

namespace gpuadvisor {

namespace {

constexpr std::array<std::string_view, 21> k_cpu_fields{"id",
                                                        "aliases",
                                                        "vendor",
                                                        "cores",
                                                        "base_clock_ghz",
                                                        "avx_clock_ghz",
                                                        "fp64_flops_per_cycle",
                                                        "fp32_flops_per_cycle",
                                                        "fp64_tflops",
                                                        "fp32_tflops",
                                                        "peak_basis",
                                                        "memory_channels",
                                                        "memory_mt_per_s",
                                                        "memory_bandwidth_gb_per_s",
                                                        "max_memory_gb",
                                                        "tdp_w",
                                                        "source",
                                                        "as_of",
                                                        "confidence",
                                                        "notes",
                                                        "memory_type"};
constexpr std::array<std::string_view, 2> k_cpu_vendors{"intel", "amd"};
constexpr std::array<std::string_view, 3> k_peak_bases{"base_clock", "avx_clock", "vendor"};
constexpr double k_tolerance = 0.10;

void read_aliases(FieldReader& read, const YamlNode& node, const std::string& path, Cpu& cpu) {
    if (const auto* aliases = read.list(node, "aliases", path, Need::optional)) {
        for (const YamlNode& alias : *aliases) {
            if (alias.is_scalar() && read.is_valid_id(alias.text)) {
                cpu.aliases.emplace_back(alias.text);
            } else {
                read.diagnostics().error(read.pos(alias),
                                         "bad-value",
                                         fmt::format("{}.aliases: not a valid name", path),
                                         "names are 1-128 characters from A-Z a-z 0-9 . _ - + /");
            }
        }
    }
}

// A figure against the arithmetic it should follow: a warning beyond 10%.
void check_figure(FieldReader& read,
                  const YamlNode& node,
                  const std::string& path,
                  std::string_view key,
                  double given,
                  double expected,
                  std::string_view formula) {
    if (given <= 0 || expected <= 0 || std::abs(given - expected) <= k_tolerance * expected) {
        return;
    }
    read.diagnostics().warning(
        read.pos(*node.find(key)),
        "implausible-cpu",
        fmt::format("{}.{}: {} is more than 10% from {} = {}",
                    path,
                    key,
                    format_number(given),
                    formula,
                    format_number(expected)),
        key == "memory_bandwidth_gb_per_s"
            ? "check the datasheet's channels and memory speed"
            : "check the datasheet, or write `peak_basis: vendor` for the vendor's own figure");
}

void check_cpu(FieldReader& read, const YamlNode& node, const std::string& path, const Cpu& cpu) {
    check_figure(read,
                 node,
                 path,
                 "memory_bandwidth_gb_per_s",
                 cpu.memory_bandwidth_gb_per_s,
                 cpu.memory_channels * cpu.memory_mt_per_s * 8 / 1000,
                 "memory_channels x memory_mt_per_s x 8 B");
    if (cpu.peak_basis == "vendor") {
        return;
    }
    const bool avx = cpu.peak_basis == "avx_clock";
    if (avx && !cpu.avx_clock_ghz) {
        read.diagnostics().error(read.pos(*node.find("peak_basis")),
                                 "missing-field",
                                 fmt::format("{}: peak_basis avx_clock needs avx_clock_ghz", path),
                                 "give avx_clock_ghz, or write peak_basis: base_clock");
        return;
    }
    const double clock = avx ? *cpu.avx_clock_ghz : cpu.base_clock_ghz;
    const std::string_view words = avx ? "cores x avx_clock_ghz x " : "cores x base_clock_ghz x ";
    check_figure(read,
                 node,
                 path,
                 "fp64_tflops",
                 cpu.fp64_tflops,
                 cpu.cores * clock * cpu.fp64_flops_per_cycle / 1000,
                 fmt::format("{}fp64_flops_per_cycle", words));
    check_figure(read,
                 node,
                 path,
                 "fp32_tflops",
                 cpu.fp32_tflops,
                 cpu.cores * clock * cpu.fp32_flops_per_cycle / 1000,
                 fmt::format("{}fp32_flops_per_cycle", words));
}

} // namespace

std::optional<Cpu> decode_cpu(FieldReader& read, const YamlNode& node, const std::string& path) {
    const std::size_t before = read.diagnostics().error_count();
    if (!read.mapping(node, path, "a CPU", k_cpu_fields)) {
        return std::nullopt;
    }
    Cpu cpu;
    cpu.origin = read.pos(node);
    cpu.id = read.id(node, "id", path, Need::required).value_or("");
    read_aliases(read, node, path, cpu);
    cpu.vendor = read.one_of(node, "vendor", path, Need::required, k_cpu_vendors).value_or("");
    cpu.cores = read.whole(node, "cores", path, Need::required, {1, true, 1024}).value_or(0);
    const Range clock{0.1, true, 10};
    cpu.base_clock_ghz =
        read.number(node, "base_clock_ghz", path, Need::required, clock).value_or(0);
    cpu.avx_clock_ghz = read.number(node, "avx_clock_ghz", path, Need::optional, clock);
    const Range per_cycle{1, true, 4096};
    cpu.fp64_flops_per_cycle =
        read.number(node, "fp64_flops_per_cycle", path, Need::required, per_cycle).value_or(0);
    cpu.fp32_flops_per_cycle =
        read.number(node, "fp32_flops_per_cycle", path, Need::required, per_cycle).value_or(0);
    const Range tflops{0.001, true, 1000};
    cpu.fp64_tflops = read.number(node, "fp64_tflops", path, Need::required, tflops).value_or(0);
    cpu.fp32_tflops = read.number(node, "fp32_tflops", path, Need::required, tflops).value_or(0);
    cpu.peak_basis =
        read.one_of(node, "peak_basis", path, Need::required, k_peak_bases).value_or("");
    cpu.memory_channels =
        read.whole(node, "memory_channels", path, Need::required, {1, true, 64}).value_or(0);
    cpu.memory_mt_per_s =
        read.number(node, "memory_mt_per_s", path, Need::required, {100, true, 20000}).value_or(0);
    cpu.memory_bandwidth_gb_per_s =
        read.number(node, "memory_bandwidth_gb_per_s", path, Need::required, {1, true, 10000})
            .value_or(0);
    cpu.memory_type = read.text(node, "memory_type", path, Need::optional).value_or("");
    cpu.max_memory_gb =
        read.number(node, "max_memory_gb", path, Need::optional, {1, true, 1000000});
    cpu.tdp_w = read.number(node, "tdp_w", path, Need::required, {1, true, 2000}).value_or(0);
    cpu.provenance = read.provenance(node, path);
    if (read.diagnostics().error_count() != before) {
        return std::nullopt;
    }
    check_cpu(read, node, path, cpu);
    if (read.diagnostics().error_count() != before) {
        return std::nullopt;
    }
    return cpu;
}

} // namespace gpuadvisor
