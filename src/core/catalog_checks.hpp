// Merging decoded files into one catalog, and the checks that need the whole of it.
#pragma once

#include "catalog_decode.hpp"
#include "gpuadvisor/catalog_io.hpp"

#include <cstddef>
#include <vector>

namespace gpuadvisor {

// Merges fragments in overlay order (later wins on the same id), resolves inherited
// provenance and currency, resolves GPU references, and runs the plausibility checks.
// `base` (may be null) is an already built catalog the fragments are laid over. The instance
// types are merged on `threads` threads (0: one below 2048 instance types, else one per core
// up to 8); the catalog and the diagnostics, in order, are the same whatever the count.
Catalog merge_fragments(const Catalog* base,
                        std::vector<CatalogFragment> fragments,
                        const CheckOptions& options,
                        Diagnostics& diagnostics,
                        std::size_t threads = 0);

} // namespace gpuadvisor
