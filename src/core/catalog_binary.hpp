// A compact binary form of a built Catalog: how the built-in catalog is compiled into the
// binary (parsed and checked at build time, read back in microseconds at run time).
#pragma once

#include "gpuadvisor/catalog.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace gpuadvisor {

std::string serialize_catalog(const Catalog& catalog);

// nullopt if the bytes are truncated, corrupt (checksum) or of another format version.
std::optional<Catalog> deserialize_catalog(std::string_view bytes);

} // namespace gpuadvisor
