#include "azure_regions.hpp"

#include <algorithm>
#include <array>

namespace gpuadvisor::cli {

namespace {

// By id (a linear search: a few dozen entries, looked up once a price).
const std::array<RegionInfo, 63> k_regions{{
    {"australiacentral", "Australia Central", "AU"},
    {"australiacentral2", "Australia Central 2", "AU"},
    {"australiaeast", "Australia East", "AU"},
    {"australiasoutheast", "Australia Southeast", "AU"},
    {"austriaeast", "Austria East", "AT"},
    {"belgiumcentral", "Belgium Central", "BE"},
    {"brazilsouth", "Brazil South", "BR"},
    {"brazilsoutheast", "Brazil Southeast", "BR"},
    {"canadacentral", "Canada Central", "CA"},
    {"canadaeast", "Canada East", "CA"},
    {"centralindia", "Central India", "IN"},
    {"centralus", "Central US", "US"},
    {"chilecentral", "Chile Central", "CL"},
    {"eastasia", "East Asia", "HK"},
    {"eastus", "East US", "US"},
    {"eastus2", "East US 2", "US"},
    {"francecentral", "France Central", "FR"},
    {"francesouth", "France South", "FR"},
    {"germanynorth", "Germany North", "DE"},
    {"germanywestcentral", "Germany West Central", "DE"},
    {"indonesiacentral", "Indonesia Central", "ID"},
    {"israelcentral", "Israel Central", "IL"},
    {"italynorth", "Italy North", "IT"},
    {"japaneast", "Japan East", "JP"},
    {"japanwest", "Japan West", "JP"},
    {"jioindiacentral", "Jio India Central", "IN"},
    {"jioindiawest", "Jio India West", "IN"},
    {"koreacentral", "Korea Central", "KR"},
    {"koreasouth", "Korea South", "KR"},
    {"malaysiawest", "Malaysia West", "MY"},
    {"mexicocentral", "Mexico Central", "MX"},
    {"newzealandnorth", "New Zealand North", "NZ"},
    {"northcentralus", "North Central US", "US"},
    {"northeurope", "North Europe", "IE"},
    {"norwayeast", "Norway East", "NO"},
    {"norwaywest", "Norway West", "NO"},
    {"polandcentral", "Poland Central", "PL"},
    {"qatarcentral", "Qatar Central", "QA"},
    {"southafricanorth", "South Africa North", "ZA"},
    {"southafricawest", "South Africa West", "ZA"},
    {"southcentralus", "South Central US", "US"},
    {"southeastasia", "Southeast Asia", "SG"},
    {"southindia", "South India", "IN"},
    {"spaincentral", "Spain Central", "ES"},
    {"swedencentral", "Sweden Central", "SE"},
    {"swedensouth", "Sweden South", "SE"},
    {"switzerlandnorth", "Switzerland North", "CH"},
    {"switzerlandwest", "Switzerland West", "CH"},
    {"uaecentral", "UAE Central", "AE"},
    {"uaenorth", "UAE North", "AE"},
    {"uksouth", "UK South", "GB"},
    {"ukwest", "UK West", "GB"},
    {"usgovarizona", "US Gov Arizona", "US"},
    {"usgovtexas", "US Gov Texas", "US"},
    {"usgovvirginia", "US Gov Virginia", "US"},
    {"westcentralus", "West Central US", "US"},
    {"westeurope", "West Europe", "NL"},
    {"westindia", "West India", "IN"},
    {"westus", "West US", "US"},
    {"westus2", "West US 2", "US"},
    {"westus3", "West US 3", "US"},
    {"usdodcentral", "US DoD Central", "US"},
    {"usdodeast", "US DoD East", "US"},
}};

} // namespace

const RegionInfo* azure_region(std::string_view arm_region_name) {
    const auto found = std::find_if(k_regions.begin(), k_regions.end(), [&](const RegionInfo& r) {
        return r.id == arm_region_name;
    });
    return found == k_regions.end() ? nullptr : &*found;
}

} // namespace gpuadvisor::cli
