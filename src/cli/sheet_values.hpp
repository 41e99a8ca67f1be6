// The price sheet's values, one column at a time: each check gives the value or the problem.
#pragma once

#include "gpuadvisor/catalog.hpp"
#include "gpuadvisor/fx.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gpuadvisor::cli {

struct SheetProblem {
    const char* code;
    std::string message; // names the column first: "plan: ..."
    std::string hint;
};
using SheetCheck = std::optional<SheetProblem>;

// `known` the catalog's provider of that id.
SheetCheck check_provider(const Catalog& catalog, std::string_view text, const Provider*& known);
// A region id, one of the provider's regions where the catalog lists them.
SheetCheck check_region(std::string_view text, const Provider* provider);
SheetCheck check_plan(std::string_view text, Plan& plan);
SheetCheck check_currency(std::string_view text);
// A date, not after `today`.
SheetCheck check_as_of(std::string_view text, Date today, Date& date);
// A plain decimal above 0 and below the absurd bound (in USD where `currency` has a rate).
SheetCheck check_price(std::string_view text,
                       Plan plan,
                       std::string_view currency,
                       const FxTable& fx,
                       std::int64_t& micros);

} // namespace gpuadvisor::cli
