// gpuadvisor scaling --gpu-counts 1,2,4,8 --throughput 100,190,360,640
#include "app.hpp"
#include "catalog_options.hpp"
#include "data_table.hpp"
#include "exit_status.hpp"
#include "gpuadvisor/sizing.hpp"
#include "output.hpp"
#include "render_table.hpp"

#include <fmt/format.h>

#include <cmath>
#include <memory>

namespace gpuadvisor::cli {

namespace {

struct Options {
    std::vector<std::string> gpus;
    std::vector<std::string> throughput;
    double threshold = 0.8;
};

// Positive finite numbers from a comma list; nullopt after a usage error.
std::optional<std::vector<double>>
numbers(const std::vector<std::string>& values, std::string_view flag, Io& io) {
    std::vector<double> result;
    for (const std::string& item : split_list(values)) {
        const auto value = parse_strict_number(item);
        if (!value || !(*value > 0) || *value > 1e15) {
            fail("scaling",
                 "usage",
                 fmt::format("{}: '{}' is not a positive number", flag, item),
                 "give a comma-separated list such as 1,2,4,8",
                 k_exit_usage,
                 io);
            return std::nullopt;
        }
        result.push_back(*value);
    }
    return result;
}

int run(const Options& options, Io& io) {
    if (options.gpus.empty()) { // --gpu-counts, required, or its old spelling --gpus
        return fail("scaling",
                    "usage",
                    "--gpu-counts is required",
                    "run 'gpuadvisor scaling --help'",
                    k_exit_usage,
                    io);
    }
    const auto gpus = numbers(options.gpus, "--gpu-counts", io);
    const auto throughput = gpus ? numbers(options.throughput, "--throughput", io) : std::nullopt;
    if (!gpus || !throughput) {
        return k_exit_usage;
    }
    if (gpus->size() != throughput->size() || gpus->size() < 2) {
        return fail("scaling",
                    "usage",
                    fmt::format("--gpu-counts has {} values and --throughput {}",
                                gpus->size(),
                                throughput->size()),
                    "give the same number of values, at least two",
                    k_exit_usage,
                    io);
    }
    const ScalingReport report = scaling_report(*gpus, *throughput, options.threshold);
    Json steps = Json::array();
    for (const ScalingStep& step : report.steps) {
        steps.push_back({{"gpus", count_json(step.gpus)},
                         {"throughput", step.throughput},
                         {"speedup", std::round(step.speedup * 1000) / 1000},
                         {"scaling_ratio", std::round(step.ratio * 1000) / 1000},
                         {"meets_threshold", step.ok}});
    }
    if (io.format == OutputFormat::json) {
        Json document = json_document("scaling");
        document["threshold"] = report.threshold;
        document["meets_threshold"] = report.ok; // "ok" says the command answered
        document["steps"] = std::move(steps);
        document["remedies"] = report.remedies;
        write_json(document, io);
        return k_exit_ok;
    }
    if (io.format != OutputFormat::table) { // the steps as data; the remedies are the JSON's
        render_table(data_table(key_columns(steps), steps), io);
        return k_exit_ok;
    }
    Table table{{{"GPUS", Align::right},
                 {"THROUGHPUT", Align::right},
                 {"SPEEDUP", Align::right},
                 {"RATIO", Align::right},
                 {"VERDICT", Align::left, true}},
                {}};
    for (const ScalingStep& step : report.steps) {
        table.rows.push_back(
            {format_number(step.gpus),
             format_number(step.throughput),
             fmt::format("{:.2f}", step.speedup),
             fmt::format("{:.3f}", step.ratio),
             step.ok ? "ok" : fmt::format("below {}", format_number(report.threshold))});
    }
    render_table(table, io);
    io.out << (report.ok ? fmt::format("\nScaling holds: every ratio is at least {}.\n",
                                       format_number(report.threshold))
                         : fmt::format("\nScaling falls below {}. Remedies:\n",
                                       format_number(report.threshold)));
    for (const std::string& remedy : report.remedies) {
        io.out << "  - " << remedy << '\n';
    }
    return k_exit_ok;
}

} // namespace

void register_scaling(CLI::App& app, Registry registry) {
    auto options = std::make_shared<Options>();
    CLI::App* scaling = app.add_subcommand(
        "scaling", "Linear scaling ratio of measured runs, against the 0.8 rule of thumb");
    auto* counts =
        scaling->add_option("--gpu-counts", options->gpus, "GPU counts of the runs (1,2,4,8)");
    add_old_spelling(*scaling, counts, "--gpus", options->gpus); // (run checks one is given)
    scaling
        ->add_option("--throughput",
                     options->throughput,
                     "Measured throughput of each run, any unit (100,190,360,640)")
        ->required();
    scaling->add_option("--threshold", options->threshold, "The ratio below which to warn")
        ->check(finite_range(0.01, 1));
    scaling->footer(
        "Example:\n  gpuadvisor scaling --gpu-counts 1,2,4,8 --throughput 100,190,360,640\n"
        "Ratio = speedup / (GPUs / first GPUs); below the threshold the table says "
        "so and lists remedies.");
    registry.runners.push_back({scaling, [options](Io& io) {
                                    return run(*options, io);
                                }});
}

} // namespace gpuadvisor::cli
