// gpuadvisor catalog import FORMAT FILE...: price data in another format -> a catalog overlay.
// A format is one function (files -> price entries + diagnostics); writing the overlay is shared.
#pragma once

#include "gpuadvisor/catalog.hpp"
#include "gpuadvisor/diagnostic.hpp"
#include "gpuadvisor/fx.hpp"
#include "io.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuadvisor::cli {

// One price of one instance type in one region and plan, as a format read it. `provider` and
// `instance` are the catalog's own ids (the importer resolved them).
struct ImportedPrice {
    std::string provider;
    std::string instance;
    std::string region;
    Plan plan = Plan::on_demand;
    std::int64_t micros = 0;
    std::string currency;
    Date as_of;
    std::string source;
    std::string notes;
    Confidence confidence = Confidence::high;
    SourcePos pos; // where the entry starts (a sheet's row), for the overlay's diagnostics
};

struct ImportResult {
    std::vector<ImportedPrice> prices;
    // Instance types the feed defines and the active catalog lacks, with the feed's specs (its
    // GPU resolved to a catalog GPU id, `provenance` naming the feed). A price of an instance in
    // neither is the importer's error.
    std::vector<InstanceType> instances;
    // Regions the feed prices and the provider lacks (provider id, region), with the feed's name
    // and country: the overlay's provider block adds them.
    std::vector<std::pair<std::string, RegionInfo>> regions;
    Diagnostics diagnostics;
};

// What a format reads against: the active catalog (instance types must be in it), the day
// (prices may not be dated after it) and the rates (for the absurd-price bound); `as_of`, the
// user's date (--as-of) for a feed whose files carry none.
struct ImportContext {
    const Catalog& catalog;
    Date today;
    const FxTable& fx;
    std::optional<Date> as_of = std::nullopt;
};

using Importer =
    std::function<ImportResult(const std::vector<std::string>& files, const ImportContext&)>;

// The price-sheet CSV (docs/cli.md, "catalog import"): import_sheet.cpp.
ImportResult import_sheet(const std::vector<std::string>& files, const ImportContext& context);
// Azure Retail Prices API pages (docs/cli.md, "catalog import"): import_azure.cpp.
ImportResult import_azure(const std::vector<std::string>& files, const ImportContext& context);
// SkyPilot catalogs: ~/.sky/catalogs/v7, a <cloud>/ folder in it or vms.csv files:
// import_skypilot.cpp.
ImportResult import_skypilot(const std::vector<std::string>& paths, const ImportContext& context);
// AWS Price List EC2 offer files and get-products output, streamed: import_aws.cpp.
ImportResult import_aws(const std::vector<std::string>& files, const ImportContext& context);

// One overlay file: a provider's instance types with their imported price rows.
struct Overlay {
    std::string provider;
    std::string yaml;
    // For each YAML line that starts a price row, the entry it came from (1-based line -> pos).
    std::vector<std::pair<std::uint32_t, SourcePos>> row_origins;
};

// The prices grouped into one overlay per provider (sorted by provider, instance, region); rows
// of one (instance, region) that disagree on currency, as_of, source or confidence are errors.
// An instance type's specs come from the catalog, else from `imported.instances`; a provider's
// new regions (`imported.regions`) go in its provider block.
std::vector<Overlay>
write_overlays(const ImportResult& imported, const Catalog& catalog, Diagnostics& diagnostics);

// Whether this build has the format `name` (the table in cmd_catalog_import.cpp).
bool has_import_format(std::string_view name);

// Where an import's overlay goes: stdout (both empty), one file, or a folder (a file a provider).
struct ImportOutput {
    std::string file;
    std::string dir;
};

// The import `catalog import` and `catalog fetch` share: the files through the format (with
// `as_of`, --as-of, for a feed without dates), one overlay a provider, read back over the catalog
// and written; the diagnostics printed (errors: exit 3, nothing written). Returns the exit code.
int import_and_write(std::string_view command,
                     const std::string& format,
                     const std::vector<std::string>& files,
                     const ImportOutput& output,
                     const Catalog& catalog,
                     Io& io,
                     std::optional<Date> as_of = std::nullopt);

// -o given to a command whose output is YAML: a usage error (exit 2).
int refuse_output_format(std::string_view command, Io& io);

} // namespace gpuadvisor::cli
