// What the user wants to run: from flags or a profile file (the same names).
#pragma once

#include "gpuadvisor/diagnostic.hpp"
#include "gpuadvisor/enum_names.hpp"
#include "gpuadvisor/units.hpp"

#include <array>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace gpuadvisor {

enum class WorkloadKind { training, finetune, inference, hpc, graphics };
enum class Precision { fp32, tf32, bf16, fp16, fp8, int8, int4, fp64 };
enum class FinetuneMethod { full, lora, qlora };

// Their names, as flags, profiles and JSON spell them, in the order help text lists them.
inline constexpr EnumNames<WorkloadKind, 5> k_workload_kind_names{{
    {WorkloadKind::training, "training"},
    {WorkloadKind::finetune, "finetune"},
    {WorkloadKind::inference, "inference"},
    {WorkloadKind::hpc, "hpc"},
    {WorkloadKind::graphics, "graphics"},
}};
inline constexpr EnumNames<Precision, 8> k_precision_names{{
    {Precision::fp32, "fp32"},
    {Precision::tf32, "tf32"},
    {Precision::bf16, "bf16"},
    {Precision::fp16, "fp16"},
    {Precision::fp8, "fp8"},
    {Precision::int8, "int8"},
    {Precision::int4, "int4"},
    {Precision::fp64, "fp64"},
}};
inline constexpr EnumNames<FinetuneMethod, 3> k_finetune_method_names{{
    {FinetuneMethod::full, "full"},
    {FinetuneMethod::lora, "lora"},
    {FinetuneMethod::qlora, "qlora"},
}};

std::string_view to_string(WorkloadKind kind);
// Training and fine-tuning: a job with an end, timed and billed for its hours (the others
// are services, priced per month).
bool is_finite_work(WorkloadKind kind);
std::string_view to_string(Precision precision);
std::string_view to_string(FinetuneMethod method);
std::optional<WorkloadKind> parse_workload_kind(std::string_view text);
std::optional<Precision> parse_precision(std::string_view text);
std::optional<FinetuneMethod> parse_finetune_method(std::string_view text);
// Bytes per value: fp32/tf32 4, bf16/fp16 2, fp8/int8 1, int4 0.5, fp64 8.
double bytes_per_value(Precision precision);

// Every field is optional until normalised: a flag overrides the profile file's value.
struct Workload {
    std::optional<WorkloadKind> kind;
    std::optional<std::string> model; // preset id or alias
    std::optional<double> params;     // parameters (7B = 7e9)
    std::optional<double> tokens;     // training tokens
    std::optional<Precision> precision;
    std::optional<FinetuneMethod> method; // finetune: full, lora, qlora
    std::optional<double> seq_len;
    std::optional<double> batch; // micro-batch per GPU (training), batch (serving)
    std::optional<double> qps;
    std::optional<double> latency_ms; // end to end
    std::optional<double> ttft_ms;    // time to first token
    std::optional<double> tpot_ms;    // time per output token
    std::optional<double> lora_rank;
    std::optional<double> input_tokens;
    std::optional<double> output_tokens;
    std::optional<double> fp64_tflops;
    std::optional<bool> fp64_tensor;
    std::optional<double> memory_gb;          // hpc: working set
    std::optional<double> bandwidth_gb_per_s; // hpc: aggregate memory bandwidth needed
    std::optional<double> sessions;
    std::optional<bool> byo_vgpu;
    std::optional<double> memory_per_session_gb;
    std::optional<double> deadline_hours;
    std::optional<double> budget;
    std::optional<double> hours_per_month;
    std::optional<double> samples; // non-LLM training: samples seen
};

// A number or a yes/no of a workload: its profile key, its flag (the key with '-' for '_'),
// the `Workload` member it fills and its help. The flags (`--help` lists them in the table's
// order), a profile's decoding and the overlay of flags on a profile come from the table: a
// new field is a row there and its member above. The workload kind, model, precision and
// method are read on their own (each a choice or a name).
struct WorkloadField {
    using Number = std::optional<double> Workload::*;
    using Switch = std::optional<bool> Workload::*; // a flag without a value; true/false in a file
    std::string_view key;
    std::string_view flag;
    std::variant<Number, Switch> member;
    // Where the key stands among a profile's fields (did-you-mean ties and the list of fields
    // follow it): the order the keys came in, so a new key takes the next place.
    std::size_t place;
    std::string_view help;
    QuantityKind kind = QuantityKind::count; // a number's units: "7B", "80GB", "30d"
};
extern const std::array<WorkloadField, 22> k_workload_fields; // workload.cpp

// Fills unset fields of `base` from `over` (flags over the profile).
Workload overlay(Workload base, const Workload& over);

// A workload profile file: the flag names with '_' for '-' (seq_len, input_tokens...).
struct WorkloadLoad {
    Workload workload;
    Diagnostics diagnostics;
    std::map<std::string, SourcePos> positions; // where each key's value is in the file
};
WorkloadLoad load_workload_profile(const std::string& path);
WorkloadLoad load_workload_text(const std::string& file, std::string_view text);

} // namespace gpuadvisor
