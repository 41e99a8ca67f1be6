// Shared between the sizing files; not part of the public API.
#pragma once

#include "gpuadvisor/sizing.hpp"

namespace gpuadvisor {

double activation_bytes(const NormalizedWorkload& w, bool recompute);
double training_flops(const NormalizedWorkload& w, const Assumptions& a, bool recompute);
double training_mfu(const NormalizedWorkload& w, const Assumptions& a);
Estimate estimate_training(const NormalizedWorkload& w, const Hardware& hw, const Assumptions& a);
Estimate estimate_inference(const NormalizedWorkload& w, const Hardware& hw, const Assumptions& a);
double kv_bytes_per_token(const NormalizedWorkload& w, const Assumptions& a);
double serving_weight_bytes(const NormalizedWorkload& w, const Assumptions& a);

// A count from a computed figure, capped: ceil(value) when finite and at most k_max_count,
// else k_max_count + 1 (which no hardware meets). Never an overflowing cast.
inline constexpr double k_max_count = 1e8;
int safe_count(double value);

} // namespace gpuadvisor
