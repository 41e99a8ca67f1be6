// catalog fetch's pure parts (price_feeds.cpp, http_client.cpp): Azure's filters and their
// URL length, percent-encoding, the feed's links moved onto --endpoint, the progress line.
#include "http_client.hpp"
#include "price_feeds.hpp"

#include <catch2/catch.hpp>

using namespace gpuadvisor::cli;

TEST_CASE("url_encode keeps RFC 3986's unreserved characters and encodes the rest") {
    CHECK(url_encode("Standard_NC4as_T4_v3-1.~") == "Standard_NC4as_T4_v3-1.~");
    CHECK(url_encode("serviceName eq 'Virtual Machines'") ==
          "serviceName%20eq%20%27Virtual%20Machines%27");
    CHECK(url_encode("(a or b)&$skip=1") == "%28a%20or%20b%29%26%24skip%3D1");
    CHECK(url_encode("\xc3\xa9") == "%C3%A9");
}

TEST_CASE("azure_filters: one filter for a few SKUs, the region and the service in each") {
    const std::vector<std::string> filters =
        azure_filters("eastus", {"Standard_NC4as_T4_v3", "Standard_ND96asr_v4"});
    REQUIRE(filters.size() == 1);
    CHECK(filters[0] == "serviceName eq 'Virtual Machines' and armRegionName eq 'eastus' and "
                        "(armSkuName eq 'Standard_NC4as_T4_v3' or armSkuName eq "
                        "'Standard_ND96asr_v4')");
    CHECK(azure_filters("eastus", {}).empty());
}

TEST_CASE("azure_filters: many SKUs are split so that each encoded filter stays short") {
    std::vector<std::string> skus;
    for (int i = 0; i < 200; ++i) {
        skus.push_back("Standard_ND96isr_H100_v" + std::to_string(i));
    }
    const std::vector<std::string> filters = azure_filters("westeurope", skus);
    CHECK(filters.size() > 1);
    std::size_t terms = 0;
    for (const std::string& filter : filters) {
        CHECK(url_encode(filter).size() <= 1500);
        CHECK(filter.starts_with("serviceName eq 'Virtual Machines' and armRegionName eq "
                                 "'westeurope' and (armSkuName eq '"));
        CHECK(filter.ends_with("')"));
        for (std::size_t at = filter.find("armSkuName eq"); at != std::string::npos;
             at = filter.find("armSkuName eq", at + 1)) {
            ++terms;
        }
    }
    CHECK(terms == skus.size()); // every SKU once
}

TEST_CASE("on_endpoint moves the feed's links onto the endpoint and refuses other hosts") {
    const std::string endpoint = "http://127.0.0.1:8000/mirror";
    CHECK(on_endpoint("/offers/v1.0/x/index.json", k_aws_endpoint, endpoint) ==
          "http://127.0.0.1:8000/mirror/offers/v1.0/x/index.json");
    CHECK(on_endpoint("https://prices.azure.com:443/api/retail/prices?$skip=100",
                      k_azure_endpoint,
                      endpoint) == "http://127.0.0.1:8000/mirror/api/retail/prices?$skip=100");
    CHECK(on_endpoint("https://prices.azure.com/api/retail/prices", k_azure_endpoint, endpoint) ==
          "http://127.0.0.1:8000/mirror/api/retail/prices");
    CHECK(on_endpoint("http://127.0.0.1:8000/mirror/api/x", k_azure_endpoint, endpoint) ==
          "http://127.0.0.1:8000/mirror/api/x");
    CHECK(on_endpoint("https://prices.azure.com.evil.example/api", k_azure_endpoint, endpoint)
              .empty());
    CHECK(on_endpoint("https://elsewhere.example/api", k_azure_endpoint, endpoint).empty());
    CHECK(on_endpoint("//elsewhere.example/api", k_azure_endpoint, endpoint).empty());
    CHECK(on_endpoint("", k_aws_endpoint, endpoint).empty());
}

TEST_CASE("progress_line: a bar with the share and sizes (MiB, or KiB under 1 MiB), or the size "
          "alone without a total") {
    CHECK(progress_line("aws/us-east-1.json", 0, 4 << 20) ==
          "[........................]   0%  0.0 / 4.0 MiB  aws/us-east-1.json");
    CHECK(progress_line("aws/us-east-1.json", 1 << 20, 4 << 20) ==
          "[######..................]  25%  1.0 / 4.0 MiB  aws/us-east-1.json");
    CHECK(progress_line("x", 4 << 20, 4 << 20) ==
          "[########################] 100%  4.0 / 4.0 MiB  x");
    CHECK(progress_line("x", 3 << 19, 0) == "      1.5 MiB  x");
    CHECK(progress_line("x", 646, 0) == "      0.6 KiB  x"); // under 1 MiB: KiB
    CHECK(progress_line("x", 512, 2048) == "[######..................]  25%  0.5 / 2.0 KiB  x");
}
