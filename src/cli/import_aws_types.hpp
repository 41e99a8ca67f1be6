// What the AWS importer makes of a product's attributes: a new instance type's specs, its GPU,
// a new region's country.
#pragma once

#include "gpuadvisor/catalog.hpp"
#include "import_aws.hpp"

#include <optional>
#include <string>

namespace gpuadvisor::cli {

// The catalog GPU of an AWS family ("p5e"): the GPU of the catalog's aws types of that family,
// else k_aws_family_gpus' (import_aws_types.cpp); empty when neither knows.
std::string aws_family_gpu(const Catalog& catalog, const std::string& family);

// The family of an instance type: "p5e.48xlarge" -> "p5e", "p6-b200.48xlarge" -> "p6-b200".
std::string aws_family(const std::string& instance);

// A new instance type from a product's attributes (gpu, vcpu, memory, networkPerformance,
// storage, gpuMemory); nullopt with `problem` set when an attribute is unreadable.
std::optional<InstanceType> aws_instance(const AwsProduct& product,
                                         const std::string& gpu,
                                         const Provenance& provenance,
                                         std::string& problem);

// The ISO 3166 country of an AWS region id, empty when not known.
std::string aws_region_country(const std::string& region);

// A product attribute's count ("8", "1,024"), nullopt when not a whole number.
std::optional<long> aws_count(const std::string& text);

} // namespace gpuadvisor::cli
