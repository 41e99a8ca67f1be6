#include "gpuadvisor/workload.hpp"

#include "gpuadvisor/catalog_io.hpp"
#include "gpuadvisor/units.hpp"
#include "yaml/schema.hpp"
#include "yaml/yaml_reader.hpp"

#include <fmt/format.h>

#include <array>

namespace gpuadvisor {

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
    fill(base.params, over.params);
    fill(base.tokens, over.tokens);
    fill(base.precision, over.precision);
    fill(base.method, over.method);
    fill(base.seq_len, over.seq_len);
    fill(base.batch, over.batch);
    fill(base.qps, over.qps);
    fill(base.latency_ms, over.latency_ms);
    fill(base.input_tokens, over.input_tokens);
    fill(base.output_tokens, over.output_tokens);
    fill(base.fp64_tflops, over.fp64_tflops);
    fill(base.fp64_tensor, over.fp64_tensor);
    fill(base.memory_gb, over.memory_gb);
    fill(base.bandwidth_gb_per_s, over.bandwidth_gb_per_s);
    fill(base.sessions, over.sessions);
    fill(base.byo_vgpu, over.byo_vgpu);
    fill(base.memory_per_session_gb, over.memory_per_session_gb);
    fill(base.ttft_ms, over.ttft_ms);
    fill(base.tpot_ms, over.tpot_ms);
    fill(base.lora_rank, over.lora_rank);
    fill(base.deadline_hours, over.deadline_hours);
    fill(base.budget, over.budget);
    fill(base.hours_per_month, over.hours_per_month);
    fill(base.samples, over.samples);
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

constexpr std::array<std::string_view, 28> k_fields{"schema_version",
                                                    "workload",
                                                    "model",
                                                    "params",
                                                    "tokens",
                                                    "precision",
                                                    "method",
                                                    "seq_len",
                                                    "batch",
                                                    "qps",
                                                    "latency_ms",
                                                    "input_tokens",
                                                    "output_tokens",
                                                    "fp64_tflops",
                                                    "fp64_tensor",
                                                    "memory_gb",
                                                    "sessions",
                                                    "byo_vgpu",
                                                    "memory_per_session_gb",
                                                    "ttft_ms",
                                                    "tpot_ms",
                                                    "lora_rank",
                                                    "deadline",
                                                    "budget",
                                                    "hours_per_month",
                                                    "samples",
                                                    "name",
                                                    "bandwidth_gb_per_s"};

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
    w.params = quantity(read, root, "params", QuantityKind::count);
    w.tokens = quantity(read, root, "tokens", QuantityKind::count);
    w.samples = quantity(read, root, "samples", QuantityKind::count);
    w.seq_len = quantity(read, root, "seq_len", QuantityKind::count);
    w.batch = quantity(read, root, "batch", QuantityKind::count);
    w.qps = quantity(read, root, "qps", QuantityKind::count);
    w.latency_ms = quantity(read, root, "latency_ms", QuantityKind::count);
    w.input_tokens = quantity(read, root, "input_tokens", QuantityKind::count);
    w.output_tokens = quantity(read, root, "output_tokens", QuantityKind::count);
    w.fp64_tflops = quantity(read, root, "fp64_tflops", QuantityKind::count);
    w.fp64_tensor = read.boolean(root, "fp64_tensor", "", Need::optional);
    w.memory_gb = quantity(read, root, "memory_gb", QuantityKind::bytes);
    w.bandwidth_gb_per_s = quantity(read, root, "bandwidth_gb_per_s", QuantityKind::count);
    w.sessions = quantity(read, root, "sessions", QuantityKind::count);
    w.byo_vgpu = read.boolean(root, "byo_vgpu", "", Need::optional);
    w.memory_per_session_gb = quantity(read, root, "memory_per_session_gb", QuantityKind::bytes);
    w.ttft_ms = quantity(read, root, "ttft_ms", QuantityKind::count);
    w.tpot_ms = quantity(read, root, "tpot_ms", QuantityKind::count);
    w.lora_rank = quantity(read, root, "lora_rank", QuantityKind::count);
    w.deadline_hours = quantity(read, root, "deadline", QuantityKind::duration_hours);
    w.budget = quantity(read, root, "budget", QuantityKind::count);
    w.hours_per_month = quantity(read, root, "hours_per_month", QuantityKind::count);
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
