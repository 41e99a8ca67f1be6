// The built-in data, compiled in by tools/datagen.cpp at build time: the catalog in its
// binary form; models, assumptions, fx, pricing, tco and the rules as their checked text,
// read at start-up by the same loaders as a user's files.
#include "catalog/catalog_binary.hpp"
#include "catalog/catalog_cache.hpp"
#include "gpuadvisor/assumptions.hpp"
#include "gpuadvisor/catalog_io.hpp"
#include "gpuadvisor/fx.hpp"
#include "gpuadvisor/models.hpp"
#include "gpuadvisor/pricing.hpp"
#include "gpuadvisor/rules.hpp"
#include "gpuadvisor/tco.hpp"
#include "util/content_hash.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace gpuadvisor {

// Generated: builtin_catalog_data.cpp and builtin_text_data.cpp.
std::string_view builtin_catalog_bytes();
std::string_view builtin_models_text();
std::string_view builtin_assumptions_text();
std::string_view builtin_fx_text();
std::string_view builtin_pricing_text();
std::string_view builtin_tco_text();
std::string_view builtin_rules_text();

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
                                             builtin_models_text(),
                                             builtin_assumptions_text(),
                                             builtin_fx_text(),
                                             builtin_pricing_text(),
                                             builtin_tco_text(),
                                             builtin_rules_text()}) {
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
// The names the built-in files are known by (as in data/), in a rule's place for instance.
constexpr const char* k_models = "data/models.yaml";
constexpr const char* k_assumptions = "data/assumptions.yaml";
constexpr const char* k_fx = "data/fx.yaml";
constexpr const char* k_pricing = "data/pricing.yaml";
constexpr const char* k_tco = "data/tco.yaml";
constexpr const char* k_rules = "data/rules/selection.yaml";

template <class Load> auto checked(Load load, const char* file) {
    if (load.diagnostics.has_errors()) {
        throw std::logic_error(std::string("the built-in ") + file + " has errors");
    }
    return load;
}

} // namespace

const ModelCatalog& builtin_models() {
    static const ModelCatalog catalog =
        checked(load_models_text(k_models, builtin_models_text()), k_models).catalog;
    return catalog;
}

const Assumptions& builtin_assumptions() {
    static const Assumptions assumptions =
        checked(load_assumptions_text(k_assumptions, builtin_assumptions_text()), k_assumptions)
            .assumptions;
    return assumptions;
}

const FxTable& builtin_fx() {
    static const FxTable table = checked(load_fx_text(k_fx, builtin_fx_text()), k_fx).table;
    return table;
}

const PricingData& builtin_pricing() {
    static const PricingData data =
        checked(load_pricing_data_text(k_pricing, builtin_pricing_text()), k_pricing).data;
    return data;
}

const TcoData& builtin_tco() {
    static const TcoData data = checked(load_tco_text(k_tco, builtin_tco_text()), k_tco).data;
    return data;
}

const std::vector<Rule>& builtin_rules() {
    static const std::vector<Rule> rules = [] {
        const NamedText text{k_rules, std::string(builtin_rules_text())};
        return checked(load_rule_texts({&text, 1}), k_rules).rules;
    }();
    return rules;
}

} // namespace gpuadvisor
