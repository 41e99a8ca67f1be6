// Decoding one catalog file's tree into typed values (no cross-file checks yet).
#pragma once

#include "gpuadvisor/catalog.hpp"
#include "yaml/schema.hpp"
#include "yaml/yaml_reader.hpp"

#include <optional>
#include <string>
#include <vector>

namespace gpuadvisor {

// Provenance as written: unset fields inherit from the enclosing entry.
struct ProvenanceInput {
    std::optional<std::string> source;
    std::optional<Date> as_of;
    std::optional<Confidence> confidence;
    std::string notes;
    SourcePos as_of_pos;
};

struct ProviderInput {
    std::string id;
    std::optional<std::string> name;
    std::optional<std::string> currency;
    ProvenanceInput provenance;
    std::vector<RegionInfo> regions;
    SourcePos origin;
    // An error of its own: what decoded is merged, but the file's instance types are only
    // checked (as flawed ones), and its completeness is not checked.
    bool flawed = false;
};

struct PriceRowInput {
    PriceRow row;
    std::optional<std::string> currency;
    ProvenanceInput provenance;
    bool remove = false; // `remove: true`: the region's row in an earlier file is taken out
    // Kept from an earlier file under a later one: its own file's and instance type's levels
    // are applied already, so only the provider's remain (catalog_overlay.cpp).
    bool settled = false;
    // An error of its own: the prices that decoded are checked (a price that did not is
    // nullopt), the dates are not.
    bool flawed = false;
};

struct InstanceInput {
    InstanceType instance; // provider, prices and provenance filled in at merge
    ProvenanceInput provenance;
    std::vector<PriceRowInput> rows;
    bool flawed = false;        // an error anywhere in it: checked, never merged
    bool fields_flawed = false; // an error in its own fields: checks that read them are skipped
};

struct GpuInput {
    Gpu gpu;
    ProvenanceInput provenance; // source and as_of are required for GPUs
    bool flawed = false;        // an error of its own
};

// A file's entries as decoded. Entries with an error of their own are not merged into the
// catalog, but what decoded of them is still checked (so one run of `catalog validate` shows
// every problem) and their names are known (so nothing that names them is reported).
struct CatalogFragment {
    std::string file;
    std::vector<GpuInput> gpus; // without error
    std::optional<ProviderInput> provider;
    std::vector<InstanceInput> instances;   // without error
    std::vector<Discount> discounts;        // without error
    std::vector<Cpu> cpus;                  // without error
    std::vector<ProviderTransfer> transfer; // without error
    std::vector<std::string> flawed_gpus;   // ids and aliases, lower case, of GPUs with an error
    std::vector<InstanceInput> flawed_instances; // with an error (InstanceInput::flawed)
};

// Decodes a parsed document; every error is reported.
CatalogFragment decode_catalog(const YamlDocument& document, Diagnostics& diagnostics);

// decode_catalog in pieces, so a large file's instance types can be decoded on several
// threads at once: the constructor decodes the top level, GPUs and provider; instances()
// decodes a run of the instance list, each run with diagnostics of its own; finish() takes the
// runs in list order, checks the instance ids are unique and decodes the discounts. With the
// runs' diagnostics appended in list order between the constructor's and finish()'s, the
// fragment and the diagnostics are decode_catalog's. The document must outlive the decode.
class CatalogDecode {
  public:
    CatalogDecode(const YamlDocument& document, Diagnostics& diagnostics);

    // The instance types to decode: none when the file has none or stopped at its top level.
    std::size_t instance_count() const;
    // Instance types [first, last): safe on several threads at once, each with its own
    // diagnostics.
    std::vector<InstanceInput>
    instances(std::size_t first, std::size_t last, Diagnostics& diagnostics) const;
    // Once, after every run.
    CatalogFragment finish(std::vector<std::vector<InstanceInput>> runs, Diagnostics& diagnostics);

  private:
    const YamlDocument& m_document;
    CatalogFragment m_fragment;
    const std::span<const YamlNode>* m_instances = nullptr;
    bool m_began = false;
};

// The `currency` field of `map`: an ISO 4217 code, or nullopt with the error reported (a
// did-you-mean where one is near) or, when optional, absent.
std::optional<std::string>
read_currency(FieldReader& read, const YamlNode& map, std::string_view path, Need need);

} // namespace gpuadvisor
