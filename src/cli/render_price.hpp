// The `price` report: one offer's breakdown, and the same usage in every region.
#pragma once

#include "gpuadvisor/fx.hpp"
#include "gpuadvisor/pricing.hpp"
#include "gpuadvisor/transfer.hpp"
#include "io.hpp"

#include <string>
#include <vector>

namespace gpuadvisor::cli {

struct RegionQuote {
    const PriceRow* row = nullptr;
    QuoteResult result;        // with --mix auto, its parts are the chosen mix
    QuoteResult all_on_demand; // the same usage all on-demand, for the saving
};

struct PriceReport {
    const InstanceType* instance = nullptr;
    Usage usage;
    std::vector<PlanShare> mix;
    SpotModel spot;
    AutoReleasePolicy auto_release;
    std::string currency; // convert to this; empty: each row's own
    bool auto_mix = false;
    double interruptible_share = 0;
    std::vector<RegionQuote> regions;
    const RegionQuote* chosen = nullptr;
    std::vector<std::string> warnings; // the chosen price's age and confidence
    // --dataset-tb: the data's parts in the chosen region, in the quote's currency.
    std::optional<DataMoveRequest> data_request;
    std::shared_ptr<const DataMove> data;
};

// Priced regions first, cheapest first (compared in USD at data/fx.yaml rates), then the rest.
void sort_regions(PriceReport& report, const FxTable& fx);
const RegionQuote* first_priced(const PriceReport& report);
void print_price(const PriceReport& report, const FxTable& fx, Io& io);

} // namespace gpuadvisor::cli
