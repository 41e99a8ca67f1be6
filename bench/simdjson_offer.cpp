// simdjson On-Demand over an AWS EC2 offer file, for bench/import_aws.sh: the same filter as
// `catalog import aws` (Linux, shared, NA, Used, no licence, a GPU), then the kept products'
// OnDemand prices. simdjson needs the whole file in memory (padded_string::load).
// Build: c++ -O2 -std=c++20 bench/simdjson_offer.cpp -lsimdjson -o simdjson_offer
#include <simdjson.h>

#include <cstdio>
#include <set>
#include <string>
#include <string_view>

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: simdjson_offer FILE\n");
        return 2;
    }
    simdjson::padded_string json;
    if (simdjson::padded_string::load(argv[1]).get(json) != simdjson::SUCCESS) {
        std::fprintf(stderr, "cannot read %s\n", argv[1]);
        return 2;
    }
    simdjson::ondemand::parser parser;
    simdjson::ondemand::document doc = parser.iterate(json);
    std::set<std::string> kept;
    std::size_t prices = 0;
    for (auto field : doc.get_object()) {
        const std::string_view key = field.unescaped_key();
        if (key == "products") {
            for (auto product : field.value().get_object()) {
                const std::string sku(product.unescaped_key().value());
                auto attributes = product.value()["attributes"];
                std::string_view os, tenancy, software, capacity, licence, gpu;
                for (auto attribute : attributes.get_object()) {
                    const std::string_view name = attribute.unescaped_key();
                    std::string_view* slot = name == "operatingSystem"  ? &os
                                             : name == "tenancy"        ? &tenancy
                                             : name == "preInstalledSw" ? &software
                                             : name == "capacitystatus" ? &capacity
                                             : name == "licenseModel"   ? &licence
                                             : name == "gpu"            ? &gpu
                                                                        : nullptr;
                    if (slot != nullptr) {
                        *slot = attribute.value().get_string();
                    }
                }
                if (os == "Linux" && tenancy == "Shared" && software == "NA" &&
                    capacity == "Used" && licence == "No License required" && !gpu.empty() &&
                    gpu != "0") {
                    kept.insert(sku);
                }
            }
        } else if (key == "terms") {
            for (auto kind : field.value().get_object()) {
                for (auto sku : kind.value().get_object()) {
                    if (kept.count(std::string(sku.unescaped_key().value())) == 0) {
                        continue;
                    }
                    for (auto term : sku.value().get_object()) {
                        for (auto dimension : term.value()["priceDimensions"].get_object()) {
                            std::string_view usd = dimension.value()["pricePerUnit"]["USD"];
                            prices += usd.empty() ? 0 : 1;
                        }
                    }
                }
            }
        }
    }
    std::printf("%zu GPU products, %zu prices\n", kept.size(), prices);
    return 0;
}
