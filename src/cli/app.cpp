#include "app.hpp"

#include "exit_status.hpp"
#include "gpuadvisor/units.hpp"
#include "output.hpp"
#include "stage_clock.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <iostream>
#include <unistd.h>

namespace gpuadvisor::cli {

namespace {

constexpr std::string_view k_description =
    "gpuadvisor sizes GPU cloud configurations and advises on their cost.";
constexpr std::string_view k_footer = R"(Examples:
  gpuadvisor catalog list gpus
  gpuadvisor catalog list offers --gpu H100 --provider aws,gcp -o json
  gpuadvisor catalog show p4d.24xlarge
  gpuadvisor catalog validate my-prices.yaml --strict
  gpuadvisor size training --model llama-2-7b --tokens 1T --gpu H100-80GB --gpus 64
  gpuadvisor scaling --gpus 1,2,4,8 --throughput 100,190,360,640
  gpuadvisor price p4d.24xlarge --count 2 --months 12 --mix reserved-1y=0.5,on-demand=0.5
  gpuadvisor compare A100-80GB H100-80GB L40S
  gpuadvisor tco --instance p5.48xlarge --utilization 0.6 --years 3
  gpuadvisor recommend training --model llama-2-7b --tokens 1T --deadline 30d --timings

Environment: GPUADVISOR_CATALOG=path:path adds catalogs as --catalog does (before
them); GPUADVISOR_CACHE_DIR sets where large catalog files are cached (default
$XDG_CACHE_HOME/gpuadvisor, empty: no cache); NO_COLOR turns colour off.
Exit codes: 0 ok, 1 negative answer (validate found errors), 2 usage error,
3 input file error, 4 internal error. Docs: docs/cli.md)";

void add_global_options(CLI::App& app, GlobalOptions& global) {
    app.add_option("--catalog",
                   global.catalogs,
                   "Add a catalog file or folder over the built-in one (repeatable)")
        ->type_name("PATH");
    app.add_flag("--no-default-catalog",
                 global.no_default_catalog,
                 "Start from an empty catalog (only --catalog files)");
    app.add_flag("--no-cache",
                 global.no_cache,
                 "Parse every catalog file, neither reading nor writing the cache");
    app.add_option("-o,--format", global.format, "Output format (default: table)")
        ->check(one_of({"table", "json", "csv", "markdown"}))
        ->type_name("table|json|csv|markdown");
    app.add_option("--color", global.color, "Colour on a terminal; NO_COLOR is honoured")
        ->check(one_of({"auto", "always", "never"}))
        ->type_name("auto|always|never");
    app.add_option("--currency",
                   global.currency,
                   "Show prices in this currency (dated rates in data/fx.yaml)")
        ->type_name("USD|CNY|EUR|...");
    app.add_flag("-q,--quiet", global.quiet, "No notes on stderr");
    app.add_flag("--timings",
                 global.timings,
                 "Then a line on stderr: where the time went (catalog, plan, output)");
}

bool use_color(const GlobalOptions& global) {
    if (global.color == "always") {
        return true;
    }
    if (global.color == "never" || std::getenv("NO_COLOR") != nullptr) {
        return false;
    }
    const char* term = std::getenv("TERM");
    return ::isatty(STDOUT_FILENO) == 1 && term != nullptr && std::string_view(term) != "dumb";
}

// "gpuadvisor catalog list": the innermost command the arguments reached, for help hints.
std::string deepest_command(const CLI::App& app) {
    std::string path = app.get_name();
    const CLI::App* current = &app;
    while (true) {
        const auto parsed = current->get_subcommands();
        if (parsed.empty()) {
            return path;
        }
        current = parsed.front();
        path += " " + current->get_name();
    }
}

} // namespace

OutputFormat parse_output_format(std::string_view text) {
    if (text == "json") {
        return OutputFormat::json;
    }
    if (text == "csv") {
        return OutputFormat::csv;
    }
    if (text == "markdown") {
        return OutputFormat::markdown;
    }
    return OutputFormat::table;
}

CLI::Validator one_of(std::vector<std::string> values) {
    CLI::Validator validator = CLI::IsMember(std::move(values));
    validator.description("");
    return validator;
}

CLI::Validator whole_range(double min, double max) {
    return CLI::Validator(
        [min, max](std::string& text) -> std::string {
            // Digits only, checked here: CLI11's own conversion reads 0x10, +16, " 16", 016.
            const auto value =
                is_whole_number_text(text) ? parse_strict_number(text) : std::nullopt;
            if (!value || *value < min || *value > max) {
                return fmt::format("'{}' is not a whole number in [{} - {}]", text, min, max);
            }
            return {};
        },
        fmt::format("COUNT in [{} - {}]", min, max));
}

CLI::Validator finite_range(double min, double max) {
    return CLI::Validator(
        [min, max](std::string& text) -> std::string {
            // The documented form only (a plain decimal: 16, 0.5, 1e3), checked here: strtod
            // and CLI11's conversion also read 0x10, 0x1p4, +16, " 16", .5 and 016.
            const auto value = parse_strict_number(text);
            if (!value || *value < min || *value > max) {
                return fmt::format("'{}' is not a number in [{} - {}]", text, min, max);
            }
            return {};
        },
        fmt::format("NUMBER in [{} - {}]", min, max));
}

int run_app(int argc, char** argv, std::ostream& out, std::ostream& err) {
    CLI::App app{std::string(k_description), "gpuadvisor"};
    app.footer(std::string(k_footer));
    app.get_formatter()->column_width(28);
    app.set_version_flag("--version", GPUADVISOR_VERSION);
    app.require_subcommand(1);
    app.fallthrough();
    StageClock clock; // (read only with --timings)
    GlobalOptions global;
    add_global_options(app, global);

    std::vector<Runner> runners;
    const Registry registry{global, runners};
    CLI::App* catalog = app.add_subcommand("catalog", "List, show and validate the catalog");
    catalog->require_subcommand(1);
    catalog->footer("Example:\n  gpuadvisor catalog list instances --provider aws");
    register_catalog_list(*catalog, registry);
    register_catalog_show(*catalog, registry);
    register_catalog_validate(*catalog, registry);
    register_size(app, registry);
    register_scaling(app, registry);
    register_price(app, registry);
    register_compare(app, registry);
    register_tco(app, registry);
    register_recommend(app, registry);

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& error) {
        if (error.get_exit_code() == 0) {
            app.exit(error, out, err);
            return k_exit_ok;
        }
        Io io{out, err, parse_output_format(global.format), false, global.quiet};
        // The JSON names the command the arguments reached ("catalog list"), like a success.
        const std::string command = deepest_command(app);
        const std::string name = command == "gpuadvisor" ? command : command.substr(11);
        return fail(
            name, "usage", error.what(), fmt::format("run '{} --help'", command), k_exit_usage, io);
    }
    Io io{out,
          err,
          parse_output_format(global.format),
          use_color(global),
          global.quiet,
          global.timings ? &clock : nullptr};
    for (const Runner& runner : runners) {
        if (runner.app->parsed()) {
            const int status = runner.run(io);
            if (global.timings) {
                out.flush(); // the output's time is in the line
                err << clock.line() << '\n';
            }
            return status;
        }
    }
    return fail(
        "gpuadvisor", "usage", "no command given", "run 'gpuadvisor --help'", k_exit_usage, io);
}

} // namespace gpuadvisor::cli
