// The rules loaders over an already parsed document: how the built-in data, parsed at build
// time and compiled in as trees (yaml/yaml_tree_binary.hpp), skips yaml-cpp at run time. Each
// equals its *_text loader on the same text.
#pragma once

#include "gpuadvisor/rules.hpp"
#include "yaml/yaml_reader.hpp"

namespace gpuadvisor {

RuleLoad load_rule_document(const YamlDocument& document);

} // namespace gpuadvisor
