// gpuadvisor catalog diff OLD NEW [--provider P] [--threshold PCT [--direction up|down|both]]
#include "app.hpp"
#include "catalog_options.hpp"
#include "exit_status.hpp"
#include "gpuadvisor/spelling.hpp"
#include "output.hpp"
#include "render_diff.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <ostream>
#include <set>

namespace gpuadvisor::cli {

namespace {

constexpr std::string_view k_command = "catalog diff";
constexpr std::string_view k_builtin = "builtin";
constexpr std::string_view k_over_builtin = "builtin+";

struct Options {
    std::string old_path;
    std::string new_path;
    std::vector<std::string> providers;
    std::optional<double> threshold;
    std::string direction = "both";
};

// One side of the diff: the built-in catalog, or files loaded alone (or over the built-in one
// for "builtin+PATH"), as --catalog loads them.
struct Side {
    const Catalog* catalog = nullptr;
    std::unique_ptr<Catalog> loaded;
};

Side load_side(const std::string& operand,
               const GlobalOptions& global,
               Io& io,
               Diagnostics& problems) {
    Side side;
    if (operand == k_builtin) {
        side.catalog = &builtin_catalog();
        return side;
    }
    CatalogSources sources;
    sources.cache = catalog_sources(global).cache;
    sources.include_builtin = operand.starts_with(k_over_builtin);
    sources.paths = {sources.include_builtin ? operand.substr(k_over_builtin.size()) : operand};
    CheckOptions checks;
    checks.today = io.today;
    CatalogLoad load = load_catalog_timed(sources, checks, io);
    problems.append(load.diagnostics);
    side.loaded = std::make_unique<Catalog>(std::move(load.catalog));
    side.catalog = side.loaded.get();
    return side;
}

// A usage error for the global options that choose a catalog or convert prices: OLD and NEW
// name the catalogs, and prices are compared as they are written.
bool check_globals(const GlobalOptions& global, Io& io) {
    const char* flag = !global.catalogs.empty()    ? "--catalog"
                       : global.no_default_catalog ? "--no-default-catalog"
                       : !global.currency.empty()  ? "--currency"
                                                   : nullptr;
    if (flag == nullptr) {
        return true;
    }
    fail(k_command,
         "usage",
         fmt::format("{} does not apply to 'gpuadvisor catalog diff'", flag),
         "OLD and NEW name the catalogs (a file, a folder, 'builtin' or 'builtin+PATH'); "
         "prices are compared in the currency they are written in",
         k_exit_usage,
         io);
    return false;
}

// Keeps the instance types, offers and prices of these providers (GPUs are not a provider's).
void keep_providers(CatalogDiff& diff, const std::set<std::string>& providers) {
    if (providers.empty()) {
        return;
    }
    const auto other = [&](const DiffKey& key) {
        return !providers.contains(key.provider);
    };
    std::erase_if(diff.instances_added, other);
    std::erase_if(diff.instances_removed, other);
    std::erase_if(diff.offers_added, other);
    std::erase_if(diff.offers_removed, other);
    std::erase_if(diff.provenance_changes, other);
    std::erase_if(diff.price_changes, [&](const PriceChange& c) { return other(c.offer); });
    std::erase_if(diff.spec_changes,
                  [&](const SpecChange& c) { return c.kind == "instance" && other(c.item); });
}

// True when a file names a GPU its side does not define.
bool names_unknown_gpu(const Diagnostics& problems) {
    return std::any_of(problems.items().begin(), problems.items().end(), [](const Diagnostic& d) {
        return d.code == "unknown-gpu";
    });
}

int run(const Options& options, const GlobalOptions& global, Io& io) {
    if (!check_globals(global, io)) {
        return k_exit_usage;
    }
    if (options.threshold && *options.threshold <= 0) {
        return fail(k_command,
                    "usage",
                    fmt::format("--threshold: {} is not above 0", *options.threshold),
                    "give the percent a price may move, e.g. --threshold 5",
                    k_exit_usage,
                    io);
    }
    for (const auto& [name, operand] :
         {std::pair{"OLD", &options.old_path}, std::pair{"NEW", &options.new_path}}) {
        if (operand->empty() || *operand == k_over_builtin) {
            return fail(k_command,
                        "usage",
                        fmt::format("{}: '{}' names no catalog", name, *operand),
                        "give a file, a folder, 'builtin' or 'builtin+PATH'",
                        k_exit_usage,
                        io);
        }
    }
    Diagnostics problems;
    const Side old_side = load_side(options.old_path, global, io, problems);
    const Side new_side = load_side(options.new_path, global, io, problems);
    problems.sort();
    if (problems.has_errors()) {
        fail(k_command, problems, k_exit_input, io);
        if (!io.quiet && names_unknown_gpu(problems)) {
            io.err << "gpuadvisor: note: a file or folder is loaded alone, so it must define the "
                      "GPUs it names; 'builtin+PATH' lays PATH over the built-in catalog\n";
        }
        return k_exit_input;
    }
    if (problems.warning_count() > 0 && !io.quiet) {
        io.err << fmt::format("gpuadvisor: note: {} warning(s) in the catalog files; "
                              "'gpuadvisor catalog validate' shows them\n",
                              problems.warning_count());
    }
    const auto providers = check_providers(
        {&*old_side.catalog, &*new_side.catalog}, split_list(options.providers), k_command, io);
    if (!providers) {
        return k_exit_usage;
    }
    DiffReport report;
    report.old_name = options.old_path;
    report.new_name = options.new_path;
    report.providers = {providers->begin(), providers->end()};
    report.diff = diff(*old_side.catalog, *new_side.catalog);
    keep_providers(report.diff, *providers);
    report.threshold = options.threshold;
    report.direction = options.direction;
    mark_over_threshold(report);
    print_diff(report, io);
    return report.exceeded > 0 ? k_exit_negative : k_exit_ok;
}

} // namespace

void register_catalog_diff(CLI::App& catalog, Registry registry) {
    auto options = std::make_shared<Options>();
    CLI::App* command = catalog.add_subcommand(
        "diff", "Compare two catalogs: offers added and removed, price and spec changes");
    command
        ->add_option("OLD",
                     options->old_path,
                     "The old catalog: a file, a folder, 'builtin' or 'builtin+PATH'")
        ->required()
        ->type_name("PATH");
    command->add_option("NEW", options->new_path, "The new catalog, as OLD")
        ->required()
        ->type_name("PATH");
    command->add_option("--provider", options->providers, "Only these providers (aws,gcp,...)");
    command
        ->add_option(
            "--threshold", options->threshold, "Exit 1 when a price moved by more than PCT percent")
        ->check(finite_range(0, 1e6))
        ->type_name("PCT");
    command
        ->add_option("--direction",
                     options->direction,
                     "Which moves --threshold counts: up, down or both (default)")
        ->check(one_of({"up", "down", "both"}))
        ->type_name("up|down|both");
    command->footer(
        "Examples:\n  gpuadvisor catalog diff old-prices/ prices/\n"
        "  gpuadvisor catalog diff builtin builtin+prices/ --provider aws -o json\n"
        "  gpuadvisor catalog diff main-prices.yaml prices.yaml --threshold 5 --direction up\n"
        "OLD and NEW: a catalog file, a folder of *.yaml, 'builtin' (the built-in catalog),\n"
        "or 'builtin+PATH' (PATH over the built-in catalog). A file or folder is loaded alone.\n"
        "Exit 1 when --threshold is given and a price moved by more; 3 when a file is broken.");
    registry.runners.push_back({command, [options, &global = registry.global](Io& io) {
                                    return run(*options, global, io);
                                }});
}

} // namespace gpuadvisor::cli
