// The physics: what a workload needs, and how it runs on given GPUs (docs/sizing-model.md).
#pragma once

#include "gpuadvisor/assumptions.hpp"
#include "gpuadvisor/catalog.hpp"
#include "gpuadvisor/models.hpp"
#include "gpuadvisor/workload.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace gpuadvisor {

// A workload with every default filled in and checked: what the estimates run on.
struct NormalizedWorkload {
    WorkloadKind kind = WorkloadKind::training;
    ModelSpec model; // a preset, or a generic transformer from --params
    bool model_is_preset = false;
    Precision precision = Precision::bf16;
    bool precision_given = false; // false: bf16 by default, fp16 on GPUs without bf16
    FinetuneMethod method = FinetuneMethod::full;
    double lora_rank = 16; // LoRA/QLoRA adapter rank
    double tokens = 0;     // training tokens (or samples for non-transformers)
    double seq_len = 0;
    double batch = 1;
    bool batch_given = false; // --batch (or the profile's batch) was given
    double qps = 0;
    double latency_ms = 0; // end to end; 0: no target
    double ttft_ms = 0;    // time to first token; 0: no target
    double tpot_ms = 0;    // time per output token; 0: no target
    double input_tokens = 0;
    double output_tokens = 0;
    double fp64_tflops = 0;
    bool fp64_tensor = false;
    double memory_gb = 0;
    double bandwidth_gb_per_s = 0;
    double sessions = 0;
    bool byo_vgpu = false; // the user splits whole GPUs with their own vGPU software
    double memory_per_session_gb = 0;
    std::optional<double> deadline_hours;
    std::optional<double> budget;   // in the output currency
    double hours_per_month = 730;   // use of a service (serving, HPC, graphics) a month
    std::vector<std::string> notes; // defaults chosen, derivations made
};

// Checks and fills defaults; errors name the flag (`--tokens`) and what to give.
struct NormalizeResult {
    std::optional<NormalizedWorkload> workload;
    Diagnostics diagnostics;
};
NormalizeResult normalize(const Workload& workload, const ModelCatalog& models);

// One factor used by an estimate, for the `assumptions` output.
struct UsedAssumption {
    std::string name;
    double value = 0;
    std::string unit;
};

struct Requirements {
    double memory_total_gb = 0;   // all state of one model replica (training) or one copy (serving)
    double min_gpu_memory_gb = 0; // the least per-GPU memory that works, with `sharding`
    std::string sharding;         // how that minimum is reached
    double weights_gb = 0;
    double optimizer_state_gb = 0;
    double activations_gb = 0;
    double kv_cache_per_token_bytes = 0;
    double compute_flops = 0;           // finite work
    double throughput_tokens_per_s = 0; // serving: output tokens/s for the target QPS
    double fp64_tflops = 0;
    double network_gbps = 0;
    bool rdma = false;
    double storage_tb = 0;
    std::string storage_tier; // the documents' 100 GB-1 TB / 1-10 TB / 10 TB+
    std::vector<std::string> notes;
};

// The hardware an estimate runs on.
struct Hardware {
    const Gpu* gpu = nullptr;
    int gpus = 1;
    int gpus_per_node = 8;     // GPUs sharing NVLink / PCIe
    bool nvlink = true;        // between the GPUs of a node
    double network_gbps = 400; // per node, between nodes: the GPU fabric where there is one
    bool rdma = true;
    double gpu_fraction = 1; // a vGPU slice instance: its share of the GPU (graphics only)
    // The vGPU series the instance type is sold with ('Q', 'B', 'A'; 'C' compute only); 0 where
    // unsaid (desktops then where the GPU has graphics profiles, or on a slice).
    char vgpu_series = 0;
    // The sustained share of peak training runs at: 0 for a GPU (the assumptions' MFU); a
    // CPU's (cpu_training_efficiency) when `upgrade` sizes a CPU server as a device.
    double compute_efficiency = 0;
};

struct Estimate {
    bool fits = false;
    std::string fit_reason; // why not, or the parallel layout that fits
    double memory_per_gpu_gb = 0;
    double hours = 0; // finite work
    double gpu_hours = 0;
    double scaling_efficiency = 1;
    int min_gpus = 0; // the fewest of these GPUs (a power of two) the model fits on
    int tensor_parallel = 1;
    int pipeline_parallel = 1;
    int virtual_stages = 1; // interleaved pipeline: model chunks per stage
    // 0 plain data parallel; ZeRO-1 shards optimizer states, 2 also gradients, 3 also weights
    int zero_stage = 0;
    bool recompute = false;
    double recompute_share = 0; // share of layers whose activations are recomputed
    double mfu = 0;             // the model FLOPs utilisation assumed (training)
    // serving
    double batch = 0;
    double latency_ms = 0;
    double prefill_ms = 0;     // one request's prompt: the time to first token (p50)
    double tpot_ms = 0;        // time per output token, other requests' prefills shared in
    double decode_step_ms = 0; // one token for the whole batch
    double tokens_per_s = 0;   // per replica
    double qps_per_replica = 0;
    int replicas = 0;
    int gpus_per_replica = 0;
    bool latency_out_of_reach = false; // no batch meets the serving targets: figures at batch 1
    // hpc / graphics
    double fp64_tflops_per_gpu = 0;
    double vgpu_profile_gb = 0;
    int sessions_per_gpu = 0;
    std::vector<std::string> notes;
};

Requirements requirements(const NormalizedWorkload& workload, const Assumptions& assumptions);

// The hardware of `count` instances of a type: its GPUs, NVLink, and between instances its GPU
// fabric where it has one (else its network).
Hardware hardware_of(const InstanceType& instance, const Gpu& gpu, int count);
// `gpus` of a GPU named without an instance type: the node, NVLink and network of the
// catalog's instance type that carries it, NVLink first, then RDMA, the most GPUs, the most
// bandwidth between nodes per GPU; said in `basis`. 8 per node on 400 Gbps RDMA when no
// instance type carries it.
Hardware hardware_for_gpu(const Catalog& catalog, const Gpu& gpu, int gpus, std::string& basis);
Estimate estimate(const NormalizedWorkload& workload,
                  const Hardware& hardware,
                  const Assumptions& assumptions);

// The counts of a unit (an instance type, or nodes of a GPU) worth running a workload on,
// found from the estimate on one unit: the fewest that run it; for finite work also the fewest
// that meet the deadline (the fastest when none does) and twice and four times that. `run(n)`
// is the estimate on n units; what it returns must outlive the search. `recommend` prices
// every count; `size` without a count reports the fewest that meet the deadline.
struct CountSearch {
    std::vector<int> counts; // empty when none runs it
    int deadline_count = 0;  // among `counts`: the fewest that meet the deadline (finite work)
    double needed = 0;       // units the estimate on one asks for
    int rejected_at = 0;     // when none fits: `cap`, whose estimate says why; else 0
    // Why none runs it: the estimate on `cap` units, or on one when no count can help (a
    // model no count holds, a latency out of reach); none when `needed` is over `cap`.
    const Estimate* why = nullptr;
};
CountSearch search_counts(const NormalizedWorkload& workload,
                          double gpus_per_unit,
                          int cap,
                          const std::function<const Estimate&(int)>& run);
// GPUs (or vGPU slices) a workload needs, read from an estimate on any number of them.
double units_needed(const NormalizedWorkload& workload, const Estimate& estimate);

// Every factor the sizing of this workload kind uses, with its value.
std::vector<UsedAssumption> used_assumptions(const NormalizedWorkload& workload,
                                             const Assumptions& assumptions);

// Dense peak FLOP/s (TFLOPS) of a GPU at a precision; 0 where not supported.
double peak_tflops(const Gpu& gpu, Precision precision);

// The documents' scaling diagnostic over measured runs.
struct ScalingStep {
    double gpus = 0;
    double throughput = 0;
    double speedup = 0;
    double ratio = 0; // speedup / (gpus / first gpus)
    bool ok = true;   // ratio >= threshold
};
struct ScalingReport {
    std::vector<ScalingStep> steps;
    double threshold = 0.8;
    bool ok = true;
    std::vector<std::string> remedies;
};
ScalingReport scaling_report(const std::vector<double>& gpus,
                             const std::vector<double>& throughput,
                             double threshold = 0.8);

} // namespace gpuadvisor
