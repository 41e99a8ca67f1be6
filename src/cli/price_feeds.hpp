// The providers' public price feeds, downloaded into a cache folder for `catalog fetch`:
// AWS's Price List Bulk API (region_index.json, then each region's EC2 offer file) and Azure's
// Retail Prices API (one file a page, following NextPageLink).
#pragma once

#include "gpuadvisor/diagnostic.hpp"
#include "http_client.hpp"

#include <chrono>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace gpuadvisor::cli {

inline constexpr std::string_view k_aws_endpoint = "https://pricing.us-east-1.amazonaws.com";
inline constexpr std::string_view k_azure_endpoint = "https://prices.azure.com";

struct FetchSettings {
    HttpOptions http;
    std::string cache_dir;
    bool refresh = false;           // ask again for what the cache holds (with its validators)
    std::chrono::hours max_age{24}; // what the cache holds is asked for again after this
    std::ostream* notes = nullptr;  // a line a file fetched or reused (null: none)
};

// One file of the cache: `url` downloaded to cache_dir/name, or the copy there when it is
// complete (its .meta.json names the same URL and size), younger than max_age and `refresh` is
// off. Otherwise the copy's ETag / Last-Modified go with the request, and a 304 keeps it.
struct Download {
    bool ok = false;
    bool from_cache = false;
    std::string path;
    std::string error;
    std::string hint;
};
Download cached_download(const std::string& url, const std::string& name, const FetchSettings&);

// DIR/.lock held (flock) for a run: a second `catalog fetch` on the folder waits for the first
// (saying so in `notes`) rather than writing the same files. error() is empty when held.
class FolderLock {
  public:
    FolderLock(const std::string& dir, std::ostream* notes);
    ~FolderLock();
    FolderLock(const FolderLock&) = delete;
    FolderLock& operator=(const FolderLock&) = delete;
    const std::string& error() const { return m_error; }

  private:
    int m_fd = -1;
    std::string m_error;
};

struct FeedRequest {
    std::string endpoint;             // the feed's base URL (k_*_endpoint, or --endpoint)
    std::vector<std::string> regions; // the provider's region ids
    std::vector<std::string> skus;    // Azure: the armSkuName values asked for
};

struct FeedFiles {
    std::vector<std::string> files; // what the import format reads, in order
    Diagnostics diagnostics;        // at the URL that failed
};

FeedFiles fetch_aws(const FeedRequest& request, const FetchSettings& settings);
FeedFiles fetch_azure(const FeedRequest& request, const FetchSettings& settings);

// Azure's OData filters for a region: the SKUs `or`ed in groups, each filter's URL kept short.
std::vector<std::string> azure_filters(const std::string& region,
                                       const std::vector<std::string>& skus);
// Percent-encoding of a query value (RFC 3986 unreserved characters kept).
std::string url_encode(std::string_view text);
// A link the feed gave (an absolute URL at the official host, or a path) on `endpoint`; empty
// when it points elsewhere (never followed).
std::string
on_endpoint(std::string_view link, std::string_view official, std::string_view endpoint);

} // namespace gpuadvisor::cli
