// The library's one call for the product's question: for this workload, which configurations,
// ranked, priced and explained (what `gpuadvisor recommend` prints; docs/library.md).
#pragma once

#include "gpuadvisor/catalog_io.hpp" // builtin_catalog(), load_catalog()
#include "gpuadvisor/date.hpp"
#include "gpuadvisor/fx.hpp"
#include "gpuadvisor/planner.hpp"
#include "gpuadvisor/rules.hpp"
#include "gpuadvisor/sizing.hpp"

#include <vector>

namespace gpuadvisor {

struct RecommendOptions {
    PlanConstraints constraints;              // providers, plans, currency, sort, top...
    const std::vector<Rule>* rules = nullptr; // null: the built-in rules (data/rules)
    const FxTable* fx = nullptr;              // the exchange rates; null: the built-in ones
    Date today = today_utc();                 // discounts past their `expires` are not applied
};

// The ranked answer and what it was worked out from (the result's pointers are into the
// catalog and the rules: they must outlive it).
struct Recommendation {
    NormalizedWorkload workload;
    Requirements requirements; // what the workload needs on any hardware
    PlanResult result;         // result.recommendations: ranked, best first
};

// Sizes the workload on every offer of the catalog, prices it under the plans the constraints
// allow, applies the rules and ranks (with the built-in assumptions and pricing data).
Recommendation recommend(const NormalizedWorkload& workload,
                         const RecommendOptions& options,
                         const Catalog& catalog);

} // namespace gpuadvisor
