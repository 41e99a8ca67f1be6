// What changed between two catalogs: instance types, GPUs and offers added or removed, prices
// changed per plan, specs changed. A pure function of the two catalogs.
#pragma once

#include "gpuadvisor/catalog.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpuadvisor {

// An instance type (region empty) or an offer: an instance type in a region.
struct DiffKey {
    std::string provider;
    std::string instance;
    std::string region;

    auto operator<=>(const DiffKey&) const = default;
};

enum class PriceChangeKind {
    changed,     // the same currency, another amount
    appeared,    // the plan is priced in NEW only (the offer is in both)
    disappeared, // the plan is priced in OLD only (the offer is in both)
    currency,    // the row's currency changed: no percentage across currencies
};
std::string_view to_string(PriceChangeKind kind);

struct PriceChange {
    DiffKey offer;
    Plan plan = Plan::on_demand;
    PriceChangeKind kind = PriceChangeKind::changed;
    std::string old_currency; // empty when the price appeared
    std::string new_currency; // empty when it disappeared
    std::optional<std::int64_t> old_micros;
    std::optional<std::int64_t> new_micros;

    // new - old, for `changed` only.
    std::optional<std::int64_t> delta_micros() const;
    // (new - old) / old * 100, for `changed` from a price above 0 only.
    std::optional<double> percent() const;
};

// A field of an instance type ("instance") or a GPU ("gpu") that differs; values as text
// (empty: not given).
struct SpecChange {
    std::string kind; // "instance" or "gpu"
    DiffKey item;     // a GPU: its id in `instance`, provider and region empty
    std::string field;
    std::string old_value;
    std::string new_value;
};

struct CatalogDiff {
    std::vector<std::string> gpus_added;
    std::vector<std::string> gpus_removed;
    std::vector<DiffKey> instances_added; // region empty
    std::vector<DiffKey> instances_removed;
    std::vector<DiffKey> offers_added; // of instance types in both catalogs
    std::vector<DiffKey> offers_removed;
    // Sorted by |percent| (descending; appeared, disappeared and currency changes last), then
    // by offer and plan.
    std::vector<PriceChange> price_changes;
    std::vector<SpecChange> spec_changes; // GPUs first, then instance types, by id and field
    // Offers in both whose rows' source, as_of, confidence or notes differ (their prices may
    // differ too), sorted: dates and sources are not price changes, but are counted.
    std::vector<DiffKey> provenance_changes;
};

// Everything that changed from `old_catalog` to `new_catalog`.
CatalogDiff diff(const Catalog& old_catalog, const Catalog& new_catalog);

} // namespace gpuadvisor
