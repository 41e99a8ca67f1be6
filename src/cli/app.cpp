#include "app.hpp"

#include "catalog_options.hpp"
#include "exit_status.hpp"
#include "fx_options.hpp"
#include "gpuadvisor/spelling.hpp"
#include "gpuadvisor/units.hpp"
#include "output.hpp"
#include "render_report_html.hpp"
#include "render_validate.hpp"
#include "stage_clock.hpp"
#include "table_width.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <new>
#include <set>
#include <unistd.h>

namespace gpuadvisor::cli {

std::string command_path(const CLI::App& command) {
    std::string path = command.get_name();
    for (const CLI::App* parent = command.get_parent(); parent != nullptr;
         parent = parent->get_parent()) {
        path = parent->get_name() + " " + path;
    }
    return path;
}

bool is_old_spelling(const CLI::Option& option) {
    return option.get_description().starts_with(k_old_spelling_of);
}

namespace {

// The option an old spelling stands for (add_old_spelling names it in the description).
const CLI::Option* current_spelling(const CLI::App& command, const CLI::Option& old) {
    return command.get_option_no_throw(old.get_description().substr(k_old_spelling_of.size()));
}

} // namespace

std::string old_spelling_conflict(const CLI::App& command) {
    for (const CLI::Option* old : command.get_options()) {
        const CLI::Option* current =
            is_old_spelling(*old) && old->count() > 0 ? current_spelling(command, *old) : nullptr;
        if (current == nullptr) {
            continue;
        }
        const std::set<CLI::Option*> excluded = current->get_excludes(); // (a copy)
        std::vector<const CLI::Option*> refused(excluded.begin(), excluded.end());
        refused.insert(refused.begin(), current);
        for (const CLI::Option* other : refused) {
            if (other->count() > 0) {
                return fmt::format("{} excludes {}", old->get_name(), other->get_name());
            }
        }
    }
    return {};
}

std::vector<std::string> old_spelling_notes(const CLI::App& command) {
    std::vector<std::string> notes;
    for (const CLI::Option* option : command.get_options()) {
        if (is_old_spelling(*option) && option->count() > 0) {
            notes.push_back(
                fmt::format("'{}' is now '{}'; the old spelling goes in the next "
                            "release",
                            option->get_name(),
                            option->get_description().substr(k_old_spelling_of.size())));
        }
    }
    return notes;
}

bool is_listed(const CLI::App* command) {
    return !command->get_group().empty();
}

namespace {

constexpr std::string_view k_description =
    "gpuadvisor sizes GPU cloud configurations and advises on their cost.";
constexpr std::string_view k_footer = R"(Examples:
  gpuadvisor catalog list gpus
  gpuadvisor catalog list offers --gpu H100 --provider aws,gcp -o json
  gpuadvisor catalog show p4d.24xlarge
  gpuadvisor catalog validate my-prices.yaml --strict
  gpuadvisor catalog diff builtin builtin+my-prices.yaml --threshold 20
  gpuadvisor size training --model llama-2-7b --tokens 1T --gpu H100-80GB --gpus 64
  gpuadvisor scaling --gpus 1,2,4,8 --throughput 100,190,360,640
  gpuadvisor price p4d.24xlarge --instances 2 --months 12 --mix reserved-1y=0.5,on-demand=0.5
  gpuadvisor compare A100-80GB H100-80GB L40S
  gpuadvisor tco --instance p5.48xlarge --utilization 0.6 --years 3
  gpuadvisor recommend training --model llama-2-7b --tokens 1T --deadline 30d --timings
  gpuadvisor export kubernetes --workload training --model llama-2-7b --tokens 1T

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
    const auto formats = choices(k_output_format_names);
    app.add_option("-o,--format",
                   global.format,
                   "Output format (default: table; github, sarif, junit: catalog validate; html, "
                   "svg: recommend)")
        ->check(one_of(formats))
        ->type_name(choices_type(formats));
    app.add_option("--color", global.color, "Colour on a terminal; NO_COLOR is honoured")
        ->check(one_of({"auto", "always", "never"}))
        ->type_name("auto|always|never");
    app.add_option(
           "--currency",
           global.currency,
           "Show prices in this currency (dated rates: 'gpuadvisor catalog list currencies')")
        ->type_name("USD|CNY|EUR|...");
    app.add_option("--fx",
                   global.fx_files,
                   "Exchange rates of your own over the built-in ones: a YAML file of base: USD "
                   "and rates (currency, per_usd, as_of, source); repeatable")
        ->type_name("FILE");
    app.add_option("--fx-rate",
                   global.fx_rates,
                   "A rate of your own: units per US dollar, dated today unless @DATE is given "
                   "(repeatable, or comma-separated)")
        ->delimiter(',')
        ->type_name("EUR=0.92[@YYYY-MM-DD]");
    app.add_flag("-q,--quiet", global.quiet, "No notes on stderr");
    app.add_flag("--wide",
                 global.wide,
                 "Tables as wide as their rows (default: to COLUMNS or the terminal's width)");
    app.add_option("--today",
                   global.today,
                   "Give answers as on this date: prices' ages, discounts' expiry, validate's "
                   "date checks (default: GPUADVISOR_TODAY, SOURCE_DATE_EPOCH, else today, UTC)")
        ->type_name("YYYY-MM-DD");
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

// The innermost command the arguments reached: the program, "catalog", "catalog list", ...
const CLI::App& deepest_app(const CLI::App& app) {
    const CLI::App* current = &app;
    while (!current->get_subcommands().empty()) {
        current = current->get_subcommands().front();
    }
    return *current;
}

// What the JSON calls a command: "catalog list" (and "gpuadvisor" for the program).
std::string json_name(const std::string& path) {
    return path == "gpuadvisor" ? path : path.substr(std::string_view("gpuadvisor ").size());
}

// The command a JSON document names, in success and failure alike: the command's path, and for
// `catalog list` the kind listed when the arguments named a valid one ("catalog list gpus").
std::string json_command(const CLI::App& reached) {
    std::string name = json_name(command_path(reached));
    const CLI::Option* what = reached.get_option_no_throw("what");
    if (what != nullptr && what->count() == 1) {
        const std::string& kind = what->results().front();
        if (std::find(k_catalog_list_kinds.begin(), k_catalog_list_kinds.end(), kind) !=
            k_catalog_list_kinds.end()) {
            name += " " + kind;
        }
    }
    return name;
}

// The commands of a group (the program, "catalog"); none for a leaf command.
std::vector<std::string> command_names(const CLI::App& group) {
    std::vector<std::string> names;
    for (const CLI::App* command : group.get_subcommands(is_listed)) {
        names.push_back(command->get_name());
    }
    return names;
}

// A group reached without one of its commands: the first word left over that is not an
// option is the command the user meant ("recomend"), named with the nearest real ones.
int no_command(const CLI::App& app, const CLI::App& group, Io& io) {
    const std::string path = command_path(group);
    const std::vector<std::string> names = command_names(group);
    const std::string hint =
        fmt::format("commands: {}; run '{} --help'", fmt::join(names, ", "), path);
    const std::vector<std::string> left = app.remaining(true);
    const auto word = std::find_if(
        left.begin(), left.end(), [](const std::string& arg) { return !arg.starts_with('-'); });
    if (word == left.end()) {
        const std::string message =
            left.empty() ? "no command given"
                         : fmt::format("no command given, and '{}' is not an option of '{}'",
                                       left.front(),
                                       path);
        return fail(json_name(path), "usage", message, hint, k_exit_usage, io);
    }
    std::string message = fmt::format("'{}' is not a {} command", *word, path);
    const std::string nearest = did_you_mean(nearest_names(*word, names));
    if (!nearest.empty()) {
        message += "; " + nearest;
    }
    return fail(json_name(path), "unknown-command", message, hint, k_exit_usage, io);
}

// A command line CLI11 refused: exit 2, the message naming the command the arguments reached.
int usage_error(const CLI::App& app, const CLI::ParseError& error, Io& io) {
    const CLI::App& reached = deepest_app(app);
    if (dynamic_cast<const CLI::RequiredError*>(&error) != nullptr &&
        !command_names(reached).empty()) {
        return no_command(app, reached, io);
    }
    const std::string path = command_path(reached);
    const auto unknown = dynamic_cast<const CLI::ExtrasError*>(&error) != nullptr
                             ? unknown_option(app, reached)
                             : std::nullopt;
    return fail(json_command(reached),
                "usage",
                unknown ? *unknown : std::string(error.what()),
                fmt::format("run '{} --help'", path),
                k_exit_usage,
                io);
}

// The format that -o/--format asks for, read from the arguments as CLI11 reads them (the last
// one wins) but with no memory: for an exception thrown before they were parsed.
OutputFormat format_in_argv(int argc, char** argv) {
    OutputFormat format = OutputFormat::table;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--") {
            break;
        }
        if ((arg == "-o" || arg == "--format") && i + 1 < argc) {
            format = parse_output_format(argv[++i]);
        } else if (arg.starts_with("--format=")) {
            format = parse_output_format(arg.substr(std::string_view("--format=").size()));
        } else if (arg.starts_with("-o") && arg.size() > 2) {
            format = parse_output_format(arg.substr(2)); // "-ojson"
        }
    }
    return format;
}

// An exception out of a command (out of memory among them): exit 4 and, with -o json, the
// failure object all the same. Should reporting it fail too, fixed text that needs no memory.
int internal_error(const std::exception_ptr& thrown,
                   const std::string& command,
                   OutputFormat format,
                   std::ostream& out,
                   std::ostream& err) {
    std::string_view what = "an exception of unknown type";
    std::string_view hint = "a bug: please report it with the command line";
    try {
        std::rethrow_exception(thrown);
    } catch (const std::bad_alloc&) {
        what = "out of memory";
        hint = "the run needed more memory than it may use (ulimit -v, a container's limit); "
               "a smaller catalog needs less";
    } catch (const std::exception& error) {
        what = error.what(); // alive as long as `thrown`
    } catch (...) {
    }
    try {
        Io io{out, err, format};
        return fail(command,
                    "internal",
                    fmt::format("internal error: {}", what),
                    std::string(hint),
                    k_exit_internal,
                    io);
    } catch (...) {
        err << "gpuadvisor: error[internal]: internal error\n";
        if (format == OutputFormat::json) {
            out << R"({"schema_version": )" << k_json_schema_version << R"(, "command": ")"
                << command
                << R"(", "ok": false, "diagnostics": [{"file": "gpuadvisor", "line": null, )"
                << R"("column": null, "severity": "error", "code": "internal", )"
                << R"("message": "internal error", "hint": null}]})" << '\n';
        }
        return k_exit_internal;
    }
}

// The format a command writes: -o's; for `catalog validate` without -o in a GitHub Actions job
// (GITHUB_ACTIONS=true), workflow commands, as yamllint does.
OutputFormat command_format(const CLI::App& app, const GlobalOptions& global, bool validate) {
    const char* github_actions = std::getenv("GITHUB_ACTIONS");
    if (validate && app.get_option("--format")->count() == 0 && github_actions != nullptr &&
        std::string_view(github_actions) == "true") {
        return OutputFormat::github;
    }
    return parse_output_format(global.format);
}

// -o github, sarif or junit given to a command other than `catalog validate` (or html, svg to
// one other than `recommend`): a usage error.
int format_not_for(const CLI::App& reached, OutputFormat format, std::string_view owner, Io& io) {
    std::vector<std::string> general;
    for (const auto& entry : k_output_format_names) {
        if (!is_validate_only_format(entry.value) && !is_recommend_only_format(entry.value)) {
            general.emplace_back(entry.name);
        }
    }
    const std::string path = command_path(reached);
    return fail(json_command(reached),
                "usage",
                fmt::format("--format: '{}' is only for 'gpuadvisor {}'; '{}' writes {}",
                            name_of(k_output_format_names, format),
                            owner,
                            path,
                            choices_text(general)),
                fmt::format("run '{} --help'", path),
                k_exit_usage,
                io);
}

} // namespace

OutputFormat parse_output_format(std::string_view text) {
    return value_named(k_output_format_names, text).value_or(OutputFormat::table);
}

CLI::Validator one_of(std::vector<std::string> values) {
    return CLI::Validator(
        [values = std::move(values)](std::string& text) -> std::string {
            if (std::find(values.begin(), values.end(), text) != values.end()) {
                return {};
            }
            std::string message =
                fmt::format("'{}' is not one of {}", text, fmt::join(values, ", "));
            const std::string nearest = did_you_mean(nearest_names(text, values));
            return nearest.empty() ? message : message + "; " + nearest;
        },
        "");
}

std::string choices_type(const std::vector<std::string>& values) {
    return fmt::format("{}", fmt::join(values, "|"));
}

std::string choices_text(const std::vector<std::string>& values) {
    if (values.size() < 2) {
        return values.empty() ? std::string() : values.front();
    }
    return fmt::format(
        "{} or {}", fmt::join(values.begin(), std::prev(values.end()), ", "), values.back());
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

namespace {

// Parses the command line and runs the command; `command` follows the arguments as far as
// they reach, for the report of an exception.
int run_command(int argc,
                char** argv,
                GlobalOptions& global,
                std::string& command,
                std::ostream& out,
                std::ostream& err) {
    CLI::App app{std::string(k_description), "gpuadvisor"};
    app.footer(std::string(k_footer));
    app.formatter(std::make_shared<HelpFormatter>());
    app.get_formatter()->column_width(28);
    app.set_version_flag("--version", GPUADVISOR_VERSION);
    app.require_subcommand(1);
    app.fallthrough();
    StageClock clock; // (read only with --timings)
    add_global_options(app, global);

    std::vector<Runner> runners;
    const Registry registry{global, runners};
    CLI::App* catalog =
        app.add_subcommand("catalog", "List, show, validate, diff, import and fetch catalogs");
    catalog->require_subcommand(1);
    catalog->footer("Example:\n  gpuadvisor catalog list instances --provider aws");
    register_catalog_list(*catalog, registry);
    register_catalog_show(*catalog, registry);
    register_catalog_validate(*catalog, registry);
    register_catalog_diff(*catalog, registry);
    register_catalog_import(*catalog, registry);
    register_catalog_fetch(*catalog, registry);
    register_size(app, registry);
    register_scaling(app, registry);
    register_price(app, registry);
    register_compare(app, registry);
    register_tco(app, registry);
    register_recommend(app, registry);
    register_export(app, registry);
    register_upgrade(app, registry);
    std::vector<std::string> help_path;
    CLI::App* help = app.add_subcommand("help", "Help for a command (all of them: no command)");
    help->add_option("command", help_path, "The command, e.g. catalog list");
    help->footer("Example:\n  gpuadvisor help catalog list");
    CLI::App* version = app.add_subcommand(
        "version", "The version, the build's revision and the built-in prices' dates");
    version->footer("Example:\n  gpuadvisor version");
    register_generate(app, registry);
    add_global_options_footer(app);

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& error) {
        if (dynamic_cast<const CLI::CallForVersion*>(&error) != nullptr) {
            out << version_text() << '\n';
            return k_exit_ok;
        }
        if (error.get_exit_code() == 0) {
            app.exit(error, out, err);
            return k_exit_ok;
        }
        Io io{out, err, parse_output_format(global.format), false, global.quiet};
        return usage_error(app, error, io);
    }
    command = json_command(deepest_app(app));
    const bool validate = command == "catalog validate";
    Io io{out,
          err,
          command_format(app, global, validate),
          use_color(global),
          global.quiet,
          global.timings ? &clock : nullptr};
    io.width = table_width(global.wide);
    if (is_validate_only_format(io.format) && !validate) {
        return format_not_for(deepest_app(app), io.format, "catalog validate", io);
    }
    if (is_recommend_only_format(io.format) && command != "recommend") {
        return format_not_for(deepest_app(app), io.format, "recommend", io);
    }
    if (help->parsed()) {
        return run_help(app, help_path, io);
    }
    if (version->parsed()) {
        io.out << version_text() << '\n';
        return k_exit_ok;
    }
    const auto today = answer_date(global.today, command, io);
    if (!today) {
        return k_exit_usage;
    }
    io.today = *today;
    std::optional<FxTable> rates; // the user's over the built-in ones; none given: io.rates()
    if (!global.fx_files.empty() || !global.fx_rates.empty()) {
        int rates_failure = k_exit_ok;
        rates = load_rates(global.fx_files, global.fx_rates, command, rates_failure, io);
        if (!rates) {
            return rates_failure;
        }
        io.fx = &*rates;
    }
    for (const Runner& runner : runners) {
        if (runner.app->parsed()) {
            if (const std::string conflict = old_spelling_conflict(*runner.app);
                !conflict.empty()) {
                return fail(command,
                            "usage",
                            conflict,
                            fmt::format("run '{} --help'", command_path(*runner.app)),
                            k_exit_usage,
                            io);
            }
            for (const std::string& note : old_spelling_notes(*runner.app)) {
                if (!io.quiet) {
                    io.err << "gpuadvisor: note: " << note << '\n';
                }
            }
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

} // namespace

int run_app(int argc, char** argv, std::ostream& out, std::ostream& err) {
    GlobalOptions global; // outside the try: -o json holds for the report of an exception
    std::string command = "gpuadvisor";
    try {
        return run_command(argc, argv, global, command, out, err);
    } catch (...) {
        const OutputFormat format = global.format != "table" ? parse_output_format(global.format)
                                                             : format_in_argv(argc, argv);
        return internal_error(std::current_exception(), command, format, out, err);
    }
}

} // namespace gpuadvisor::cli
