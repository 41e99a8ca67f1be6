// The sizing formulas against hand-computed values (docs/sizing-model.md).
#include "gpuadvisor/sizing.hpp"
#include "test_helpers.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <cmath>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>

using namespace gpuadvisor;

namespace {

NormalizedWorkload must_normalize(const Workload& workload) {
    auto result = normalize(workload, builtin_models());
    INFO(test::describe(result.diagnostics));
    REQUIRE(result.workload);
    return *result.workload;
}

Workload training(std::string model, double tokens) {
    Workload w;
    w.kind = WorkloadKind::training;
    w.model = std::move(model);
    w.tokens = tokens;
    return w;
}

const Gpu& gpu(const std::string& id) {
    const Gpu* found = builtin_catalog().find_gpu(id);
    REQUIRE(found != nullptr);
    return *found;
}

Hardware node(const std::string& id, int gpus, bool rdma = true, double network_gbps = 400) {
    Hardware hw;
    hw.gpu = &gpu(id);
    hw.gpus = gpus;
    hw.gpus_per_node = std::min(gpus, 8);
    hw.nvlink = hw.gpu->nvlink_gb_per_s > 0;
    hw.rdma = rdma;
    hw.network_gbps = network_gbps;
    return hw;
}

const Assumptions& a() {
    return builtin_assumptions();
}

} // namespace

TEST_CASE("the shipped models and assumptions load without a diagnostic") {
    const auto models = load_models_text(
        "models.yaml", test::read_text(std::string(GPUADVISOR_DATA) + "/models.yaml"));
    CHECK(test::describe(models.diagnostics).empty());
    CHECK(models.catalog.models().size() >= 16);
    for (const ModelSpec& model : models.catalog.models()) {
        INFO(model.id);
        if (model.is_transformer()) {
            CHECK(model.hidden_size == model.attention_heads * model.head_dim);
            CHECK(model.kv_heads <= model.attention_heads);
        } else {
            CHECK(model.flops_per_sample_g > 0);
        }
    }
    const auto assumptions = load_assumptions_text(
        "assumptions.yaml", test::read_text(std::string(GPUADVISOR_DATA) + "/assumptions.yaml"));
    CHECK(test::describe(assumptions.diagnostics).empty());
    for (const WorkloadKind kind : {WorkloadKind::training,
                                    WorkloadKind::finetune,
                                    WorkloadKind::inference,
                                    WorkloadKind::hpc}) {
        NormalizedWorkload w;
        w.kind = kind;
        CHECK_NOTHROW(used_assumptions(w, assumptions.assumptions)); // every name exists
    }
}

TEST_CASE("the factors sizing reads by name are the shipped file's, and none is missing") {
    const auto loaded = load_assumptions_text(
        "assumptions.yaml", test::read_text(std::string(GPUADVISOR_DATA) + "/assumptions.yaml"));
    std::set<std::string_view> in_code(k_factor_names.begin(), k_factor_names.end());
    CHECK(in_code.size() == k_factor_names.size()); // no name twice
    std::set<std::string_view> in_file;
    for (const auto& [name, assumption] : loaded.assumptions.all()) {
        in_file.insert(name);
    }
    CHECK(in_code == in_file);
    CHECK(a().get("usable_memory_fraction") == a().all().at("usable_memory_fraction").value);
    CHECK(a().get("training_mfu") == a().all().at("training_mfu").value);
    // A factor the data lacks is an error, not a zero.
    std::map<std::string, Assumption, std::less<>> fewer = a().all();
    fewer.erase("training_mfu");
    const Assumptions partial(std::move(fewer));
    CHECK_THROWS_AS(partial.get("training_mfu"), std::out_of_range);
    CHECK(partial.get("link_efficiency") == a().get("link_efficiency"));
}

TEST_CASE("mixed-precision Adam keeps 16 bytes per parameter: 7B -> 112 GB") {
    Workload w = training("", 1e12);
    w.model.reset();
    w.params = 7e9;
    const Requirements r = requirements(must_normalize(w), a());
    CHECK(r.weights_gb + r.optimizer_state_gb == Approx(112));
}

TEST_CASE("C = (6N + 12 L h s) D: GPT-3 175B on 300B tokens is 3.15e23 FLOPs plus attention") {
    const NormalizedWorkload w = must_normalize(training("gpt-3-175b", 300e9));
    const Requirements r = requirements(w, a());
    const double attention = 12.0 * 96 * 12288 * 2048 * 300e9; // PaLM's count, 2048 tokens
    CHECK(6 * w.model.active_parameters * 300e9 == Approx(3.15e23));
    CHECK(r.compute_flops == Approx(3.15e23 + attention));
}

TEST_CASE("Llama-2-7B's KV cache in fp16 is 524,288 bytes per token") {
    Workload w;
    w.kind = WorkloadKind::inference;
    w.model = "llama-2-7b";
    const Requirements r = requirements(must_normalize(w), a());
    CHECK(r.kv_cache_per_token_bytes == 524288);
}

TEST_CASE("activations per layer follow Korthikanti et al.: 34 sbh, plus 5as/h without Flash") {
    Workload w = training("llama-2-7b", 1e12);
    w.seq_len = 2048;
    const NormalizedWorkload normalized = must_normalize(w);
    const Requirements flash = requirements(normalized, a());
    CHECK(flash.activations_gb == Approx(2048.0 * 4096 * 34 * 32 / 1e9));
    std::map<std::string, Assumption, std::less<>> values = a().all();
    values["attention_scores_stored"].value = 1;
    const Requirements eager = requirements(normalized, Assumptions(std::move(values)));
    const double per_layer = 2048.0 * 4096 * (34 + 5.0 * 32 * 2048 / 4096);
    CHECK(eager.activations_gb == Approx(per_layer * 32 / 1e9));
}

TEST_CASE("7B on 8 x A100-80GB at 4096 tokens: ZeRO-1 fits without recomputation") {
    const NormalizedWorkload w = must_normalize(training("llama-2-7b", 1e12));
    const Estimate e = estimate(w, node("A100-80GB", 8), a());
    REQUIRE(e.fits);
    CHECK(e.zero_stage == 1);
    CHECK_FALSE(e.recompute);
    CHECK(e.tensor_parallel == 1);
    CHECK(e.pipeline_parallel == 1);
    const double n = 6738415616.0;
    // FlashAttention keeps 34 sbh per layer (18 GB): bf16 weights and gradients (4N) on
    // every GPU, the 12N of optimizer state sharded over 8.
    const double expected = 4 * n + 12 * n / 8 + 34.0 * 4096 * 4096 * 32;
    CHECK(e.memory_per_gpu_gb == Approx(expected / 1e9));
    // 16N / 2 + activations fits in 72 GB under ZeRO-3; 1 GPU cannot shard.
    CHECK(e.min_gpus == 2);
}

TEST_CASE("recomputation covers only the layers memory needs") {
    Workload in = training("llama-2-7b", 1e9);
    in.kind = WorkloadKind::finetune;
    in.method = FinetuneMethod::lora;
    in.seq_len = 4096;
    in.batch = 4; // 73 GB of activations beside 14 GB of weights: more than one GPU holds
    const NormalizedWorkload w = must_normalize(in);
    const Estimate e = estimate(w, node("A100-80GB", 1), a());
    REQUIRE(e.fits);
    CHECK(e.recompute);
    CHECK(e.recompute_share > 0);
    CHECK(e.recompute_share < 1);
    CHECK(e.memory_per_gpu_gb <= 80 * 0.9);
    CHECK(e.fit_reason.find("activation recomputation of") != std::string::npos);
}

TEST_CASE("a model too large for one node's tensor parallelism is split into pipeline stages") {
    const NormalizedWorkload w = must_normalize(training("gpt-3-175b", 300e9));
    const Estimate e = estimate(w, node("A100-80GB", 64), a());
    REQUIRE(e.fits);
    CHECK(e.tensor_parallel * e.pipeline_parallel *
              (64 / (e.tensor_parallel * e.pipeline_parallel)) ==
          64);
    CHECK((e.pipeline_parallel > 1 || e.zero_stage == 3)); // state split across nodes
}

TEST_CASE("a training layout is worded from its stage, recomputation and tensor parallelism") {
    int tensor_parallel = 0;
    int zero_stages = 0;
    int interleaved = 0;
    for (const char* model : {"llama-2-7b", "llama-2-70b", "gpt-3-175b"}) {
        const NormalizedWorkload w = must_normalize(training(model, 1e12));
        for (const char* id : {"T4", "A100-40GB", "A100-80GB"}) {
            for (const int gpus : {1, 8, 16, 64}) {
                const Estimate e = estimate(w, node(id, gpus), a());
                if (!e.fits) {
                    continue;
                }
                INFO(model << " on " << gpus << " x " << id);
                const std::string stage =
                    e.zero_stage == 0 ? "data parallel"
                                      : fmt::format("ZeRO-{} sharded data parallel", e.zero_stage);
                const std::string recompute =
                    e.recompute_share >= 1 ? ", full activation recomputation"
                    : e.recompute ? fmt::format(", activation recomputation of {}% of layers",
                                                std::lround(e.recompute_share * 100))
                                  : "";
                CHECK(e.fit_reason ==
                      fmt::format("{}{}{}{}{}",
                                  stage,
                                  e.tensor_parallel > 1
                                      ? fmt::format(", {}-way tensor parallel", e.tensor_parallel)
                                      : "",
                                  e.pipeline_parallel > 1
                                      ? fmt::format(", {} pipeline stages", e.pipeline_parallel)
                                      : "",
                                  e.virtual_stages > 1 ? fmt::format(" (interleaved, {} chunks "
                                                                     "each)",
                                                                     e.virtual_stages)
                                                       : "",
                                  recompute));
                tensor_parallel += e.tensor_parallel > 1 ? 1 : 0;
                zero_stages += e.zero_stage > 0 ? 1 : 0;
                interleaved += e.virtual_stages > 1 ? 1 : 0;
            }
        }
    }
    CHECK(tensor_parallel > 0); // each wording met at least once
    CHECK(zero_stages > 0);
    CHECK(interleaved > 0);
}

TEST_CASE("sharding comes before recomputation when it is enough") {
    Workload in = training("llama-2-7b", 1e12);
    in.seq_len = 4096; // activations 4096 x 4096 x 34 x 32 = 18 GB
    const Estimate e = estimate(must_normalize(in), node("A100-40GB", 8), a());
    REQUIRE(e.fits);
    CHECK(e.zero_stage >= 2);
    CHECK_FALSE(e.recompute);
}

TEST_CASE("LoRA keeps frozen weights at 2 bytes (QLoRA 0.52) and trains rank-r adapters") {
    Workload in = training("llama-2-7b", 1e9);
    in.kind = WorkloadKind::finetune;
    in.method = FinetuneMethod::lora;
    in.seq_len = 1024;
    const NormalizedWorkload lora = must_normalize(in);
    CHECK(lora.lora_rank == 16);
    const Estimate e = estimate(lora, node("A100-80GB", 1), a());
    REQUIRE(e.fits);
    CHECK_FALSE(e.recompute);
    const double n = 6738415616.0;
    // Rank 16 on q, k, v, o (4096 x 4096) and the MLP's three (I from the block's share of
    // parameters, 2h^2 + 2h kv + 3h I = N / L): 16 x (9h + 2kv + 3I) per layer, kv = h here.
    const double mlp = (n / 32 - 4.0 * 4096 * 4096) / (3 * 4096);
    const double adapters = 32 * 16 * (11.0 * 4096 + 3 * mlp);
    // PEFT's count from config.json (I = 11008): 32 x 16 x (4 x 8192 + 3 x 15104) = 39,976,960;
    // I from the parameter count (11,678) is 2.6% over.
    CHECK(adapters == Approx(39976960).epsilon(0.03));
    const double activations = 1024.0 * 4096 * 34 * 32;
    CHECK(e.memory_per_gpu_gb * 1e9 == Approx(n * 2 + adapters * 16 + activations));
    in.method = FinetuneMethod::qlora;
    const Estimate q = estimate(must_normalize(in), node("A100-80GB", 1), a());
    CHECK(q.memory_per_gpu_gb * 1e9 == Approx(n * 0.52 + adapters * 16 + activations));
}

TEST_CASE("a 13B LoRA job needs one GPU's memory and no RDMA; QLoRA fits in 25 GB") {
    Workload in = training("llama-2-13b", 1e8);
    in.kind = WorkloadKind::finetune;
    in.method = FinetuneMethod::lora;
    const Requirements lora = requirements(must_normalize(in), a());
    CHECK(lora.memory_total_gb <= 60);
    CHECK_FALSE(lora.rdma);
    CHECK(lora.network_gbps == 25);
    in.method = FinetuneMethod::qlora;
    CHECK(requirements(must_normalize(in), a()).memory_total_gb <= 25);
    in.method = FinetuneMethod::full;
    CHECK(requirements(must_normalize(in), a()).memory_total_gb > 200);
}

TEST_CASE("mixture of experts: compute by active parameters, memory by all of them") {
    Workload in;
    in.kind = WorkloadKind::inference;
    in.model = "mixtral-8x7b";
    in.batch = 1;
    in.qps = 0.1;
    const NormalizedWorkload w = must_normalize(in);
    CHECK(w.model.active_parameters < w.model.parameters / 3);
    const Requirements r = requirements(w, a());
    CHECK(r.weights_gb == Approx(w.model.parameters * 2 * 1.1 / 1e9));
    const Estimate e = estimate(w, node("H100-80GB", 8), a());
    REQUIRE(e.fits);
    CHECK(e.gpus_per_replica == 2);
    // Time to first token: the prompt's compute on active parameters and its tensor-parallel
    // all-reduces (2 per layer of 512 x h 16-bit values, half of them crossing NVLink at
    // 450 GB/s x 0.8 per direction), but no less than one read of all the experts' weights.
    const double replica_peak = 989.4e12 * 2;
    const double replica_bandwidth = 3350e9 * 2 * 0.75;
    const double all_reduces = 2.0 * 32 * (2 * 0.5 * 512 * 4096 * 2) / (450e9 * 0.8);
    const double compute = 2 * w.model.active_parameters * 512 / (replica_peak * 0.5) + all_reduces;
    const double read = w.model.parameters * 2 / replica_bandwidth;
    CHECK(read > compute);
    CHECK(e.prefill_ms == Approx(std::max(compute, read) * 1000));
}

TEST_CASE("training time is C / (G P MFU) divided by the scaling efficiency") {
    Workload in = training("", 1e10);
    in.model.reset();
    in.params = 1e9;
    const NormalizedWorkload w = must_normalize(in);
    const Estimate e = estimate(w, node("A100-80GB", 8), a());
    REQUIRE(e.fits);
    // MFU: the base times N / (N + the half-MFU size).
    const double mfu = a().get("training_mfu") * 1e9 / (1e9 + a().get("training_mfu_half_params"));
    CHECK(e.mfu == Approx(mfu));
    const double flops = requirements(w, a()).compute_flops;
    const double ideal_hours = flops / (8 * 312e12 * mfu) / 3600;
    CHECK(e.hours * e.scaling_efficiency == Approx(ideal_hours));
    CHECK(e.scaling_efficiency > 0.99);
    CHECK(e.gpu_hours == Approx(e.hours * 8));
}

TEST_CASE("across nodes, RDMA scales better than TCP and both below one node") {
    const NormalizedWorkload w = must_normalize(training("llama-2-13b", 1e12));
    const Estimate one_node = estimate(w, node("A100-80GB", 8), a());
    const Estimate rdma = estimate(w, node("A100-80GB", 64, true, 100), a());
    const Estimate tcp = estimate(w, node("A100-80GB", 64, false, 100), a());
    REQUIRE((one_node.fits && rdma.fits && tcp.fits));
    CHECK(one_node.scaling_efficiency > rdma.scaling_efficiency);
    CHECK(rdma.scaling_efficiency > tcp.scaling_efficiency);
}

TEST_CASE("a model too large for the GPUs says so, and so does a missing precision") {
    Workload in = training("llama-2-70b", 1e12);
    in.precision = Precision::bf16; // asked for: a GPU without it cannot run it
    const Estimate bf16 = estimate(must_normalize(in), node("T4", 1), a());
    CHECK_FALSE(bf16.fits);
    CHECK(bf16.fit_reason == "T4 has no bf16 support");
    in.precision = Precision::fp16;
    const Estimate e = estimate(must_normalize(in), node("T4", 1), a());
    CHECK_FALSE(e.fits);
    CHECK(e.fit_reason.starts_with("does not fit: needs"));
}

TEST_CASE("bf16 by default: a GPU without it is estimated in fp16, and says so") {
    Workload in = training("llama-2-7b", 1e9);
    const Estimate by_default = estimate(must_normalize(in), node("T4", 8), a());
    in.precision = Precision::fp16;
    const Estimate fp16 = estimate(must_normalize(in), node("T4", 8), a());
    CHECK(by_default.fits == fp16.fits);
    CHECK(by_default.hours == fp16.hours);
    REQUIRE_FALSE(by_default.notes.empty());
    CHECK(by_default.notes.back() ==
          "T4 has no bf16: estimated in fp16 (the same bytes per value)");
}

TEST_CASE("serving: latency = prefill + output tokens x (decode step + prefill share)") {
    Workload in;
    in.kind = WorkloadKind::inference;
    in.model = "llama-2-7b";
    in.input_tokens = 512;
    in.output_tokens = 256;
    in.batch = 1;
    in.qps = 0.1;
    const NormalizedWorkload w = must_normalize(in);
    const Estimate e = estimate(w, node("A100-80GB", 1), a());
    REQUIRE(e.fits);
    // Each step reads the weights once (the 10% runtime overhead is memory, not traffic).
    const double weights = 6738415616.0 * 2;
    const double kv = 524288.0 * (512 + 256);
    const double step = (weights + kv) / (2039e9 * 0.75);
    const double prefill = 2 * 6738415616.0 * 512 / (312e12 * 0.5);
    // Continuous batching: each request's prompt is prefilled once in its 256 steps.
    const double tpot = step + prefill / 256;
    CHECK(e.prefill_ms == Approx(prefill * 1000));
    CHECK(e.tpot_ms == Approx(tpot * 1000));
    CHECK(e.latency_ms == Approx((prefill + 256 * tpot) * 1000));
    CHECK(e.tokens_per_s == Approx(1 / tpot));
    CHECK(e.qps_per_replica == Approx(1 / tpot / 256));
}

TEST_CASE("serving meets time-to-first-token and per-token targets, and says when none can") {
    Workload in;
    in.kind = WorkloadKind::inference;
    in.model = "llama-2-70b";
    in.qps = 1;
    in.ttft_ms = 2000;
    in.tpot_ms = 60;
    const Estimate e = estimate(must_normalize(in), node("H100-80GB", 8), a());
    REQUIRE(e.fits);
    CHECK(e.prefill_ms <= 2000);
    CHECK(e.tpot_ms <= 60);
    in.ttft_ms.reset();
    in.tpot_ms.reset();
    in.latency_ms = 3000;
    const Estimate three_s = estimate(must_normalize(in), node("H100-80GB", 8), a());
    CHECK(three_s.fits);
    CHECK(three_s.latency_ms <= 3000);
    in.qps = 50;
    in.latency_ms = 200; // 256 tokens in 200 ms: below 0.8 ms each, out of any GPU's reach
    const Estimate out_of_reach = estimate(must_normalize(in), node("H100-80GB", 8), a());
    CHECK_FALSE(out_of_reach.fits);
    CHECK(out_of_reach.replicas == 0); // no count of replicas helps
    CHECK(out_of_reach.fit_reason.starts_with("latency target out of reach: latency 200 ms"));
}

TEST_CASE("serving tries every tensor-parallel group and keeps the one needing fewest GPUs") {
    Workload in;
    in.kind = WorkloadKind::inference;
    in.model = "llama-2-70b";
    in.qps = 1;
    in.latency_ms = 30000;
    const Estimate light = estimate(must_normalize(in), node("H100-80GB", 8), a());
    REQUIRE(light.fits);
    CHECK(light.gpus_per_replica == 4); // the smallest group that holds the weights does
    in.latency_ms = 2500;               // faster than 4 GPUs' decode: the 8-GPU group reaches it
    const Estimate fast = estimate(must_normalize(in), node("H100-80GB", 8), a());
    REQUIRE(fast.fits);
    CHECK(fast.gpus_per_replica == 8);
}

TEST_CASE("serving picks the largest batch within the latency target, then replicas") {
    Workload in;
    in.kind = WorkloadKind::inference;
    in.model = "llama-2-7b";
    in.qps = 50;
    in.latency_ms = 5000;
    const NormalizedWorkload w = must_normalize(in);
    const Estimate one = estimate(w, node("A100-80GB", 1), a());
    CHECK_FALSE(one.fits); // the latency holds, but one GPU cannot serve 50 QPS
    CHECK(one.fit_reason.find("more than the 1 named") != std::string::npos);
    const Estimate e = estimate(w, node("A100-80GB", 64), a());
    REQUIRE(e.fits);
    CHECK(e.latency_ms <= 5000);
    CHECK(e.batch > 1);
    CHECK(e.replicas == static_cast<int>(std::ceil(50 / e.qps_per_replica)));
    Workload tight = in;
    tight.latency_ms = 10; // below one prefill + 256 decode steps
    const Estimate impossible = estimate(must_normalize(tight), node("A100-80GB", 1), a());
    CHECK_FALSE(impossible.fits);
}

TEST_CASE("a 70B model is served tensor parallel across a node") {
    Workload in;
    in.kind = WorkloadKind::inference;
    in.model = "llama-2-70b";
    const Estimate e = estimate(must_normalize(in), node("A100-80GB", 8), a());
    REQUIRE(e.fits);
    // 68.98e9 x 2 bytes x 1.1 = 151.7 GB of weights: more than 2 x 72 GB usable, so 4 GPUs.
    CHECK(e.gpus_per_replica == 4);
}

TEST_CASE("HPC: GPUs for the FP64 target, vector or tensor FP64") {
    Workload in;
    in.kind = WorkloadKind::hpc;
    in.fp64_tflops = 40;
    const Estimate vector = estimate(must_normalize(in), node("A100-80GB", 8), a());
    CHECK(vector.replicas == static_cast<int>(std::ceil(40 / (9.7 * 0.7))));
    in.fp64_tensor = true;
    const Estimate tensor = estimate(must_normalize(in), node("A100-80GB", 8), a());
    CHECK(tensor.replicas == static_cast<int>(std::ceil(40 / (19.5 * 0.7))));
    in.bandwidth_gb_per_s = 20000; // 20 TB/s: 2039 x 0.8 = 1631 GB/s per A100-80GB -> 13
    const Estimate bandwidth = estimate(must_normalize(in), node("A100-80GB", 8), a());
    CHECK(bandwidth.replicas == 13);
    CHECK_FALSE(bandwidth.fits);
    in.bandwidth_gb_per_s.reset();
    const Estimate t4 = estimate(must_normalize(in), node("T4", 8), a());
    CHECK_FALSE(t4.fits);
    CHECK(t4.notes.size() == 2); // below both of the documents' thresholds
}

TEST_CASE("graphics: 40 CAD desktops of 6 GB take one whole RTX A6000 each, 8 per GPU on "
          "your own vGPU") {
    Workload in;
    in.kind = WorkloadKind::graphics;
    in.sessions = 40;
    in.memory_per_session_gb = 6;
    const Estimate whole = estimate(must_normalize(in), node("RTX-A6000", 5), a());
    CHECK_FALSE(whole.fits); // clouds rent the GPU whole: one desktop each
    CHECK(whole.sessions_per_gpu == 1);
    CHECK(whole.replicas == 40);
    CHECK(estimate(must_normalize(in), node("RTX-A6000", 40), a()).fits);
    in.byo_vgpu = true;
    const Estimate own = estimate(must_normalize(in), node("RTX-A6000", 5), a());
    CHECK(own.fits);
    CHECK(own.vgpu_profile_gb == 6);
    CHECK(own.sessions_per_gpu == 8);
    CHECK(own.replicas == 5);
    CHECK_FALSE(estimate(must_normalize(in), node("A100-80GB", 8), a()).fits); // no Q profile
}

TEST_CASE("graphics: desktops only where the GPU or the provider's vGPU series allows them") {
    Workload in;
    in.kind = WorkloadKind::graphics;
    in.sessions = 4;
    in.memory_per_session_gb = 4;
    const NormalizedWorkload w = must_normalize(in);
    Hardware slice = node("T4", 4);
    slice.gpu_fraction = 0.25;
    CHECK(estimate(w, slice, a()).fits); // a slice of unsaid series: taken as graphics
    slice.vgpu_series = 'C';             // Tencent's GN7 vComputeServer slices
    const Estimate compute = estimate(w, slice, a());
    CHECK_FALSE(compute.fits);
    CHECK(compute.replicas == 0); // no count helps
    CHECK_THAT(compute.fit_reason, Catch::Matchers::Contains("C-series"));
    Hardware a10g = node("A10G", 4); // no graphics profiles in NVIDIA's list
    CHECK_FALSE(estimate(w, a10g, a()).fits);
    a10g.vgpu_series = 'Q'; // AWS sells g5 with RTX Virtual Workstation drivers
    CHECK(estimate(w, a10g, a()).fits);
    in.byo_vgpu = true; // no Q profile of an A10G to split it into: still one desktop each
    const Estimate own = estimate(must_normalize(in), a10g, a());
    CHECK(own.fits);
    CHECK(own.sessions_per_gpu == 1);
}

TEST_CASE("the scaling diagnostic: ratio = speedup / GPU multiple, warn below 0.8") {
    const ScalingReport good = scaling_report({1, 2, 4, 8}, {100, 190, 360, 640});
    REQUIRE(good.steps.size() == 4);
    CHECK(good.steps[1].ratio == Approx(0.95));
    CHECK(good.steps[3].ratio == Approx(0.8));
    CHECK(good.ok);
    CHECK(good.remedies.empty());
    const ScalingReport poor = scaling_report({1, 2, 4, 8}, {100, 190, 360, 600});
    CHECK_FALSE(poor.ok);
    CHECK(poor.steps[3].ratio == Approx(0.75));
    CHECK(poor.remedies.size() == 5);
}

TEST_CASE("workload errors name the flag") {
    Workload w;
    w.kind = WorkloadKind::training;
    w.model = "llama-2-7b";
    auto missing = normalize(w, builtin_models());
    CHECK(
        test::describe(missing.diagnostics) ==
        "0:0: error[bad-workload]: --tokens: required: the number of training tokens (e.g. 1T)\n");
    w.model = "llama-2-7";
    w.tokens = 1e12;
    auto unknown = normalize(w, builtin_models());
    CHECK(test::describe(unknown.diagnostics).find("did you mean 'llama-2-7b'") !=
          std::string::npos);
    Workload none;
    CHECK(normalize(none, builtin_models()).diagnostics.items().at(0).message ==
          "--workload: required");
    Workload negative = training("llama-2-7b", -5);
    CHECK(test::describe(normalize(negative, builtin_models()).diagnostics)
              .find("--tokens: -5 is out of range") != std::string::npos);
}

TEST_CASE("a parameter count alone gives a generic transformer with its shape stated") {
    Workload w = training("", 1e12);
    w.model.reset();
    w.params = 7e9;
    const NormalizedWorkload n = must_normalize(w);
    CHECK(n.model.layers == 33);
    CHECK(n.model.hidden_size == 4224);
    CHECK_FALSE(n.notes.empty());
}

TEST_CASE("a profile file reads quantities with units, and flags override it") {
    const auto load = load_workload_text("p.yaml",
                                         "schema_version: 1\nworkload: training\n"
                                         "model: llama-2-7b\ntokens: 2T\ndeadline: 30d\n");
    REQUIRE_FALSE(load.diagnostics.has_errors());
    CHECK(load.workload.tokens == 2e12);
    CHECK(load.workload.deadline_hours == 720);
    Workload flags;
    flags.tokens = 1e12;
    CHECK(overlay(load.workload, flags).tokens == 1e12);
    const auto bad =
        load_workload_text("p.yaml", "schema_version: 1\nworkload: trainng\ntokns: 1T\n");
    CHECK(test::describe(bad.diagnostics) ==
          "2:11: error[bad-value]: workload: 'trainng' is not an accepted value\n  hint: did you "
          "mean 'training'?\n3:1: error[unknown-field]: (top): 'tokns' is not a field of a "
          "workload profile\n  hint: did you mean 'tokens'?\n");
}

TEST_CASE("a model preset's provenance is checked like every other data file's") {
    const auto load = load_models_text("m.yaml", R"(schema_version: 1
models:
  - id: tiny
    architecture: cnn
    parameters: 1000
    flops_per_sample_g: 1
    source: "x"
    as_of: 2024-01-01
    confidence: hgh
)");
    CHECK(test::describe(load.diagnostics) ==
          "9:17: error[bad-value]: models[0].confidence: 'hgh' is not an accepted value\n"
          "  hint: did you mean 'high'?\n");
}

TEST_CASE("a GPU named alone takes the node of the catalog's best multi-GPU instance type") {
    std::string basis;
    const Hardware l4 = hardware_for_gpu(builtin_catalog(), gpu("L4"), 8, basis);
    CHECK(l4.gpus_per_node == 8); // g6.48xlarge, not a 1-GPU size with more EFA per GPU
    CHECK(basis.find("8 GPUs") != std::string::npos);
    const Hardware a100 = hardware_for_gpu(builtin_catalog(), gpu("A100-80GB"), 64, basis);
    CHECK(a100.network_gbps == 1600); // Azure ND A100 v4's InfiniBand, not 400 Gbps EFA
    CHECK(a100.rdma);
}

TEST_CASE("an instance's fabric is its link between nodes; TCPX is fast but not RDMA") {
    const auto find = [](std::string_view id) {
        const auto found = builtin_catalog().match_instances(id);
        REQUIRE(found.size() == 1);
        return found[0];
    };
    const InstanceType& nd = *find("Standard_ND96isr_H100_v5");
    const Hardware infiniband = hardware_of(nd, gpu("H100-80GB"), 2);
    CHECK(infiniband.network_gbps == 3200); // not its 80 Gbps Ethernet
    CHECK(infiniband.rdma);
    const InstanceType& a3 = *find("a3-highgpu-8g");
    const Hardware tcpx = hardware_of(a3, gpu("H100-80GB"), 2);
    CHECK(tcpx.network_gbps == a3.fabric_gbps); // the fabric, not the larger total
    CHECK_FALSE(tcpx.rdma);
}

TEST_CASE(
    "a serving batch the user fixed that misses a target is a plain misfit, not out of reach") {
    Workload in;
    in.kind = WorkloadKind::inference;
    in.model = "llama-2-7b";
    in.batch = 256;
    in.tpot_ms = 20;
    const Estimate e = estimate(must_normalize(in), node("H100-80GB", 1), a());
    CHECK_FALSE(e.fits);
    CHECK_FALSE(e.latency_out_of_reach);
    CHECK(e.fit_reason.find("a smaller --batch meets them") != std::string::npos);
}

TEST_CASE("flags of another workload kind are refused, not ignored") {
    Workload in = training("llama-2-7b", 1e12);
    in.ttft_ms = 500;
    CHECK_FALSE(normalize(in, builtin_models()).workload);
    in.ttft_ms.reset();
    in.sessions = 4;
    CHECK_FALSE(normalize(in, builtin_models()).workload);
    in.sessions.reset();
    in.lora_rank = 8; // full training has no adapters
    CHECK_FALSE(normalize(in, builtin_models()).workload);
    in.lora_rank.reset();
    in.byo_vgpu = true; // vGPU splits desktops, not jobs
    CHECK_FALSE(normalize(in, builtin_models()).workload);
    Workload cnn = training("resnet-50", 1e6);
    cnn.kind = WorkloadKind::finetune;
    cnn.method = FinetuneMethod::lora;
    CHECK_FALSE(normalize(cnn, builtin_models()).workload);
}

TEST_CASE(
    "CNN training keeps published activations per image: YOLOv8l at 256 per T4 does not fit") {
    Workload in;
    in.kind = WorkloadKind::training;
    in.model = "yolov8l";
    in.samples = 1e6;
    in.batch = 256; // 256 x 0.60 GB of activations
    const Estimate fixed = estimate(must_normalize(in), node("T4", 1), a());
    CHECK_FALSE(fixed.fits);
    in.batch.reset(); // the largest power of two that fits: 16 x 0.60 GB in 14.4 GB usable
    const Estimate automatic = estimate(must_normalize(in), node("T4", 1), a());
    REQUIRE(automatic.fits);
    CHECK(automatic.fit_reason == "data parallel, batch 16 per GPU");
    CHECK(automatic.memory_per_gpu_gb == Approx((43.7e6 * 16 + 16 * 0.60e9) / 1e9));
    in.precision = Precision::fp32; // twice the bytes: 8 per GPU
    const Estimate fp32 = estimate(must_normalize(in), node("T4", 1), a());
    REQUIRE(fp32.fits);
    CHECK(fp32.fit_reason == "data parallel, batch 8 per GPU");
}

TEST_CASE("a CNN latency no GPU meets at batch 1 is out of reach, not a count to add") {
    Workload in;
    in.kind = WorkloadKind::inference;
    in.model = "resnet-50";
    in.qps = 100;
    in.latency_ms = 0.01;
    const Estimate e = estimate(must_normalize(in), node("T4", 1), a());
    CHECK_FALSE(e.fits);
    CHECK(e.latency_out_of_reach);
    CHECK(e.replicas == 0);
    CHECK_THAT(e.fit_reason, Catch::Matchers::Contains("out of reach"));
    in.batch = 8; // a batch the user fixed: too slow at that batch, a plain misfit
    const Estimate fixed = estimate(must_normalize(in), node("T4", 1), a());
    CHECK_FALSE(fixed.fits);
    CHECK_FALSE(fixed.latency_out_of_reach);
    CHECK(fixed.replicas == 0); // still no count to add: the count search stops at one
}

TEST_CASE("a CNN batch that does not fit is told to shrink, not to recompute") {
    Workload in;
    in.kind = WorkloadKind::training;
    in.model = "yolov8x";
    in.samples = 1e6;
    in.batch = 512;
    const Estimate e = estimate(must_normalize(in), node("T4", 1), a());
    CHECK_FALSE(e.fits);
    CHECK_THAT(e.fit_reason, Catch::Matchers::Contains("smaller --batch"));
    CHECK_THAT(e.fit_reason, !Catch::Matchers::Contains("recomputation"));
}

TEST_CASE("mixed precision trains ResNet-50 about 2x faster than TF32 on an A100; FP32 runs "
          "as TF32 there") {
    Workload in;
    in.kind = WorkloadKind::training;
    in.model = "resnet-50";
    in.samples = 1.28e6;
    in.precision = Precision::fp16;
    const Estimate amp = estimate(must_normalize(in), node("A100-80GB", 1), a());
    in.precision = Precision::tf32;
    const Estimate tf32 = estimate(must_normalize(in), node("A100-80GB", 1), a());
    REQUIRE(amp.fits);
    REQUIRE(tf32.fits);
    // Half the activation bytes and twice the tensor peak: NVIDIA measures 2.6x (DLE).
    CHECK(tf32.hours / amp.hours == Approx(2.0).epsilon(0.05));
    // The memory-bound layers cost real time: 1.28M images take longer than FLOPs alone say.
    const double flops_hours = 1.28e6 * 3 * 8.18e9 / (312e12 * amp.mfu) / 3600;
    CHECK(amp.hours > 1.5 * flops_hours);
    in.precision = Precision::fp32; // convolutions on TF32 tensor cores, as PyTorch runs them
    const Estimate fp32 = estimate(must_normalize(in), node("A100-80GB", 1), a());
    CHECK(fp32.hours == Approx(tf32.hours));
    CHECK_THAT(fp32.notes.back(), Catch::Matchers::Contains("TF32"));
    const Estimate volta = estimate(must_normalize(in), node("V100-16GB", 1), a());
    CHECK(volta.notes.empty()); // no TF32 on a V100: FP32 on CUDA cores
}

TEST_CASE("interleaving model chunks cuts the pipeline bubble: GPT-3 on 11,616 H100") {
    Workload in = training("gpt-3-175b", 1.23e9);
    in.precision = Precision::fp8; // as the MLPerf submission ran
    std::string basis;             // nodes as the catalog's H100 instance types: 3,200 Gbps EFA
    const Hardware hw = hardware_for_gpu(builtin_catalog(), gpu("H100-80GB"), 11616, basis);
    const Estimate e = estimate(must_normalize(in), hw, a());
    REQUIRE(e.fits);
    CHECK(e.pipeline_parallel > 1);
    REQUIRE(e.virtual_stages > 1);
    CHECK_THAT(e.fit_reason, Catch::Matchers::Contains("(interleaved, "));
    // MLPerf Training v4.0 took 0.0574 h; with plain 1F1B only, the estimate was 0.095 h.
    CHECK(e.hours < 0.0574 * 1.4);
}

TEST_CASE("serving splits a model over two nodes only over RDMA, and pays for the all-reduces") {
    Workload in;
    in.kind = WorkloadKind::inference;
    in.model = "llama-2-13b"; // 29 GB with one sequence: more than one L4 holds
    in.qps = 1;
    const NormalizedWorkload w = must_normalize(in);
    Hardware per_node = node("L4", 1, true, 100); // 100 Gbps RDMA between one-GPU nodes
    per_node.gpus_per_node = 1;
    per_node.nvlink = false;
    std::map<int, Estimate> estimates;
    const auto run = [&](int n) -> const Estimate& {
        auto [at, added] = estimates.try_emplace(n);
        if (added) {
            Hardware hw = per_node;
            hw.gpus = n;
            at->second = estimate(w, hw, a());
        }
        return at->second;
    };
    const CountSearch rdma = search_counts(w, 1, 64, run);
    REQUIRE_FALSE(rdma.counts.empty()); // found from the estimate on two units, not one
    CHECK(rdma.counts.front() >= 2);
    CHECK(estimates.at(rdma.counts.front()).gpus_per_replica == 2);
    Hardware two_in_one_node = node("L4", 2);
    two_in_one_node.nvlink = false; // PCIe inside a node is faster than 100 Gbps between nodes
    CHECK(estimates.at(2).tpot_ms > estimate(w, two_in_one_node, a()).tpot_ms);
    estimates.clear();
    per_node.rdma = false; // over TCP: no tensor parallelism across nodes
    const CountSearch tcp = search_counts(w, 1, 64, run);
    CHECK(tcp.counts.empty());
    REQUIRE(tcp.why != nullptr);
    CHECK_THAT(tcp.why->fit_reason, Catch::Matchers::Contains("does not fit"));
    // ... and says what weight-only quantisation would leave: 13B in int8 is about 14 GB.
    CHECK_THAT(tcp.why->fit_reason, Catch::Matchers::Contains("int8 weights would take 14.3 GB"));
}
