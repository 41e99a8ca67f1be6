// Storage and transfer prices in catalog files (`transfer:`): decoding one provider's entry,
// and merging the entries of every file (a later file's entry replaces the provider's).
#pragma once

#include "catalog/catalog_decode.hpp"
#include "gpuadvisor/catalog.hpp"
#include "gpuadvisor/diagnostic.hpp"
#include "yaml/schema.hpp"

#include <optional>
#include <string>
#include <vector>

namespace gpuadvisor {

// One `transfer:` entry; nullopt (with every error reported) when it is not valid.
std::optional<ProviderTransfer>
decode_transfer(FieldReader& read, const YamlNode& node, const std::string& path);

// The base's entries, then each file's in order, a later entry for a provider replacing the
// earlier one whole. An entry for a provider the catalog lacks is an error (unknown-reference,
// with did-you-mean) and is left out.
TransferData merge_transfer(const Catalog* base,
                            std::vector<CatalogFragment>& fragments,
                            const std::vector<Provider>& providers,
                            Diagnostics& diagnostics);

} // namespace gpuadvisor
