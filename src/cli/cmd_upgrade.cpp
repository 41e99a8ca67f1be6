// gpuadvisor upgrade WORKLOAD --cpu MODEL[xN] [--cpu-hours H]: a CPU server against GPUs
#include "app.hpp"
#include "catalog_options.hpp"
#include "exit_status.hpp"
#include "gpuadvisor/recommend.hpp"
#include "gpuadvisor/spelling.hpp"
#include "output.hpp"
#include "upgrade.hpp"
#include "workload_options.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <memory>

namespace gpuadvisor::cli {

namespace {

struct Options {
    std::string kind;
    WorkloadFlags workload;
    std::string cpu;
    std::optional<double> cpu_hours;
    std::optional<double> cpu_cost_per_hour;
    std::vector<std::string> gpus;
    std::string instance;
    std::vector<std::string> providers;
    std::string pricing = "on-demand";
    int top = 3;
    double runs_per_month = 1;
    double migration_cost = 0;
};

std::optional<CpuRun>
run_on_cpu(const Options& o, const NormalizedWorkload& w, const CpuServer& s, Io& io) {
    const Assumptions& a = builtin_assumptions();
    CpuRun run;
    const double sockets = s.sockets;
    if (w.kind == WorkloadKind::hpc) {
        run.precision = "fp64";
        run.peak_tflops = s.cpu->fp64_tflops * sockets;
        run.efficiency = a.get("cpu_fp64_efficiency");
        run.sustained_tflops = hpc_rate(
            w, run.peak_tflops, run.efficiency, s.cpu->memory_bandwidth_gb_per_s * sockets);
        run.hours = *o.cpu_hours;
        run.measured = true;
        return run;
    }
    NormalizedWorkload on_cpu = w;
    on_cpu.precision = Precision::fp32; // AVX-512 FP32; AMX/BF16 not modelled
    const Gpu device = cpu_device(*s.cpu);
    Hardware hw{&device, s.sockets, s.sockets, true, 400, true};
    hw.compute_efficiency = a.get("cpu_training_efficiency");
    const Estimate e = estimate(on_cpu, hw, a);
    if (!e.fits || !(e.hours > 0)) {
        fail("upgrade",
             "no-fit",
             fmt::format("the job does not run on {} x {}: {}", s.sockets, s.cpu->id, e.fit_reason),
             "give more sockets (MODELxN) or a smaller job",
             k_exit_negative,
             io);
        return std::nullopt;
    }
    run.precision = "fp32";
    run.peak_tflops = s.cpu->fp32_tflops * sockets;
    run.efficiency = hw.compute_efficiency;
    run.model_hours = e.hours;
    run.hours = o.cpu_hours.value_or(e.hours);
    run.measured = o.cpu_hours.has_value();
    run.scale = run.hours / e.hours;
    return run;
}

// recommend's constraints; with --instance, that type's GPU and provider, every count ranked
// (the type's rows are picked from them afterwards).
std::optional<PlanConstraints>
constraints(const Options& o, const Catalog& catalog, const InstanceType*& instance, Io& io) {
    PlanConstraints c;
    const auto providers = check_providers({&catalog}, split_list(o.providers), "upgrade", io);
    const auto gpus = resolve_gpu_names(catalog, split_list(o.gpus), "upgrade", io);
    if (!providers || !gpus) {
        return std::nullopt;
    }
    c.providers.assign(providers->begin(), providers->end());
    c.gpus = *gpus;
    c.plan = parse_plan(o.pricing);
    c.top = static_cast<std::size_t>(o.top);
    if (!o.instance.empty()) {
        instance = resolve_instance(catalog,
                                    o.instance,
                                    c.providers.size() == 1 ? c.providers.front() : "",
                                    "--instance",
                                    "upgrade",
                                    io);
        if (instance == nullptr) {
            return std::nullopt;
        }
        c.providers = {instance->provider};
        c.gpus = {instance->gpu};
        c.top = 100000;
    }
    c.list_rejections = false;
    return c;
}

// The CPU server's cost per hour in `currency`: --cpu-cost-per-hour as given, or the per-socket
// assumption (USD) converted at the dated rate, which the basis names.
bool server_cost(
    const Options& o, const CpuServer& server, const std::string& currency, CpuRun& cpu, Io& io) {
    if (o.cpu_cost_per_hour) {
        cpu.cost_per_hour_micros = to_micros(*o.cpu_cost_per_hour);
        cpu.cost_basis = "--cpu-cost-per-hour";
        return true;
    }
    const double per_socket = builtin_assumptions().get("cpu_server_cost_per_socket_hour");
    const std::int64_t usd = to_micros(per_socket * server.sockets);
    const auto converted = io.rates().convert(usd, "USD", currency);
    if (!converted) {
        fail("upgrade",
             "no-rate",
             io.rates().conversion_error("the CPU server's cost", usd, "USD", currency),
             "give the server's cost in " + currency + " with --cpu-cost-per-hour",
             k_exit_input,
             io);
        return false;
    }
    cpu.cost_per_hour_micros = *converted;
    cpu.cost_basis = fmt::format("{} sockets x cpu_server_cost_per_socket_hour (USD {}, "
                                 "data/assumptions.yaml)",
                                 server.sockets,
                                 format_number(per_socket));
    if (currency != "USD") {
        cpu.cost_basis += "; " + io.rates().describe("USD", currency);
    }
    return true;
}

int run(Options o, const GlobalOptions& global, Io& io) {
    if (!o.kind.empty()) {
        o.workload.kind = o.kind;
    }
    if (!check_currency(global.currency, "upgrade", io)) {
        return k_exit_usage;
    }
    const std::string currency = global.currency.empty() ? "USD" : global.currency;
    const auto catalog = load_active_catalog(global, "upgrade", io);
    if (!catalog) {
        return k_exit_input;
    }
    const auto server = parse_cpu(*catalog, o.cpu, io);
    if (!server) {
        return k_exit_usage;
    }
    const bool hpc = o.workload.kind == "hpc";
    if (hpc && !o.cpu_hours) {
        return fail("upgrade",
                    "usage",
                    "--cpu-hours is required for hpc: the job's size is its time on the CPU",
                    "give the hours one run takes on the CPU server, e.g. --cpu-hours 72",
                    k_exit_usage,
                    io);
    }
    if (hpc) { // the code needs at least what it gets on the CPU, unless told
        const double rate = server->cpu->fp64_tflops * server->sockets *
                            builtin_assumptions().get("cpu_fp64_efficiency");
        for (std::size_t i = 0; i < k_workload_fields.size(); ++i) {
            if (k_workload_fields[i].key == "fp64_tflops" && o.workload.fields[i].text.empty()) {
                o.workload.fields[i].text = fmt::format("{:.3f}", rate);
            }
        }
    }
    int exit_code = k_exit_ok;
    const auto workload = read_workload(o.workload, "upgrade", io, exit_code);
    if (!workload) {
        return exit_code;
    }
    if (!is_finite_work(workload->kind) && workload->kind != WorkloadKind::hpc) {
        return fail("upgrade",
                    "usage",
                    "upgrade compares one finite job: training, finetune or hpc",
                    "size a service with 'gpuadvisor recommend'",
                    k_exit_usage,
                    io);
    }
    auto cpu = run_on_cpu(o, *workload, *server, io);
    const InstanceType* instance = nullptr;
    auto limits = cpu ? constraints(o, *catalog, instance, io) : std::nullopt;
    if (!cpu || !limits) {
        return cpu ? k_exit_usage : k_exit_negative;
    }
    limits->currency = currency;
    if (!server_cost(o, *server, currency, *cpu, io)) {
        return k_exit_input;
    }
    const RecommendOptions options{*limits, nullptr, &io.rates(), io.today};
    const Recommendation answer = recommend(*workload, options, *catalog);
    UpgradeReport report;
    report.currency = currency;
    report.workload = &answer.workload;
    report.server = *server;
    report.cpu = *cpu;
    report.runs_per_month = o.runs_per_month;
    report.migration_cost = o.migration_cost;
    for (const Candidate& c : answer.result.recommendations) {
        if (instance != nullptr && c.instance != instance) {
            continue;
        }
        if (report.gpus.size() == static_cast<std::size_t>(o.top)) {
            break;
        }
        report.gpus.push_back(
            run_on_gpus(answer.workload, *cpu, c, o.migration_cost, o.runs_per_month));
    }
    constexpr double k_hours_per_year = 8760;
    if (cpu->hours > k_hours_per_year) {
        report.notes.push_back(fmt::format("one run would take {:.1f} years on the CPU server: "
                                           "it is not a job for it, whatever the GPUs cost",
                                           cpu->hours / k_hours_per_year));
    }
    if (report.gpus.empty()) {
        report.notes.push_back(answer.result.no_fit.empty() ? "no GPU configuration runs it"
                                                            : answer.result.no_fit);
    }
    print_upgrade(report, io);
    return report.gpus.empty() ? k_exit_negative : k_exit_ok;
}

} // namespace

void register_upgrade(CLI::App& app, Registry registry) {
    auto options = std::make_shared<Options>();
    CLI::App* upgrade = app.add_subcommand(
        "upgrade", "Compare a CPU server with GPU instances for one job: time, speed-up, cost");
    upgrade->add_option("kind", options->kind, "training, finetune or hpc");
    add_workload_flags(*upgrade, options->workload);
    upgrade
        ->add_option("--cpu",
                     options->cpu,
                     "The CPU server: a CPU of the catalog, xN for N sockets (8380x2)")
        ->required();
    upgrade
        ->add_option("--cpu-hours",
                     options->cpu_hours,
                     "Your measured hours for one run on that server: sets the job's size")
        ->check(finite_range(0.001, 1e6));
    upgrade
        ->add_option("--cpu-cost-per-hour",
                     options->cpu_cost_per_hour,
                     "The CPU server's running cost per hour, in the output currency (default: "
                     "USD 0.70 per socket, converted)")
        ->check(finite_range(0, 1e6));
    auto* gpu = upgrade->add_option("--gpu", options->gpus, "GPUs to consider (A100, H100-80GB)");
    upgrade
        ->add_option("--instance",
                     options->instance,
                     "One instance type to run the job on (its counts recommend ranks)")
        ->excludes(gpu);
    upgrade->add_option("--provider", options->providers, "Providers to consider");
    upgrade->add_option("--pricing", options->pricing, "How GPU time is bought")
        ->check(one_of({"on-demand", "reserved-1y", "reserved-3y"}));
    upgrade->add_option("--top", options->top, "GPU configurations shown")
        ->check(whole_range(1, 20));
    upgrade->add_option("--runs-per-month", options->runs_per_month, "Runs of the job a month")
        ->check(finite_range(0.001, 1e6));
    upgrade
        ->add_option("--migration-cost",
                     options->migration_cost,
                     "One-off cost (output currency) of moving the job to GPUs (porting, "
                     "testing): payback")
        ->check(finite_range(0, 1e12));
    upgrade->footer(
        "Examples:\n"
        "  gpuadvisor upgrade training --model resnet-50 --tokens 115M --cpu 8380x2 --gpu V100\n"
        "  gpuadvisor upgrade hpc --cpu 8380x2 --cpu-hours 72 --gpu A100-80GB --fp64-tensor\n"
        "--cpu MODELxN: N sockets (8380x2 is one dual-socket server). The job is sized on them "
        "and on the recommended GPU configurations with the same engine; --cpu-hours, your "
        "measured time on the CPU, sets the job's size. Exit 1 when no GPU configuration runs "
        "it.");
    registry.runners.push_back({upgrade, [options, &global = registry.global](Io& io) {
                                    return run(*options, global, io);
                                }});
}

} // namespace gpuadvisor::cli
