// A parsed YAML document (YamlNode tree with positions) as compact bytes: the built-in data
// files are parsed and checked at build time and compiled in this form, so that gpuadvisor
// runs the same decoders at start-up without parsing YAML again.
#pragma once

#include "yaml/yaml_reader.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace gpuadvisor {

std::string serialize_document(const YamlDocument& document);

// nullopt if the bytes are truncated, corrupt or of another format.
std::optional<YamlDocument> deserialize_document(std::string_view bytes);

} // namespace gpuadvisor
