#include "catalog/catalog_overlay.hpp"

#include "gpuadvisor/spelling.hpp"
#include "gpuadvisor/units.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace gpuadvisor {

ProvenanceInput as_input(const Provenance& provenance) {
    return {provenance.source, provenance.as_of, provenance.confidence, provenance.notes, {}};
}

void inherit_missing(ProvenanceInput& own, const ProvenanceInput& level) {
    own.source = own.source ? own.source : level.source;
    own.as_of = own.as_of ? own.as_of : level.as_of;
    own.confidence = own.confidence ? own.confidence : level.confidence;
}

namespace {

// The earlier definition's rows, each with what its file gave it applied (a later file's
// levels must not reach them): the rows of a built catalog as they are, a file's with its
// instance type's, its provider block's and its provider's (as merged up to that file) source,
// date, confidence and currency.
std::vector<PriceRowInput> settled_rows(PendingInstance& earlier) {
    std::vector<PriceRowInput> rows;
    rows.reserve(earlier.input.instance.regions.size() + earlier.input.rows.size());
    for (PriceRow& row : earlier.input.instance.regions) { // resolved already
        std::string currency = row.currency;
        ProvenanceInput provenance = as_input(row.provenance);
        rows.push_back({std::move(row), std::move(currency), std::move(provenance), false, true});
    }
    const ProviderLevel none;
    const ProviderLevel& provider = earlier.provider != nullptr ? *earlier.provider : none;
    for (PriceRowInput& row : earlier.input.rows) {
        if (!row.settled) {
            row.currency = row.currency            ? row.currency
                           : earlier.file_currency ? earlier.file_currency
                                                   : provider.currency;
            for (const ProvenanceInput* level : std::initializer_list<const ProvenanceInput*>{
                     &earlier.input.provenance, &earlier.file_provenance, &provider.provenance}) {
                inherit_missing(row.provenance, *level);
            }
            row.settled = true;
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

// "on_demand 32.7726, spot 9.83 USD": the prices of a row, for a message.
std::string prices_text(const PriceRowInput& row) {
    std::vector<std::string> prices;
    for (const Plan plan : k_all_plans) {
        if (const auto& price = row.row.price(plan)) {
            prices.push_back(fmt::format("{} {}", to_string(plan), format_micros(*price)));
        }
    }
    return fmt::format("{}{}", fmt::join(prices, ", "), row.currency ? " " + *row.currency : "");
}

std::string where(const PriceRow& row) {
    return fmt::format("{}:{}", row.origin.file.str(), row.origin.line);
}

// What replacing `old` with `row` drops: the plans `old` prices and `row` does not.
void report_dropped(const std::string& path,
                    const PriceRowInput& old,
                    const PriceRowInput& row,
                    Diagnostics& diagnostics) {
    std::vector<std::string> dropped;
    for (const Plan plan : k_all_plans) {
        if (old.row.price(plan) && !row.row.price(plan)) {
            dropped.push_back(
                fmt::format("{} {}", to_string(plan), format_micros(*old.row.price(plan))));
        }
    }
    if (!dropped.empty()) {
        diagnostics.info(row.row.origin,
                         "dropped-price",
                         fmt::format("{}: this row replaces the one at {} whole, so its {}{} "
                                     "is no longer in the catalog",
                                     path,
                                     where(old.row),
                                     fmt::join(dropped, ", "),
                                     old.currency ? " " + *old.currency : ""),
                         "give it in this row too to keep it (a row's prices go with its source)");
    }
}

} // namespace

void overlay_instance(PendingInstance& earlier,
                      PendingInstance later,
                      bool earlier_flawed,
                      Diagnostics& diagnostics) {
    std::vector<PriceRowInput> rows = settled_rows(earlier);
    std::vector<std::string> regions; // rows[i]'s region in lower case: regions ignore case
    for (const PriceRowInput& row : rows) {
        regions.push_back(to_lower(row.row.region));
    }
    const std::string path = fmt::format("instances[{}]", later.input.instance.id);
    for (PriceRowInput& row : later.input.rows) {
        const auto at = std::find(regions.begin(), regions.end(), to_lower(row.row.region));
        const auto old = rows.begin() + (at - regions.begin());
        const std::string row_path = fmt::format("{}.regions[{}]", path, row.row.region.str());
        if (old == rows.end()) {
            if (row.remove && !earlier_flawed) {
                diagnostics.warning(row.row.origin,
                                    "nothing-to-remove",
                                    fmt::format("{}: no earlier row for region '{}' to remove",
                                                row_path,
                                                row.row.region.str()),
                                    "check the region's spelling against 'gpuadvisor catalog "
                                    "show " +
                                        later.input.instance.id + "'");
            } else if (!row.remove) {
                regions.push_back(to_lower(row.row.region));
                rows.push_back(std::move(row));
            }
            continue;
        }
        if (row.remove) {
            diagnostics.info(
                row.row.origin,
                "removed-row",
                fmt::format(
                    "{}: removes the row at {} ({})", row_path, where(old->row), prices_text(*old)),
                "");
            rows.erase(old);
            regions.erase(at);
            continue;
        }
        report_dropped(row_path, *old, row, diagnostics);
        *old = std::move(row);
    }
    later.input.rows = std::move(rows);
    later.input.instance.regions.clear();
    earlier = std::move(later);
}

} // namespace gpuadvisor
