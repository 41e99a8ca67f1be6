// gpuadvisor export prometheus|kubernetes|skypilot|dstack: operations files for a row of a
// recommendation, from recommend's flags or a `recommend -o json` file (docs/export.md).
#include "app.hpp"
#include "catalog_options.hpp"
#include "exit_status.hpp"
#include "export_source.hpp"
#include "output.hpp"
#include "recommend_flags.hpp"
#include "text.hpp"

#include <fmt/format.h>

#include <memory>

namespace gpuadvisor::cli {

namespace {

constexpr std::string_view k_command = "export";

struct Options {
    std::string kind;
    RecommendFlags flags;
    std::vector<const CLI::Option*> recommend_options; // what --from excludes
    std::string from;
    int rank = 1;
    std::string output_file;
    ExportPolicy policy;
    ExportRun run;
};

// A Kubernetes object name (RFC 1123 label): at most 63 of [a-z0-9-], alphanumeric at both ends.
CLI::Validator dns_label() {
    return CLI::Validator(
        [](std::string& text) -> std::string {
            const bool ok = !text.empty() && text.size() <= 63 &&
                            text.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") ==
                                std::string::npos &&
                            text.front() != '-' && text.back() != '-';
            return ok ? std::string()
                      : fmt::format("'{}' is not a name of at most 63 lower-case "
                                    "letters, digits and '-'",
                                    text);
        },
        "NAME");
}

void print_warnings(const PlanResult& result, Io& io) {
    if (io.quiet) {
        return;
    }
    for (const std::string& warning : result.warnings) {
        io.err << "gpuadvisor: warning: " << terminal_safe(warning) << '\n';
    }
}

// The row from the flags: the same answer `recommend` gives.
std::optional<ExportSource>
source_from_flags(const Options& o, const GlobalOptions& global, Io& io, int& exit_code) {
    RecommendFlags flags = o.flags;
    flags.top = o.rank;
    const auto planned = plan_recommendation(flags, global, k_command, io, exit_code);
    if (!planned) {
        return std::nullopt;
    }
    const PlanResult& result = planned->answer.result;
    print_warnings(result, io);
    if (result.recommendations.size() < static_cast<std::size_t>(o.rank)) {
        exit_code =
            fail(k_command,
                 "no-fit",
                 result.recommendations.empty() ? "no configuration fits the workload"
                                                : fmt::format("--rank {}: the answer has {} row(s)",
                                                              o.rank,
                                                              result.recommendations.size()),
                 "run 'gpuadvisor recommend' with the same flags to see why",
                 k_exit_negative,
                 io);
        return std::nullopt;
    }
    return export_source(result.recommendations[static_cast<std::size_t>(o.rank - 1)],
                         planned->answer.workload,
                         planned->constraints.currency);
}

std::optional<ExportSource>
source_from_file(const Options& o, const GlobalOptions& global, Io& io, int& exit_code) {
    for (const CLI::Option* option : o.recommend_options) {
        if (option->count() > 0) {
            exit_code = fail(
                k_command,
                "usage",
                fmt::format("--from excludes {}: the file holds the answer", option->get_name()),
                "leave the workload flags out, or --from out",
                k_exit_usage,
                io);
            return std::nullopt;
        }
    }
    Diagnostics diagnostics;
    auto source = read_recommendation(o.from, o.rank, diagnostics);
    exit_code = k_exit_input;
    if (!source) {
        fail(k_command, diagnostics, k_exit_input, io);
        return std::nullopt;
    }
    const Catalog* catalog = load_active_catalog(global, k_command, io);
    if (catalog == nullptr) {
        return std::nullopt;
    }
    if (const Gpu* gpu = catalog->find_gpu(source->gpu)) {
        source->gpu_memory_gb = gpu->memory_gb;
        source->gpu_vendor = gpu->vendor;
    }
    return source;
}

ExportText render(const Options& o, const ExportSource& source) {
    if (o.kind == "prometheus") {
        return render_prometheus(source, o.policy);
    }
    if (o.kind == "kubernetes") {
        return render_kubernetes(source, o.policy, o.run);
    }
    return o.kind == "skypilot" ? render_skypilot(source, o.policy, o.run)
                                : render_dstack(source, o.policy, o.run);
}

int run(Options o, const GlobalOptions& global, Io& io) {
    if (io.format != OutputFormat::table) { // the output is the KIND's own file
        Io plain = io;
        plain.format = OutputFormat::table;
        return fail(
            k_command,
            "usage",
            fmt::format("-o: export {} writes its own file (YAML), in no other format", o.kind),
            "leave -o out; --output-file PATH writes it to a file",
            k_exit_usage,
            plain);
    }
    int exit_code = k_exit_ok;
    const auto source = o.from.empty() ? source_from_flags(o, global, io, exit_code)
                                       : source_from_file(o, global, io, exit_code);
    if (!source) {
        return exit_code;
    }
    if (o.run.name.empty()) {
        o.run.name = "gpuadvisor-" + source->kind;
    }
    const ExportText text = render(o, *source);
    if (!text.error.empty()) {
        return fail(k_command, "cannot-export", text.error, text.hint, k_exit_negative, io);
    }
    if (o.output_file.empty()) {
        io.out << text.text;
        return k_exit_ok;
    }
    if (!write_text_file(o.output_file, text.text)) {
        Diagnostics failed;
        failed.error({o.output_file, 0, 0},
                     "io",
                     "cannot write the file",
                     "check the folder exists and is writable");
        return fail(k_command, failed, k_exit_input, io);
    }
    return k_exit_ok;
}

void add_export_flags(CLI::App& cmd, Options& o) {
    const auto source = "Source";
    cmd.add_option(
           "--from", o.from, "Export a row of this 'recommend -o json' file instead of planning")
        ->type_name("FILE")
        ->group(source);
    cmd.add_option("--rank", o.rank, "Export this row of the answer (default 1)")
        ->check(whole_range(1, 1000))
        ->group(source);
    cmd.add_option("--output-file", o.output_file, "Write the file here instead of stdout")
        ->type_name("PATH")
        ->group(source);
    const auto policy = "Policy (document 003's thresholds)";
    cmd.add_option("--temp-c", o.policy.temp_c, "Scale out above this GPU temperature (85)")
        ->check(finite_range(1, 150))
        ->group(policy);
    cmd.add_option(
           "--memory-percent", o.policy.memory_percent, "Scale out at this GPU memory use, % (90)")
        ->check(finite_range(1, 100))
        ->group(policy);
    cmd.add_option("--alert-minutes",
                   o.policy.alert_minutes,
                   "Scale out once a threshold has held this long (5)")
        ->check(whole_range(0, 1440))
        ->group(policy);
    cmd.add_option("--idle-percent",
                   o.policy.idle_percent,
                   "Release an instance below this GPU utilisation, % (15)")
        ->check(whole_range(1, 100))
        ->group(policy);
    cmd.add_option("--idle-minutes",
                   o.policy.idle_minutes,
                   "... once it has stayed below that this long (10)")
        ->check(whole_range(1, 1440))
        ->group(policy);
    const auto run = "Run (kubernetes, skypilot, dstack)";
    cmd.add_option("--name", o.run.name, "The job's name (default gpuadvisor-<workload>)")
        ->check(dns_label())
        ->group(run);
    cmd.add_option("--image",
                   o.run.image,
                   "The container image (default: nvcr.io/nvidia/pytorch:24.05-py3, or "
                   "rocm/pytorch:latest for AMD GPUs)")
        ->type_name("IMAGE")
        ->group(run);
    cmd.add_option("--command",
                   o.run.command,
                   "What runs, a shell line (default: the image's own; nvidia-smi, or rocm-smi "
                   "for AMD GPUs, for skypilot and dstack)")
        ->type_name("LINE")
        ->group(run);
    cmd.add_option("--port", o.run.port, "A service's port (inference, graphics; 8000)")
        ->check(whole_range(1, 65535))
        ->group(run);
}

} // namespace

void register_export(CLI::App& app, Registry registry) {
    auto o = std::make_shared<Options>();
    CLI::App* cmd = app.add_subcommand(
        "export", "Prometheus rules, a Kubernetes manifest, a SkyPilot or dstack file for a row");
    const std::vector<std::string> kinds{"prometheus", "kubernetes", "skypilot", "dstack"};
    cmd->add_option("kind", o->kind, "What to write")
        ->required()
        ->check(one_of(kinds))
        ->type_name(choices_type(kinds));
    const std::size_t before = cmd->get_options().size();
    add_recommend_flags(*cmd, o->flags, false);
    const std::vector<CLI::Option*> all = cmd->get_options();
    o->recommend_options.assign(all.begin() + static_cast<std::ptrdiff_t>(before), all.end());
    add_export_flags(*cmd, *o);
    cmd->footer(
        "Examples:\n"
        "  gpuadvisor export prometheus --workload training --model llama-2-7b --tokens 1T "
        "--deadline 30d\n"
        "  gpuadvisor export kubernetes --workload inference --model llama-2-7b --qps 20 "
        "--image vllm/vllm-openai:v0.6.3\n"
        "  gpuadvisor export skypilot --workload training --model llama-2-7b --tokens 1T "
        "--provider aws --rank 2\n"
        "  gpuadvisor recommend training --model llama-2-7b --tokens 1T -o json > answer.json\n"
        "  gpuadvisor export dstack --from answer.json --output-file train.dstack.yml\n"
        "Exit 1 when no row fits, or the row cannot be written as KIND (skypilot and dstack do "
        "not launch on Alibaba, Tencent or Huawei Cloud).");
    registry.runners.push_back({cmd, [o, &global = registry.global](Io& io) {
                                    return run(*o, global, io);
                                }});
}

} // namespace gpuadvisor::cli
