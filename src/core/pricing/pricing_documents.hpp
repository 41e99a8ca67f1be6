// The fx, pricing and tco loaders over an already parsed document: how the built-in data, parsed at
// build time and compiled in as trees (yaml/yaml_tree_binary.hpp), skips yaml-cpp at run time. Each
// equals its *_text loader on the same text.
#pragma once

#include "gpuadvisor/fx.hpp"
#include "gpuadvisor/pricing.hpp"
#include "gpuadvisor/tco.hpp"
#include "yaml/yaml_reader.hpp"

namespace gpuadvisor {

// `diagnostics`: what parsing the document already found.
FxLoad load_fx_document(const YamlDocument& document, Diagnostics diagnostics = Diagnostics());
PricingLoad load_pricing_data_document(const YamlDocument& document,
                                       Diagnostics diagnostics = Diagnostics());
TcoLoad load_tco_document(const YamlDocument& document, Diagnostics diagnostics = Diagnostics());

} // namespace gpuadvisor
