// The data-file loaders over an already parsed document: how the built-in data, parsed at
// build time and compiled in as trees (yaml_tree_binary.hpp), skips yaml-cpp at run time.
// Each equals its *_text loader on the same text.
#pragma once

#include "gpuadvisor/assumptions.hpp"
#include "gpuadvisor/fx.hpp"
#include "gpuadvisor/models.hpp"
#include "gpuadvisor/pricing.hpp"
#include "gpuadvisor/rules.hpp"
#include "gpuadvisor/tco.hpp"
#include "yaml_reader.hpp"

namespace gpuadvisor {

// `diagnostics`: what parsing the document already found.
ModelLoad load_models_document(const YamlDocument& document,
                               Diagnostics diagnostics = Diagnostics());
AssumptionsLoad load_assumptions_document(const YamlDocument& document,
                                          Diagnostics diagnostics = Diagnostics());
FxLoad load_fx_document(const YamlDocument& document, Diagnostics diagnostics = Diagnostics());
PricingLoad load_pricing_data_document(const YamlDocument& document,
                                       Diagnostics diagnostics = Diagnostics());
TcoLoad load_tco_document(const YamlDocument& document, Diagnostics diagnostics = Diagnostics());
RuleLoad load_rule_document(const YamlDocument& document);

} // namespace gpuadvisor
