// gpuadvisor catalog validate [PATH...] [--max-age-days N] [--strict] [-o json|github|sarif|junit]
#include "app.hpp"
#include "catalog_options.hpp"
#include "exit_status.hpp"
#include "gpuadvisor/rules.hpp"
#include "output.hpp"
#include "render_validate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <ostream>

namespace gpuadvisor::cli {

namespace {

struct Options {
    std::vector<std::string> paths;
    std::vector<std::string> rule_paths;
    std::optional<int> max_age_days;
    bool strict = false;
};

// The diagnostics about the files the paths name, and about the paths themselves (a folder
// that cannot be listed, an entry of it that is not a file).
Diagnostics only_files(const Diagnostics& all, const std::vector<std::string>& paths) {
    Diagnostics listing;
    std::vector<std::string> files = list_catalog_files(paths, &listing);
    for (const Diagnostic& diagnostic : listing.items()) {
        files.push_back(diagnostic.pos.file.str());
    }
    Diagnostics kept;
    for (const Diagnostic& diagnostic : all.items()) {
        if (std::find(files.begin(), files.end(), diagnostic.pos.file) != files.end()) {
            kept.add(diagnostic);
        }
    }
    return kept;
}

int run(const Options& options, const GlobalOptions& global, Io& io) {
    // Named files are laid over the active catalog (so their references resolve), and only
    // their own diagnostics are reported.
    CatalogSources sources = catalog_sources(global);
    sources.paths.insert(sources.paths.end(), options.paths.begin(), options.paths.end());
    CheckOptions checks;
    checks.max_age_days = options.max_age_days;
    checks.today = io.today;
    CatalogLoad load = load_catalog_timed(sources, checks, io);
    const bool only_rules = options.paths.empty() && !options.rule_paths.empty();
    Diagnostics diagnostics = options.paths.empty() && !only_rules
                                  ? load.diagnostics
                                  : only_files(load.diagnostics, options.paths);
    std::vector<std::string> files = load.files;
    if (!options.paths.empty() || only_rules) {
        files = list_catalog_files(options.paths);
    }
    if (!options.rule_paths.empty()) { // rule files, checked against the catalog above
        RuleLoad rules = load_rule_files(options.rule_paths);
        check_rule_names(rules.rules, load.catalog, rules.diagnostics);
        diagnostics.append(rules.diagnostics);
        diagnostics.sort();
        files.insert(files.end(), rules.files.begin(), rules.files.end());
    }
    const std::size_t errors =
        diagnostics.error_count() + (options.strict ? diagnostics.warning_count() : 0);
    const bool valid = errors == 0;
    const bool unreadable = std::any_of(diagnostics.items().begin(),
                                        diagnostics.items().end(),
                                        [](const Diagnostic& d) { return d.code == "io"; });
    print_diagnostics(diagnostics, io);
    if (io.format == OutputFormat::json) {
        Json document = json_document("catalog validate");
        document["ok"] = valid && !unreadable; // as the exit code: 0 only then
        document["valid"] = valid;
        document["errors"] = diagnostics.error_count();
        document["warnings"] = diagnostics.warning_count();
        document["info"] = diagnostics.info_count();
        document["strict"] = options.strict;
        document["files"] = files;
        document["diagnostics"] = diagnostics_json(diagnostics);
        write_json(document, io);
    } else if (io.format == OutputFormat::sarif) {
        write_sarif(diagnostics, io);
    } else if (io.format == OutputFormat::junit) {
        write_junit(diagnostics, files, options.strict, io);
    } else {
        if (io.format == OutputFormat::github) {
            write_github(diagnostics, io); // then the summary, as in a table
        }
        const Catalog& catalog = load.catalog;
        io.out << fmt::format(
            "{}: {} file(s), {} GPUs, {} instance types, {} offers; {} "
            "error(s), {} warning(s){}{}\n",
            valid ? "valid" : "invalid",
            files.size(),
            catalog.gpus().size(),
            catalog.instances().size(),
            catalog.offer_count(),
            diagnostics.error_count(),
            diagnostics.warning_count(),
            diagnostics.info_count() > 0 ? fmt::format(", {} info", diagnostics.info_count()) : "",
            options.strict && diagnostics.warning_count() > 0
                ? " (--strict: warnings count as errors)"
                : "");
    }
    keep_for_the_process(std::move(load.catalog)); // not freed: the process is ending
    return unreadable ? k_exit_input : valid ? k_exit_ok : k_exit_negative;
}

} // namespace

void register_catalog_validate(CLI::App& catalog, Registry registry) {
    auto options = std::make_shared<Options>();
    CLI::App* validate = catalog.add_subcommand(
        "validate", "Check catalog files (default: the active catalog); exit 1 on errors");
    validate
        ->add_option(
            "paths", options->paths, "Files or folders to check, on top of the built-in catalog")
        ->type_name("PATH...");
    validate
        ->add_option("--max-age-days", options->max_age_days, "Warn about prices older than N days")
        ->check(whole_range(0, 36500));
    validate->add_flag("--strict", options->strict, "Warnings count as errors");
    validate->add_option("--rules", options->rule_paths, "Rule files or folders to check too")
        ->type_name("PATH");
    validate->footer("Examples:\n  gpuadvisor catalog validate\n"
                     "  gpuadvisor catalog validate prices/ --strict --max-age-days 180 -o json\n"
                     "  gpuadvisor catalog validate --rules policy/rules.yaml\n"
                     "  gpuadvisor catalog validate prices/ -o sarif > validate.sarif\n"
                     "-o also takes github (workflow commands; the default when "
                     "GITHUB_ACTIONS=true),\nsarif (SARIF 2.1.0) and junit (JUnit XML).");
    registry.runners.push_back({validate, [options, &global = registry.global](Io& io) {
                                    return run(*options, global, io);
                                }});
}

} // namespace gpuadvisor::cli
