#include "workload_options.hpp"

#include "app.hpp"
#include "exit_status.hpp"
#include "output.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace gpuadvisor::cli {

void add_workload_flags(CLI::App& command, WorkloadFlags& f) {
    const auto add =
        [&](const char* name, std::string& target, const char* help, const char* type) {
            command.add_option(name, target, help)->type_name(type)->group("Workload");
        };
    const auto kinds = choices(k_workload_kind_names);
    command.add_option("--workload", f.kind, choices_text(kinds))
        ->check(one_of(kinds))
        ->type_name("KIND")
        ->group("Workload");
    add("--profile", f.profile, "A workload profile YAML file (flags override it)", "FILE");
    add("--model", f.model, "A model preset (llama-2-7b, mixtral-8x7b, bert-base, ...)", "NAME");
    add("--params", f.params, "Parameters of a generic dense transformer (7B)", "N");
    add("--tokens", f.tokens, "Training tokens (1T)", "N");
    add("--samples", f.samples, "Training samples, for CNN / recommender models", "N");
    const auto precisions = choices(k_precision_names);
    command.add_option("--precision", f.precision, "Compute precision")
        ->check(one_of(precisions))
        ->type_name(choices_type(precisions))
        ->group("Workload");
    const auto methods = choices(k_finetune_method_names);
    command.add_option("--method", f.method, "Fine-tuning method (default full)")
        ->check(one_of(methods))
        ->type_name(choices_type(methods))
        ->group("Workload");
    add("--seq-len", f.seq_len, "Sequence length (training)", "N");
    add("--batch", f.batch, "Micro-batch per GPU (training) or serving batch", "N");
    add("--qps", f.qps, "Queries per second to serve", "N");
    add("--latency-ms", f.latency_ms, "End-to-end latency target per request, ms", "N");
    add("--ttft-ms", f.ttft_ms, "Time to first token target (p50), ms (LLM serving)", "N");
    add("--tpot-ms", f.tpot_ms, "Time per output token target (p50), ms (LLM serving)", "N");
    add("--lora-rank", f.lora_rank, "LoRA/QLoRA adapter rank (default 16)", "N");
    add("--input-tokens", f.input_tokens, "Prompt tokens per request", "N");
    add("--output-tokens", f.output_tokens, "Generated tokens per request", "N");
    add("--fp64-tflops", f.fp64_tflops, "Sustained FP64 TFLOPS needed (hpc)", "N");
    command.add_flag("--fp64-tensor", f.fp64_tensor, "The HPC code uses FP64 tensor cores")
        ->group("Workload");
    add("--memory-gb", f.memory_gb, "Working set in GB (hpc)", "N");
    add("--bandwidth-gb-per-s",
        f.bandwidth_gb_per_s,
        "Aggregate memory bandwidth needed (hpc)",
        "N");
    add("--sessions", f.sessions, "Concurrent vGPU sessions (graphics)", "N");
    add("--memory-per-session-gb",
        f.memory_per_session_gb,
        "GPU memory per session (graphics)",
        "N");
    command
        .add_flag("--byo-vgpu",
                  f.byo_vgpu,
                  "You run your own NVIDIA vGPU software on whole GPUs (a host you control, "
                  "such as bare metal): split them into Q profiles (graphics)")
        ->group("Workload");
    add("--deadline", f.deadline, "Time limit (30d, 12h)", "DURATION");
    add("--budget", f.budget, "Budget in the output currency", "N");
    add("--hours-per-month", f.hours_per_month, "Hours of use per month", "N");
}

namespace {

// Parses one quantity flag into `target`; false (with a diagnostic) when malformed.
bool quantity(const std::string& text,
              const char* flag,
              QuantityKind kind,
              std::optional<double>& target,
              Diagnostics& diagnostics) {
    if (text.empty()) {
        return true;
    }
    const QuantityParse parsed = parse_quantity(text, kind);
    if (!parsed.value) {
        diagnostics.error({"gpuadvisor", 0, 0}, "usage", fmt::format("{}: {}", flag, parsed.error));
        return false;
    }
    target = parsed.value;
    return true;
}

Workload from_flags(const WorkloadFlags& f, Diagnostics& diagnostics) {
    Workload w;
    if (!f.kind.empty()) {
        w.kind = parse_workload_kind(f.kind);
    }
    if (!f.model.empty()) {
        w.model = f.model;
    }
    if (!f.precision.empty()) {
        w.precision = parse_precision(f.precision);
    }
    if (!f.method.empty()) {
        w.method = parse_finetune_method(f.method);
    }
    if (f.fp64_tensor) {
        w.fp64_tensor = true;
    }
    if (f.byo_vgpu) {
        w.byo_vgpu = true;
    }
    using K = QuantityKind;
    quantity(f.params, "--params", K::count, w.params, diagnostics);
    quantity(f.tokens, "--tokens", K::count, w.tokens, diagnostics);
    quantity(f.samples, "--samples", K::count, w.samples, diagnostics);
    quantity(f.seq_len, "--seq-len", K::count, w.seq_len, diagnostics);
    quantity(f.batch, "--batch", K::count, w.batch, diagnostics);
    quantity(f.qps, "--qps", K::count, w.qps, diagnostics);
    quantity(f.latency_ms, "--latency-ms", K::count, w.latency_ms, diagnostics);
    quantity(f.ttft_ms, "--ttft-ms", K::count, w.ttft_ms, diagnostics);
    quantity(f.tpot_ms, "--tpot-ms", K::count, w.tpot_ms, diagnostics);
    quantity(f.lora_rank, "--lora-rank", K::count, w.lora_rank, diagnostics);
    quantity(f.input_tokens, "--input-tokens", K::count, w.input_tokens, diagnostics);
    quantity(f.output_tokens, "--output-tokens", K::count, w.output_tokens, diagnostics);
    quantity(f.fp64_tflops, "--fp64-tflops", K::count, w.fp64_tflops, diagnostics);
    quantity(f.memory_gb, "--memory-gb", K::bytes, w.memory_gb, diagnostics);
    quantity(
        f.bandwidth_gb_per_s, "--bandwidth-gb-per-s", K::count, w.bandwidth_gb_per_s, diagnostics);
    quantity(f.sessions, "--sessions", K::count, w.sessions, diagnostics);
    quantity(f.memory_per_session_gb,
             "--memory-per-session-gb",
             K::bytes,
             w.memory_per_session_gb,
             diagnostics);
    quantity(f.deadline, "--deadline", K::duration_hours, w.deadline_hours, diagnostics);
    quantity(f.budget, "--budget", K::count, w.budget, diagnostics);
    quantity(f.hours_per_month, "--hours-per-month", K::count, w.hours_per_month, diagnostics);
    return w;
}

} // namespace

namespace {

// The flag a normalisation message names ("--batch: ..."), if any.
std::string_view flag_of(const Diagnostic& diagnostic) {
    const std::string_view message = diagnostic.message;
    const std::size_t colon = message.find(':');
    return message.starts_with("--") && colon != std::string_view::npos ? message.substr(0, colon)
                                                                        : std::string_view{};
}

// A value that came from the profile (its flag not given) is reported at its place in the
// file, under its key, as an input error. Returns true if any was.
bool locate_in_profile(Diagnostics& diagnostics,
                       const WorkloadLoad& profile,
                       const WorkloadFlags& flags) {
    const std::map<std::string_view, const std::string*> given{
        {"--workload", &flags.kind},
        {"--model", &flags.model},
        {"--params", &flags.params},
        {"--tokens", &flags.tokens},
        {"--samples", &flags.samples},
        {"--seq-len", &flags.seq_len},
        {"--batch", &flags.batch},
        {"--qps", &flags.qps},
        {"--latency-ms", &flags.latency_ms},
        {"--input-tokens", &flags.input_tokens},
        {"--output-tokens", &flags.output_tokens},
        {"--fp64-tflops", &flags.fp64_tflops},
        {"--memory-gb", &flags.memory_gb},
        {"--bandwidth-gb-per-s", &flags.bandwidth_gb_per_s},
        {"--sessions", &flags.sessions},
        {"--memory-per-session-gb", &flags.memory_per_session_gb},
        {"--ttft-ms", &flags.ttft_ms},
        {"--tpot-ms", &flags.tpot_ms},
        {"--lora-rank", &flags.lora_rank},
        {"--deadline", &flags.deadline},
        {"--budget", &flags.budget},
        {"--hours-per-month", &flags.hours_per_month}};
    const std::map<std::string_view, bool> switches{{"--byo-vgpu", flags.byo_vgpu},
                                                    {"--fp64-tensor", flags.fp64_tensor}};
    const auto from_file = [&](std::string_view flag) {
        const auto text = given.find(flag);
        const auto on = switches.find(flag);
        return (text != given.end() && text->second->empty()) ||
               (on != switches.end() && !on->second);
    };
    Diagnostics located;
    bool any = false;
    for (Diagnostic diagnostic : diagnostics.items()) {
        const std::string_view flag = flag_of(diagnostic);
        std::string key(flag.empty() ? flag : flag.substr(2));
        std::replace(key.begin(), key.end(), '-', '_');
        const auto in_file = profile.positions.find(key);
        if (from_file(flag) && in_file != profile.positions.end()) {
            diagnostic.pos = in_file->second;
            diagnostic.message = key + diagnostic.message.substr(flag.size());
            any = true;
        }
        located.add(std::move(diagnostic));
    }
    located.sort(); // in file order once placed
    diagnostics = std::move(located);
    return any;
}

} // namespace

std::optional<NormalizedWorkload>
read_workload(const WorkloadFlags& flags, std::string_view command, Io& io, int& exit_code) {
    WorkloadLoad profile;
    if (!flags.profile.empty()) {
        profile = load_workload_profile(flags.profile);
        if (profile.diagnostics.has_errors()) {
            exit_code = fail(command, profile.diagnostics, k_exit_input, io);
            return std::nullopt;
        }
    }
    Diagnostics diagnostics;
    const Workload workload = overlay(profile.workload, from_flags(flags, diagnostics));
    if (diagnostics.has_errors()) {
        exit_code = fail(command, diagnostics, k_exit_usage, io);
        return std::nullopt;
    }
    NormalizeResult normalized = normalize(workload, builtin_models());
    if (!normalized.workload) {
        const bool in_profile = locate_in_profile(normalized.diagnostics, profile, flags);
        exit_code =
            fail(command, normalized.diagnostics, in_profile ? k_exit_input : k_exit_usage, io);
        return std::nullopt;
    }
    return std::move(normalized.workload);
}

} // namespace gpuadvisor::cli
