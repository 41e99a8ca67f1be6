// The built-in catalog, compiled in by tools/datagen.cpp at build time.
#include "catalog_binary.hpp"
#include "gpuadvisor/catalog_io.hpp"

#include <stdexcept>

namespace gpuadvisor {

std::string_view builtin_catalog_bytes(); // generated: builtin_catalog_data.cpp

const Catalog& builtin_catalog() {
    static const Catalog catalog = [] {
        auto decoded = deserialize_catalog(builtin_catalog_bytes());
        if (!decoded) {
            throw std::logic_error("the built-in catalog in this binary is corrupt");
        }
        return std::move(*decoded);
    }();
    return catalog;
}

CatalogLoad
load_catalog(const CatalogSources& sources, const CheckOptions& checks, const LoadLimits& limits) {
    CatalogLoad load = load_catalog_over(
        sources.include_builtin ? &builtin_catalog() : nullptr, sources.paths, checks, limits);
    if (sources.include_builtin) {
        load.files.insert(load.files.begin(), "builtin:data/catalog");
    }
    return load;
}

} // namespace gpuadvisor
