#include "gpuadvisor/workload.hpp"

#include "gpuadvisor/catalog_io.hpp"
#include "gpuadvisor/units.hpp"
#include "yaml/schema.hpp"
#include "yaml/yaml_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <utility>
#include <variant>

namespace gpuadvisor {

namespace {
using W = Workload;
using K = QuantityKind;
} // namespace

// In the order of `--help`; `place` is the key's place in k_fields (below).
constexpr std::array<WorkloadField, 22> k_workload_fields{{
    {"params", "--params", &W::params, 3, "Parameters of a generic dense transformer (7B)"},
    {"tokens", "--tokens", &W::tokens, 4, "Training tokens (1T)"},
    {"samples", "--samples", &W::samples, 25, "Training samples, for CNN / recommender models"},
    {"seq_len", "--seq-len", &W::seq_len, 7, "Sequence length (training)"},
    {"batch", "--batch", &W::batch, 8, "Micro-batch per GPU (training) or serving batch"},
    {"qps", "--qps", &W::qps, 9, "Queries per second to serve"},
    {"latency_ms", "--latency-ms", &W::latency_ms, 10, "End-to-end latency target per request, ms"},
    {"ttft_ms", "--ttft-ms", &W::ttft_ms, 19, "Time to first token target (p50), ms (LLM serving)"},
    {"tpot_ms",
     "--tpot-ms",
     &W::tpot_ms,
     20,
     "Time per output token target (p50), ms (LLM serving)"},
    {"lora_rank", "--lora-rank", &W::lora_rank, 21, "LoRA/QLoRA adapter rank (default 16)"},
    {"input_tokens", "--input-tokens", &W::input_tokens, 11, "Prompt tokens per request"},
    {"output_tokens", "--output-tokens", &W::output_tokens, 12, "Generated tokens per request"},
    {"fp64_tflops", "--fp64-tflops", &W::fp64_tflops, 13, "Sustained FP64 TFLOPS needed (hpc)"},
    {"fp64_tensor", "--fp64-tensor", &W::fp64_tensor, 14, "The HPC code uses FP64 tensor cores"},
    {"memory_gb", "--memory-gb", &W::memory_gb, 15, "Working set in GB (hpc)", K::bytes},
    {"bandwidth_gb_per_s",
     "--bandwidth-gb-per-s",
     &W::bandwidth_gb_per_s,
     27,
     "Aggregate memory bandwidth needed (hpc)"},
    {"sessions", "--sessions", &W::sessions, 16, "Concurrent vGPU sessions (graphics)"},
    {"memory_per_session_gb",
     "--memory-per-session-gb",
     &W::memory_per_session_gb,
     18,
     "GPU memory per session (graphics)",
     K::bytes},
    {"byo_vgpu",
     "--byo-vgpu",
     &W::byo_vgpu,
     17,
     "You run your own NVIDIA vGPU software on whole GPUs (a host you control, "
     "such as bare metal): split them into Q profiles (graphics)"},
    {"deadline", "--deadline", &W::deadline_hours, 22, "Time limit (30d, 12h)", K::duration_hours},
    {"budget", "--budget", &W::budget, 23, "Budget in the output currency"},
    {"hours_per_month", "--hours-per-month", &W::hours_per_month, 24, "Hours of use per month"},
}};

bool is_finite_work(WorkloadKind kind) {
    return kind == WorkloadKind::training || kind == WorkloadKind::finetune;
}

namespace {

template <class T> void fill(std::optional<T>& target, const std::optional<T>& source) {
    if (source) {
        target = source;
    }
}

} // namespace

std::string_view to_string(WorkloadKind kind) {
    return name_of(k_workload_kind_names, kind);
}
std::string_view to_string(Precision precision) {
    return name_of(k_precision_names, precision);
}
std::string_view to_string(FinetuneMethod method) {
    return name_of(k_finetune_method_names, method);
}
std::optional<WorkloadKind> parse_workload_kind(std::string_view text) {
    return value_named(k_workload_kind_names, text);
}
std::optional<Precision> parse_precision(std::string_view text) {
    return value_named(k_precision_names, text);
}
std::optional<FinetuneMethod> parse_finetune_method(std::string_view text) {
    return value_named(k_finetune_method_names, text);
}

double bytes_per_value(Precision precision) {
    switch (precision) {
    case Precision::fp32:
    case Precision::tf32:
        return 4;
    case Precision::bf16:
    case Precision::fp16:
        return 2;
    case Precision::fp8:
    case Precision::int8:
        return 1;
    case Precision::int4:
        return 0.5;
    case Precision::fp64:
        return 8;
    }
    return 2;
}

Workload overlay(Workload base, const Workload& over) {
    fill(base.kind, over.kind);
    fill(base.model, over.model);
    fill(base.precision, over.precision);
    fill(base.method, over.method);
    for (const WorkloadField& field : k_workload_fields) {
        std::visit([&](auto member) { fill(base.*member, over.*member); }, field.member);
    }
    return base;
}

namespace {

// A quantity field: a plain number, or text with a unit suffix ("7B", "30d", "80GB").
std::optional<double>
quantity(FieldReader& read, const YamlNode& map, std::string_view key, QuantityKind kind) {
    const YamlNode* node = read.value(map, key, "", Need::optional);
    if (node == nullptr) {
        return std::nullopt;
    }
    if (!node->is_scalar()) {
        return read.number(map, key, "", Need::optional, {});
    }
    if (!node->plain) {
        read.diagnostics().error(
            read.pos(*node),
            "bad-number",
            fmt::format("{}: \"{}\" is quoted text, not a number", key, node->text),
            fmt::format("write it without quotes: {}: {}", key, node->text));
        return std::nullopt;
    }
    if (const auto number = node->plain ? parse_strict_number(node->text) : std::nullopt) {
        if (!(*number >= 0)) {
            read.diagnostics().error(read.pos(*node),
                                     "out-of-range",
                                     fmt::format("{}: {} is negative", key, node->text));
            return std::nullopt;
        }
        return number;
    }
    const QuantityParse parsed = parse_quantity(node->text, kind);
    if (!parsed.value) {
        read.diagnostics().error(
            read.pos(*node), "bad-number", fmt::format("{}: {}", key, parsed.error));
    }
    return parsed.value;
}

} // namespace

namespace {

// A profile's fields: the table's and these, each at its place. Did-you-mean ties and the list
// of fields in a hint follow this order, the order the keys came in.
constexpr std::array<std::pair<std::string_view, std::size_t>, 6> k_other_fields{
    {{"schema_version", 0},
     {"workload", 1},
     {"model", 2},
     {"precision", 5},
     {"method", 6},
     {"name", 26}}};
constexpr auto k_fields = [] {
    std::array<std::string_view, k_other_fields.size() + k_workload_fields.size()> fields{};
    for (const auto& [key, place] : k_other_fields) {
        fields.at(place) = key;
    }
    for (const WorkloadField& field : k_workload_fields) {
        fields.at(field.place) = field.key;
    }
    return fields;
}();
static_assert(std::ranges::none_of(k_fields, &std::string_view::empty),
              "every place of a profile's fields is taken once");

// A profile's fields past its top level.
void decode_profile(FieldReader& read, const YamlNode& root, WorkloadLoad& load) {
    static constexpr auto k_kind_names = names_only(k_workload_kind_names);
    static constexpr auto k_precision_list = names_only(k_precision_names);
    static constexpr auto k_method_names = names_only(k_finetune_method_names);
    read.whole(root, "schema_version", "", Need::required, {1, true, 1});
    Workload& w = load.workload;
    if (const auto kind = read.one_of(root, "workload", "", Need::optional, k_kind_names)) {
        w.kind = parse_workload_kind(*kind);
    }
    w.model = read.text(root, "model", "", Need::optional);
    if (const auto precision =
            read.one_of(root, "precision", "", Need::optional, k_precision_list)) {
        w.precision = parse_precision(*precision);
    }
    if (const auto method = read.one_of(root, "method", "", Need::optional, k_method_names)) {
        w.method = parse_finetune_method(*method);
    }
    for (const WorkloadField& field : k_workload_fields) {
        if (const auto* number = std::get_if<WorkloadField::Number>(&field.member)) {
            w.*(*number) = quantity(read, root, field.key, field.kind);
        } else {
            w.*std::get<WorkloadField::Switch>(field.member) =
                read.boolean(root, field.key, "", Need::optional);
        }
    }
    read.text(root, "name", "", Need::optional);
    for (const auto& [key, value] : root.entries) {
        load.positions.emplace(key.text, read.pos(value));
    }
    load.diagnostics.sort();
}

} // namespace

WorkloadLoad load_workload_text(const std::string& file, std::string_view text) {
    return load_data_file<WorkloadLoad>(
        file,
        text,
        {"a workload profile",
         k_fields,
         "the profile is empty",
         "a profile starts with 'schema_version: 1' and 'workload: ...'"},
        decode_profile);
}

WorkloadLoad load_workload_profile(const std::string& path) {
    WorkloadLoad load;
    const auto text = read_file_capped(path, LoadLimits{}, load.diagnostics);
    if (!text) {
        return load;
    }
    return load_workload_text(path, *text);
}

} // namespace gpuadvisor
