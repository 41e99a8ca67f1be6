// Serving: weights and KV cache, prefill and decode time, the largest batch that meets the
// latency target, and replicas for the target QPS.
#include "sizing/sizing_internal.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace gpuadvisor {

namespace {

constexpr double k_gb = 1e9;

struct Replica {
    int gpus = 1;
    double peak = 0;      // FLOP/s of the replica, after efficiency
    double bandwidth = 0; // bytes/s of the replica, after efficiency
    double memory = 0;    // usable bytes
    double link = 0;      // bytes/s per direction each GPU moves in the group's all-reduces
};

// A tensor-parallel group of `tp` GPUs (two nodes' worth at most, the second over the
// network), or nullopt when weights and one sequence's cache do not fit.
std::optional<Replica> replica_of(
    const NormalizedWorkload& w, const Hardware& hw, const Assumptions& a, int tp, double held) {
    const double usable = hw.gpu->memory_gb * k_gb * a.get("usable_memory_fraction") * tp;
    if (held > usable) {
        return std::nullopt;
    }
    const double peak = peak_tflops(*hw.gpu, w.precision) * 1e12;
    const double link = tp <= hw.gpus_per_node
                            ? link_bytes_per_s(hw, a)
                            : std::min(link_bytes_per_s(hw, a),
                                       network_bytes_per_s(hw, a) / std::max(1, hw.gpus_per_node));
    return Replica{tp,
                   peak * tp * a.get("inference_compute_efficiency"),
                   hw.gpu->memory_bandwidth_gb_per_s * k_gb * tp *
                       a.get("inference_bandwidth_efficiency"),
                   usable,
                   link};
}

// Continuous batching on one replica: each decode step serves `batch` sequences, and the
// prompts of the requests that join are prefilled between steps.
struct Serving {
    const NormalizedWorkload* w = nullptr;
    Replica replica;
    double weights_read = 0;    // bytes read per decode step
    double kv_per_sequence = 0; // bytes of one request's cache at full length
    double active = 0;          // parameters computed per token

    // Tensor parallelism all-reduces each layer's output twice (after attention and after the
    // MLP; Shoeybi et al. 2019): 2L ring all-reduces of `tokens` x h 16-bit values, each GPU
    // moving 2(t-1)/t of them over its link.
    double tensor_parallel_s(double tokens) const {
        if (replica.gpus < 2) {
            return 0;
        }
        const double t = replica.gpus;
        const double bytes = tokens * w->model.hidden_size * 2.0;
        return 2.0 * w->model.layers * 2 * (t - 1) / t * bytes / replica.link;
    }
    // A prompt's compute and all-reduces, which the replica spends once per request.
    double prefill_compute_s() const {
        return 2 * active * w->input_tokens / replica.peak + tensor_parallel_s(w->input_tokens);
    }
    // Time to first token: that compute, but never faster than reading the weights once (a
    // prefill that joins decode steps shares their weight reads, so throughput counts only
    // the compute).
    double prefill_s() const {
        return std::max(prefill_compute_s(), weights_read / replica.bandwidth);
    }
    double step_s(double batch) const {
        const double memory = (weights_read + batch * kv_per_sequence) / replica.bandwidth;
        return std::max(memory, 2 * active * batch / replica.peak) + tensor_parallel_s(batch);
    }
    // A token's time with the other requests' prefills shared out: a request's prompt is
    // prefilled once in its `output_tokens` steps.
    double tpot_s(double batch) const {
        return step_s(batch) + batch * prefill_compute_s() / w->output_tokens;
    }
    double latency_s(double batch) const { return prefill_s() + w->output_tokens * tpot_s(batch); }
    bool meets(double batch) const {
        return (w->latency_ms <= 0 || latency_s(batch) * 1000 <= w->latency_ms) &&
               (w->tpot_ms <= 0 || tpot_s(batch) * 1000 <= w->tpot_ms) &&
               (w->ttft_ms <= 0 || prefill_s() * 1000 <= w->ttft_ms);
    }
    double tokens_per_s(double batch) const { return batch / tpot_s(batch); }
};

// The largest batch in [1, max_batch] that meets every target (they only get slower with
// the batch), or 0 when batch 1 does not.
double largest_batch(const Serving& serving, double max_batch) {
    if (!serving.meets(1)) {
        return 0;
    }
    double good = 1;
    double bad = max_batch + 1;
    while (bad - good > 1) {
        const double mid = std::floor((good + bad) / 2);
        (serving.meets(mid) ? good : bad) = mid;
    }
    return good;
}

// Fits when the latency target holds and the named GPUs hold the replicas the QPS needs.
void serving_verdict(Estimate& e, const NormalizedWorkload& w, const Hardware& hw) {
    const bool fast_enough = w.latency_ms <= 0 || e.latency_ms <= w.latency_ms;
    const double gpus_needed = static_cast<double>(e.replicas) * e.gpus_per_replica;
    e.fits = fast_enough && gpus_needed <= hw.gpus;
    if (!fast_enough) {
        e.replicas = 0; // more replicas do not make a request faster
        e.fit_reason = fmt::format("latency {} ms at batch {} is above the {} ms target",
                                   format_ms(e.latency_ms),
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
        // A batch waits for its requests: no more than arrive in half the latency target
        // (or in a second without one).
        const double window_s = w.latency_ms > 0 ? w.latency_ms / 2000 : 1.0;
        const double max_batch =
            std::min(a.get("inference_max_batch"), std::max(1.0, std::floor(w.qps * window_s)));
        while (batch * 2 <= max_batch &&
               (w.latency_ms <= 0 || latency_ms(batch * 2) <= w.latency_ms)) {
            batch *= 2;
        }
    }
    e.batch = batch;
    e.latency_ms = latency_ms(batch);
    e.gpus_per_replica = 1;
    if (w.batch <= 0 && w.latency_ms > 0 && e.latency_ms > w.latency_ms) {
        // Even one query at a time is too slow: no count of replicas helps.
        e.latency_out_of_reach = true;
        e.fit_reason = fmt::format("latency target out of reach: latency {} ms needed; best on "
                                   "{} is {} ms at batch 1",
                                   format_number(w.latency_ms),
                                   hw.gpu->id,
                                   format_ms(e.latency_ms));
        return e;
    }
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

namespace {

std::string targets_text(const NormalizedWorkload& w) {
    std::string text;
    const auto add = [&](std::string_view name, double ms) {
        if (ms > 0) {
            text += fmt::format("{}{} {} ms", text.empty() ? "" : ", ", name, format_number(ms));
        }
    };
    add("latency", w.latency_ms);
    add("TTFT", w.ttft_ms);
    add("TPOT", w.tpot_ms);
    return text;
}

// Fewer GPUs for the load, then more output tokens per GPU (headroom).
bool better_group(const Serving& a, double a_batch, const Serving& b, double b_batch) {
    const double qps = a.w->qps;
    const auto gpus = [&](const Serving& s, double batch) {
        return std::ceil(qps * s.w->output_tokens / s.tokens_per_s(batch)) * s.replica.gpus;
    };
    const double a_gpus = gpus(a, a_batch);
    const double b_gpus = gpus(b, b_batch);
    if (a_gpus != b_gpus) {
        return a_gpus < b_gpus;
    }
    return a.tokens_per_s(a_batch) / a.replica.gpus >
           b.tokens_per_s(b_batch) / b.replica.gpus * 1.001;
}

// No batch meets the targets on any group: say what the best group reaches at batch 1.
void unreachable(Estimate& e,
                 const NormalizedWorkload& w,
                 const Serving& best,
                 const Hardware& hw) {
    e.fits = false;
    e.latency_out_of_reach = true;
    e.replicas = 0; // no count of replicas helps
    e.batch = 1;
    e.gpus_per_replica = best.replica.gpus;
    e.tensor_parallel = best.replica.gpus;
    e.prefill_ms = best.prefill_s() * 1000;
    e.decode_step_ms = best.step_s(1) * 1000;
    e.tpot_ms = best.tpot_s(1) * 1000;
    e.latency_ms = best.latency_s(1) * 1000;
    e.fit_reason = fmt::format("latency target out of reach: {} needed; best on {} is TTFT {:.1f} "
                               "ms, TPOT {:.2f} ms, latency {} ms at batch 1 on {} GPU(s)",
                               targets_text(w),
                               hw.gpu->id,
                               e.prefill_ms,
                               e.tpot_ms,
                               format_ms(e.latency_ms),
                               best.replica.gpus);
}

} // namespace

Estimate estimate_inference(const NormalizedWorkload& w, const Hardware& hw, const Assumptions& a) {
    if (!w.model.generates_tokens()) {
        return estimate_non_llm(w, hw, a);
    }
    Estimate e;
    if (!(peak_tflops(*hw.gpu, w.precision) > 0)) {
        e.fit_reason = fmt::format("{} has no {} support", hw.gpu->id, to_string(w.precision));
        return e;
    }
    const double weights = serving_weight_bytes(w, a); // held in memory, with runtime overhead
    const double kv_per_sequence = kv_bytes_per_token(w, a) * (w.input_tokens + w.output_tokens);
    // Tensor-parallel groups of 1, 2, 4, 8 GPUs within a node, and two nodes only when no group
    // of one node holds the weights: the one that serves the load on the fewest GPUs wins,
    // then the one with the most output tokens per GPU.
    std::optional<Serving> chosen;
    std::optional<Serving> fastest; // the lowest batch-1 latency, for an unreachable target
    double chosen_batch = 0;
    // Tensor parallelism across two nodes only over RDMA: its per-layer all-reduces need a fast
    // fabric (vLLM's distributed serving guide asks for InfiniBand across nodes).
    const int max_group = std::min(hw.gpus, (hw.rdma ? 2 : 1) * hw.gpus_per_node);
    for (int tp = 1; tp <= max_group; tp *= 2) {
        const auto replica = replica_of(w, hw, a, tp, weights + kv_per_sequence);
        if (!replica || (tp > hw.gpus_per_node && fastest)) {
            continue;
        }
        const Serving serving{&w,
                              *replica,
                              w.model.parameters * bytes_per_value(w.precision),
                              kv_per_sequence,
                              w.model.active_parameters};
        if (!fastest || serving.latency_s(1) < fastest->latency_s(1)) {
            fastest = serving;
        }
        const double memory_batch = std::floor((replica->memory - weights) / kv_per_sequence);
        const double max_batch = std::min(memory_batch, a.get("inference_max_batch"));
        // A batch the user fixed is kept, and judged below, where batch 1 meets the targets.
        const double batch = w.batch > 0 ? (serving.meets(1) ? std::min(w.batch, max_batch) : 0)
                                         : largest_batch(serving, max_batch);
        if (batch > 0 && (!chosen || better_group(serving, batch, *chosen, chosen_batch))) {
            chosen = serving;
            chosen_batch = batch;
        }
    }
    if (!fastest) {
        e.fit_reason = fmt::format("does not fit: {:.1f} GB of weights and one sequence's KV cache "
                                   "on {} x {} GB",
                                   (weights + kv_per_sequence) / k_gb,
                                   max_group,
                                   format_number(hw.gpu->memory_gb));
        if (bytes_per_value(w.precision) >= 2) {
            // Weight-only quantisation is the usual way to serve a model on smaller GPUs.
            e.fit_reason += fmt::format("; int8 weights would take {:.1f} GB (--precision int8)",
                                        weights / bytes_per_value(w.precision) / k_gb);
        }
        return e;
    }
    if (!chosen) {
        unreachable(e, w, *fastest, hw);
        return e;
    }
    const Serving& serving = *chosen;
    // A load one replica serves keeps fewer requests in flight than the largest batch that
    // meets the targets (Little's law: QPS x latency).
    double batch = chosen_batch;
    if (w.batch <= 0 && w.qps < serving.tokens_per_s(chosen_batch) / w.output_tokens) {
        for (int i = 0; i < 4; ++i) {
            batch =
                std::min(chosen_batch, std::max(1.0, std::ceil(w.qps * serving.latency_s(batch))));
        }
    }
    e.gpus_per_replica = serving.replica.gpus;
    e.tensor_parallel = serving.replica.gpus;
    e.batch = batch;
    e.latency_ms = serving.latency_s(batch) * 1000;
    e.prefill_ms = serving.prefill_s() * 1000;
    e.decode_step_ms = serving.step_s(batch) * 1000;
    e.tpot_ms = serving.tpot_s(batch) * 1000;
    e.min_gpus = serving.replica.gpus;
    e.tokens_per_s = serving.tokens_per_s(batch);
    e.qps_per_replica = e.tokens_per_s / w.output_tokens;
    // Batches past what the load keeps busy add latency and no throughput.
    e.replicas = safe_count(w.qps / e.qps_per_replica);
    e.memory_per_gpu_gb = (weights + batch * kv_per_sequence) / serving.replica.gpus / k_gb;
    serving_verdict(e, w, hw);
    if (!serving.meets(batch)) { // the fixed --batch: batch 1 would meet the targets
        e.fits = false;
        e.replicas = 0; // more replicas do not make a request faster
        e.fit_reason = fmt::format("at batch {}: TTFT {:.1f} ms, TPOT {:.2f} ms, latency {} ms "
                                   "miss {}; a smaller --batch meets them",
                                   format_number(batch),
                                   e.prefill_ms,
                                   e.tpot_ms,
                                   format_ms(e.latency_ms),
                                   targets_text(w));
    }
    return e;
}

} // namespace gpuadvisor
