// Turning a user's workload into a checked one with every default filled in.
#include "gpuadvisor/sizing.hpp"
#include "gpuadvisor/spelling.hpp"

#include <fmt/format.h>

#include <cmath>

namespace gpuadvisor {

namespace {

class Checker {
  public:
    explicit Checker(Diagnostics& diagnostics) : m_diagnostics(diagnostics) {}

    void error(std::string flag, std::string message, std::string hint = {}) {
        m_diagnostics.error({"gpuadvisor", 0, 0},
                            "bad-workload",
                            fmt::format("{}: {}", flag, message),
                            std::move(hint));
    }
    // A value in (0, max] (or [min, max] for a min above 0); absent: the default, or an error
    // when there is none. `what` names the value in the messages, `unit` follows max in the hint.
    double positive(const std::optional<double>& value,
                    std::string_view flag,
                    double max,
                    std::optional<double> fallback,
                    std::string_view what,
                    std::string_view unit = "",
                    double min = 0) {
        if (!value) {
            if (!fallback) {
                error(std::string(flag), fmt::format("required: {}", what));
                return 0;
            }
            return *fallback;
        }
        if (!std::isfinite(*value) || !(*value > 0) || *value < min || *value > max) {
            error(std::string(flag),
                  fmt::format("{} is out of range", format_number(*value)),
                  fmt::format("give {} {} and at most {}{}",
                              what,
                              min > 0 ? "of at least " + format_number(min) : "above 0",
                              format_number(max),
                              unit));
            return 0;
        }
        return *value;
    }

    // As positive(), and a whole number: counts of tokens, sequences, sessions.
    double whole(const std::optional<double>& value,
                 std::string_view flag,
                 double max,
                 std::optional<double> fallback,
                 std::string_view what) {
        const double result = positive(value, flag, max, fallback, what);
        if (result > 0 && (result < 1 || std::floor(result) != result)) {
            error(std::string(flag),
                  fmt::format("{} is not a whole number", format_number(result)),
                  fmt::format("give {} as a count of at least 1", what));
            return 0;
        }
        return result;
    }

  private:
    Diagnostics& m_diagnostics;
};

bool needs_model(WorkloadKind kind) {
    return kind == WorkloadKind::training || kind == WorkloadKind::finetune ||
           kind == WorkloadKind::inference;
}

void normalize_model(const Workload& in,
                     const ModelCatalog& models,
                     NormalizedWorkload& out,
                     Checker& check) {
    if (in.model) {
        const ModelSpec* preset = models.find(*in.model);
        if (preset == nullptr) {
            const std::string hint = did_you_mean(models.names_near(*in.model));
            check.error("--model",
                        fmt::format("no model preset is called '{}'", *in.model),
                        hint.empty() ? "presets: 'gpuadvisor catalog list models'; or give --params"
                                     : hint + " presets: 'gpuadvisor catalog list models'");
            return;
        }
        out.model = *preset;
        out.model_is_preset = true;
        if (in.params) {
            check.error("--params",
                        fmt::format("{} is a preset with its own parameter count", preset->id),
                        "give --model or --params, not both (a profile's model counts too)");
        }
        return;
    }
    if (!in.params) {
        check.error("--params", "required: --model NAME or --params N (e.g. 7B)");
        return;
    }
    const double params =
        check.positive(in.params, "--params", 1e14, std::nullopt, "a parameter count (e.g. 7B)");
    if (params > 0) {
        out.model = generic_transformer(params);
        out.notes.push_back(out.model.provenance.notes);
    }
}

void normalize_lora(const Workload& in, NormalizedWorkload& out, Checker& check) {
    const bool adapters = out.kind == WorkloadKind::finetune && out.method != FinetuneMethod::full;
    if (adapters && !out.model.is_transformer()) {
        check.error("--method",
                    fmt::format("{} adapters apply to transformers; {} is not one",
                                to_string(out.method),
                                out.model.id),
                    "fine-tune it with '--method full'");
        return;
    }
    if (in.lora_rank && !adapters) {
        check.error("--lora-rank",
                    "applies to LoRA and QLoRA fine-tuning only",
                    "add 'finetune --method lora' (or qlora), or drop --lora-rank");
        return;
    }
    out.lora_rank = check.whole(in.lora_rank, "--lora-rank", 4096, 16.0, "an adapter rank");
}

// Flags of one workload kind given for another are refused, not ignored.
void refuse_other_kinds(const Workload& in, const NormalizedWorkload& out, Checker& check) {
    if (out.kind != WorkloadKind::inference) {
        for (const auto& [value, flag] :
             {std::pair{&in.ttft_ms, "--ttft-ms"}, std::pair{&in.tpot_ms, "--tpot-ms"}}) {
            if (value->has_value()) {
                check.error(flag,
                            "applies to LLM serving (inference) only",
                            "drop it, or size 'inference'");
            }
        }
    }
    if (in.lora_rank && !needs_model(out.kind)) {
        check.error("--lora-rank",
                    "applies to LoRA and QLoRA fine-tuning only",
                    "add 'finetune --method lora' (or qlora), or drop --lora-rank");
    }
    if (in.byo_vgpu.value_or(false) && out.kind != WorkloadKind::graphics) {
        check.error("--byo-vgpu",
                    "is for graphics (desktops on your own vGPU software) only",
                    "drop it, or size 'graphics'");
    }
    if (in.sessions && out.kind != WorkloadKind::graphics) {
        check.error("--sessions",
                    out.kind == WorkloadKind::inference
                        ? "is for graphics (concurrent desktops); serving is sized by --qps"
                        : "is for graphics (concurrent desktops) only",
                    out.kind == WorkloadKind::inference
                        ? "give --qps (requests per second) and a latency target instead"
                        : "drop it, or size 'graphics'");
    }
}

// Time to first token and per output token: targets of LLM serving (decoders) only.
void normalize_token_targets(const Workload& in, NormalizedWorkload& out, Checker& check) {
    const bool decoder = out.model.generates_tokens();
    for (const auto& [value, flag] :
         {std::pair{&in.ttft_ms, "--ttft-ms"}, std::pair{&in.tpot_ms, "--tpot-ms"}}) {
        if (value->has_value() && !decoder) {
            check.error(flag,
                        fmt::format("{} does not generate tokens one by one", out.model.id),
                        "give --latency-ms, the time per request");
        }
    }
    if (!decoder) {
        return;
    }
    out.ttft_ms = in.ttft_ms ? check.positive(in.ttft_ms,
                                              "--ttft-ms",
                                              1e8,
                                              std::nullopt,
                                              "a time to first token in milliseconds")
                             : 0;
    out.tpot_ms = in.tpot_ms ? check.positive(in.tpot_ms,
                                              "--tpot-ms",
                                              1e6,
                                              std::nullopt,
                                              "a time per output token in milliseconds")
                             : 0;
}

} // namespace

NormalizeResult normalize(const Workload& in, const ModelCatalog& models) {
    NormalizeResult result;
    Checker check(result.diagnostics);
    if (!in.kind) {
        check.error("--workload",
                    "required",
                    fmt::format("one of {}", fmt::join(names_only(k_workload_kind_names), ", ")));
        return result;
    }
    NormalizedWorkload out;
    out.kind = *in.kind;
    if (needs_model(out.kind)) {
        normalize_model(in, models, out, check);
    }
    const bool transformer = out.model.is_transformer();
    out.precision_given = in.precision.has_value();
    out.precision =
        in.precision.value_or(out.kind == WorkloadKind::hpc ? Precision::fp64 : Precision::bf16);
    out.method = in.method.value_or(FinetuneMethod::full);
    const double context = out.model.context_length > 0 ? out.model.context_length : 4096;
    switch (out.kind) {
    case WorkloadKind::training:
    case WorkloadKind::finetune:
        if (transformer) {
            out.tokens = check.whole(in.tokens,
                                     "--tokens",
                                     1e16,
                                     std::nullopt,
                                     "the number of training tokens (e.g. 1T)");
            out.seq_len = check.whole(
                in.seq_len, "--seq-len", 1e7, std::min(context, 4096.0), "a sequence length");
        } else {
            // A model that is not a transformer counts samples: `tokens` is read as them.
            out.tokens = check.whole(in.samples ? in.samples : in.tokens,
                                     in.samples || !in.tokens ? "--samples" : "--tokens",
                                     1e14,
                                     std::nullopt,
                                     "the number of training samples");
        }
        out.batch = check.whole(in.batch, "--batch", 1e6, 1.0, "a micro-batch per GPU");
        out.batch_given = in.batch.has_value();
        break;
    case WorkloadKind::inference:
        out.qps = check.positive(in.qps, "--qps", 1e8, 1.0, "queries per second");
        out.latency_ms = check.positive(
            in.latency_ms, "--latency-ms", 1e8, 1e7, "a latency target in milliseconds");
        out.input_tokens = check.whole(in.input_tokens,
                                       "--input-tokens",
                                       1e7,
                                       transformer ? std::min(512.0, context) : 1.0,
                                       "prompt tokens per request");
        out.output_tokens = check.whole(
            in.output_tokens, "--output-tokens", 1e7, 256.0, "generated tokens per request");
        out.batch = in.batch ? check.whole(in.batch, "--batch", 1e6, 1.0, "a batch") : 0;
        if (!in.qps) {
            out.notes.push_back("no --qps given: sized for 1 query per second");
        }
        if (!in.latency_ms) {
            out.latency_ms = 0; // no latency target
        }
        normalize_token_targets(in, out, check);
        break;
    case WorkloadKind::hpc:
        out.fp64_tflops = check.positive(in.fp64_tflops,
                                         "--fp64-tflops",
                                         1e7,
                                         std::nullopt,
                                         "the sustained FP64 TFLOPS the code needs");
        out.memory_gb =
            in.memory_gb
                ? check.positive(in.memory_gb, "--memory-gb", 1e8, 0.0, "the working set in GB")
                : 0;
        out.fp64_tensor = in.fp64_tensor.value_or(false);
        out.bandwidth_gb_per_s = in.bandwidth_gb_per_s
                                     ? check.positive(in.bandwidth_gb_per_s,
                                                      "--bandwidth-gb-per-s",
                                                      1e9,
                                                      0.0,
                                                      "the aggregate memory bandwidth in GB/s")
                                     : 0;
        break;
    case WorkloadKind::graphics:
        out.sessions = check.whole(in.sessions,
                                   "--sessions",
                                   1e6,
                                   std::nullopt,
                                   "the number of concurrent desktops or sessions");
        out.memory_per_session_gb = check.positive(in.memory_per_session_gb,
                                                   "--memory-per-session-gb",
                                                   1e3,
                                                   std::nullopt,
                                                   "GPU memory per session in GB");
        out.byo_vgpu = in.byo_vgpu.value_or(false);
        break;
    }
    if (needs_model(out.kind) && out.model.parameters > 0) {
        normalize_lora(in, out, check);
    }
    refuse_other_kinds(in, out, check);
    if (in.deadline_hours) {
        out.deadline_hours = check.positive(
            in.deadline_hours, "--deadline", 1e7, std::nullopt, "a duration such as 30d", " hours");
    }
    if (in.budget) {
        out.budget = check.positive(in.budget, "--budget", 1e12, std::nullopt, "an amount");
    }
    // At least 0.001 h: costs are counted to 0.001 instance-hours (pricing.md, Exact money).
    out.hours_per_month = check.positive(
        in.hours_per_month, "--hours-per-month", 744, 730.0, "hours of use a month", "", 0.001);
    const double context_used =
        out.kind == WorkloadKind::inference ? out.input_tokens + out.output_tokens : out.seq_len;
    if (transformer && out.model.context_length > 0 && context_used > out.model.context_length) {
        out.notes.push_back(fmt::format("{} tokens per sequence exceed {}'s context of {}: the "
                                        "estimate assumes the model can be run at that length",
                                        format_number(context_used),
                                        out.model.id,
                                        out.model.context_length));
    }
    if (!result.diagnostics.has_errors()) {
        result.workload = std::move(out);
    }
    return result;
}

} // namespace gpuadvisor
