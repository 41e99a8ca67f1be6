// Model presets (data/models.yaml): architecture figures the sizing engine needs.
#pragma once

#include "gpuadvisor/catalog.hpp"
#include "gpuadvisor/diagnostic.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuadvisor {

enum class ModelArchitecture { decoder, encoder, moe_decoder, cnn, recommender };
std::string_view to_string(ModelArchitecture architecture);

struct ModelSpec {
    std::string id;
    std::vector<std::string> aliases;
    std::string name;
    std::string family;
    ModelArchitecture architecture = ModelArchitecture::decoder;
    double parameters = 0;
    double active_parameters = 0; // per token; = parameters except for MoE
    int layers = 0;               // 0 for cnn / recommender
    int hidden_size = 0;
    int attention_heads = 0;
    int kv_heads = 0;
    int head_dim = 0;
    int context_length = 0;
    double flops_per_sample_g = 0; // non-transformers: forward GFLOPs per sample
    // Non-transformers: activations kept for the backward pass, GB per training sample at
    // 16 bit (mixed precision); absent where not known.
    std::optional<double> activation_gb_per_sample;
    std::string reference_input;
    std::optional<double> pretraining_tokens;
    Provenance provenance;

    bool is_transformer() const { return layers > 0; }
    // A decoder: it generates tokens one by one (time to first token, time per token).
    bool generates_tokens() const {
        return is_transformer() && architecture != ModelArchitecture::encoder;
    }
    bool operator==(const ModelSpec&) const = default;
};

class ModelCatalog {
  public:
    ModelCatalog() = default;
    explicit ModelCatalog(std::vector<ModelSpec> models);

    const std::vector<ModelSpec>& models() const { return m_models; }
    // By id or alias, case-insensitive.
    const ModelSpec* find(std::string_view name) const;
    std::vector<std::string> names_near(std::string_view name) const;

  private:
    std::vector<ModelSpec> m_models;
};

// A generic dense decoder of N parameters: the shape follows the Llama family's ratio of
// hidden size to layers (see docs/sizing-model.md), stated in `notes`.
ModelSpec generic_transformer(double parameters);

struct ModelLoad {
    ModelCatalog catalog;
    Diagnostics diagnostics;
};
ModelLoad load_models_text(const std::string& file, std::string_view text);
// The built-in presets (data/models.yaml compiled in).
const ModelCatalog& builtin_models();

} // namespace gpuadvisor
