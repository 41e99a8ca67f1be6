// Training and fine-tuning: memory per GPU, the parallel layout that fits, time and scaling.
#include "sizing_internal.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>

namespace gpuadvisor {

namespace {

constexpr double k_gb = 1e9;

struct Layout {
    int tensor_parallel = 1;
    int zero_stage = 0; // 0: plain data parallel; 1: optimizer states sharded; 3: everything
    bool recompute = false;
    double memory_per_gpu_bytes = 0;
};

struct ModelState {
    double replicated = 0; // weights and gradients (16-bit): every data-parallel rank
    double optimizer = 0;  // fp32 master weights and Adam moments: what ZeRO-1 shards
};

// Bytes of model state for one replica, split by what each ZeRO stage shards.
ModelState model_state(const NormalizedWorkload& w, const Assumptions& a) {
    const double n = w.model.parameters;
    const double per_param = a.get("bytes_per_param_training");
    if (w.kind == WorkloadKind::finetune && w.method != FinetuneMethod::full) {
        const double frozen = n * (w.method == FinetuneMethod::qlora ? 0.5 : 2.0);
        const double trainable = n * a.get("lora_trainable_fraction");
        return {frozen + trainable * 4, trainable * (per_param - 4)};
    }
    return {n * 4, n * (per_param - 4)};
}

// Layouts in order of preference: no recomputation before recomputation (a third more
// compute); within each, plain data parallel, ZeRO-1, ZeRO-3; then tensor parallel 2, 4, 8.
std::optional<Layout>
choose_layout(const NormalizedWorkload& w, const Hardware& hw, const Assumptions& a) {
    const double usable = hw.gpu->memory_gb * k_gb * a.get("usable_memory_fraction");
    const ModelState state = model_state(w, a);
    const int max_tp = std::min(hw.gpus, hw.gpus_per_node);
    for (int tp = 1; tp <= max_tp; tp *= 2) {
        for (const bool recompute : {false, true}) {
            for (const int stage : {0, 1, 3}) {
                if (stage > 0 && hw.gpus / tp < 2) {
                    continue; // nothing to shard over
                }
                const double gpus = hw.gpus;
                const double replicated =
                    stage == 3 ? state.replicated / gpus : state.replicated / tp;
                const double optimizer = stage == 0 ? state.optimizer / tp : state.optimizer / gpus;
                const double memory = replicated + optimizer +
                                      activation_bytes(w, recompute) / static_cast<double>(tp);
                if (memory <= usable) {
                    return Layout{tp, stage, recompute, memory};
                }
            }
        }
    }
    return std::nullopt;
}

double link_bytes_per_s(const Hardware& hw, const Assumptions& a) {
    const double per_direction = hw.nvlink && hw.gpu->nvlink_gb_per_s > 0
                                     ? hw.gpu->nvlink_gb_per_s / 2
                                     : a.get("pcie_gb_per_s");
    return per_direction * k_gb * a.get("link_efficiency");
}

double network_bytes_per_s(const Hardware& hw, const Assumptions& a) {
    const double efficiency =
        a.get("link_efficiency") * (hw.rdma ? 1.0 : a.get("non_rdma_network_factor"));
    return hw.network_gbps * k_gb / 8 * efficiency;
}

// Exposed (not overlapped) gradient communication per step, seconds.
double exposed_comm_seconds(const NormalizedWorkload& w,
                            const Hardware& hw,
                            const Layout& layout,
                            const Assumptions& a) {
    const int dp = hw.gpus / layout.tensor_parallel;
    if (dp < 2) {
        return 0;
    }
    const double trainable = w.kind == WorkloadKind::finetune && w.method != FinetuneMethod::full
                                 ? w.model.parameters * a.get("lora_trainable_fraction")
                                 : w.model.parameters;
    const double gradient =
        2 * trainable / layout.tensor_parallel * (layout.zero_stage == 3 ? 1.5 : 1.0);
    const int per_node = std::max(1, std::min(dp, hw.gpus_per_node / layout.tensor_parallel));
    const int nodes = (dp + per_node - 1) / per_node;
    double seconds = 0;
    if (per_node > 1) {
        seconds += 2.0 * (per_node - 1) / per_node * gradient / link_bytes_per_s(hw, a);
    }
    if (nodes > 1) {
        // Hierarchical: after the in-node reduce, a node's share crosses its network link.
        seconds += 2.0 * (nodes - 1) / nodes * gradient / network_bytes_per_s(hw, a);
    }
    return seconds * (1 - a.get("comm_overlap"));
}

double tensor_parallel_efficiency(const Hardware& hw, int tp, const Assumptions& a) {
    if (tp == 1) {
        return 1;
    }
    return hw.nvlink && hw.gpu->nvlink_gb_per_s > 0 ? a.get("tensor_parallel_efficiency_nvlink")
                                                    : a.get("tensor_parallel_efficiency_pcie");
}

} // namespace

double activation_bytes(const NormalizedWorkload& w, bool recompute) {
    const ModelSpec& m = w.model;
    if (!m.is_transformer()) {
        return 0; // CNN activations are small next to their batch; not modelled
    }
    const double s = w.seq_len;
    const double b = w.batch;
    const double h = m.hidden_size;
    const double heads = m.attention_heads;
    const double per_layer = recompute ? 2 * s * b * h : s * b * h * (34 + 5 * heads * s / h);
    return per_layer * m.layers;
}

double training_flops(const NormalizedWorkload& w, const Assumptions& a, bool recompute) {
    if (!w.model.is_transformer()) {
        return 3 * w.model.flops_per_sample_g * 1e9 * w.tokens; // forward + backward = 3x forward
    }
    const double factor = recompute ? a.get("activation_recompute_flops_factor") : 1.0;
    double flops = 6 * w.model.active_parameters * w.tokens * factor;
    if (w.kind == WorkloadKind::finetune && w.method != FinetuneMethod::full) {
        flops =
            flops * 2 / 3; // no weight gradients for frozen weights: forward 2ND + input grads 2ND
    }
    return flops;
}

double training_mfu(const NormalizedWorkload& w, const Assumptions& a) {
    switch (w.precision) {
    case Precision::fp8:
        return a.get("training_mfu_fp8");
    case Precision::fp32:
        return a.get("training_mfu_fp32");
    default:
        return a.get("training_mfu");
    }
}

// The fewest GPUs (powers of two up to 65,536) on which some layout fits; 0 if none.
int min_gpus_to_fit(const NormalizedWorkload& w, const Hardware& hw, const Assumptions& a) {
    for (int gpus = 1; gpus <= 65536; gpus *= 2) {
        Hardware trial = hw;
        trial.gpus = gpus;
        trial.gpus_per_node = std::min(gpus, std::max(hw.gpus_per_node, 1));
        if (choose_layout(w, trial, a)) {
            return gpus;
        }
    }
    return 0;
}

namespace {

// "ZeRO-2 sharded data parallel, full activation recomputation, 2-way tensor parallel": built
// by hand, not by nested formats (a large catalog asks for thousands of estimates).
std::string layout_words(const Layout& layout) {
    std::string words;
    words.reserve(80);
    if (layout.zero_stage == 0) {
        words += "data parallel";
    } else {
        words += "ZeRO-";
        words += std::to_string(layout.zero_stage);
        words += " sharded data parallel";
    }
    if (layout.recompute) {
        words += ", full activation recomputation";
    }
    if (layout.tensor_parallel > 1) {
        words += ", ";
        words += std::to_string(layout.tensor_parallel);
        words += "-way tensor parallel";
    }
    return words;
}

} // namespace

Estimate estimate_training(const NormalizedWorkload& w, const Hardware& hw, const Assumptions& a) {
    Estimate e;
    e.min_gpus = min_gpus_to_fit(w, hw, a);
    const double peak = peak_tflops(*hw.gpu, w.precision) * 1e12;
    if (!(peak > 0)) {
        e.fit_reason = fmt::format("{} has no {} support", hw.gpu->id, to_string(w.precision));
        return e;
    }
    const auto layout = choose_layout(w, hw, a);
    if (!layout) {
        const ModelState state = model_state(w, a);
        const int max_tp = std::min(hw.gpus, hw.gpus_per_node);
        e.memory_per_gpu_gb =
            ((state.replicated + state.optimizer) / hw.gpus + activation_bytes(w, true) / max_tp) /
            k_gb;
        e.fit_reason = fmt::format(
            "does not fit: needs {:.1f} GB per GPU even with ZeRO-3, full recomputation and "
            "{}-way tensor parallelism ({} GB per GPU usable); use more or larger GPUs",
            e.memory_per_gpu_gb,
            max_tp,
            format_number(std::round(hw.gpu->memory_gb * a.get("usable_memory_fraction"))));
        return e;
    }
    e.fits = true;
    e.tensor_parallel = layout->tensor_parallel;
    e.zero_stage = layout->zero_stage;
    e.recompute = layout->recompute;
    e.memory_per_gpu_gb = layout->memory_per_gpu_bytes / k_gb;
    e.fit_reason = layout_words(*layout);
    const double mfu = training_mfu(w, a);
    const double flops = training_flops(w, a, layout->recompute);
    const int dp = hw.gpus / layout->tensor_parallel;
    const double tp_efficiency = tensor_parallel_efficiency(hw, layout->tensor_parallel, a);
    // One optimizer step on one data-parallel rank.
    const double work_per_step =
        w.model.is_transformer() ? std::max(w.seq_len * w.batch, a.get("global_batch_tokens") / dp)
                                 : a.get("cnn_batch_per_gpu");
    const double steps = w.tokens / (work_per_step * dp);
    const double compute =
        flops / w.tokens * work_per_step / (layout->tensor_parallel * peak * mfu * tp_efficiency);
    const double step = compute + exposed_comm_seconds(w, hw, *layout, a);
    e.hours = steps * step / 3600;
    e.gpu_hours = e.hours * hw.gpus;
    const double ideal_hours = flops / (hw.gpus * peak * mfu) / 3600;
    e.scaling_efficiency = ideal_hours / e.hours;
    return e;
}

} // namespace gpuadvisor
