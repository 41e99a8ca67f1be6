// Laying a later file's instance type over an earlier definition of it (docs/catalog-format.md,
// "Merging overlays"): the later fields replace the earlier ones, the rows merge by region.
#pragma once

#include "catalog_decode.hpp"
#include "gpuadvisor/diagnostic.hpp"

#include <optional>
#include <string>

namespace gpuadvisor {

// An instance type as merged so far, with the file-level provider block it came with.
struct PendingInstance {
    InstanceInput input;
    ProvenanceInput file_provenance; // the file's provider block
    std::optional<std::string> file_currency;
};

// A built catalog's provenance, as if decoded with every field given.
ProvenanceInput as_input(const Provenance& provenance);

// `later` (a later file's definition) over `earlier`, into `earlier`: the later fields replace
// the earlier ones whole; a later row replaces the earlier row of its region whole (its prices
// go with their source), `remove: true` takes that row out, and the earlier file's other rows
// stay. Reported: every row taken out and every price a replacing row drops (info), and a
// `remove` that finds no row (warning).
void overlay_instance(PendingInstance& earlier, PendingInstance later, Diagnostics& diagnostics);

} // namespace gpuadvisor
