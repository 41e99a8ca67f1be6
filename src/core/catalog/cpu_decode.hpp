// Server CPUs in catalog files (`cpus:`): decoding one entry and checking its figures agree.
#pragma once

#include "gpuadvisor/catalog.hpp"
#include "gpuadvisor/diagnostic.hpp"
#include "yaml/schema.hpp"

#include <optional>
#include <string>

namespace gpuadvisor {

// One `cpus:` entry; nullopt (with every error reported) when it is not valid. A peak or a
// bandwidth more than 10% off the datasheet arithmetic is warned about (`implausible-cpu`).
std::optional<Cpu> decode_cpu(FieldReader& read, const YamlNode& node, const std::string& path);

} // namespace gpuadvisor
