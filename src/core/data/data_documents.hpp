// The models and assumptions loaders over an already parsed document: how the built-in data, parsed
// at build time and compiled in as trees (yaml/yaml_tree_binary.hpp), skips yaml-cpp at run time.
// Each equals its *_text loader on the same text.
#pragma once

#include "gpuadvisor/assumptions.hpp"
#include "gpuadvisor/models.hpp"
#include "yaml/yaml_reader.hpp"

namespace gpuadvisor {

// `diagnostics`: what parsing the document already found.
ModelLoad load_models_document(const YamlDocument& document,
                               Diagnostics diagnostics = Diagnostics());
AssumptionsLoad load_assumptions_document(const YamlDocument& document,
                                          Diagnostics diagnostics = Diagnostics());

} // namespace gpuadvisor
