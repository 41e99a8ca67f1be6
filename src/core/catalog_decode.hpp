// Decoding one catalog file's tree into typed values (no cross-file checks yet).
#pragma once

#include "gpuadvisor/catalog.hpp"
#include "yaml_reader.hpp"

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
};

struct PriceRowInput {
    PriceRow row;
    std::optional<std::string> currency;
    ProvenanceInput provenance;
};

struct InstanceInput {
    InstanceType instance; // provider, prices and provenance filled in at merge
    ProvenanceInput provenance;
    std::vector<PriceRowInput> rows;
};

struct GpuInput {
    Gpu gpu;
    ProvenanceInput provenance; // source and as_of are required for GPUs
};

struct CatalogFragment {
    std::string file;
    std::vector<GpuInput> gpus;
    std::optional<ProviderInput> provider;
    std::vector<InstanceInput> instances;
    std::vector<Discount> discounts;
};

// Decodes a parsed document. Entries with errors are left out; every error is reported.
CatalogFragment decode_catalog(const YamlDocument& document, Diagnostics& diagnostics);

} // namespace gpuadvisor
