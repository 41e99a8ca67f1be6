// Negotiated discounts in catalog files: decoding one entry, and checking the merged set
// against the catalog it applies to (references, overlaps, expiry).
#pragma once

#include "gpuadvisor/catalog.hpp"
#include "gpuadvisor/diagnostic.hpp"
#include "yaml/schema.hpp"

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace gpuadvisor {

// One `discounts:` entry; nullopt (with every error reported) when it is not valid.
std::optional<Discount>
decode_discount(FieldReader& read, const YamlNode& node, const std::string& path);

// Keeps the discounts whose provider, instance, family and regions exist among the merged
// catalog's providers and instances, and reports the rest; reports overlaps of equally
// specific discounts and expired ones.
std::vector<Discount> check_discounts(std::vector<Discount> discounts,
                                      std::span<const Provider> providers,
                                      std::span<const InstanceType> instances,
                                      Date today,
                                      Diagnostics& diagnostics);

} // namespace gpuadvisor
