// fetch_aws and fetch_azure (price_feeds.hpp): which files each feed is made of, and in what
// order they are asked for. The documents: docs/cli.md, "catalog fetch".
#include "price_feeds.hpp"

#include "gpuadvisor/spelling.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

namespace gpuadvisor::cli {

namespace {

// Azure's pages hold 100 to 1000 items: far fewer pages than this in any region.
constexpr int k_max_pages = 10'000;
// Azure's filters are put in groups so that no URL is much longer than this.
constexpr std::size_t k_max_filter = 1500;
// AWS's region index and Azure's pages are small (some kB): a larger body is not the feed's.
constexpr std::uint64_t k_max_page_bytes = std::uint64_t{64} << 20U;

FetchSettings for_pages(const FetchSettings& settings) {
    FetchSettings pages = settings;
    pages.http.max_bytes = std::min(pages.http.max_bytes, k_max_page_bytes);
    return pages;
}

std::optional<nlohmann::json> read_json(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    nlohmann::json json = nlohmann::json::parse(text.str(), nullptr, false);
    if (!in || json.is_discarded()) {
        return std::nullopt;
    }
    return json;
}

// A kept file that is not what the feed gives: an error, and the file is dropped from the cache
// (the next run fetches it again).
void not_the_feed(const std::string& path, const std::string& message, FeedFiles& out) {
    out.diagnostics.error({path, 0, 0},
                          "syntax",
                          message,
                          "check --endpoint; the file was removed, the next run fetches it again");
    std::remove((path + ".meta.json").c_str());
    std::remove(path.c_str());
}

bool fetched(const Download& download, const std::string& url, FeedFiles& out) {
    if (!download.ok) {
        out.diagnostics.error({url, 0, 0}, "network", download.error, download.hint);
    }
    return download.ok;
}

// The region's offer file URL from region_index.json, or an error.
std::string offer_url(const nlohmann::json& index,
                      const std::string& index_path,
                      const std::string& region,
                      const std::string& endpoint,
                      FeedFiles& out) {
    const nlohmann::json& regions = index["regions"];
    if (!regions.contains(region)) {
        std::vector<std::string> known;
        for (const auto& [id, entry] : regions.items()) {
            known.push_back(id);
        }
        std::string hint = did_you_mean(nearest_names(region, known));
        out.diagnostics.error({index_path, 0, 0},
                              "unknown-region",
                              fmt::format("region '{}' is not in AWS's region index", region),
                              hint.empty() ? "--region takes AWS's ids, such as us-east-1" : hint);
        return {};
    }
    const nlohmann::json& entry = regions[region];
    const std::string link = entry.is_object() && entry.contains("currentVersionUrl") &&
                                     entry["currentVersionUrl"].is_string()
                                 ? entry["currentVersionUrl"].get<std::string>()
                                 : std::string();
    std::string url = on_endpoint(link, k_aws_endpoint, endpoint);
    if (url.empty()) {
        out.diagnostics.error(
            {index_path, 0, 0},
            "bad-value",
            fmt::format(
                "regions.{}.currentVersionUrl: '{}' is not a link on the feed", region, link),
            "the region index is not the Price List Bulk API's: check --endpoint");
    }
    return url;
}

bool is_unreserved(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '.' || c == '_' || c == '~';
}

} // namespace

std::string url_encode(std::string_view text) {
    std::string out;
    for (const char c : text) {
        if (is_unreserved(c)) {
            out += c;
        } else {
            out += fmt::format("%{:02X}", static_cast<unsigned char>(c));
        }
    }
    return out;
}

std::string
on_endpoint(std::string_view link, std::string_view official, std::string_view endpoint) {
    if (link.starts_with('/') && !link.starts_with("//")) {
        return std::string(endpoint) + std::string(link);
    }
    for (const std::string& origin : {std::string(official), std::string(official) + ":443"}) {
        if (link.starts_with(origin) && link.substr(origin.size()).starts_with('/')) {
            return std::string(endpoint) + std::string(link.substr(origin.size()));
        }
    }
    if (link.starts_with(endpoint) && link.substr(endpoint.size()).starts_with('/')) {
        return std::string(link);
    }
    return {};
}

std::vector<std::string> azure_filters(const std::string& region,
                                       const std::vector<std::string>& skus) {
    const std::string base =
        fmt::format("serviceName eq 'Virtual Machines' and armRegionName eq '{}' and (", region);
    std::vector<std::string> filters;
    std::string current;
    for (const std::string& sku : skus) {
        const std::string term = fmt::format("armSkuName eq '{}'", sku);
        if (!current.empty() && url_encode(base + current + " or " + term).size() > k_max_filter) {
            filters.push_back(base + current + ")");
            current.clear();
        }
        current += (current.empty() ? "" : " or ") + term;
    }
    if (!current.empty()) {
        filters.push_back(base + current + ")");
    }
    return filters;
}

FeedFiles fetch_aws(const FeedRequest& request, const FetchSettings& settings) {
    FeedFiles out;
    const std::string index_url =
        request.endpoint + "/offers/v1.0/aws/AmazonEC2/current/region_index.json";
    const Download index_file =
        cached_download(index_url, "aws/region_index.json", for_pages(settings));
    if (!fetched(index_file, index_url, out)) {
        return out;
    }
    const std::optional<nlohmann::json> index = read_json(index_file.path);
    if (!index || !index->is_object() || !index->contains("regions") ||
        !(*index)["regions"].is_object()) {
        not_the_feed(index_file.path, "not AWS's region index: no JSON object with 'regions'", out);
        return out;
    }
    for (const std::string& region : request.regions) {
        const std::string url = offer_url(*index, index_file.path, region, request.endpoint, out);
        if (url.empty()) {
            continue;
        }
        const Download offer = cached_download(url, "aws/AmazonEC2-" + region + ".json", settings);
        if (fetched(offer, url, out)) {
            out.files.push_back(offer.path);
        }
    }
    return out;
}

FeedFiles fetch_azure(const FeedRequest& request, const FetchSettings& settings) {
    FeedFiles out;
    for (const std::string& region : request.regions) {
        const std::vector<std::string> filters = azure_filters(region, request.skus);
        std::size_t items = 0;
        for (std::size_t query = 0; query < filters.size(); ++query) {
            std::string url =
                request.endpoint + "/api/retail/prices?$filter=" + url_encode(filters[query]);
            std::set<std::string> seen;
            for (int page = 1; !url.empty(); ++page) {
                if (page > k_max_pages || !seen.insert(url).second) {
                    out.diagnostics.error({url, 0, 0},
                                          "limit",
                                          "the pages' NextPageLink chain does not end",
                                          "check --endpoint");
                    return out;
                }
                const std::string name =
                    fmt::format("azure/{}-q{}-p{:04}.json", region, query + 1, page);
                const Download got = cached_download(url, name, for_pages(settings));
                if (!fetched(got, url, out)) {
                    return out;
                }
                const std::optional<nlohmann::json> json = read_json(got.path);
                if (!json || !json->is_object() || !json->contains("Items") ||
                    !(*json)["Items"].is_array()) {
                    not_the_feed(
                        got.path, "not a Retail Prices API page: no JSON object with 'Items'", out);
                    return out;
                }
                out.files.push_back(got.path);
                items += (*json)["Items"].size();
                const nlohmann::json next = json->value("NextPageLink", nlohmann::json());
                url.clear();
                if (next.is_string() && !next.get<std::string>().empty()) {
                    url = on_endpoint(next.get<std::string>(), k_azure_endpoint, request.endpoint);
                    if (url.empty()) {
                        out.diagnostics.error({got.path, 0, 0},
                                              "bad-value",
                                              fmt::format("NextPageLink '{}' leads off the feed",
                                                          next.get<std::string>()),
                                              "check --endpoint");
                        return out;
                    }
                }
            }
        }
        if (items == 0) {
            out.diagnostics.warning(
                {request.endpoint, 0, 0},
                "no-price",
                fmt::format("Azure has no price of the catalog's instance types "
                            "in region '{}'",
                            region),
                "--region takes Azure's armRegionName ids, such as eastus");
        }
    }
    return out;
}

} // namespace gpuadvisor::cli
