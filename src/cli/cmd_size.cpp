// gpuadvisor size WORKLOAD [--gpu ID --gpus N | --instance ID --instances N]
#include "app.hpp"
#include "catalog_options.hpp"
#include "exit_status.hpp"
#include "gpuadvisor/spelling.hpp"
#include "output.hpp"
#include "render_size.hpp"
#include "workload_options.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>

namespace gpuadvisor::cli {

namespace {

struct Options {
    std::string kind; // positional shorthand for --workload
    WorkloadFlags workload;
    std::string gpu;
    double gpus = 0;
    std::string instance;
    std::string provider;
    double instances = 0;
};

// The hardware named by the flags; nullopt after printing a usage error.
std::optional<Hardware> named_hardware(const Options& o,
                                       WorkloadKind kind,
                                       const Catalog& catalog,
                                       std::vector<std::string>& notes,
                                       Io& io) {
    Hardware hw;
    if (!o.instance.empty()) {
        const InstanceType* found =
            resolve_instance(catalog, o.instance, o.provider, "--instance", "size", io);
        if (found == nullptr) {
            return std::nullopt;
        }
        const InstanceType& instance = *found;
        const double count = o.instances > 0 ? o.instances : 1;
        hw.gpu = catalog.find_gpu(instance.gpu);
        if (instance.gpu_count < 1) { // a vGPU slice
            if (kind != WorkloadKind::graphics) {
                fail("size",
                     "usage",
                     fmt::format("--instance: {} has {} of one {} (a vGPU slice); size estimates "
                                 "this workload on whole GPUs",
                                 instance.id,
                                 format_number(instance.gpu_count),
                                 instance.gpu),
                     fmt::format("name --gpu {} instead, or an instance with whole GPUs",
                                 instance.gpu),
                     k_exit_usage,
                     io);
                return std::nullopt;
            }
        }
        hw = hardware_of(instance, *hw.gpu, static_cast<int>(count));
        notes.push_back(fmt::format("hardware: {} x {} ({} {}): {} GPUs, {} Gbps{}",
                                    format_number(count),
                                    instance.id,
                                    instance.provider,
                                    gpus_label(instance),
                                    hw.gpus,
                                    format_number(hw.network_gbps),
                                    hw.rdma ? " RDMA" : ""));
        return hw;
    }
    const auto matches = catalog.match_gpus(o.gpu);
    if (matches.size() != 1) {
        std::vector<std::string> ids;
        for (const Gpu* gpu : matches) {
            ids.push_back(gpu->id);
        }
        fail("size",
             matches.empty() ? "unknown-gpu" : "ambiguous-gpu",
             matches.empty() ? fmt::format("--gpu: no GPU is called '{}'", o.gpu)
                             : fmt::format("--gpu: '{}' matches {}", o.gpu, fmt::join(ids, ", ")),
             matches.empty() ? did_you_mean(catalog.gpu_names_near(o.gpu)) : "name one GPU",
             k_exit_usage,
             io);
        return std::nullopt;
    }
    std::string basis;
    hw = hardware_for_gpu(catalog, *matches[0], o.gpus > 0 ? static_cast<int>(o.gpus) : 1, basis);
    notes.push_back(fmt::format(
        "hardware: {} x {}; {} (name an --instance for another)", hw.gpus, hw.gpu->id, basis));
    return hw;
}

int run(Options options, const GlobalOptions& global, Io& io) {
    if (!options.kind.empty()) {
        if (!options.workload.kind.empty() && options.workload.kind != options.kind) {
            return fail("size",
                        "usage",
                        "the workload kind is given twice, differently",
                        "give it once: 'size training ...' or '--workload training'",
                        k_exit_usage,
                        io);
        }
        options.workload.kind = options.kind;
    }
    int exit_code = k_exit_ok;
    const auto workload = read_workload(options.workload, "size", io, exit_code);
    if (!workload) {
        return exit_code;
    }
    const Assumptions& assumptions = builtin_assumptions();
    SizeReport report{*workload,
                      requirements(*workload, assumptions),
                      std::nullopt,
                      used_assumptions(*workload, assumptions),
                      workload->notes,
                      0,
                      {}};
    if (!options.gpu.empty() || !options.instance.empty()) {
        const auto catalog = load_active_catalog(global, "size", io);
        if (!catalog) {
            return k_exit_input;
        }
        const auto hardware = named_hardware(options, workload->kind, *catalog, report.notes, io);
        if (!hardware) {
            return k_exit_usage;
        }
        report.estimate = estimate(*workload, *hardware, assumptions);
        report.estimate_gpus = hardware->gpus;
        report.estimate_gpu = hardware->gpu->id;
    }
    print_size(report, io);
    return report.estimate && !report.estimate->fits ? k_exit_negative : k_exit_ok;
}

} // namespace

void register_size(CLI::App& app, Registry registry) {
    auto options = std::make_shared<Options>();
    CLI::App* size =
        app.add_subcommand("size", "What a workload needs; with hardware named, how it runs on it");
    size->add_option("kind", options->kind, "The workload kind (same as --workload)")
        ->check(one_of({"training", "finetune", "inference", "hpc", "graphics"}))
        ->type_name("training|finetune|inference|hpc|graphics");
    add_workload_flags(*size, options->workload);
    auto* gpu = size->add_option("--gpu", options->gpu, "Estimate on this GPU")->group("Hardware");
    size->add_option("--gpus", options->gpus, "... this many of them (default 1)")
        ->check(whole_range(1, 1e6))
        ->group("Hardware");
    auto* instance = size->add_option("--instance",
                                      options->instance,
                                      "Estimate on this instance type (its GPUs, NVLink, fabric)")
                         ->group("Hardware");
    size->add_option("--instances", options->instances, "... this many of them (default 1)")
        ->check(whole_range(1, 1e6))
        ->group("Hardware");
    size->add_option("--provider", options->provider, "The provider of --instance, if ambiguous")
        ->group("Hardware");
    gpu->excludes(instance);
    size->footer(
        "Examples:\n"
        "  gpuadvisor size training --model llama-2-7b --tokens 1T --gpu A100-80GB --gpus 64\n"
        "  gpuadvisor size inference --model llama-2-13b --qps 20 --latency-ms 2000 --gpu L4\n"
        "  gpuadvisor size inference --model llama-2-70b --ttft-ms 2000 --tpot-ms 60 --gpu "
        "H100-80GB "
        "--gpus 8\n"
        "  gpuadvisor size finetune --model llama-2-13b --method qlora --lora-rank 64 --tokens "
        "100M\n"
        "  gpuadvisor size hpc --fp64-tflops 40 --memory-gb 200 --instance p4d.24xlarge\n"
        "  gpuadvisor size graphics --sessions 40 --memory-per-session-gb 6 --gpu RTX-A6000\n"
        "  gpuadvisor size --profile job.yaml -o json\n"
        "Exit 1 when the named hardware cannot run the workload.");
    registry.runners.push_back({size, [options, &global = registry.global](Io& io) {
                                    return run(*options, global, io);
                                }});
}

} // namespace gpuadvisor::cli
