// Laying a later file's instance type over an earlier definition of it (docs/catalog-format.md,
// "Merging overlays"): the later fields replace the earlier ones, the rows merge by region.
#pragma once

#include "catalog/catalog_decode.hpp"
#include "gpuadvisor/diagnostic.hpp"

#include <optional>
#include <string>

namespace gpuadvisor {

// A provider as merged up to some file: the source, date, confidence and currency the rows of
// that file inherit last. A later file's provider block does not reach them.
struct ProviderLevel {
    ProvenanceInput provenance;
    std::optional<std::string> currency;
};

// An instance type as merged so far, with the file-level provider block it came with and the
// provider as merged up to that file (null for a built catalog's, whose rows are resolved).
struct PendingInstance {
    InstanceInput input;
    ProvenanceInput file_provenance; // the file's provider block
    std::optional<std::string> file_currency;
    const ProviderLevel* provider = nullptr;
};

// A built catalog's provenance, as if decoded with every field given.
ProvenanceInput as_input(const Provenance& provenance);

// Fills what `own` does not give from `level` (source, as_of, confidence; notes are a row's
// own): resolve()'s rule, one level at a time, for rows kept as inputs.
void inherit_missing(ProvenanceInput& own, const ProvenanceInput& level);

// `later` (a later file's definition) over `earlier`, into `earlier`: the later fields replace
// the earlier ones whole; a later row replaces the earlier row of its region whole (its prices
// go with their source), `remove: true` takes that row out, and the earlier file's other rows
// stay, with what their own file gave them. Reported: every row taken out and every price a
// replacing row drops (info), and a `remove` that finds no row (warning) unless `earlier_flawed`
// (its definition had an error: reported already, and set aside).
void overlay_instance(PendingInstance& earlier,
                      PendingInstance later,
                      bool earlier_flawed,
                      Diagnostics& diagnostics);

} // namespace gpuadvisor
