// gpuadvisor catalog import FORMAT FILE... [--output-file PATH | --output-dir DIR]
#include "app.hpp"
#include "catalog_import.hpp"
#include "catalog_options.hpp"
#include "exit_status.hpp"
#include "gpuadvisor/catalog_io.hpp"
#include "output.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <map>
#include <memory>
#include <ostream>
#include <span>

namespace gpuadvisor::cli {

namespace {

// The formats: each one function from files to prices (catalog_import.hpp).
const std::map<std::string, Importer>& formats() {
    static const std::map<std::string, Importer> table{{"aws", import_aws},
                                                       {"azure", import_azure},
                                                       {"sheet", import_sheet},
                                                       {"skypilot", import_skypilot}};
    return table;
}

struct Options {
    std::string format;
    std::vector<std::string> files;
    ImportOutput output;
    std::string as_of;
};

// The overlay read as `catalog validate` reads it, over the active catalog: its diagnostics,
// a price row's moved to the entry the row came from.
void check_overlay(const Overlay& overlay, const Catalog& catalog, Date today, Diagnostics& out) {
    const NamedText text{fmt::format("{} overlay", overlay.provider), overlay.yaml};
    CheckOptions checks;
    checks.today = today;
    const CatalogLoad load = load_catalog_texts(std::span(&text, 1), checks, {}, &catalog);
    for (Diagnostic diagnostic : load.diagnostics.items()) {
        for (const auto& [line, origin] : overlay.row_origins) {
            if (diagnostic.pos.file == text.name && diagnostic.pos.line == line) {
                diagnostic.pos = origin;
                diagnostic.message = "in the overlay, " + diagnostic.message;
            }
        }
        out.add(std::move(diagnostic));
    }
}

bool write_file(const std::string& path, const std::string& text, Diagnostics& out) {
    if (!write_text_file(path, text)) {
        out.error({path, 0, 0}, "io", "cannot write the file", "check the folder exists");
        return false;
    }
    return true;
}

int write_overlays_out(std::string_view command,
                       const ImportOutput& options,
                       const std::vector<Overlay>& overlays,
                       Io& io) {
    Diagnostics failed;
    std::vector<std::string> written;
    if (!options.dir.empty()) {
        for (const Overlay& overlay : overlays) {
            const std::string path =
                (std::filesystem::path(options.dir) / (overlay.provider + ".yaml")).string();
            if (!write_file(path, overlay.yaml, failed)) {
                return fail(command, failed, k_exit_input, io);
            }
            written.push_back(path);
        }
    } else if (!options.file.empty()) {
        if (!write_file(options.file, overlays[0].yaml, failed)) {
            return fail(command, failed, k_exit_input, io);
        }
        written.push_back(options.file);
    } else {
        io.out << overlays[0].yaml;
    }
    if (!written.empty() && !io.quiet) {
        io.err << fmt::format("gpuadvisor: wrote {}\n", fmt::join(written, ", "));
    }
    return k_exit_ok;
}

int run(const Options& options, const GlobalOptions& global, Io& io) {
    if (io.format != OutputFormat::table) { // the output is YAML: -o has nothing to choose
        return refuse_output_format("catalog import", io);
    }
    std::optional<Date> as_of;
    if (!options.as_of.empty() && options.format == "sheet") {
        return fail("catalog import",
                    "usage",
                    "--as-of: a sheet's rows give their own as_of",
                    "leave --as-of out; it dates the files of feeds that carry no date (skypilot)",
                    k_exit_usage,
                    io);
    }
    if (!options.as_of.empty()) {
        as_of = parse_date(options.as_of);
        if (!as_of || io.today < *as_of) {
            return fail("catalog import",
                        "usage",
                        as_of ? fmt::format("--as-of: {} is after today ({})",
                                            options.as_of,
                                            format_date(io.today))
                              : fmt::format("--as-of: '{}' is not a date", options.as_of),
                        "YYYY-MM-DD: the day the files were fetched",
                        k_exit_usage,
                        io);
        }
    }
    const Catalog* catalog = load_active_catalog(global, "catalog import", io);
    if (catalog == nullptr) {
        return k_exit_input;
    }
    return import_and_write(
        "catalog import", options.format, options.files, options.output, *catalog, io, as_of);
}

} // namespace

bool has_import_format(std::string_view name) {
    return formats().contains(std::string(name));
}

int refuse_output_format(std::string_view command, Io& io) {
    Io plain = io;
    plain.format = OutputFormat::table;
    return fail(command,
                "usage",
                fmt::format("-o: {} writes a catalog overlay in YAML, in no other format", command),
                "leave -o out; --output-file PATH writes the overlay to a file",
                k_exit_usage,
                plain);
}

int import_and_write(std::string_view command,
                     const std::string& format,
                     const std::vector<std::string>& files,
                     const ImportOutput& output,
                     const Catalog& catalog,
                     Io& io,
                     std::optional<Date> as_of) {
    const ImportContext context{catalog, io.today, io.rates(), as_of};
    ImportResult result = formats().at(format)(files, context);
    std::vector<Overlay> overlays;
    if (!result.diagnostics.has_errors()) {
        overlays = write_overlays(result, catalog, result.diagnostics);
    }
    if (!result.diagnostics.has_errors() && overlays.empty()) {
        const bool sheet = format == "sheet";
        result.diagnostics.error({files.back(), 0, 0},
                                 "no-price",
                                 sheet ? "no price rows: the files hold a header only"
                                       : "no price rows: nothing in the files imports",
                                 sheet ? "add a row for each price"
                                       : "the lines above say which rows were left out and why");
    }
    if (!result.diagnostics.has_errors()) {
        for (const Overlay& overlay : overlays) {
            check_overlay(overlay, catalog, io.today, result.diagnostics);
        }
    }
    result.diagnostics.sort();
    if (result.diagnostics.has_errors()) {
        return fail(command, result.diagnostics, k_exit_input, io);
    }
    print_diagnostics(result.diagnostics, io); // warnings and info: the overlay is written
    if (overlays.size() > 1 && output.dir.empty()) {
        std::vector<std::string> providers;
        for (const Overlay& overlay : overlays) {
            providers.push_back(overlay.provider);
        }
        return fail(command,
                    "several-providers",
                    fmt::format("the prices are of {} providers ({}): an overlay is of one",
                                providers.size(),
                                fmt::join(providers, ", ")),
                    "add --output-dir DIR to write one file a provider (DIR/<provider>.yaml)",
                    k_exit_usage,
                    io);
    }
    return write_overlays_out(command, output, overlays, io);
}

void register_catalog_import(CLI::App& catalog, Registry registry) {
    auto options = std::make_shared<Options>();
    CLI::App* import = catalog.add_subcommand(
        "import", "Turn a price list in another format into a catalog overlay (YAML)");
    std::vector<std::string> names;
    for (const auto& [name, importer] : formats()) {
        names.push_back(name);
    }
    import
        ->add_option("format",
                     options->format,
                     "The input's format: sheet (a price-sheet CSV), skypilot (SkyPilot's "
                     "vms.csv catalogs), azure (Retail Prices API pages), aws (AWS Price List "
                     "EC2 offer file or get-products output)")
        ->required()
        ->check(one_of(names))
        ->type_name(choices_type(names));
    import->add_option("files", options->files, "The files to import")
        ->required()
        ->type_name("FILE...");
    auto* file = import
                     ->add_option("--output-file",
                                  options->output.file,
                                  "Write the overlay to this file (default: stdout)")
                     ->type_name("PATH");
    import
        ->add_option("--output-dir",
                     options->output.dir,
                     "Write one overlay a provider, DIR/<provider>.yaml (a sheet of several)")
        ->type_name("DIR")
        ->excludes(file);
    import
        ->add_option("--as-of",
                     options->as_of,
                     "The prices' date where the files give none (skypilot; default: each "
                     "file's modification day, UTC)")
        ->type_name("DATE");
    import->footer("Examples:\n  gpuadvisor catalog import sheet prices.csv > prices.yaml\n"
                   "  gpuadvisor catalog import sheet quotes/*.csv --output-dir overlays/\n"
                   "  gpuadvisor --catalog prices.yaml catalog show ecs.gn6i-c4g1.xlarge\n"
                   "  gpuadvisor catalog import azure pages/ --output-file azure-prices.yaml\n"
                   "  gpuadvisor catalog import skypilot ~/.sky/catalogs/v7 --output-dir "
                   "overlays/\n"
                   "  gpuadvisor catalog import aws us-east-1.json > aws-prices.yaml\n"
                   "The sheet's columns: provider,instance,region,plan,price,currency,as_of,source"
                   "[,notes][,confidence]\nskypilot reads <cloud>/vms.csv of aws, gcp and "
                   "azure (docs/cli.md, 'catalog import').");
    registry.runners.push_back({import, [options, &global = registry.global](Io& io) {
                                    return run(*options, global, io);
                                }});
}

} // namespace gpuadvisor::cli
