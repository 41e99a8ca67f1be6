// Rendering catalog listings (gpus, instances, offers; and what a user can name: models,
// regions, currencies, servers) in every output format.
#pragma once

#include "gpuadvisor/catalog.hpp"
#include "gpuadvisor/fx.hpp"
#include "gpuadvisor/models.hpp"
#include "gpuadvisor/tco.hpp"
#include "io.hpp"
#include "output.hpp"

#include <deque>
#include <functional>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

namespace gpuadvisor::cli {

Json gpu_json(const Gpu& gpu);
Json instance_json(const InstanceType& instance, const Catalog& catalog);
Json price_row_json(const PriceRow& row);

// "8x A100-40GB"; "0.25x T4" for a slice.
std::string gpus_text(const InstanceType& instance);
// "8x40=320" (per GPU x count = total GB).
std::string gpu_memory_text(const InstanceType& instance, const Gpu& gpu);
// The row with the lowest price by `price_of` (micros in the row's currency; nullopt: not
// priced there), compared in USD at `fx`'s rates; a row in a currency with no rate is taken
// only when no other row is priced.
const PriceRow*
cheapest_row(const InstanceType& instance,
             const FxTable& fx,
             const std::function<std::optional<std::int64_t>(const PriceRow&)>& price_of);
// The cheapest on-demand row, if any.
const PriceRow* cheapest_on_demand(const InstanceType& instance, const FxTable& fx);

void print_gpus(const std::vector<const Gpu*>& gpus, Io& io);
// The catalog's server CPUs (`upgrade`'s), per socket.
void print_cpus(const Catalog& catalog, Io& io);
// `currency` (empty: as listed): the cheapest on-demand price's.
void print_instances(const std::vector<const InstanceType*>& instances,
                     const Catalog& catalog,
                     const std::string& currency,
                     Io& io);
// What a listing of prices says besides them: the exchange rates its prices were converted at
// (--currency), and the rows it could not convert.
struct OffersNotes {
    std::vector<std::string> fx; // each rate in words, for tables
    std::vector<std::string> warnings;
    std::vector<std::string> converted_from{}; // the currencies converted from (for JSON)
    std::string converted_to{};
};
// The rows' prices in `currency`: each row in another currency is replaced by its converted copy
// (kept in `store`), each rate used named once in the notes; a row that does not convert stays
// as it is, counted by currency in a warning.
OffersNotes convert_rows(std::vector<const PriceRow*>& rows,
                         const std::string& currency,
                         const FxTable& fx,
                         std::deque<PriceRow>& store);
// The notes under a table ("Converted at ...", "Warning: ..."); with CSV and Markdown, whose
// output is the table alone, the warnings go to stderr (not with -q) and the rates are in the
// rows' currency column.
void print_notes(const OffersNotes& notes, Io& io);
void print_offers(const std::vector<Offer>& offers, const OffersNotes& notes, Io& io);
// print_offers' JSON: the document nlohmann's dump(2) gives for the notes and the offers as JSON
// objects (price_row_json's fields after provider, instance, gpu and gpu_count), written offer by
// offer without building them (offers_json.cpp).
void write_offers_json(const std::vector<Offer>& offers,
                       const OffersNotes& notes,
                       const FxTable& fx,
                       std::ostream& out);

// One region of a provider: from its region list (name, country) or only from its offers (the
// name empty), and how many offers of the listed instance types it has.
struct RegionListing {
    std::string provider;
    std::string id;
    std::string name;    // empty: not in the provider's region list
    std::string country; // ISO 3166 alpha-2; empty: not known
    std::size_t offers = 0;
};

// Each as given, in the order given (the caller sorts).
void print_models(const std::vector<const ModelSpec*>& models, Io& io);
void print_regions(const std::vector<RegionListing>& regions, Io& io);
// Each provider of `catalog` (those in `providers`; empty: all), by id, with its coverage: its
// instance types (all, priced), regions (listed, priced), offers, GPUs, plans, and the oldest
// and newest date of its prices (list_providers.cpp).
void list_providers(const Catalog& catalog, const std::set<std::string>& providers, Io& io);
void print_currencies(const std::vector<const FxRate*>& rates, Io& io);
// Servers with their price in --currency where it converts (the notes name the rates, as for
// offers).
void print_servers(const std::vector<Server>& servers, const OffersNotes& notes, Io& io);

} // namespace gpuadvisor::cli
