// `catalog list offers -o json` is written offer by offer (offers_json.cpp): the bytes must be
// those of the document built as JSON objects and dumped by nlohmann, as it was built before.
#include "catalog_listing.hpp"
#include "gpuadvisor/catalog_io.hpp"

#include <catch2/catch.hpp>

#include <sstream>

using namespace gpuadvisor;
using namespace gpuadvisor::cli;

namespace {

// The document as the objects give it: provider, instance, gpu and gpu_count, then the row's
// fields as `catalog show` gives them.
std::string built(const std::vector<Offer>& offers, const OffersNotes& notes = {}) {
    Json document = json_document("catalog list offers");
    document["conversions"] =
        conversions_json(builtin_fx(), notes.converted_from, notes.converted_to);
    document["warnings"] = notes.warnings;
    document["offers"] = Json::array();
    for (const Offer& offer : offers) {
        Json json;
        json["provider"] = offer.instance->provider;
        json["instance"] = offer.instance->id;
        json["gpu"] = offer.instance->gpu;
        json["gpu_count"] = count_json(offer.instance->gpu_count);
        const Json row = price_row_json(*offer.prices);
        for (const auto& [key, value] : row.items()) {
            json[key] = value;
        }
        document["offers"].push_back(json);
    }
    return document.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

std::string written(const std::vector<Offer>& offers, const OffersNotes& notes = {}) {
    std::ostringstream out;
    write_offers_json(offers, notes, builtin_fx(), out);
    return out.str();
}

} // namespace

TEST_CASE("offers json: every built-in offer is written as the JSON objects dump it") {
    const std::vector<Offer> offers = builtin_catalog().offers();
    REQUIRE(offers.size() > 500);
    CHECK(written(offers) == built(offers));
    CHECK(written({}) == built({}));
    CHECK(written({offers.front()}) == built({offers.front()}));
}

TEST_CASE("offers json: text to escape, bytes that are not UTF-8, notes, odd numbers") {
    InstanceType instance;
    instance.provider = "p\"q";
    instance.id = "a\\b";
    instance.gpu = "北京-GPU";
    instance.gpu_count = 0.25;
    PriceRow row;
    row.region = std::string("r\x01\x7F\t\n", 5);
    row.currency = "CNY";
    row.on_demand = 1;                  // a micro: 1e-06
    row.spot = 123'456'789'012'345'678; // far past a trillion units
    row.reserved_3y = 32'772'600;
    row.spot_interruption = std::string("bad \xC3\x28 byte \xFF", 13);
    row.provenance.source = "https://example.com/?a=\"1\"&b=<2>";
    row.provenance.notes = "line one\nline two \u2028 \xF0\x9F\x98\x80";
    row.origin = {"/tmp/dir with space/é.yaml", 7, 3};
    instance.regions.push_back(row);
    row.provenance.notes = "";
    row.spot_interruption = "";
    instance.regions.push_back(row);
    const std::vector<Offer> offers = {{&instance, &instance.regions[0]},
                                       {&instance, &instance.regions[1]}};
    const std::string text = written(offers);
    CHECK(text == built(offers));
    CHECK(text.find("\\ufffd") == std::string::npos); // replaced as raw U+FFFD, not escaped
    CHECK(text.find("\"notes\"") != std::string::npos);
}
