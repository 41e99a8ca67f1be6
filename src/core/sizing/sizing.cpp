// Requirements, HPC and graphics estimates, the dispatch, and the scaling diagnostic.
#include "sizing/sizing_internal.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <tuple>
#include <utility>

namespace gpuadvisor {

namespace {

constexpr double k_gb = 1e9;

std::string_view fabric_name(std::string_view fabric) {
    if (fabric == "infiniband") {
        return "InfiniBand";
    }
    if (fabric == "efa") {
        return "EFA";
    }
    if (fabric == "roce") {
        return "RoCE";
    }
    return "GPUDirect-TCPX";
}

std::string storage_tier(double terabytes) {
    if (terabytes < 1) {
        return "100 GB-1 TB";
    }
    return terabytes < 10 ? "1-10 TB" : "10 TB+ (distributed)";
}

Estimate estimate_hpc(const NormalizedWorkload& w, const Hardware& hw, const Assumptions& a) {
    Estimate e;
    const Gpu& gpu = *hw.gpu;
    const bool tensor = w.fp64_tensor && gpu.fp64_tensor_tflops.has_value();
    e.fp64_tflops_per_gpu =
        (tensor ? *gpu.fp64_tensor_tflops : gpu.fp64_tflops) * a.get("hpc_fp64_efficiency");
    const double by_compute = std::ceil(w.fp64_tflops / e.fp64_tflops_per_gpu);
    const double usable = gpu.memory_gb * a.get("usable_memory_fraction");
    const double by_memory = w.memory_gb > 0 ? std::ceil(w.memory_gb / usable) : 1;
    const double by_bandwidth =
        w.bandwidth_gb_per_s > 0
            ? std::ceil(w.bandwidth_gb_per_s /
                        (gpu.memory_bandwidth_gb_per_s * a.get("hpc_bandwidth_efficiency")))
            : 1;
    const double needed = std::max({by_compute, by_memory, by_bandwidth});
    e.replicas = safe_count(needed); // GPUs needed
    e.memory_per_gpu_gb = w.memory_gb / std::max(1, hw.gpus);
    e.fits = hw.gpus >= needed;
    e.fit_reason = fmt::format("{} GPU(s) needed: {} for {} FP64 TFLOPS at {:.2f} each ({}), {} "
                               "for memory, {} for bandwidth",
                               needed,
                               by_compute,
                               format_number(w.fp64_tflops),
                               e.fp64_tflops_per_gpu,
                               tensor ? "tensor FP64" : "vector FP64",
                               by_memory,
                               by_bandwidth);
    if (gpu.fp64_tflops < a.get("hpc_min_fp64_tflops")) {
        e.notes.push_back(fmt::format("{} has {} FP64 TFLOPS, below the documents' {} TFLOPS for "
                                      "scientific computing",
                                      gpu.id,
                                      format_number(gpu.fp64_tflops),
                                      format_number(a.get("hpc_min_fp64_tflops"))));
    }
    if (gpu.memory_bandwidth_gb_per_s < a.get("hpc_min_bandwidth_gb_per_s")) {
        e.notes.push_back(fmt::format("{} has {} GB/s, below the documents' {} GB/s",
                                      gpu.id,
                                      format_number(gpu.memory_bandwidth_gb_per_s),
                                      format_number(a.get("hpc_min_bandwidth_gb_per_s"))));
    }
    return e;
}

// Desktops on vGPU slices the provider sells for graphics: one session per slice instance.
Estimate graphics_on_slices(const NormalizedWorkload& w, const Hardware& hw) {
    Estimate e;
    const Gpu& gpu = *hw.gpu;
    // The fraction is written to 4 digits (0.3333): the slice to 0.1 GB.
    const double slice = std::round(hw.gpu_fraction * gpu.memory_gb * 10) / 10;
    e.vgpu_profile_gb = slice;
    e.sessions_per_gpu = 1;
    e.replicas = safe_count(w.sessions); // slices needed
    e.memory_per_gpu_gb = slice;
    e.fits = slice >= w.memory_per_session_gb && hw.gpus >= w.sessions;
    e.fit_reason = fmt::format("{} GB slices of {}, one session each: {} needed for {} "
                               "sessions{}",
                               format_number(slice),
                               gpu.id,
                               format_number(w.sessions),
                               format_number(w.sessions),
                               slice >= w.memory_per_session_gb ? "" : "; a slice is too small");
    return e;
}

// One desktop per whole GPU (pass-through), as clouds rent them.
Estimate graphics_on_whole_gpus(const NormalizedWorkload& w, const Hardware& hw) {
    Estimate e;
    const Gpu& gpu = *hw.gpu;
    e.sessions_per_gpu = 1;
    e.replicas = safe_count(w.sessions); // GPUs needed
    e.memory_per_gpu_gb = w.memory_per_session_gb;
    e.fits = w.memory_per_session_gb <= gpu.memory_gb && hw.gpus >= w.sessions;
    e.fit_reason = w.memory_per_session_gb <= gpu.memory_gb
                       ? fmt::format("one desktop per whole {} ({}): {} GPU(s) for {} sessions",
                                     gpu.id,
                                     w.byo_vgpu ? "no graphics (Q) vGPU profile of it holds a "
                                                  "session"
                                                : "the provider rents it whole, no vGPU split; "
                                                  "--byo-vgpu if you run your own",
                                     e.replicas,
                                     format_number(w.sessions))
                       : fmt::format("a {} GB session does not fit one {} ({} GB)",
                                     format_number(w.memory_per_session_gb),
                                     gpu.id,
                                     format_number(gpu.memory_gb));
    return e;
}

// Desktops where the GPU or the provider's vGPU series allows them: on a provider's slices one
// each; on whole GPUs one each, or split into Q profiles when the user runs their own vGPU
// software (--byo-vgpu) and a profile holds a session.
Estimate estimate_graphics(const NormalizedWorkload& w, const Hardware& hw) {
    Estimate e;
    const Gpu& gpu = *hw.gpu;
    const bool slice = hw.gpu_fraction < 1;
    const bool desktops =
        hw.vgpu_series != 0 ? hw.vgpu_series != 'C' : slice || !gpu.vgpu_profiles_gb.empty();
    if (!desktops) {
        e.fit_reason =
            hw.vgpu_series == 'C'
                ? fmt::format("sold as C-series (compute only) vGPU on {}: no desktops", gpu.id)
                : fmt::format("{} is a compute GPU (NVIDIA lists no graphics vGPU profiles for "
                              "it): no desktops",
                              gpu.id);
        return e;
    }
    if (slice) {
        return graphics_on_slices(w, hw);
    }
    const auto profile = std::find_if(gpu.vgpu_profiles_gb.begin(),
                                      gpu.vgpu_profiles_gb.end(),
                                      [&](double size) { return size >= w.memory_per_session_gb; });
    if (!w.byo_vgpu || profile == gpu.vgpu_profiles_gb.end()) {
        return graphics_on_whole_gpus(w, hw);
    }
    e.vgpu_profile_gb = *profile;
    e.sessions_per_gpu = std::max(1, safe_count(std::floor(gpu.memory_gb / *profile)));
    const int needed = safe_count(w.sessions / e.sessions_per_gpu);
    e.replicas = needed; // GPUs needed
    e.memory_per_gpu_gb = std::min(w.sessions, static_cast<double>(e.sessions_per_gpu)) * *profile;
    e.fits = hw.gpus >= needed;
    e.fit_reason = fmt::format("{} GB Q vGPU profile on your own vGPU software, {} sessions per "
                               "GPU, {} GPU(s) for {} sessions",
                               format_number(*profile),
                               e.sessions_per_gpu,
                               needed,
                               format_number(w.sessions));
    return e;
}

// Network the documents' matrix asks for: light inference 10, medium training 25, large
// distributed training 100 Gbps RDMA. What counts is the gradient traffic: a LoRA job's
// adapters are small whatever the model's size.
void network_needs(const NormalizedWorkload& w, Requirements& r) {
    const bool large = trainable_parameters(w) > 10e9;
    switch (w.kind) {
    case WorkloadKind::training:
    case WorkloadKind::finetune:
        r.network_gbps = large ? 100 : 25;
        r.rdma = large;
        break;
    case WorkloadKind::hpc:
        r.network_gbps = 25;
        break;
    case WorkloadKind::inference:
    case WorkloadKind::graphics:
        r.network_gbps = 10;
        break;
    }
}

} // namespace

double peak_tflops(const Gpu& gpu, Precision precision) {
    switch (precision) {
    case Precision::fp32:
        return gpu.fp32_tflops;
    case Precision::tf32:
        return gpu.tf32_tflops.value_or(gpu.fp32_tflops);
    case Precision::bf16:
        return gpu.bf16_tflops.value_or(0);
    case Precision::fp16:
        return gpu.fp16_tflops.value_or(0);
    case Precision::fp8:
        return gpu.fp8_tflops.value_or(0);
    case Precision::int8:
    case Precision::int4: // weight-only quantisation computes in 16 bit
        return gpu.fp16_tflops.value_or(gpu.bf16_tflops.value_or(0));
    case Precision::fp64:
        return gpu.fp64_tflops;
    }
    return 0;
}

Requirements requirements(const NormalizedWorkload& w, const Assumptions& a) {
    Requirements r;
    const double n = w.model.parameters;
    switch (w.kind) {
    case WorkloadKind::training:
    case WorkloadKind::finetune: {
        const TrainingState state = training_state(w, a);
        r.weights_gb = state.weights / k_gb;
        r.optimizer_state_gb = (state.gradients + state.optimizer) / k_gb;
        // LoRA and QLoRA are run with gradient checkpointing (the QLoRA reference trainer and
        // PEFT's examples turn it on): their activations are counted recomputed.
        const bool adapters = w.kind == WorkloadKind::finetune && w.method != FinetuneMethod::full;
        r.activations_gb = activation_bytes(w, a, adapters) / k_gb;
        r.memory_total_gb = r.weights_gb + r.optimizer_state_gb + r.activations_gb;
        r.min_gpu_memory_gb = r.memory_total_gb;
        r.sharding = "plain data parallel: every GPU holds all of it; ZeRO and tensor or "
                     "pipeline parallelism divide the model state, recomputation cuts "
                     "activations to 2sbh per layer";
        if (!w.model.is_transformer()) { // activations at the default batch; the least is one
            NormalizedWorkload one = w;
            one.batch = 1;
            one.batch_given = true;
            r.min_gpu_memory_gb =
                r.memory_total_gb - r.activations_gb + activation_bytes(one, a, false) / k_gb;
            r.sharding = "plain data parallel: every GPU holds all of it at the batch per GPU "
                         "(the largest power of two up to cnn_batch_per_gpu that fits); the "
                         "least memory is at batch 1";
        }
        r.compute_flops = training_flops(w, a, false);
        const double data = w.model.is_transformer() ? w.tokens * a.get("text_bytes_per_token") : 0;
        // What a restart needs: the trained weights and their optimizer state (LoRA's adapters;
        // the frozen base model is kept once, not per checkpoint).
        const double checkpoint = state.gradients + state.optimizer;
        r.storage_tb = (data + a.get("checkpoints_kept") * checkpoint) / 1e12;
        break;
    }
    case WorkloadKind::inference: {
        r.weights_gb = serving_weight_bytes(w, a) / k_gb;
        r.kv_cache_per_token_bytes = w.model.is_transformer() ? kv_bytes_per_token(w, a) : 0;
        r.memory_total_gb =
            r.weights_gb + r.kv_cache_per_token_bytes * (w.input_tokens + w.output_tokens) / k_gb;
        r.min_gpu_memory_gb = r.memory_total_gb;
        r.sharding = "tensor parallel over the GPUs of a node divides weights and KV cache";
        r.throughput_tokens_per_s = w.qps * w.output_tokens;
        r.storage_tb = 2 * n * bytes_per_value(w.precision) / 1e12;
        break;
    }
    case WorkloadKind::hpc:
        r.fp64_tflops = w.fp64_tflops;
        r.memory_total_gb = w.memory_gb;
        r.min_gpu_memory_gb = 0;
        r.sharding = "the working set is spread over the GPUs";
        break;
    case WorkloadKind::graphics:
        r.memory_total_gb = w.sessions * w.memory_per_session_gb;
        r.min_gpu_memory_gb = w.memory_per_session_gb;
        r.sharding = w.byo_vgpu ? "one vGPU profile per session: a provider's slice, or your "
                                  "own split of a whole GPU"
                                : "one vGPU slice (as providers sell them) or one whole GPU per "
                                  "session";
        break;
    }
    network_needs(w, r);
    r.storage_tier = storage_tier(r.storage_tb);
    return r;
}

Hardware hardware_of(const InstanceType& instance, const Gpu& gpu, int count) {
    Hardware hw;
    hw.gpu = &gpu;
    const bool slice = instance.gpu_count < 1;
    hw.gpu_fraction = slice ? instance.gpu_count : 1;
    hw.vgpu_series = instance.vgpu_series.empty() ? '\0' : instance.vgpu_series.front();
    hw.gpus = slice ? count : static_cast<int>(std::floor(instance.gpu_count * count));
    hw.gpus_per_node = std::max(1, static_cast<int>(std::floor(instance.gpu_count)));
    hw.nvlink = instance.nvlink;
    hw.network_gbps = instance.fabric.empty() ? instance.network_gbps : instance.fabric_gbps;
    // GPUDirect-TCPX moves GPU memory over TCP: fast, but not RDMA.
    hw.rdma = instance.rdma || (!instance.fabric.empty() && instance.fabric != "tcpx");
    return hw;
}

Hardware hardware_for_gpu(const Catalog& catalog, const Gpu& gpu, int gpus, std::string& basis) {
    const InstanceType* best = nullptr;
    // The node a multi-GPU run would take: NVLink, then RDMA, then the most GPUs, then the
    // most bandwidth between nodes per GPU.
    const auto rank = [&gpu](const InstanceType& i) {
        const Hardware node = hardware_of(i, gpu, 1);
        return std::tuple(node.nvlink, node.rdma, i.gpu_count, node.network_gbps / i.gpu_count);
    };
    for (const InstanceType& instance : catalog.instances()) {
        if (instance.gpu == gpu.id && instance.gpu_count >= 1 &&
            (best == nullptr || rank(instance) > rank(*best))) {
            best = &instance;
        }
    }
    Hardware hw;
    if (best == nullptr) {
        hw.gpu = &gpu;
        hw.gpus = gpus;
        hw.gpus_per_node = std::min(gpus, 8);
        hw.nvlink = gpu.nvlink_gb_per_s > 0;
        basis = fmt::format("no instance type carries {}: assumed 8 GPUs per node{}, 400 Gbps "
                            "RDMA between nodes",
                            gpu.id,
                            hw.nvlink ? " on NVLink" : " on PCIe");
        return hw;
    }
    hw = hardware_of(*best, gpu, 1);
    hw.gpus = gpus;
    hw.gpus_per_node = std::min(gpus, hw.gpus_per_node);
    basis = fmt::format("nodes as {} {}: {} GPUs{}, {} Gbps {} between nodes",
                        best->provider,
                        best->id,
                        format_number(best->gpu_count),
                        best->nvlink ? " on NVLink" : " on PCIe",
                        format_number(hw.network_gbps),
                        best->fabric.empty() ? (best->rdma ? "RDMA" : "Ethernet")
                                             : fabric_name(best->fabric));
    return hw;
}

int safe_count(double value) {
    if (!(value <= k_max_count)) { // also NaN
        return static_cast<int>(k_max_count) + 1;
    }
    return static_cast<int>(std::ceil(std::max(0.0, value)));
}

namespace {

Estimate estimate_kind(const NormalizedWorkload& w, const Hardware& hw, const Assumptions& a) {
    switch (w.kind) {
    case WorkloadKind::training:
    case WorkloadKind::finetune:
        return estimate_training(w, hw, a);
    case WorkloadKind::inference:
        return estimate_inference(w, hw, a);
    case WorkloadKind::hpc:
        return estimate_hpc(w, hw, a);
    case WorkloadKind::graphics:
        return estimate_graphics(w, hw);
    }
    return {};
}

bool all_finite(const Estimate& e) {
    for (const double value : {e.memory_per_gpu_gb,
                               e.hours,
                               e.gpu_hours,
                               e.scaling_efficiency,
                               e.batch,
                               e.latency_ms,
                               e.prefill_ms,
                               e.decode_step_ms,
                               e.tpot_ms,
                               e.tokens_per_s,
                               e.qps_per_replica,
                               e.fp64_tflops_per_gpu,
                               e.vgpu_profile_gb}) {
        if (!std::isfinite(value)) {
            return false;
        }
    }
    return e.replicas <= k_max_count;
}

// The precision a GPU runs instead of the one the workload names, and a note saying why;
// nullopt when it runs the one named.
std::optional<std::pair<Precision, std::string>> precision_run_instead(const NormalizedWorkload& w,
                                                                       const Gpu& gpu) {
    // bf16 is a default, not a demand: a GPU without it (T4, V100) runs fp16, the same bytes.
    const bool uses_precision = w.kind != WorkloadKind::graphics && w.kind != WorkloadKind::hpc;
    if (uses_precision && !w.precision_given && w.precision == Precision::bf16 &&
        !(peak_tflops(gpu, Precision::bf16) > 0) && peak_tflops(gpu, Precision::fp16) > 0) {
        return std::pair(
            Precision::fp16,
            fmt::format("{} has no bf16: estimated in fp16 (the same bytes per value)", gpu.id));
    }
    // Convolutions in FP32 run on TF32 tensor cores where an NVIDIA GPU has them: the PyTorch
    // and TensorFlow default (torch.backends.cudnn.allow_tf32) since Ampere.
    if (is_finite_work(w.kind) && w.model.architecture == ModelArchitecture::cnn &&
        w.precision == Precision::fp32 && gpu.vendor == "nvidia" && gpu.tf32_tflops.has_value()) {
        return std::pair(Precision::tf32,
                         fmt::format("fp32 convolutions run on {}'s TF32 tensor cores (the PyTorch "
                                     "and TensorFlow default): estimated in tf32",
                                     gpu.id));
    }
    return std::nullopt;
}

} // namespace

Estimate estimate(const NormalizedWorkload& w, const Hardware& hw, const Assumptions& a) {
    if (hw.gpu != nullptr) {
        if (auto instead = precision_run_instead(w, *hw.gpu)) {
            NormalizedWorkload run = w;
            run.precision = instead->first;
            Estimate e = estimate(run, hw, a);
            e.notes.push_back(std::move(instead->second));
            return e;
        }
    }
    Estimate e = estimate_kind(w, hw, a);
    if (!all_finite(e)) {
        Estimate none;
        none.fit_reason = fmt::format("no meaningful estimate: it needs more than {} GPUs or "
                                      "{}'s figures are out of range",
                                      format_number(k_max_count),
                                      hw.gpu->id);
        return none;
    }
    return e;
}

std::vector<UsedAssumption> used_assumptions(const NormalizedWorkload& w, const Assumptions& a) {
    static const std::array<std::string_view, 17> k_training{"training_mfu",
                                                             "training_mfu_fp8",
                                                             "training_mfu_fp32",
                                                             "training_mfu_factor_hopper",
                                                             "training_mfu_factor_cdna",
                                                             "training_mfu_half_params",
                                                             "bytes_per_param_training",
                                                             "activation_recompute_flops_factor",
                                                             "attention_scores_stored",
                                                             "global_batch_tokens",
                                                             "usable_memory_fraction",
                                                             "comm_overlap",
                                                             "link_efficiency",
                                                             "pcie_gb_per_s",
                                                             "non_rdma_network_factor",
                                                             "tensor_parallel_efficiency_nvlink",
                                                             "tensor_parallel_efficiency_pcie"};
    static const std::array<std::string_view, 11> k_inference{"inference_runtime_overhead",
                                                              "inference_bandwidth_efficiency",
                                                              "inference_compute_efficiency",
                                                              "inference_kv_bytes_fp16",
                                                              "inference_max_batch",
                                                              "usable_memory_fraction",
                                                              "link_efficiency",
                                                              "pcie_gb_per_s",
                                                              "non_rdma_network_factor",
                                                              "non_llm_efficiency_max",
                                                              "non_llm_half_batch"};
    static const std::array<std::string_view, 5> k_hpc{"hpc_fp64_efficiency",
                                                       "hpc_min_fp64_tflops",
                                                       "hpc_min_bandwidth_gb_per_s",
                                                       "usable_memory_fraction",
                                                       "hpc_bandwidth_efficiency"};
    std::vector<std::string_view> names;
    switch (w.kind) {
    case WorkloadKind::training:
    case WorkloadKind::finetune:
        names.assign(k_training.begin(), k_training.end());
        names.insert(names.end(),
                     {"text_bytes_per_token", "checkpoints_kept", "cnn_batch_per_gpu"});
        if (w.model.parameters > 0 && !w.model.is_transformer()) {
            names.push_back("cnn_activation_traffic");
        }
        if (w.kind == WorkloadKind::finetune) {
            names.push_back("qlora_bytes_per_param");
        }
        break;
    case WorkloadKind::inference:
        names.assign(k_inference.begin(), k_inference.end());
        break;
    case WorkloadKind::hpc:
        names.assign(k_hpc.begin(), k_hpc.end());
        break;
    case WorkloadKind::graphics:
        break;
    }
    std::vector<UsedAssumption> used;
    for (const std::string_view name : names) {
        const Assumption& found = a.all().find(name)->second;
        used.push_back({std::string(name), found.value, found.unit});
    }
    return used;
}

ScalingReport scaling_report(const std::vector<double>& gpus,
                             const std::vector<double>& throughput,
                             double threshold) {
    ScalingReport report;
    report.threshold = threshold;
    for (std::size_t i = 0; i < gpus.size() && i < throughput.size(); ++i) {
        ScalingStep step;
        step.gpus = gpus[i];
        step.throughput = throughput[i];
        step.speedup = throughput[i] / throughput[0];
        step.ratio = step.speedup / (gpus[i] / gpus[0]);
        step.ok = step.ratio >= threshold;
        report.ok = report.ok && step.ok;
        report.steps.push_back(step);
    }
    if (!report.ok) {
        report.remedies = {
            "gradient accumulation: larger effective batches, fewer all-reduces per sample",
            "mixed precision (FP16/BF16 with FP32 master weights): half the gradient bytes",
            "a faster interconnect: NVLink inside a node, RDMA (InfiniBand/EFA) between nodes",
            "fewer, larger nodes: keep communication on NVLink",
            "overlap communication with computation (bucketed all-reduce, ZeRO prefetch)"};
    }
    return report;
}

} // namespace gpuadvisor
