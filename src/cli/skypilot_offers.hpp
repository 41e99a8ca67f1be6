// The SkyPilot importer's pieces that are not CSV reading: accelerator names -> catalog GPU ids,
// GCP's machine type + accelerator pairs, and zone quotes -> one price row a region.
#pragma once

#include "catalog_import.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuadvisor::cli {

// One availability zone's prices of an offer, as one row of vms.csv gave them.
struct ZoneQuote {
    std::string zone;
    std::int64_t on_demand = 0;
    std::optional<std::int64_t> spot;
    SourcePos pos;
};

// An instance type's quotes in one region, with what every price row of it shares.
struct ZoneOffer {
    std::string provider;
    std::string instance;
    std::string region;
    std::vector<ZoneQuote> zones;
    std::string source;
    Date as_of;
    Confidence confidence = Confidence::medium;
    std::string derivation; // a note before the zone spread, or empty
    bool zoned = true;      // false: the file has no zones (Azure's), one quote a region
};

// One on-demand price entry and, where a zone quotes one, one spot entry: the cheapest zone's,
// the spread across zones in the notes (on-demand that differs by zone: the lowest, noted).
void add_offer_prices(const ZoneOffer& offer, ImportResult& result);

// The catalog GPU a SkyPilot AcceleratorName means, told apart by the memory of one GPU
// (MiB, from GpuInfo) where the name alone gives several; empty if none or still several.
struct GpuMatch {
    std::string id;
    std::vector<std::string> candidates; // the names it could mean, for the hint
    bool ambiguous = false;              // candidates all fit the name: GpuInfo did not tell
};
GpuMatch resolve_gpu(const Catalog& catalog, std::string_view name, std::optional<double> mib);

// The memory of one GPU in GpuInfo ("... 'SizeInMiB': 16384 ..."), if it states it.
std::optional<double> gpu_memory_mib(std::string_view gpu_info);

// GCP prices a GPU VM as two rows: its machine type (no accelerator) and its accelerators
// (AcceleratorName and count, no InstanceType). For a catalog type: the machine type's row name
// and the accelerator's name, or empty strings where the type is not one of those pairs.
struct GcpParts {
    std::string machine;
    std::string accelerator;
};
GcpParts gcp_parts(const InstanceType& type);

} // namespace gpuadvisor::cli
