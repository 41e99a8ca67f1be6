#include "gpuadvisor/rules.hpp"

#include "gpuadvisor/units.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace gpuadvisor {

namespace {

using S = FieldScope;
using T = FieldType;

constexpr std::array<FieldInfo, 34> k_fields{{
    // The workload, as normalised, and what sizing says it needs.
    {"kind", S::workload, T::text, "training, finetune, inference, hpc or graphics"},
    {"model", S::workload, T::text, "the model preset id (empty for --params)"},
    {"params", S::workload, T::number, "model parameters (total, for MoE)"},
    {"tokens", S::workload, T::number, "training tokens"},
    {"precision", S::workload, T::text, "fp32, tf32, bf16, fp16, fp8, int8, int4, fp64"},
    {"qps", S::workload, T::number, "queries per second to serve"},
    {"latency_ms", S::workload, T::number, "the latency target, ms (0: none)"},
    {"fp64_tflops", S::workload, T::number, "sustained FP64 TFLOPS needed"},
    {"memory_gb", S::workload, T::number, "HPC working set, GB"},
    {"sessions", S::workload, T::number, "concurrent vGPU sessions"},
    {"interruptible", S::workload, T::boolean, "the work survives preemption (--interruptible)"},
    {"deadline_hours", S::workload, T::number, "the time limit, hours (absent: none)"},
    {"budget", S::workload, T::number, "the budget (absent: none)"},
    {"memory_total_gb", S::workload, T::number, "all state of one replica, GB"},
    {"min_gpu_memory_gb", S::workload, T::number, "the least per-GPU memory that works, GB"},
    {"required_network_gbps", S::workload, T::number, "network per node the sizing asks for"},
    {"storage_tb", S::workload, T::number, "storage the sizing asks for, TB"},
    // One candidate: an instance type in a region, a count of them, a pricing plan.
    {"provider", S::candidate, T::text, "aws, azure, gcp, alibaba, tencent, huawei..."},
    {"instance", S::candidate, T::text, "the instance type id"},
    {"family", S::candidate, T::text, "the instance family"},
    {"region", S::candidate, T::text, "the region id"},
    {"country", S::candidate, T::text, "the region's country (ISO 3166 alpha-2: US, CN...)"},
    {"gpu", S::candidate, T::text, "the GPU id; compared by family (A100 is every A100)"},
    {"gpu_memory_gb", S::candidate, T::number, "memory per GPU, GB"},
    {"gpu_fp64_tflops", S::candidate, T::number, "FP64 (vector) TFLOPS per GPU"},
    {"gpu_memory_bandwidth_gb_per_s", S::candidate, T::number, "memory bandwidth per GPU"},
    {"gpus_per_instance", S::candidate, T::number, "GPUs per instance (below 1: a vGPU slice)"},
    {"instance_count", S::candidate, T::number, "instances in the configuration"},
    {"total_gpus", S::candidate, T::number, "GPUs in the configuration"},
    {"network_gbps", S::candidate, T::number, "network per instance, Gbps"},
    {"rdma", S::candidate, T::boolean, "RDMA (InfiniBand, EFA, RoCE) between instances"},
    {"nvlink", S::candidate, T::boolean, "NVLink between the GPUs of an instance"},
    {"plan", S::candidate, T::text, "on-demand, spot, reserved-1y, reserved-3y, subscription, mix"},
    {"scaling_efficiency", S::candidate, T::number, "the estimate's scaling efficiency, 0-1"},
}};

// ASCII case-insensitive equality, without copies (rules test every configuration).
bool same_ignoring_case(std::string_view a, std::string_view b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
        const auto lower = [](char c) {
            return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c;
        };
        return lower(x) == lower(y);
    });
}

bool family_match(std::string_view value, std::string_view name) {
    return same_ignoring_case(value, name) ||
           (value.size() > name.size() && same_ignoring_case(value.substr(0, name.size()), name) &&
            value[name.size()] == '-');
}

bool text_equals(std::string_view field, const std::string& value, const std::string& name) {
    return field == "gpu" ? family_match(value, name) : same_ignoring_case(value, name);
}

bool compare(const Condition& c, double x) {
    switch (c.op) {
    case Condition::Op::below:
        return x < c.numbers[0];
    case Condition::Op::at_most:
        return x <= c.numbers[0];
    case Condition::Op::above:
        return x > c.numbers[0];
    case Condition::Op::at_least:
        return x >= c.numbers[0];
    case Condition::Op::between:
        return x >= c.numbers[0] && x < c.numbers[1];
    case Condition::Op::equals:
        return !c.numbers.empty() && x == c.numbers[0];
    case Condition::Op::in:
        return std::find(c.numbers.begin(), c.numbers.end(), x) != c.numbers.end();
    default:
        return false;
    }
}

std::string quoted_list(const Condition& c) {
    std::vector<std::string> items = c.texts;
    for (const double number : c.numbers) {
        items.push_back(format_number(number));
    }
    return fmt::format("[{}]", fmt::join(items, ", "));
}

} // namespace

std::span<const FieldInfo> rule_fields() {
    return k_fields;
}

const FieldInfo* find_rule_field(std::string_view name) {
    for (const FieldInfo& field : k_fields) {
        if (field.name == name) {
            return &field;
        }
    }
    return nullptr;
}

std::string_view to_string(RuleEffect effect) {
    switch (effect) {
    case RuleEffect::require:
        return "require";
    case RuleEffect::prefer:
        return "prefer";
    case RuleEffect::warn:
        return "warn";
    case RuleEffect::suggest:
        return "suggest";
    }
    return "warn";
}

void Facts::set(std::string_view field, FactValue value) {
    for (auto& [name, stored] : m_values) {
        if (name == field) {
            stored = std::move(value);
            return;
        }
    }
    m_values.emplace_back(std::string(field), std::move(value));
}

const FactValue* Facts::find(std::string_view field) const {
    for (const auto& [name, value] : m_values) {
        if (name == field) {
            return &value;
        }
    }
    return m_parent != nullptr ? m_parent->find(field) : nullptr;
}

bool holds(const Condition& c, const Facts& facts) {
    const auto each = [&](auto test) {
        return std::any_of(c.children.begin(), c.children.end(), [&](const Condition& child) {
            return test(holds(child, facts));
        });
    };
    switch (c.op) {
    case Condition::Op::all:
        return !each([](bool held) { return !held; });
    case Condition::Op::any:
        return each([](bool held) { return held; });
    case Condition::Op::none:
        return !each([](bool held) { return held; });
    default:
        break;
    }
    const FactValue* value = facts.find(c.field);
    if (value == nullptr) {
        return false;
    }
    if (const auto* number = std::get_if<double>(value)) {
        return compare(c, *number);
    }
    if (const auto* flag = std::get_if<bool>(value)) {
        return c.op == Condition::Op::equals && *flag == c.boolean;
    }
    const std::string& text = std::get<std::string>(*value);
    return std::any_of(c.texts.begin(), c.texts.end(), [&](const std::string& name) {
        return text_equals(c.field, text, name);
    });
}

std::string describe(const Condition& c) {
    std::vector<std::string> parts;
    for (const Condition& child : c.children) {
        const std::string text = describe(child);
        parts.push_back(child.children.size() > 1 ? "(" + text + ")" : text);
    }
    switch (c.op) {
    case Condition::Op::all:
        return fmt::format("{}", fmt::join(parts, " and "));
    case Condition::Op::any:
        return fmt::format("{}", fmt::join(parts, " or "));
    case Condition::Op::none:
        return fmt::format("not ({})", fmt::join(parts, " or "));
    case Condition::Op::equals:
        return fmt::format("{} is {}",
                           c.field,
                           !c.texts.empty()     ? c.texts[0]
                           : !c.numbers.empty() ? format_number(c.numbers[0])
                           : c.boolean          ? "true"
                                                : "false");
    case Condition::Op::in:
        return fmt::format("{} in {}", c.field, quoted_list(c));
    case Condition::Op::below:
        return fmt::format("{} below {}", c.field, format_number(c.numbers[0]));
    case Condition::Op::at_most:
        return fmt::format("{} at most {}", c.field, format_number(c.numbers[0]));
    case Condition::Op::above:
        return fmt::format("{} above {}", c.field, format_number(c.numbers[0]));
    case Condition::Op::at_least:
        return fmt::format("{} at least {}", c.field, format_number(c.numbers[0]));
    case Condition::Op::between:
        return fmt::format("{} from {} to below {}",
                           c.field,
                           format_number(c.numbers[0]),
                           format_number(c.numbers[1]));
    }
    return {};
}

namespace {

// Every text a condition compares `field` with.
void names_of(const Condition& c, std::string_view field, std::vector<std::string>& out) {
    if (c.field == field) {
        out.insert(out.end(), c.texts.begin(), c.texts.end());
    }
    for (const Condition& child : c.children) {
        names_of(child, field, out);
    }
}

} // namespace

void check_rule_names(const std::vector<Rule>& rules,
                      const Catalog& catalog,
                      Diagnostics& diagnostics) {
    for (const Rule& rule : rules) {
        std::vector<std::string> gpus;
        std::vector<std::string> providers;
        for (const auto& condition : {rule.when, rule.candidate}) {
            if (condition) {
                names_of(*condition, "gpu", gpus);
                names_of(*condition, "provider", providers);
            }
        }
        for (const std::string& gpu : gpus) {
            if (catalog.match_gpus(gpu).empty()) {
                diagnostics.warning(
                    rule.origin,
                    "unknown-reference",
                    fmt::format("rules[{}]: no GPU in the catalog is '{}'", rule.id, gpu),
                    "see 'gpuadvisor catalog list gpus'");
            }
        }
        for (const std::string& provider : providers) {
            if (catalog.find_provider(to_lower(provider)) == nullptr) {
                diagnostics.warning(
                    rule.origin,
                    "unknown-reference",
                    fmt::format("rules[{}]: no provider in the catalog is '{}'", rule.id, provider),
                    "see 'gpuadvisor catalog list instances'");
            }
        }
    }
}

} // namespace gpuadvisor
