// gpuadvisor size WORKLOAD [--gpu ID --gpus N | --instance ID --instances N]
#include "app.hpp"
#include "catalog_options.hpp"
#include "data_options.hpp"
#include "exit_status.hpp"
#include "gpuadvisor/pricing.hpp"
#include "gpuadvisor/spelling.hpp"
#include "output.hpp"
#include "render_size.hpp"
#include "workload_options.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <memory>

namespace gpuadvisor::cli {

namespace {

// How `size` chose the count, for the hardware note.
std::string chosen_words(const NormalizedWorkload& w, const Estimate& e) {
    if (!e.fits) {
        return "; no count runs it (see the layout)";
    }
    if (!is_finite_work(w.kind)) {
        return "; count chosen as recommend does: the fewest that serve the workload";
    }
    if (!w.deadline_hours) {
        return "; count chosen as recommend does: the fewest that fit (give --deadline for a "
               "faster run)";
    }
    return e.hours <= *w.deadline_hours
               ? "; count chosen as recommend does: the fewest that meet the deadline"
               : "; no count meets the deadline: the fastest found";
}

struct Options {
    std::string kind; // positional shorthand for --workload
    WorkloadFlags workload;
    std::string gpu;
    double gpus = 0;
    std::string instance;
    std::string provider;
    double instances = 0;
    DataFlags data;
};

// The most GPUs `size` looks at when it chooses a count.
constexpr int k_size_max_gpus = 4096;

struct Sized {
    int units = 0; // instances, or GPUs
    Hardware hardware;
    Estimate estimate;
};

// The estimate on `count` units, memoised: the count search asks for some counts twice.
class EstimatesByCount {
  public:
    EstimatesByCount(const NormalizedWorkload& w, std::function<Hardware(int)> hardware)
        : m_w(w), m_hardware(std::move(hardware)) {}
    const Estimate& operator()(int count) {
        auto [at, added] = m_by_count.try_emplace(count);
        if (added) {
            at->second = estimate(m_w, m_hardware(count), builtin_assumptions());
        }
        return at->second;
    }
    Sized at(int count) { return {count, m_hardware(count), (*this)(count)}; }

  private:
    const NormalizedWorkload& m_w;
    std::function<Hardware(int)> m_hardware;
    std::map<int, Estimate> m_by_count;
};

// The count `recommend` would start from: the fewest units that meet the deadline (that run
// the workload when there is none); when none does, the estimate that says why.
Sized chosen_count(const NormalizedWorkload& w,
                   double gpus_per_unit,
                   EstimatesByCount& on,
                   std::string_view unit) {
    const int cap = std::max(1, static_cast<int>(k_size_max_gpus / gpus_per_unit));
    const CountSearch search = search_counts(w, gpus_per_unit, cap, std::ref(on));
    if (!search.counts.empty()) {
        return on.at(search.deadline_count);
    }
    if (search.why != nullptr) {
        Sized none = on.at(std::max(1, search.rejected_at));
        none.estimate = *search.why;
        return none;
    }
    Sized over = on.at(cap);
    over.estimate.fits = false;
    over.estimate.fit_reason = fmt::format("needs {} {}, more than the {} GPUs (or vGPU slices) "
                                           "size looks at",
                                           format_number(search.needed),
                                           unit,
                                           k_size_max_gpus);
    return over;
}

// Within one node that runs the workload: the fewest of its GPUs that do as well (fit; meet
// the deadline where the node meets it).
Sized fewest_in_node(const NormalizedWorkload& w,
                     const Sized& node,
                     int per_node,
                     EstimatesByCount& on_gpus) {
    const auto in_time = [&](const Estimate& e) {
        return !is_finite_work(w.kind) || !w.deadline_hours || e.hours <= *w.deadline_hours;
    };
    const bool node_in_time = in_time(node.estimate);
    for (int gpus = 1; gpus < per_node; ++gpus) {
        const Estimate& e = on_gpus(gpus);
        if (e.fits && (!node_in_time || in_time(e))) {
            return on_gpus.at(gpus);
        }
    }
    return node;
}

// The estimate on the hardware the flags name, on the count given or the count chosen;
// nullopt after printing a usage error.
std::optional<Sized> sized_on_named_hardware(const Options& o,
                                             const NormalizedWorkload& w,
                                             const Catalog& catalog,
                                             std::vector<std::string>& notes,
                                             Io& io) {
    if (!o.instance.empty()) {
        const InstanceType* found =
            resolve_instance(catalog, o.instance, o.provider, "--instance", "size", io);
        if (found == nullptr) {
            return std::nullopt;
        }
        const InstanceType& instance = *found;
        const Gpu& gpu = *catalog.find_gpu(instance.gpu);
        if (instance.gpu_count < 1 && w.kind != WorkloadKind::graphics) { // a vGPU slice
            fail("size",
                 "usage",
                 fmt::format("--instance: {} has {} of one {} (a vGPU slice); size estimates "
                             "this workload on whole GPUs",
                             instance.id,
                             format_number(instance.gpu_count),
                             instance.gpu),
                 fmt::format("name --gpu {} instead, or an instance with whole GPUs", instance.gpu),
                 k_exit_usage,
                 io);
            return std::nullopt;
        }
        EstimatesByCount on(w, [&](int n) { return hardware_of(instance, gpu, n); });
        const Sized sized =
            o.instances > 0
                ? on.at(static_cast<int>(o.instances))
                : chosen_count(w, instance.gpu_count < 1 ? 1 : instance.gpu_count, on, "instances");
        const Hardware& hw = sized.hardware;
        notes.push_back(fmt::format("hardware: {} x {} ({} {}): {} GPUs, {} Gbps{}{}",
                                    sized.units,
                                    instance.id,
                                    instance.provider,
                                    gpus_label(instance),
                                    hw.gpus,
                                    format_number(hw.network_gbps),
                                    hw.rdma ? " RDMA" : "",
                                    o.instances > 0 ? "" : chosen_words(w, sized.estimate)));
        return sized;
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
    const Gpu& gpu = *matches[0];
    // The node the GPUs are taken in and why, the same for every count (asked for on more GPUs
    // than a node holds, to get a whole one).
    std::string basis;
    const int per_node = hardware_for_gpu(catalog, gpu, k_size_max_gpus, basis).gpus_per_node;
    const auto gpus_of = [&catalog, &gpu](int n) {
        std::string same_basis;
        return hardware_for_gpu(catalog, gpu, n, same_basis);
    };
    EstimatesByCount on_gpus(w, gpus_of);
    Sized sized;
    if (o.gpus > 0) {
        sized = on_gpus.at(static_cast<int>(o.gpus));
    } else {
        // Whole nodes first; within one node, single GPUs.
        EstimatesByCount on_nodes(w, [&](int n) { return gpus_of(n * per_node); });
        sized = chosen_count(w, per_node, on_nodes, "nodes");
        if (sized.estimate.fits && sized.hardware.gpus == per_node) {
            sized = fewest_in_node(w, sized, per_node, on_gpus);
        }
    }
    notes.push_back(fmt::format("hardware: {} x {}; {} (name an --instance for another){}",
                                sized.hardware.gpus,
                                gpu.id,
                                basis,
                                o.gpus > 0 ? "" : chosen_words(w, sized.estimate)));
    return sized;
}

// --dataset-tb on the named instance: in the data's region when the provider is the same (size
// has no region), over the internet from another provider's; false after an error.
bool size_data(const Options& o, const Catalog& catalog, SizeReport& report, Io& io) {
    std::optional<DataMoveRequest> request;
    if (!read_data_flags(o.data, catalog, "size", io, request)) {
        return false;
    }
    if (!request) {
        return true;
    }
    const InstanceType* instance =
        resolve_instance(catalog, o.instance, o.provider, "--instance", "size", io);
    if (instance == nullptr) {
        return false;
    }
    const Estimate& e = *report.estimate;
    const double hours = is_finite_work(report.workload.kind) ? e.hours : k_hours_per_month;
    const std::string region = request->data_provider == instance->provider ? request->data_region
                               : instance->regions.empty()                  ? std::string()
                                                           : instance->regions[0].region.str();
    std::string error;
    const int instances =
        instance->gpu_count >= 1
            ? static_cast<int>(std::ceil(report.estimate_gpus / instance->gpu_count - 1e-9))
            : 1;
    report.data = data_move_for(
        *request, catalog.transfer(), *instance, region, instances, hours, "", io.rates(), error);
    report.data_request = request;
    if (!report.data) {
        fail("size", "no-price", "data: " + error, std::string(k_data_hint), k_exit_usage, io);
    }
    return report.data != nullptr;
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
    if (options.instance.empty() && options.data.dataset_tb) {
        return fail("size",
                    "usage",
                    "--dataset-tb: the transfer and storage are an instance's",
                    "name an --instance (its network and its provider's storage)",
                    k_exit_usage,
                    io);
    }
    if (!options.gpu.empty() || !options.instance.empty()) {
        const auto catalog = load_active_catalog(global, "size", io);
        if (!catalog) {
            return k_exit_input;
        }
        auto sized = sized_on_named_hardware(options, *workload, *catalog, report.notes, io);
        if (!sized) {
            return k_exit_usage;
        }
        report.estimate = std::move(sized->estimate);
        report.estimate_gpus = sized->hardware.gpus;
        report.estimate_gpu = sized->hardware.gpu->id;
        report.count_chosen = options.gpus == 0 && options.instances == 0;
        if (!size_data(options, *catalog, report, io)) {
            return k_exit_usage;
        }
    }
    print_size(report, io);
    return report.estimate && !report.estimate->fits ? k_exit_negative : k_exit_ok;
}

} // namespace

void register_size(CLI::App& app, Registry registry) {
    auto options = std::make_shared<Options>();
    CLI::App* size =
        app.add_subcommand("size", "What a workload needs; with hardware named, how it runs on it");
    const auto kinds = choices(k_workload_kind_names);
    size->add_option("kind", options->kind, "The workload kind (same as --workload)")
        ->check(one_of(kinds))
        ->type_name(choices_type(kinds));
    add_workload_flags(*size, options->workload);
    auto* gpu = size->add_option("--gpu", options->gpu, "Estimate on this GPU")->group("Hardware");
    size->add_option("--gpus",
                     options->gpus,
                     "... this many of them (default: the count recommend would choose)")
        ->check(whole_range(1, 1e6))
        ->group("Hardware");
    auto* instance = size->add_option("--instance",
                                      options->instance,
                                      "Estimate on this instance type (its GPUs, NVLink, fabric)")
                         ->group("Hardware");
    size->add_option("--instances",
                     options->instances,
                     "... this many of them (default: the count recommend would choose)")
        ->check(whole_range(1, 1e6))
        ->group("Hardware");
    size->add_option("--provider", options->provider, "The provider of --instance, if ambiguous")
        ->group("Hardware");
    gpu->excludes(instance);
    add_data_flags(*size, options->data);
    size->footer(
        "Examples:\n"
        "  gpuadvisor size training --model llama-2-7b --tokens 1T --gpu A100-80GB --gpus 64\n"
        "  gpuadvisor size training --model llama-2-70b --tokens 300B --deadline 60d --gpu "
        "H100-80GB\n"
        "  gpuadvisor size inference --model llama-2-13b --qps 20 --latency-ms 10000 --gpu L4\n"
        "  gpuadvisor size inference --model llama-2-70b --ttft-ms 2000 --tpot-ms 60 --gpu "
        "H100-80GB "
        "--gpus 8\n"
        "  gpuadvisor size finetune --model llama-2-13b --method qlora --lora-rank 64 --tokens "
        "100M\n"
        "  gpuadvisor size hpc --fp64-tflops 40 --memory-gb 200 --instance p4d.24xlarge\n"
        "  gpuadvisor size graphics --sessions 40 --memory-per-session-gb 6 --gpu RTX-A6000\n"
        "  gpuadvisor size training --model llama-2-7b --tokens 100B --instance p4d.24xlarge "
        "--dataset-tb 10 --data-region aws:us-east-1\n"
        "  gpuadvisor size --profile job.yaml -o json\n"
        "Exit 1 when the named hardware cannot run the workload.");
    registry.runners.push_back({size, [options, &global = registry.global](Io& io) {
                                    return run(*options, global, io);
                                }});
}

} // namespace gpuadvisor::cli
