// One Retail Prices API item -> a price of a catalog instance type, or the reason it is not.
#include "azure_import.hpp"
#include "azure_regions.hpp"

#include <algorithm>

namespace gpuadvisor::cli {

namespace {

bool ends_with(std::string_view text, std::string_view tail) {
    return text.size() >= tail.size() && text.substr(text.size() - tail.size()) == tail;
}

// The N-series (NC, ND, NG, NV: GPU; NP is FPGA) by Azure's size naming.
bool is_gpu_size(std::string_view sku) {
    return sku.size() > 11 && sku.starts_with("Standard_N") &&
           std::string_view("CDGV").find(sku[10]) != std::string_view::npos;
}

} // namespace

AzureReader::AzureReader(const ImportContext& context, ImportResult& result)
    : m_context(context), m_result(result), m_azure(context.catalog.find_provider("azure")) {}

void AzureReader::page(const AzurePage& page) {
    ++m_pages;
    m_page = &page;
    const nlohmann::json& items = page.json.at("Items");
    for (m_index = 0; m_index < page.items.size(); ++m_index) {
        if (m_result.diagnostics.error_count() >= k_azure_max_errors) {
            m_result.diagnostics.error(
                page.pos(page.items[m_index].pos),
                "limit",
                fmt::format("more than {} errors: the rest is not read", k_azure_max_errors),
                "fix these and import again");
            m_stopped = true;
            return;
        }
        ++m_items;
        m_item = &page.items[m_index];
        m_value = &items[m_index];
        m_ok = true;
        item();
    }
}

std::string AzureReader::path(AzureField field) const {
    return fmt::format("Items[{}].{}", m_index, to_string(field));
}

void AzureReader::error(AzureField field, const char* code, std::string message, std::string hint) {
    m_result.diagnostics.error(
        pos(field), code, fmt::format("{}: {}", path(field), message), std::move(hint));
    m_ok = false;
}

bool AzureReader::skip(const std::string& why) {
    ++m_skipped[why];
    return false;
}

// A string field; a missing one is an error, a non-string one too.
std::optional<std::string> AzureReader::text(AzureField field) {
    const auto found = m_value->find(std::string(to_string(field)));
    if (found == m_value->end() || found->is_null()) {
        error(field, "missing-field", "missing", "a Retail Prices API item has it");
        return std::nullopt;
    }
    if (!found->is_string()) {
        error(field,
              "wrong-type",
              fmt::format("a JSON {}, not a string", found->type_name()),
              "a Retail Prices API item as the API returns it");
        return std::nullopt;
    }
    return found->get<std::string>();
}

// "2024-11-01T00:00:00Z" -> 2024-11-01.
std::optional<Date> AzureReader::date(AzureField field) {
    const auto value = text(field);
    if (!value) {
        return std::nullopt;
    }
    const bool shape = value->size() == 10 || (value->size() > 10 && (*value)[10] == 'T');
    const auto day = shape ? parse_date(std::string_view(*value).substr(0, 10)) : std::nullopt;
    if (!day) {
        error(field,
              "bad-value",
              fmt::format("'{}' is not a date", *value),
              "an ISO 8601 date-time: 2024-11-01T00:00:00Z");
    }
    return day;
}

const InstanceType* AzureReader::instance(const std::string& sku) const {
    for (const InstanceType* each : m_context.catalog.match_instances(sku)) {
        if (each->provider == "azure") {
            return each;
        }
    }
    return nullptr;
}

void AzureReader::item() {
    if (!m_value->is_object()) {
        m_result.diagnostics.error(
            m_page->pos(m_item->pos),
            "wrong-type",
            fmt::format("Items[{}]: a JSON {}, not an object", m_index, m_value->type_name()),
            "each item is an object: {\"armSkuName\": ..., ...}");
        return;
    }
    for (const auto& [key, at] : m_item->repeated) {
        m_result.diagnostics.error(m_page->pos(at),
                                   "duplicate-key",
                                   fmt::format("Items[{}].{}: given twice", m_index, key),
                                   "keep one (JSON readers disagree on which one counts)");
        m_ok = false;
    }
    const auto service = text(AzureField::serviceName);
    if (!service || *service != "Virtual Machines") {
        if (service) {
            skip("other service");
        }
        return;
    }
    const auto product = text(AzureField::productName);
    const auto kind = text(AzureField::type);
    const auto sku = text(AzureField::armSkuName);
    const auto meter = text(AzureField::meterName);
    if (!product || !kind || !sku || !meter || !m_ok) {
        return;
    }
    if (product->find("Windows") != std::string::npos) {
        skip("Windows");
        return;
    }
    if (*kind == "DevTestConsumption") {
        skip("DevTestConsumption");
        return;
    }
    if (*kind != "Consumption" && *kind != "Reservation") {
        skip("other type"); // (not the file's text: a reason a value would grow without bound)
        return;
    }
    const InstanceType* type = instance(*sku);
    if (type == nullptr) {
        if (!is_gpu_size(*sku)) {
            skip("non-GPU size");
            return;
        }
        Unknown& unknown = m_unknown[*product];
        if (unknown.items++ == 0) {
            unknown.first = pos(AzureField::armSkuName);
        }
        unknown.skus.insert(*sku);
        skip("GPU size not in the catalog");
        return;
    }
    if (*kind == "Consumption" && ends_with(*meter, " Low Priority")) {
        skip("Low Priority"); // Batch's low-priority VMs: no plan of the catalog
        return;
    }
    price_item(*type, *kind, *meter);
}

bool AzureReader::region_known(const std::string& region) {
    const bool name = !region.empty() && region.size() <= 64 &&
                      std::all_of(region.begin(), region.end(), [](char c) {
                          return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
                      });
    if (!name) {
        error(AzureField::armRegionName,
              "bad-value",
              fmt::format("'{}' is not an Azure region name", region.substr(0, 64)),
              "lower-case letters and digits: eastus, westeurope");
        return false;
    }
    if (m_azure == nullptr || m_azure->regions.empty()) {
        return true;
    }
    for (const RegionInfo& each : m_azure->regions) {
        if (each.id == region) {
            return true;
        }
    }
    if (azure_region(region) != nullptr) {
        return true; // finish adds it to the provider's regions if a price there is kept
    }
    m_result.diagnostics.warning(
        pos(AzureField::armRegionName),
        "unknown-region",
        fmt::format("{}: '{}' is neither a region of azure in the catalog nor in the "
                    "importer's table of Azure regions: the price is not imported",
                    path(AzureField::armRegionName),
                    region),
        "add the region to the azure provider's regions in a --catalog file, then import again");
    return false;
}

} // namespace gpuadvisor::cli
