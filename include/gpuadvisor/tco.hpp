// Owning the hardware vs renting it (data/tco.yaml): purchase, power, space, operations,
// maintenance and depreciation against a cloud plan or mix for the same usage.
#pragma once

#include "gpuadvisor/assumptions.hpp"
#include "gpuadvisor/catalog.hpp"
#include "gpuadvisor/diagnostic.hpp"
#include "gpuadvisor/fx.hpp"
#include "gpuadvisor/pricing.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpuadvisor {

struct Server {
    std::string id;
    std::string name;
    std::string gpu;
    int gpus = 0;
    std::int64_t price_micros = 0;
    std::string currency;
    double power_kw = 0;
    Provenance provenance;
};

struct Electricity {
    std::string market;
    std::int64_t price_per_kwh_micros = 0;
    std::string currency;
    Provenance provenance;
};

struct TcoData {
    std::vector<Server> servers;
    std::vector<Electricity> electricity;
    std::map<std::string, Assumption, std::less<>> defaults; // pue, power_load_factor, ...
    double get(std::string_view name) const;                 // throws for an unknown name
};

struct TcoLoad {
    TcoData data;
    Diagnostics diagnostics;
};
TcoLoad load_tco_text(const std::string& file, std::string_view text);
const TcoData& builtin_tco();

// One line of the owning side, in the comparison currency.
struct TcoLine {
    std::string item;
    std::int64_t micros = 0;
    std::string basis;
};

struct TcoResult {
    std::string currency;
    int servers = 0;
    const Server* server = nullptr;
    std::vector<TcoLine>
        own; // depreciated purchase, network/storage, power, space, ops, maintenance
    std::int64_t own_total = 0;
    std::int64_t cash_outlay = 0;                 // purchase + network/storage, paid up front
    std::int64_t cloud_total = 0;                 // the plan or mix for the same usage
    std::int64_t cloud_list_total = 0;            // the same before negotiated discounts
    std::vector<const Discount*> discounts;       // the discounts the cloud side got
    std::optional<double> break_even_utilization; // cloud cost = own cost
    std::optional<double> payback_months;         // purchase recovered by monthly savings
    std::string error;
    bool too_large = false; // the usage is beyond what money arithmetic holds (a usage error)
};

struct TcoInput {
    const Offer* offer = nullptr;
    Usage usage; // period = years x 8760 h
    std::vector<PlanShare> mix;
    PricingContext pricing;         // spot model and negotiated discounts (no estimates)
    const Server* server = nullptr; // null: the first server with the instance's GPU
    const Electricity* electricity = nullptr;
    std::string currency; // the comparison currency
};

TcoResult compare_tco(const TcoInput& input, const TcoData& data, const FxTable& fx);

} // namespace gpuadvisor
