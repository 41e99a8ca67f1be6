// The built-in data, compiled in by tools/datagen.cpp at build time: the catalog in its
// binary form; models, assumptions, fx, pricing, tco and the rules as checked, parsed trees
// that the same decoders read at start-up.
#include "catalog/catalog_binary.hpp"
#include "catalog/catalog_cache.hpp"
#include "data/data_documents.hpp"
#include "gpuadvisor/assumptions.hpp"
#include "gpuadvisor/catalog_io.hpp"
#include "gpuadvisor/fx.hpp"
#include "gpuadvisor/models.hpp"
#include "gpuadvisor/pricing.hpp"
#include "gpuadvisor/rules.hpp"
#include "gpuadvisor/tco.hpp"
#include "pricing/pricing_documents.hpp"
#include "rules/rule_documents.hpp"
#include "util/content_hash.hpp"
#include "yaml/yaml_tree_binary.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace gpuadvisor {

// Generated: builtin_catalog_data.cpp and builtin_text_data.cpp.
std::string_view builtin_catalog_bytes();
std::string_view builtin_models_tree();
std::string_view builtin_assumptions_tree();
std::string_view builtin_fx_tree();
std::string_view builtin_pricing_tree();
std::string_view builtin_tco_tree();
std::string_view builtin_rules_tree();

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

std::string_view builtin_data_key() {
    static const std::string key = [] {
        Xxh64Stream hash;
        for (const std::string_view bytes : {builtin_catalog_bytes(),
                                             builtin_models_tree(),
                                             builtin_assumptions_tree(),
                                             builtin_fx_tree(),
                                             builtin_pricing_tree(),
                                             builtin_tco_tree(),
                                             builtin_rules_tree()}) {
            hash.update(fmt::format("{}\n", bytes.size())); // where each ends
            hash.update(bytes);
        }
        return fmt::format("builtin {:016x}", hash.digest());
    }();
    return key;
}

CatalogLoad
load_catalog(const CatalogSources& sources, const CheckOptions& checks, const LoadLimits& limits) {
    // The built-in base named by its data only when a set entry may be read or written.
    const std::string_view base = !sources.include_builtin    ? "none"
                                  : sources.cache.dir.empty() ? "builtin"
                                                              : builtin_data_key();
    CatalogLoad load = load_through_cache(sources.include_builtin ? &builtin_catalog() : nullptr,
                                          base,
                                          sources.paths,
                                          checks,
                                          limits,
                                          sources.cache);
    if (sources.include_builtin) {
        load.files.insert(load.files.begin(), "builtin:data/catalog");
    }
    return load;
}

namespace {

// A data file compiled in as text, loaded once; its errors were caught at build time, so one
// here means a corrupt binary.
template <class Load> auto checked(Load load, const char* file) {
    if (load.diagnostics.has_errors()) {
        throw std::logic_error(std::string("the built-in ") + file + " has errors");
    }
    return load;
}

// A data file's tree, parsed at build time.
YamlDocument compiled(std::string_view bytes) {
    auto document = deserialize_document(bytes);
    if (!document) {
        throw std::logic_error("a built-in data tree in this binary is corrupt");
    }
    return std::move(*document);
}

} // namespace

const ModelCatalog& builtin_models() {
    static const ModelCatalog catalog =
        checked(load_models_document(compiled(builtin_models_tree())), "data/models.yaml").catalog;
    return catalog;
}

const Assumptions& builtin_assumptions() {
    static const Assumptions assumptions =
        checked(load_assumptions_document(compiled(builtin_assumptions_tree())),
                "data/assumptions.yaml")
            .assumptions;
    return assumptions;
}

const FxTable& builtin_fx() {
    static const FxTable table =
        checked(load_fx_document(compiled(builtin_fx_tree())), "data/fx.yaml").table;
    return table;
}

const PricingData& builtin_pricing() {
    static const PricingData data =
        checked(load_pricing_data_document(compiled(builtin_pricing_tree())), "data/pricing.yaml")
            .data;
    return data;
}

const TcoData& builtin_tco() {
    static const TcoData data =
        checked(load_tco_document(compiled(builtin_tco_tree())), "data/tco.yaml").data;
    return data;
}

const std::vector<Rule>& builtin_rules() {
    static const std::vector<Rule> rules = [] {
        return checked(load_rule_document(compiled(builtin_rules_tree())),
                       "data/rules/selection.yaml")
            .rules;
    }();
    return rules;
}

} // namespace gpuadvisor
