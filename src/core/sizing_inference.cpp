// Serving: weights and KV cache, prefill and decode time, the largest batch that meets the
// latency target, and replicas for the target QPS.
#include "sizing_internal.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace gpuadvisor {

namespace {

constexpr double k_gb = 1e9;

struct Replica {
    int gpus = 1;
    double peak = 0;      // FLOP/s of the replica, after tensor-parallel losses
    double bandwidth = 0; // bytes/s of the replica, after efficiency
    double memory = 0;    // usable bytes
};

std::optional<Replica> choose_replica(const NormalizedWorkload& w,
                                      const Hardware& hw,
                                      const Assumptions& a,
                                      double weights,
                                      double kv_one) {
    const double peak = peak_tflops(*hw.gpu, w.precision) * 1e12;
    const int max_tp = std::min(hw.gpus, hw.gpus_per_node);
    for (int tp = 1; tp <= max_tp; tp *= 2) {
        const double usable = hw.gpu->memory_gb * k_gb * a.get("usable_memory_fraction") * tp;
        if (weights + kv_one <= usable) {
            const bool fast_link = hw.nvlink && hw.gpu->nvlink_gb_per_s > 0;
            const double tp_efficiency =
                tp == 1 ? 1.0
                        : (fast_link ? a.get("tensor_parallel_efficiency_nvlink")
                                     : a.get("tensor_parallel_efficiency_pcie"));
            return Replica{tp,
                           peak * tp * tp_efficiency,
                           hw.gpu->memory_bandwidth_gb_per_s * k_gb * tp * tp_efficiency *
                               a.get("inference_bandwidth_efficiency"),
                           usable};
        }
    }
    return std::nullopt;
}

// Fits when the latency target holds and the named GPUs hold the replicas the QPS needs.
void serving_verdict(Estimate& e, const NormalizedWorkload& w, const Hardware& hw) {
    const bool fast_enough = w.latency_ms <= 0 || e.latency_ms <= w.latency_ms;
    const double gpus_needed = static_cast<double>(e.replicas) * e.gpus_per_replica;
    e.fits = fast_enough && gpus_needed <= hw.gpus;
    if (!fast_enough) {
        e.fit_reason = fmt::format("latency {:.0f} ms at batch {} is above the {} ms target",
                                   e.latency_ms,
                                   format_number(e.batch),
                                   format_number(w.latency_ms));
    } else {
        e.fit_reason = fmt::format("batch {} on {} GPU(s) per replica; {} replica(s) for {} QPS "
                                   "need {} GPU(s){}",
                                   format_number(e.batch),
                                   e.gpus_per_replica,
                                   e.replicas,
                                   format_number(w.qps),
                                   format_number(gpus_needed),
                                   e.fits ? "" : fmt::format(", more than the {} named", hw.gpus));
    }
}

// Encoders, CNNs, recommenders: FLOPs per query with a batch-dependent efficiency.
Estimate estimate_non_llm(const NormalizedWorkload& w, const Hardware& hw, const Assumptions& a) {
    Estimate e;
    const double peak = peak_tflops(*hw.gpu, w.precision) * 1e12;
    if (!(peak > 0)) {
        e.fit_reason = fmt::format("{} has no {} support", hw.gpu->id, to_string(w.precision));
        return e;
    }
    const double flops = w.model.flops_per_sample_g * 1e9;
    const double half = a.get("non_llm_half_batch");
    const auto latency_ms = [&](double batch) {
        const double efficiency = a.get("non_llm_efficiency_max") * batch / (batch + half);
        return flops * batch / (peak * efficiency) * 1000;
    };
    double batch = w.batch > 0 ? w.batch : 1;
    if (w.batch <= 0) {
        const double max_batch = a.get("inference_max_batch");
        while (batch * 2 <= max_batch &&
               (w.latency_ms <= 0 || latency_ms(batch * 2) <= w.latency_ms)) {
            batch *= 2;
        }
    }
    e.batch = batch;
    e.latency_ms = latency_ms(batch);
    e.gpus_per_replica = 1;
    e.memory_per_gpu_gb = serving_weight_bytes(w, a) / k_gb;
    e.qps_per_replica = batch / (e.latency_ms / 1000);
    e.replicas = safe_count(w.qps / e.qps_per_replica);
    serving_verdict(e, w, hw);
    return e;
}

} // namespace

double kv_bytes_per_token(const NormalizedWorkload& w, const Assumptions& a) {
    const ModelSpec& m = w.model;
    // The cache is kept in 16 bit (fp8 when serving in fp8, fp32 when serving in fp32/tf32).
    const double sixteen_bit = a.get("inference_kv_bytes_fp16");
    const double value_bytes = w.precision == Precision::fp8       ? sixteen_bit / 2
                               : bytes_per_value(w.precision) == 4 ? sixteen_bit * 2
                                                                   : sixteen_bit;
    return 2.0 * m.layers * m.kv_heads * m.head_dim * value_bytes;
}

double serving_weight_bytes(const NormalizedWorkload& w, const Assumptions& a) {
    return w.model.parameters * bytes_per_value(w.precision) *
           (1 + a.get("inference_runtime_overhead"));
}

Estimate estimate_inference(const NormalizedWorkload& w, const Hardware& hw, const Assumptions& a) {
    if (!w.model.is_transformer() || w.model.architecture == ModelArchitecture::encoder) {
        return estimate_non_llm(w, hw, a);
    }
    Estimate e;
    if (!(peak_tflops(*hw.gpu, w.precision) > 0)) {
        e.fit_reason = fmt::format("{} has no {} support", hw.gpu->id, to_string(w.precision));
        return e;
    }
    const double weights = serving_weight_bytes(w, a); // held in memory, with runtime overhead
    const double weights_read = w.model.parameters * bytes_per_value(w.precision); // per step
    const double kv_per_sequence = kv_bytes_per_token(w, a) * (w.input_tokens + w.output_tokens);
    const auto replica = choose_replica(w, hw, a, weights, kv_per_sequence);
    if (!replica) {
        e.fit_reason = fmt::format("does not fit: {:.1f} GB of weights and one sequence's KV cache "
                                   "on {} x {} GB",
                                   (weights + kv_per_sequence) / k_gb,
                                   std::min(hw.gpus, hw.gpus_per_node),
                                   format_number(hw.gpu->memory_gb));
        return e;
    }
    const double efficiency = a.get("inference_compute_efficiency");
    const double active = w.model.active_parameters;
    const double prefill = 2 * active * w.input_tokens / (replica->peak * efficiency);
    const auto step = [&](double batch) {
        const double memory_time = (weights_read + batch * kv_per_sequence) / replica->bandwidth;
        const double compute_time = 2 * active * batch / (replica->peak * efficiency);
        return std::max(memory_time, compute_time);
    };
    const auto latency_ms = [&](double batch) {
        return (prefill + w.output_tokens * step(batch)) * 1000;
    };
    const double memory_batch = std::floor((replica->memory - weights) / kv_per_sequence);
    const double max_batch = std::min(memory_batch, a.get("inference_max_batch"));
    double batch = w.batch > 0 ? std::min(w.batch, max_batch) : 1;
    if (w.batch <= 0) {
        while (batch + 1 <= max_batch &&
               (w.latency_ms <= 0 || latency_ms(batch + 1) <= w.latency_ms)) {
            batch += 1;
        }
    }
    e.gpus_per_replica = replica->gpus;
    e.tensor_parallel = replica->gpus;
    e.batch = batch;
    e.latency_ms = latency_ms(batch);
    e.prefill_ms = prefill * 1000;
    e.decode_step_ms = step(batch) * 1000;
    e.min_gpus = replica->gpus;
    // A replica also prefills every request it serves: B requests' prompts, then their
    // output tokens in B-wide decode steps.
    e.tokens_per_s = batch * w.output_tokens / (batch * prefill + w.output_tokens * step(batch));
    e.qps_per_replica = e.tokens_per_s / w.output_tokens;
    e.replicas = safe_count(w.qps / e.qps_per_replica);
    e.memory_per_gpu_gb = (weights + batch * kv_per_sequence) / replica->gpus / k_gb;
    serving_verdict(e, w, hw);
    return e;
}

} // namespace gpuadvisor
