// The AWS Price List importer's parts (import_aws*.cpp): a streaming reader of EC2 offer files
// and `aws pricing get-products` output that keeps the GPU instances' products and terms only.
#pragma once

#include "gpuadvisor/catalog.hpp"

#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpuadvisor::cli {

// Where a value ends in the file: its byte offset (0-based) and its line and column (1-based).
struct AwsPos {
    std::uint64_t offset = 0;
    std::uint32_t line = 0;
    std::uint32_t column = 0;
};

// One product (an instance type in a region, one OS/tenancy/licence variant) the filter kept.
struct AwsProduct {
    std::string sku;
    std::map<std::string, std::string> attributes; // the few read (k_aws_attributes)
    AwsPos pos;
};

// One term of a kept product: OnDemand, or Reserved with its lease, class and payment.
struct AwsTerm {
    std::string sku;
    std::string code; // offerTermCode (the key)
    bool reserved = false;
    std::string lease;                  // termAttributes.LeaseContractLength: 1yr, 3yr
    std::string offering_class;         // OfferingClass: standard, convertible
    std::string purchase;               // PurchaseOption: No Upfront, Partial Upfront, All Upfront
    std::optional<std::string> hourly;  // pricePerUnit.USD of the "Hrs" dimension
    std::optional<std::string> upfront; // pricePerUnit.USD of the "Quantity" dimension
    std::vector<std::string> units;     // dimensions of another unit (reported)
    AwsPos hourly_pos, upfront_pos;     // where those prices are
    AwsPos pos;
};

// A problem found while reading, positioned; turned into a Diagnostic by the importer.
struct AwsProblem {
    bool warning = false;
    AwsPos pos;
    const char* code;
    std::string message;
    std::string hint;
};

// What one file holds of interest.
struct AwsFeed {
    std::string version;
    std::string publication_date;
    bool get_products = false; // `aws pricing get-products` output, not an offer file
    std::map<std::string, AwsProduct> products; // by SKU: the kept ones
    std::vector<AwsTerm> terms;                 // of kept products only
    std::vector<AwsProblem> problems;
    std::size_t skipped_products = 0; // products the filter dropped
};

// Whether a product passes the filter (Linux, shared, no software, used capacity, no licence,
// a compute instance) and is a GPU type (gpu > 0) or one of `known_types`.
using AwsKeep = std::function<bool(const AwsProduct&)>;

// Reads a file as a stream (never the whole document in memory): an offer file or
// get-products output. Errors (syntax, wrong types, limits) go to feed.problems.
AwsFeed read_aws_feed(std::FILE* stream, const AwsKeep& keep);

// The product filter: each attribute's one accepted value; `optional` ones may be absent.
struct AwsFilter {
    const char* attribute;
    const char* value;
    bool optional;
};
inline constexpr AwsFilter k_aws_filter[] = {
    {"operatingSystem", "Linux", false},
    {"tenancy", "Shared", false},
    {"preInstalledSw", "NA", false},
    {"capacitystatus", "Used", false},
    {"licenseModel", "No License required", false},
    {"marketoption", "OnDemand", true},    // not a Capacity Block
    {"locationType", "AWS Region", true}}; // not a Local or Wavelength Zone

// The attributes kept of a product.
inline constexpr const char* k_aws_attributes[] = {"instanceType",
                                                   "instanceFamily",
                                                   "regionCode",
                                                   "location",
                                                   "locationType",
                                                   "operatingSystem",
                                                   "tenancy",
                                                   "preInstalledSw",
                                                   "capacitystatus",
                                                   "licenseModel",
                                                   "marketoption",
                                                   "vcpu",
                                                   "memory",
                                                   "gpu",
                                                   "gpuMemory",
                                                   "networkPerformance",
                                                   "storage"};

} // namespace gpuadvisor::cli
