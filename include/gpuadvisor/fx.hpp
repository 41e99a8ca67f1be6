// Currency rates (data/fx.yaml): prices stay in their own currency; --currency converts with
// a dated rate that every output names.
#pragma once

#include "gpuadvisor/catalog.hpp"
#include "gpuadvisor/date.hpp"
#include "gpuadvisor/diagnostic.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuadvisor {

// The rates a table may hold, in units per US dollar (a rate file's or --fx-rate's).
inline constexpr double k_lowest_per_usd = 1e-6;
inline constexpr double k_highest_per_usd = 1e7;

// Three capital letters, as ISO 4217 codes are ("CNY").
bool is_currency_code(std::string_view code);

struct FxRate {
    std::string currency;
    double per_usd = 0; // units of `currency` per US dollar
    Provenance provenance;
};

class FxTable {
  public:
    FxTable() = default;
    explicit FxTable(std::vector<FxRate> rates);

    const FxRate* find(std::string_view currency) const; // USD is always known (1)
    // micros of `from` in `to`, rounded to the micro-unit; nullopt for an unknown currency.
    std::optional<std::int64_t>
    convert(std::int64_t micros, std::string_view from, std::string_view to) const;
    // The same between two rates already found (find): for many conversions of one pair.
    static std::optional<std::int64_t>
    convert(std::int64_t micros, const FxRate& from, const FxRate& to);
    // Why convert gives nullopt for `what` (a figure's name: "the total"): a currency with no
    // rate, or an amount beyond what micro-units hold once converted. Empty when it converts.
    std::string conversion_error(std::string_view what,
                                 std::int64_t micros,
                                 std::string_view from,
                                 std::string_view to) const;
    // "1 USD = 7.1884 CNY (Federal Reserve H.10, 2025-06-30)"
    std::string describe(std::string_view from, std::string_view to) const;
    std::vector<std::string> currencies() const;
    const std::vector<FxRate>& rates() const { return m_rates; }
    // This table with `over`'s rates in place of its own for the same currency, and the rest of
    // `over` after its own (the user's --fx and --fx-rate over the built-in rates).
    FxTable overlaid(const std::vector<FxRate>& over) const;

  private:
    std::vector<FxRate> m_rates;
};

// A price row with every price in `to` (its currency named so); nullopt when one does not convert.
std::optional<PriceRow> convert_row(const PriceRow& row, const FxTable& fx, std::string_view to);

// A warning (no-rate) for each currency the catalog prices in that has no rate in `fx`: its
// offers cannot be converted, compared with the others or ranked by recommend. At the first
// row priced in it, with how many are.
void check_currency_rates(const Catalog& catalog, const FxTable& fx, Diagnostics& diagnostics);

struct FxLoad {
    FxTable table;
    Diagnostics diagnostics;
};
FxLoad load_fx_text(const std::string& file, std::string_view text);
FxLoad load_fx_file(const std::string& path); // read within the load limits, then as above
const FxTable& builtin_fx();

} // namespace gpuadvisor
