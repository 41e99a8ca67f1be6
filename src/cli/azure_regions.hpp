// Azure's public regions: armRegionName -> display name and country, for regions the Retail
// Prices API prices and the active catalog's azure provider lacks (docs/cli.md, "catalog
// import"). From Microsoft's region list (az account list-locations: name, displayName,
// physicalLocation); the country is where the datacenters are.
#pragma once

#include "gpuadvisor/catalog.hpp"

#include <string_view>

namespace gpuadvisor::cli {

// nullptr for a region the table does not have.
const RegionInfo* azure_region(std::string_view arm_region_name);

} // namespace gpuadvisor::cli
