// Efficiency factors and defaults of the sizing model (data/assumptions.yaml).
#pragma once

#include "gpuadvisor/diagnostic.hpp"

#include <array>
#include <cstddef>
#include <map>
#include <string>
#include <string_view>

namespace gpuadvisor {

struct Assumption {
    double value = 0;
    std::string unit;
    std::string source;
};

// The factors the sizing model reads, by name (those of data/assumptions.yaml).
inline constexpr std::array<std::string_view, 39> k_factor_names{
    "activation_recompute_flops_factor",
    "attention_scores_stored",
    "bytes_per_param_training",
    "checkpoints_kept",
    "cnn_activation_traffic",
    "cnn_batch_per_gpu",
    "comm_overlap",
    "cpu_fp64_efficiency",
    "cpu_server_cost_per_socket_hour",
    "cpu_training_efficiency",
    "data_link_cross_provider_gbps",
    "data_link_inter_region_gbps",
    "data_link_same_region_gbps",
    "global_batch_tokens",
    "hpc_bandwidth_efficiency",
    "hpc_fp64_efficiency",
    "hpc_min_bandwidth_gb_per_s",
    "hpc_min_fp64_tflops",
    "inference_bandwidth_efficiency",
    "inference_compute_efficiency",
    "inference_kv_bytes_fp16",
    "inference_max_batch",
    "inference_runtime_overhead",
    "link_efficiency",
    "non_llm_efficiency_max",
    "non_llm_half_batch",
    "non_rdma_network_factor",
    "pcie_gb_per_s",
    "qlora_bytes_per_param",
    "tensor_parallel_efficiency_nvlink",
    "tensor_parallel_efficiency_pcie",
    "text_bytes_per_token",
    "training_mfu",
    "training_mfu_factor_cdna",
    "training_mfu_factor_hopper",
    "training_mfu_fp32",
    "training_mfu_fp8",
    "training_mfu_half_params",
    "usable_memory_fraction",
};

// A factor's name, looked up in k_factor_names when the program is compiled: a misspelt name
// does not compile, and reading the factor is an array index (sizing reads some thirty per
// estimate, and a large catalog asks for thousands of estimates).
class Factor {
  public:
    consteval Factor(const char* name) // NOLINT(google-explicit-constructor): a name in code
        : m_index(index_of(name)) {}
    std::size_t index() const { return m_index; }
    std::string_view name() const { return k_factor_names[m_index]; }

  private:
    static consteval std::size_t index_of(std::string_view name) {
        for (std::size_t i = 0; i < k_factor_names.size(); ++i) {
            if (k_factor_names[i] == name) {
                return i;
            }
        }
        throw "not a name in k_factor_names"; // not a constant expression: a compile error
    }
    std::size_t m_index;
};

class Assumptions {
  public:
    Assumptions();
    explicit Assumptions(std::map<std::string, Assumption, std::less<>> values);

    // The value of a factor; throws std::out_of_range for one the data lacks (a programming
    // error: tests load the shipped file and read every factor).
    double get(Factor factor) const;
    const std::map<std::string, Assumption, std::less<>>& all() const { return m_values; }

  private:
    std::map<std::string, Assumption, std::less<>> m_values;
    std::array<double, k_factor_names.size()> m_factors; // by Factor, NaN when the data lacks it
};

struct AssumptionsLoad {
    Assumptions assumptions;
    Diagnostics diagnostics;
};
AssumptionsLoad load_assumptions_text(const std::string& file, std::string_view text);
const Assumptions& builtin_assumptions();

} // namespace gpuadvisor
