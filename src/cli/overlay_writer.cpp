// Imported prices -> catalog overlay YAML, one file per provider (docs/catalog-format.md).
#include "catalog_import.hpp"
#include "gpuadvisor/pricing.hpp"
#include "gpuadvisor/units.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <memory>
#include <tuple>

namespace gpuadvisor::cli {

namespace {

// A YAML double-quoted scalar (the text has no control characters: the importers refuse them).
std::string quoted(std::string_view text) {
    std::string out = "\"";
    for (const char c : text) {
        if (c == '"' || c == '\\') {
            out.push_back('\\');
        }
        out.push_back(c);
    }
    return out + "\"";
}

std::string_view plan_key(Plan plan) {
    return to_string(plan); // the catalog's field names: on_demand, spot, reserved_1y...
}

class Writer {
  public:
    explicit Writer(Overlay& overlay) : m_overlay(overlay) {}

    void line(std::string text) {
        m_overlay.yaml += text;
        m_overlay.yaml += '\n';
        ++m_lines;
    }
    std::uint32_t next_line() const { return m_lines + 1; }

    // The provider block: its id, and the regions the feed added to it.
    void provider(const std::string& id,
                  const std::vector<std::pair<std::string, RegionInfo>>& regions) {
        std::vector<std::string> added;
        for (const auto& [owner, region] : regions) {
            if (owner == id) {
                added.push_back(fmt::format("{{id: {}, name: {}, country: {}}}",
                                            quoted(region.id),
                                            quoted(region.name),
                                            quoted(region.country)));
            }
        }
        if (added.empty()) {
            line(fmt::format("provider: {{id: {}}}", quoted(id)));
            return;
        }
        line("provider:");
        line(fmt::format("  id: {}", quoted(id)));
        line("  regions:");
        for (const std::string& region : added) {
            line(fmt::format("    - {}", region));
        }
    }

    // The instance type's specs as the active catalog has them (an overlay's instance type
    // replaces the earlier one's fields, so they are all written).
    void specs(const InstanceType& type) {
        line(fmt::format("  - id: {}", quoted(type.id)));
        line(fmt::format("    family: {}", quoted(type.family)));
        line(fmt::format("    gpu: {}", quoted(type.gpu)));
        line(fmt::format("    gpu_count: {}", type.gpu_count));
        if (type.gpu_memory_gb) {
            line(fmt::format("    gpu_memory_gb: {}", *type.gpu_memory_gb));
        }
        line(fmt::format("    vcpus: {}", type.vcpus));
        line(fmt::format("    memory_gb: {}", type.memory_gb));
        line(fmt::format("    network_gbps: {}", type.network_gbps));
        line(fmt::format("    rdma: {}", type.rdma));
        line(fmt::format("    nvlink: {}", type.nvlink));
        if (!type.fabric.empty()) {
            line(fmt::format("    fabric: {}", quoted(type.fabric)));
            line(fmt::format("    fabric_gbps: {}", type.fabric_gbps));
        }
        if (!type.vgpu_series.empty()) {
            line(fmt::format("    vgpu_series: {}", quoted(type.vgpu_series)));
        }
        line(fmt::format("    local_storage_gb: {}", type.local_storage_gb));
        line(fmt::format("    source: {}", quoted(type.provenance.source.str())));
        line(fmt::format("    as_of: {}", format_date(type.provenance.as_of)));
        line(fmt::format("    confidence: {}", to_string(type.provenance.confidence)));
        if (!type.provenance.notes.str().empty()) {
            line(fmt::format("    notes: {}", quoted(type.provenance.notes.str())));
        }
        line("    regions:");
    }

    // One region's row from its entries (one a plan, in sheet order).
    void row(const std::vector<const ImportedPrice*>& entries) {
        const ImportedPrice& first = *entries.front();
        std::string fields = fmt::format("region: {}", quoted(first.region));
        std::vector<std::string> notes;
        for (const Plan plan : k_all_plans) {
            for (const ImportedPrice* entry : entries) {
                if (entry->plan == plan) {
                    fields += fmt::format(", {}: {}", plan_key(plan), format_micros(entry->micros));
                }
            }
        }
        for (const ImportedPrice* entry : entries) {
            if (!entry->notes.empty() &&
                std::find(notes.begin(), notes.end(), entry->notes) == notes.end()) {
                notes.push_back(entry->notes);
            }
        }
        fields += fmt::format(", currency: {}, source: {}, as_of: {}, confidence: {}",
                              first.currency,
                              quoted(first.source),
                              format_date(first.as_of),
                              to_string(first.confidence));
        if (!notes.empty()) {
            fields += fmt::format(", notes: {}", quoted(fmt::format("{}", fmt::join(notes, "; "))));
        }
        m_overlay.row_origins.emplace_back(next_line(), first.pos);
        line(fmt::format("      - {{{}}}", fields));
    }

  private:
    Overlay& m_overlay;
    std::uint32_t m_lines = 0;
};

// The field rows of one (instance, region) disagree on, or empty.
std::string_view disagreement(const ImportedPrice& a, const ImportedPrice& b) {
    if (a.currency != b.currency) {
        return "currency";
    }
    if (a.as_of != b.as_of) {
        return "as_of";
    }
    if (a.source != b.source) {
        return "source";
    }
    if (a.confidence != b.confidence) {
        return "confidence";
    }
    return {};
}

using Key = std::tuple<std::string, std::string, std::string>; // provider, instance, region

// The instance type `id` of `provider`: the catalog's, else the feed's new one, else null.
const InstanceType* find_type(const std::string& provider,
                              const std::string& id,
                              const Catalog& catalog,
                              const std::vector<InstanceType>& new_instances) {
    const auto is_it = [&](const InstanceType& i) {
        return i.provider == provider && i.id == id;
    };
    for (const InstanceType* type : catalog.match_instances(id)) {
        if (is_it(*type)) {
            return type;
        }
    }
    const auto type = std::find_if(new_instances.begin(), new_instances.end(), is_it);
    return type == new_instances.end() ? nullptr : &*type;
}

} // namespace

std::vector<Overlay>
write_overlays(const ImportResult& imported, const Catalog& catalog, Diagnostics& diagnostics) {
    const std::vector<ImportedPrice>& prices = imported.prices;
    std::map<Key, std::vector<const ImportedPrice*>> rows;
    for (const ImportedPrice& price : prices) {
        auto& row = rows[{price.provider, price.instance, price.region}];
        const std::string_view field = row.empty() ? "" : disagreement(*row.front(), price);
        if (!field.empty()) {
            diagnostics.error(price.pos,
                              "bad-value",
                              fmt::format("row: {} {} {}: its {} differs from line {}'s",
                                          price.instance,
                                          price.region,
                                          plan_flag_name(price.plan),
                                          field,
                                          row.front()->pos.line),
                              "one region's prices of an instance type become one price row: "
                              "give them the same currency, as_of, source and confidence");
            continue;
        }
        row.push_back(&price);
    }
    std::vector<Overlay> overlays;
    std::unique_ptr<Writer> writer;
    std::string instance;
    for (const auto& [key, entries] : rows) {
        // Plain names, not structured bindings: clang 14 does not capture those in a lambda.
        const std::string& provider = std::get<0>(key);
        const std::string& id = std::get<1>(key);
        if (overlays.empty() || overlays.back().provider != provider) {
            overlays.push_back({provider, {}, {}});
            writer = std::make_unique<Writer>(overlays.back());
            writer->line("schema_version: 1");
            writer->provider(provider, imported.regions);
            writer->line("instances:");
            instance.clear();
        }
        if (id != instance) {
            const InstanceType* type = find_type(provider, id, catalog, imported.instances);
            if (type == nullptr) { // an importer's slip: refused, never written without specs
                diagnostics.error(
                    entries.front()->pos,
                    "unknown-instance",
                    fmt::format(
                        "{} {}: not in the catalog and the feed gave no specs", provider, id),
                    "add the instance type to the catalog first");
                return {};
            }
            writer->specs(*type);
            instance = id;
        }
        writer->row(entries);
    }
    return overlays;
}

} // namespace gpuadvisor::cli
