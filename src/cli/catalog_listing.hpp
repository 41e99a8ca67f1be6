// Rendering catalog listings (gpus, instances, offers) in every output format.
#pragma once

#include "gpuadvisor/catalog.hpp"
#include "io.hpp"
#include "output.hpp"

#include <ostream>
#include <vector>

namespace gpuadvisor::cli {

Json gpu_json(const Gpu& gpu);
Json instance_json(const InstanceType& instance, const Catalog& catalog);
Json price_row_json(const PriceRow& row);

// "8x A100-40GB"; "0.25x T4" for a slice.
std::string gpus_text(const InstanceType& instance);
// "8x40=320" (per GPU x count = total GB).
std::string gpu_memory_text(const InstanceType& instance, const Gpu& gpu);
// The cheapest on-demand row, if any.
const PriceRow* cheapest_on_demand(const InstanceType& instance);

void print_gpus(const std::vector<const Gpu*>& gpus, Io& io);
void print_instances(const std::vector<const InstanceType*>& instances,
                     const Catalog& catalog,
                     Io& io);
// What a listing of offers says besides them: the exchange rates its prices were converted at
// (--currency), and the offers it could not convert.
struct OffersNotes {
    std::vector<std::string> fx;
    std::vector<std::string> warnings;
};
void print_offers(const std::vector<Offer>& offers, const OffersNotes& notes, Io& io);
// print_offers' JSON: the document nlohmann's dump(2) gives for the notes and the offers as JSON
// objects (price_row_json's fields after provider, instance, gpu and gpu_count), written offer by
// offer without building them (offers_json.cpp).
void write_offers_json(const std::vector<Offer>& offers,
                       const OffersNotes& notes,
                       std::ostream& out);

} // namespace gpuadvisor::cli
