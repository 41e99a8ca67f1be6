// Shared between the sizing files; not part of the public API.
#pragma once

#include "gpuadvisor/sizing.hpp"

namespace gpuadvisor {

double activation_bytes(const NormalizedWorkload& w, const Assumptions& a, bool recompute);
double training_flops(const NormalizedWorkload& w, const Assumptions& a, bool recompute);
double training_mfu(const NormalizedWorkload& w, const Gpu& gpu, const Assumptions& a);
// Parameters that get gradients: all of them, or the LoRA adapters' (rank x (in + out) on
// every linear layer of a block).
double trainable_parameters(const NormalizedWorkload& w);
// Samples per GPU per step of a model that is not a transformer: --batch, else
// `cnn_batch_per_gpu`.
double cnn_batch(const NormalizedWorkload& w, const Assumptions& a);
// Bytes of one replica's model state, by what each ZeRO stage shards.
struct TrainingState {
    double weights = 0;   // 16-bit weights in use (frozen ones too, 4-bit under QLoRA)
    double gradients = 0; // 16-bit gradients of the trained weights
    double optimizer = 0; // fp32 master weights and Adam moments of the trained weights
};
TrainingState training_state(const NormalizedWorkload& w, const Assumptions& a);
Estimate estimate_training(const NormalizedWorkload& w, const Hardware& hw, const Assumptions& a);
Estimate estimate_inference(const NormalizedWorkload& w, const Hardware& hw, const Assumptions& a);
double kv_bytes_per_token(const NormalizedWorkload& w, const Assumptions& a);
// Bytes/s one GPU moves per direction in a collective: over NVLink (half its bidirectional
// figure) or PCIe inside a node; over the node's network between nodes (all its GPUs share it).
double link_bytes_per_s(const Hardware& hw, const Assumptions& a);
double network_bytes_per_s(const Hardware& hw, const Assumptions& a);
double serving_weight_bytes(const NormalizedWorkload& w, const Assumptions& a);

// A count from a computed figure, capped: ceil(value) when finite and at most k_max_count,
// else k_max_count + 1 (which no hardware meets). Never an overflowing cast.
inline constexpr double k_max_count = 1e8;
int safe_count(double value);

} // namespace gpuadvisor
