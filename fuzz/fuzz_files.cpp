// Fuzzes every file gpuadvisor reads: the first byte picks the kind, the rest is the file.
// Each kind goes through its whole pipeline (read limits, parse, schema, checks) and must
// return diagnostics, never crash, hang or trip a sanitizer. Every input is also read by both
// YAML readers: what the subset reader accepts must be yaml-cpp's tree (yaml_subset.cpp).
#include "gpuadvisor/assumptions.hpp"
#include "gpuadvisor/catalog_io.hpp"
#include "gpuadvisor/fx.hpp"
#include "gpuadvisor/models.hpp"
#include "gpuadvisor/pricing.hpp"
#include "gpuadvisor/rules.hpp"
#include "gpuadvisor/sizing.hpp"
#include "gpuadvisor/tco.hpp"
#include "gpuadvisor/workload.hpp"
#include "yaml/yaml_reader.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

using namespace gpuadvisor;

namespace {

// parse_yaml (the subset reader, where it can) must read the text as yaml-cpp's path does.
void check_readers_agree(const std::string& text) {
    Diagnostics with_subset;
    Diagnostics events_only;
    const YamlDocument read = parse_yaml("fuzz.yaml", text, LoadLimits{}, with_subset);
    const YamlDocument events = parse_yaml_events("fuzz.yaml", text, LoadLimits{}, events_only);
    if (read.root != events.root || with_subset.items().size() != events_only.items().size()) {
        std::abort();
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) {
        return 0;
    }
    const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
    check_readers_agree(text);
    switch (data[0] % 8) {
    case 0: { // a catalog overlay over the built-in catalog
        const NamedText file{"fuzz.yaml", text};
        (void)load_catalog_texts({&file, 1}, {}, {}, &builtin_catalog());
        break;
    }
    case 1: { // a workload profile, normalised and sized
        const WorkloadLoad load = load_workload_text("fuzz.yaml", text);
        const NormalizeResult normal = normalize(load.workload, builtin_models());
        if (normal.workload) {
            (void)requirements(*normal.workload, builtin_assumptions());
        }
        break;
    }
    case 2: { // a rule file, checked against the built-in catalog
        const NamedText file{"fuzz.yaml", text};
        RuleLoad load = load_rule_texts({&file, 1});
        check_rule_names(load.rules, builtin_catalog(), load.diagnostics);
        break;
    }
    case 3:
        (void)load_pricing_data_text("fuzz.yaml", text);
        break;
    case 4:
        (void)load_tco_text("fuzz.yaml", text);
        break;
    case 5:
        (void)load_models_text("fuzz.yaml", text);
        break;
    case 6:
        (void)load_assumptions_text("fuzz.yaml", text);
        break;
    default:
        (void)load_fx_text("fuzz.yaml", text);
        break;
    }
    return 0;
}
