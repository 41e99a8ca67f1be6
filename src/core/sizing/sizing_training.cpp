// Training and fine-tuning: memory per GPU, the fastest parallel layout that fits (tensor,
// pipeline and data parallel, ZeRO stage, recomputation), time and scaling.
#include "sizing/sizing_internal.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>

namespace gpuadvisor {

namespace {

constexpr double k_gb = 1e9;

struct Layout {
    int tensor_parallel = 1;
    int pipeline_parallel = 1;
    int data_parallel = 1;
    int zero_stage = 0;         // 0 plain; 1 optimizer, 2 + gradients, 3 + weights sharded
    int virtual_stages = 1;     // interleaved 1F1B: model chunks per pipeline rank
    double recompute_share = 0; // share of layers whose activations are recomputed
    double memory_per_gpu_bytes = 0;
    double step_seconds = 0; // one optimizer step
    double steps = 0;
    double cnn_batch = 0; // samples per GPU per step, for a model not a transformer
};

// Micro-batches one pipeline runs per optimizer step: the global batch over the data-parallel
// ranks' micro-batches (at least one each).
double micro_batches(const NormalizedWorkload& w, const Assumptions& a, int data_parallel) {
    if (!w.model.is_transformer()) {
        return 1; // cnn_batch_per_gpu samples a step
    }
    return std::max(
        1.0, std::ceil(a.get("global_batch_tokens") / (data_parallel * w.batch * w.seq_len)));
}

// Activation bytes one GPU holds: a micro-batch's per layer, for its stage's L / p layers
// times the micro-batches in flight (1F1B keeps min(m, p) on the first stage), split by
// tensor (and sequence) parallelism.
double layout_activation_bytes(const NormalizedWorkload& w,
                               const Assumptions& a,
                               double recompute_share,
                               const Layout& l,
                               double micro) {
    const double kept = activation_bytes(w, a, false);
    const double recomputed = activation_bytes(w, a, true);
    const double in_flight = std::min(micro, static_cast<double>(l.pipeline_parallel));
    return ((1 - recompute_share) * kept + recompute_share * recomputed) * in_flight /
           l.pipeline_parallel / l.tensor_parallel;
}

double state_bytes_per_gpu(const TrainingState& state, const Layout& l) {
    const double split = static_cast<double>(l.tensor_parallel) * l.pipeline_parallel;
    const double dp = l.data_parallel;
    return state.weights / split / (l.zero_stage >= 3 ? dp : 1) +
           state.gradients / split / (l.zero_stage >= 2 ? dp : 1) +
           state.optimizer / split / (l.zero_stage >= 1 ? dp : 1);
}

// An all-reduce of `bytes` per GPU over the data-parallel group, seconds: a hierarchical ring,
// NVLink (or PCIe) inside a node, then each node's distinct share over its network. A
// reduce-scatter or an all-gather is half of it.
double all_reduce_seconds(double bytes, const Hardware& hw, const Layout& l, const Assumptions& a) {
    if (l.data_parallel < 2) {
        return 0;
    }
    const double split = static_cast<double>(l.tensor_parallel) * l.pipeline_parallel;
    const int model_gpus_per_node = std::max(1, hw.gpus_per_node / static_cast<int>(split));
    const int in_node = std::max(1, std::min(l.data_parallel, model_gpus_per_node));
    const int nodes = (l.data_parallel + in_node - 1) / in_node;
    double seconds = 0;
    if (in_node > 1) {
        seconds += 2.0 * (in_node - 1) / in_node * bytes / link_bytes_per_s(hw, a);
    }
    if (nodes > 1) {
        // After the in-node reduce, the node's distinct bytes cross its link.
        const double per_node = bytes * std::min(hw.gpus_per_node, hw.gpus) / in_node;
        seconds += 2.0 * (nodes - 1) / nodes * per_node / network_bytes_per_s(hw, a);
    }
    return seconds;
}

double tensor_parallel_efficiency(const Hardware& hw, int tp, const Assumptions& a) {
    if (tp == 1) {
        return 1;
    }
    return hw.nvlink && hw.gpu->nvlink_gb_per_s > 0 ? a.get("tensor_parallel_efficiency_nvlink")
                                                    : a.get("tensor_parallel_efficiency_pcie");
}

struct Work {
    double peak = 0; // FLOP/s of one GPU at the precision
    double mfu = 0;  // model FLOPs utilisation at full efficiency
    double flops_per_token = 0;
    double forward_flops_per_token = 0; // what recomputation repeats
};

// The step time of a layout, with its micro-batches, pipeline bubble and exposed
// gradient communication; fills steps and step_seconds.
void time_layout(const NormalizedWorkload& w,
                 const Hardware& hw,
                 const Work& work,
                 const Assumptions& a,
                 Layout& l) {
    const bool transformer = w.model.is_transformer();
    const double sample = transformer ? w.seq_len : 1;
    const double micro = transformer ? w.batch : cnn_batch(w, a);
    const double per_pass = micro * sample; // tokens (samples) of one micro-batch
    const double m = micro_batches(w, a, l.data_parallel);
    l.steps = w.tokens / (m * per_pass * l.data_parallel);
    const double flops =
        (work.flops_per_token + l.recompute_share * work.forward_flops_per_token) * per_pass * m;
    const double split = static_cast<double>(l.tensor_parallel) * l.pipeline_parallel;
    double compute = flops / split /
                     (work.peak * work.mfu * tensor_parallel_efficiency(hw, l.tensor_parallel, a));
    if (!transformer) {
        // A CNN's normalisation and activation layers are bound by memory, not FLOPs: a step
        // moves its samples' activations `cnn_activation_traffic` times over.
        compute += m * activation_bytes(w, a, false) * a.get("cnn_activation_traffic") /
                   (hw.gpu->memory_bandwidth_gb_per_s * k_gb);
    }
    // Interleaving v model chunks per rank cuts the bubble v-fold (Narayanan et al. 2021).
    const double bubble = (l.pipeline_parallel - 1) / (m * l.virtual_stages);
    const double per_micro = compute / m;
    const double overlap = a.get("comm_overlap");
    const double gradients = 2 * trainable_parameters(w) / split;
    const double weights = training_state(w, a).weights / split;
    const double all_reduce = all_reduce_seconds(gradients, hw, l, a);
    double exposed = 0;
    if (l.zero_stage <= 1) {
        // Bucketed all-reduce once a step, during the last micro-batch's backward (2/3 of it).
        exposed = std::max(0.0, all_reduce - overlap * per_micro * 2 / 3);
    } else if (l.zero_stage == 2) {
        // Sharded gradients cannot accumulate: a reduce-scatter every micro-batch, during its
        // backward pass; the updated weights are gathered once a step.
        exposed = m * std::max(0.0, all_reduce / 2 - overlap * per_micro * 2 / 3) + all_reduce / 2;
    } else {
        // ZeRO-3: every micro-batch gathers the weights for its forward and its backward pass
        // and reduce-scatters its gradients, prefetched during its compute.
        const double traffic = all_reduce_seconds(weights, hw, l, a) + all_reduce / 2;
        exposed = m * std::max(0.0, traffic - overlap * per_micro);
    }
    if (l.pipeline_parallel > 1 && transformer) {
        // Each stage boundary passes a micro-batch's activations forward and their gradients
        // back (16 bit, split over the tensor-parallel ranks); across nodes a GPU has its
        // node's network share. What compute does not cover is exposed.
        // Interleaving crosses v times as many boundaries.
        const double bytes = m * l.virtual_stages * 4.0 * w.seq_len * w.batch *
                             w.model.hidden_size / l.tensor_parallel;
        const bool across_nodes = l.tensor_parallel * l.pipeline_parallel > hw.gpus_per_node;
        const double per_gpu = across_nodes
                                   ? network_bytes_per_s(hw, a) / std::max(1, hw.gpus_per_node)
                                   : link_bytes_per_s(hw, a);
        exposed += std::max(0.0, bytes / per_gpu - overlap * compute);
    }
    l.step_seconds = compute * (1 + bubble) + exposed;
}

// The least recomputation that fits the layout in memory, or nullopt.
std::optional<double> recompute_to_fit(const NormalizedWorkload& w,
                                       const Assumptions& a,
                                       double state,
                                       double usable,
                                       const Layout& l,
                                       double micro) {
    const double kept = layout_activation_bytes(w, a, 0, l, micro);
    const double recomputed = layout_activation_bytes(w, a, 1, l, micro);
    if (state + kept <= usable) {
        return 0.0;
    }
    if (state + recomputed > usable || !(kept > recomputed)) {
        return std::nullopt;
    }
    const double share = (state + kept - usable) / (kept - recomputed);
    const double layers = std::max(1, w.model.layers);
    return std::min(1.0, std::ceil(share * layers - 1e-9) / layers); // whole layers
}

// The fastest layout that fits: tensor parallel inside a node (powers of two up to its GPUs),
// pipeline stages (any count that divides the rest, at most one per layer), ZeRO 0-3 over
// data parallel (0-1 with pipelining, as Megatron and DeepSpeed allow), and only as much
// recomputation as memory needs.
std::optional<Layout> choose_layout(const NormalizedWorkload& w,
                                    const Hardware& hw,
                                    const Work& work,
                                    const Assumptions& a) {
    if (!w.model.is_transformer() && !w.batch_given) {
        // As Ultralytics' AutoBatch does: the largest power-of-two batch per GPU up to
        // `cnn_batch_per_gpu` whose activations fit.
        for (double batch = a.get("cnn_batch_per_gpu"); batch >= 1; batch = std::floor(batch / 2)) {
            NormalizedWorkload sized = w;
            sized.batch = batch;
            sized.batch_given = true;
            if (auto layout = choose_layout(sized, hw, work, a)) {
                return layout;
            }
        }
        return std::nullopt;
    }
    const double usable = hw.gpu->memory_gb * k_gb * a.get("usable_memory_fraction");
    const TrainingState state = training_state(w, a);
    const int layers = w.model.is_transformer() ? w.model.layers : 1;
    const int max_tp = w.model.is_transformer() ? std::min(hw.gpus, hw.gpus_per_node) : 1;
    std::optional<Layout> best;
    for (int tp = 1; tp <= max_tp; tp *= 2) {
        if (hw.gpus % tp != 0) {
            continue;
        }
        for (int pp = 1; pp <= hw.gpus / tp && pp <= layers; ++pp) {
            if ((hw.gpus / tp) % pp != 0) {
                continue; // stages of whole GPUs: pp divides what tensor parallelism leaves
            }
            for (const int stage : {0, 1, 2, 3}) {
                Layout l{tp, pp, hw.gpus / (tp * pp), stage};
                if ((stage > 0 && l.data_parallel < 2) || (stage > 1 && pp > 1)) {
                    continue;
                }
                const double micro = micro_batches(w, a, l.data_parallel);
                const double state_bytes = state_bytes_per_gpu(state, l);
                const auto share = recompute_to_fit(w, a, state_bytes, usable, l, micro);
                if (!share) {
                    continue;
                }
                l.recompute_share = *share;
                l.cnn_batch = w.model.is_transformer() ? 0 : cnn_batch(w, a);
                l.memory_per_gpu_bytes =
                    state_bytes + layout_activation_bytes(w, a, l.recompute_share, l, micro);
                // Interleaved chunks (with pipelining): the layers split evenly into p x v, and
                // at least p micro-batches to fill the schedule, as Megatron-LM requires.
                for (int v = 1; v == 1 || (pp > 1 && layers % (pp * v) == 0 && micro >= pp);
                     v *= 2) {
                    l.virtual_stages = v;
                    time_layout(w, hw, work, a, l);
                    if (!best ||
                        l.step_seconds * l.steps < best->step_seconds * best->steps * 0.999) {
                        best = l;
                    }
                }
            }
        }
    }
    return best;
}

Work work_of(const NormalizedWorkload& w, const Hardware& hw, const Assumptions& a) {
    Work work;
    work.peak = peak_tflops(*hw.gpu, w.precision) * 1e12;
    work.mfu = hw.compute_efficiency > 0 ? hw.compute_efficiency : training_mfu(w, *hw.gpu, a);
    work.flops_per_token = training_flops(w, a, false) / w.tokens;
    work.forward_flops_per_token =
        (training_flops(w, a, true) - training_flops(w, a, false)) / w.tokens;
    return work;
}

// "ZeRO-1 sharded data parallel, 2-way tensor parallel, 4 pipeline stages, recomputation
// of 25% of layers": built by hand, not by nested formats (a large catalog asks for
// thousands of estimates).
std::string layout_words(const Layout& layout) {
    std::string words;
    words.reserve(96);
    if (layout.zero_stage == 0) {
        words += "data parallel";
    } else {
        words += "ZeRO-";
        words += std::to_string(layout.zero_stage);
        words += " sharded data parallel";
    }
    if (layout.tensor_parallel > 1) {
        words += ", ";
        words += std::to_string(layout.tensor_parallel);
        words += "-way tensor parallel";
    }
    if (layout.pipeline_parallel > 1) {
        words += ", ";
        words += std::to_string(layout.pipeline_parallel);
        words += " pipeline stages";
        if (layout.virtual_stages > 1) {
            words += " (interleaved, ";
            words += std::to_string(layout.virtual_stages);
            words += " chunks each)";
        }
    }
    if (layout.cnn_batch > 0) {
        words += ", batch ";
        words += format_number(layout.cnn_batch);
        words += " per GPU";
    }
    if (layout.recompute_share >= 1) {
        words += ", full activation recomputation";
    } else if (layout.recompute_share > 0) {
        words += ", activation recomputation of ";
        words += std::to_string(static_cast<int>(std::round(layout.recompute_share * 100)));
        words += "% of layers";
    }
    return words;
}

} // namespace

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

double cnn_batch(const NormalizedWorkload& w, const Assumptions& a) {
    return w.batch_given ? w.batch : a.get("cnn_batch_per_gpu");
}

TrainingState training_state(const NormalizedWorkload& w, const Assumptions& a) {
    const double trained = trainable_parameters(w);
    const double optimizer = trained * (a.get("bytes_per_param_training") - 4);
    if (w.kind == WorkloadKind::finetune && w.method != FinetuneMethod::full) {
        const double frozen_bytes =
            w.method == FinetuneMethod::qlora ? a.get("qlora_bytes_per_param") : 2.0;
        return {w.model.parameters * frozen_bytes + trained * 2, trained * 2, optimizer};
    }
    return {trained * 2, trained * 2, optimizer};
}

double trainable_parameters(const NormalizedWorkload& w) {
    if (w.kind != WorkloadKind::finetune || w.method == FinetuneMethod::full ||
        !w.model.is_transformer()) {
        return w.model.parameters;
    }
    // LoRA adapters on every linear layer of a block (as QLoRA does): rank x (in + out) each.
    // q and o are h x h (2h each), k and v h x kv (h + kv each), the MLP's three h x I
    // (h + I each), with I from the block's share of the parameters (2h^2 + 2h kv + 3h I):
    // 9h + 2kv + 3I per rank and layer.
    const ModelSpec& m = w.model;
    const double h = m.hidden_size;
    const double kv = static_cast<double>(m.kv_heads) * m.head_dim;
    const double mlp = std::max(0.0, (m.parameters / m.layers - 2 * h * h - 2 * h * kv) / (3 * h));
    return m.layers * w.lora_rank * (9 * h + 2 * kv + 3 * mlp);
}

double activation_bytes(const NormalizedWorkload& w, const Assumptions& a, bool recompute) {
    const ModelSpec& m = w.model;
    if (!m.is_transformer()) {
        // Published per-sample figures at 16 bit; fp32/tf32 keeps twice the bytes (NVIDIA's
        // ResNet-50 and BERT configs fit half the batch in FP32). No recomputation.
        const double per_sample = m.activation_gb_per_sample.value_or(0) * k_gb;
        return per_sample * cnn_batch(w, a) * (bytes_per_value(w.precision) >= 4 ? 2.0 : 1.0);
    }
    // Korthikanti et al. 2022, bytes per layer at 16 bit: 34 sbh, plus 5 a s^2 b for the
    // attention scores unless FlashAttention recomputes them; 2 sbh (the layer's input)
    // with full recomputation.
    const double s = w.seq_len;
    const double b = w.batch;
    const double h = m.hidden_size;
    const double scores =
        a.get("attention_scores_stored") > 0 ? 5.0 * m.attention_heads * s / h : 0.0;
    const double per_layer = recompute ? 2 * s * b * h : s * b * h * (34 + scores);
    return per_layer * m.layers;
}

double training_flops(const NormalizedWorkload& w, const Assumptions& a, bool recompute) {
    if (!w.model.is_transformer()) {
        const double forward = w.model.flops_per_sample_g * 1e9 * w.tokens;
        return forward * (recompute ? 4 : 3); // forward + backward = 3x forward
    }
    // 6 N per token plus attention's 12 L h s (PaLM, Chowdhery et al. 2022, appendix B).
    const ModelSpec& m = w.model;
    const double attention = 12.0 * m.layers * m.hidden_size * w.seq_len;
    const double full = (6 * m.active_parameters + attention) * w.tokens;
    const double extra = recompute ? (a.get("activation_recompute_flops_factor") - 1) * full : 0;
    if (w.kind == WorkloadKind::finetune && w.method != FinetuneMethod::full) {
        return full * 2 / 3 + extra; // frozen weights: no weight gradients
    }
    return full + extra;
}

double training_mfu(const NormalizedWorkload& w, const Gpu& gpu, const Assumptions& a) {
    double mfu = 0;
    switch (w.precision) {
    case Precision::fp8:
        mfu = a.get("training_mfu_fp8");
        break;
    case Precision::fp32:
        return a.get("training_mfu_fp32");
    default:
        mfu = a.get("training_mfu");
        break;
    }
    if (gpu.architecture == "hopper" || gpu.architecture == "blackwell") {
        mfu *= a.get("training_mfu_factor_hopper");
    } else if (gpu.architecture.starts_with("cdna")) {
        mfu *= a.get("training_mfu_factor_cdna");
    }
    if (!w.model.is_transformer()) {
        return mfu;
    }
    // Small models keep the GPU less busy: half the full MFU at `training_mfu_half_params`.
    const double half = a.get("training_mfu_half_params");
    return mfu * w.model.active_parameters / (w.model.active_parameters + half);
}

// The fewest GPUs (powers of two up to 65,536) on which some layout fits; 0 if none.
int min_gpus_to_fit(const NormalizedWorkload& w, const Hardware& hw, const Assumptions& a) {
    const Work work = work_of(w, hw, a);
    for (int gpus = 1; gpus <= 65536; gpus *= 2) {
        Hardware trial = hw;
        trial.gpus = gpus;
        trial.gpus_per_node = std::min(gpus, std::max(hw.gpus_per_node, 1));
        if (choose_layout(w, trial, work, a)) {
            return gpus;
        }
    }
    return 0;
}

Estimate estimate_training(const NormalizedWorkload& w, const Hardware& hw, const Assumptions& a) {
    Estimate e;
    const Work work = work_of(w, hw, a);
    if (!(work.peak > 0)) {
        e.fit_reason = fmt::format("{} has no {} support", hw.gpu->id, to_string(w.precision));
        return e;
    }
    e.min_gpus = min_gpus_to_fit(w, hw, a);
    const auto layout = choose_layout(w, hw, work, a);
    if (!layout) {
        const TrainingState state = training_state(w, a);
        // The largest tensor parallelism tried: a power of two within a node that divides
        // the GPUs (none for a CNN).
        int max_tp = 1;
        while (w.model.is_transformer() && max_tp * 2 <= std::min(hw.gpus, hw.gpus_per_node) &&
               hw.gpus % (max_tp * 2) == 0) {
            max_tp *= 2;
        }
        const Layout sharded{max_tp, 1, hw.gpus / max_tp, 3};
        e.memory_per_gpu_gb =
            ((state.weights + state.gradients + state.optimizer) / hw.gpus +
             layout_activation_bytes(w, a, 1, sharded, micro_batches(w, a, hw.gpus / max_tp))) /
            k_gb;
        const std::string usable =
            format_number(std::round(hw.gpu->memory_gb * a.get("usable_memory_fraction")));
        e.fit_reason =
            w.model.is_transformer()
                ? fmt::format("does not fit: needs {:.1f} GB per GPU even with ZeRO-3, full "
                              "recomputation and {}-way tensor parallelism ({} GB per GPU "
                              "usable); use more or larger GPUs",
                              e.memory_per_gpu_gb,
                              max_tp,
                              usable)
                : fmt::format("does not fit: batch {} per GPU needs {:.1f} GB, activations "
                              "mostly ({} GB per GPU usable); use a smaller --batch or larger "
                              "GPUs",
                              format_number(cnn_batch(w, a)),
                              e.memory_per_gpu_gb,
                              usable);
        return e;
    }
    e.fits = true;
    e.tensor_parallel = layout->tensor_parallel;
    e.pipeline_parallel = layout->pipeline_parallel;
    e.virtual_stages = layout->virtual_stages;
    e.zero_stage = layout->zero_stage;
    e.recompute = layout->recompute_share > 0;
    e.recompute_share = layout->recompute_share;
    e.memory_per_gpu_gb = layout->memory_per_gpu_bytes / k_gb;
    e.fit_reason = layout_words(*layout);
    e.hours = layout->steps * layout->step_seconds / 3600;
    e.gpu_hours = e.hours * hw.gpus;
    e.mfu = work.mfu;
    const double ideal_hours =
        training_flops(w, a, false) / (hw.gpus * work.peak * work.mfu) / 3600;
    e.scaling_efficiency = ideal_hours / e.hours;
    return e;
}

} // namespace gpuadvisor
