#include "gpuadvisor/fx.hpp"

#include "yaml/schema.hpp"
#include "yaml/yaml_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

namespace gpuadvisor {

FxTable::FxTable(std::vector<FxRate> rates) : m_rates(std::move(rates)) {
    if (find("USD") == nullptr) {
        m_rates.push_back({"USD", 1, {"by definition", {}, Confidence::high, {}}});
    }
}

const FxRate* FxTable::find(std::string_view currency) const {
    for (const FxRate& rate : m_rates) {
        if (rate.currency == currency) {
            return &rate;
        }
    }
    return nullptr;
}

std::optional<std::int64_t>
FxTable::convert(std::int64_t micros, std::string_view from, std::string_view to) const {
    if (from == to) {
        return micros;
    }
    const FxRate* source = find(from);
    const FxRate* target = find(to);
    if (source == nullptr || target == nullptr) {
        return std::nullopt;
    }
    return convert(micros, *source, *target);
}

std::optional<std::int64_t>
FxTable::convert(std::int64_t micros, const FxRate& from, const FxRate& to) {
    const long double converted = static_cast<long double>(micros) *
                                  static_cast<long double>(to.per_usd) /
                                  static_cast<long double>(from.per_usd);
    if (!(std::fabs(converted) < 9e18L)) {
        return std::nullopt;
    }
    return static_cast<std::int64_t>(std::llroundl(converted));
}

std::string FxTable::conversion_error(std::string_view what,
                                      std::int64_t micros,
                                      std::string_view from,
                                      std::string_view to) const {
    if (convert(micros, from, to)) {
        return {};
    }
    if (find(from) == nullptr || find(to) == nullptr) {
        return fmt::format("no exchange rate from {} to {} for {}", from, to, what);
    }
    const double units = static_cast<double>(micros) / 1e6;
    const double rate = find(to)->per_usd / find(from)->per_usd;
    return fmt::format("{} is {} {}, about {:.3g} {} at 1 {} = {} {}: beyond what gpuadvisor "
                       "can count (9.2e12 currency units)",
                       what,
                       format_number(std::round(units * 100) / 100),
                       from,
                       units * rate,
                       to,
                       from,
                       format_number(std::round(rate * 1e6) / 1e6),
                       to);
}

std::string FxTable::describe(std::string_view from, std::string_view to) const {
    const FxRate* source = find(from);
    const FxRate* target = find(to);
    if (source == nullptr || target == nullptr) {
        return {};
    }
    // Name every dated rate used: one for a USD pair, both for a cross rate.
    std::string dated;
    for (const FxRate* rate : {source, target}) {
        if (rate->currency != "USD") {
            dated += fmt::format("{}{}: {}, {}",
                                 dated.empty() ? "" : "; ",
                                 rate->currency,
                                 rate->provenance.source,
                                 format_date(rate->provenance.as_of));
        }
    }
    return fmt::format("1 {} = {} {} ({})",
                       from,
                       format_number(std::round(target->per_usd / source->per_usd * 1e6) / 1e6),
                       to,
                       dated);
}

std::vector<std::string> FxTable::currencies() const {
    std::vector<std::string> names;
    for (const FxRate& rate : m_rates) {
        names.push_back(rate.currency);
    }
    return names;
}

bool is_currency_code(std::string_view code) {
    return code.size() == 3 &&
           code.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ") == std::string_view::npos;
}

FxTable FxTable::overlaid(const std::vector<FxRate>& over) const {
    std::vector<FxRate> rates = m_rates;
    for (const FxRate& rate : over) {
        auto same = std::find_if(rates.begin(), rates.end(), [&](const FxRate& mine) {
            return mine.currency == rate.currency;
        });
        if (same != rates.end()) {
            *same = rate;
        } else {
            rates.push_back(rate);
        }
    }
    return FxTable(std::move(rates));
}

std::optional<PriceRow> convert_row(const PriceRow& row, const FxTable& fx, std::string_view to) {
    PriceRow converted = row;
    converted.currency = to;
    for (std::optional<std::int64_t>* price : {&converted.on_demand,
                                               &converted.spot,
                                               &converted.reserved_1y,
                                               &converted.reserved_3y,
                                               &converted.subscription_monthly}) {
        if (*price) {
            *price = fx.convert(**price, row.currency, to);
            if (!*price) {
                return std::nullopt;
            }
        }
    }
    return converted;
}

void check_currency_rates(const Catalog& catalog, const FxTable& fx, Diagnostics& diagnostics) {
    struct Unrated {
        std::string_view currency;
        const PriceRow* first = nullptr;
        std::size_t rows = 0;
    };
    std::vector<std::pair<std::string_view, bool>> rated; // each currency met, looked up once
    std::vector<Unrated> unrated;
    for (const InstanceType& instance : catalog.instances()) {
        for (const PriceRow& row : instance.regions) {
            const std::string_view currency = row.currency;
            auto known = std::find_if(rated.begin(), rated.end(), [&](const auto& entry) {
                return entry.first == currency;
            });
            if (known == rated.end()) {
                known = rated.insert(rated.end(), {currency, fx.find(currency) != nullptr});
                if (!known->second) {
                    unrated.push_back({currency, &row, 0});
                }
            }
            if (!known->second) {
                auto entry = std::find_if(unrated.begin(), unrated.end(), [&](const Unrated& u) {
                    return u.currency == currency;
                });
                ++entry->rows;
            }
        }
    }
    const std::vector<std::string> known = fx.currencies();
    for (const Unrated& entry : unrated) {
        diagnostics.warning(
            entry.first->origin,
            "no-rate",
            fmt::format("currency: {} has no exchange rate (the rates are for {}): its {} "
                        "offer(s) cannot be converted, compared with the others or ranked by "
                        "recommend",
                        entry.currency,
                        fmt::join(known, ", "),
                        entry.rows),
            "price them in one of those currencies");
    }
}

namespace {

constexpr std::array<std::string_view, 3> k_top{"schema_version", "base", "rates"};

// Why a file may not hold a rate for `currency` after `rates`: USD is the base, and a
// currency has one rate. Empty when it may.
std::string misplaced_rate(const std::string& currency, const std::vector<FxRate>& rates) {
    if (currency == "USD") {
        return "USD is the base (1 by definition), not a rate";
    }
    const bool again = std::any_of(
        rates.begin(), rates.end(), [&](const FxRate& rate) { return rate.currency == currency; });
    return again ? fmt::format("{} has a rate already, above", currency) : std::string();
}

// The file's contents past its top level.
void decode_fx(FieldReader& read, const YamlNode& root, FxLoad& load) {
    static constexpr std::array<std::string_view, 7> k_fields{
        "currency", "per_usd", "period", "as_of", "source", "confidence", "notes"};
    static constexpr std::array<std::string_view, 1> k_base{"USD"};
    read.one_of(root, "base", "", Need::required, k_base);
    std::vector<FxRate> rates;
    if (const auto* list = read.list(root, "rates", "", Need::required)) {
        for (std::size_t i = 0; i < list->size(); ++i) {
            const YamlNode& node = (*list)[i];
            const std::string path = fmt::format("rates[{}]", i);
            if (!read.mapping(node, path, "a rate", k_fields)) {
                continue;
            }
            FxRate rate;
            rate.currency = read.text(node, "currency", path, Need::required).value_or("");
            rate.per_usd = read.number(node,
                                       "per_usd",
                                       path,
                                       Need::required,
                                       {k_lowest_per_usd, true, k_highest_per_usd})
                               .value_or(0);
            rate.provenance = read.provenance(node, path);
            read.text(node, "period", path, Need::optional);
            if (!is_currency_code(rate.currency)) {
                load.diagnostics.error(
                    read.pos(node),
                    "bad-value",
                    fmt::format("{}.currency: '{}' is not a currency code", path, rate.currency),
                    "write an ISO 4217 code such as CNY");
                continue;
            }
            if (const std::string why = misplaced_rate(rate.currency, rates); !why.empty()) {
                load.diagnostics.error(read.pos(node),
                                       "bad-value",
                                       fmt::format("{}.currency: {}", path, why),
                                       "give each currency other than USD one rate");
                continue;
            }
            rates.push_back(std::move(rate));
        }
    }
    load.table = FxTable(std::move(rates));
}

} // namespace

FxLoad load_fx_text(const std::string& file, std::string_view text) {
    return load_data_file<FxLoad>(file, text, {"a currency-rates file", k_top}, decode_fx);
}

FxLoad load_fx_file(const std::string& path) {
    FxLoad load;
    const auto text = read_file_capped(path, LoadLimits{}, load.diagnostics);
    if (!text) {
        return load;
    }
    return load_fx_text(path, *text);
}

} // namespace gpuadvisor
