#include "gpuadvisor/models.hpp"

#include "gpuadvisor/spelling.hpp"
#include "yaml/schema.hpp"
#include "yaml/yaml_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

namespace gpuadvisor {

namespace {

constexpr std::array<std::string_view, 23> k_model_fields{"id",
                                                          "aliases",
                                                          "name",
                                                          "family",
                                                          "architecture",
                                                          "parameters",
                                                          "active_parameters",
                                                          "layers",
                                                          "hidden_size",
                                                          "attention_heads",
                                                          "kv_heads",
                                                          "head_dim",
                                                          "intermediate_size",
                                                          "vocab_size",
                                                          "context_length",
                                                          "experts",
                                                          "experts_per_token",
                                                          "flops_per_sample_g",
                                                          "activation_gb_per_sample",
                                                          "reference_input",
                                                          "pretraining_tokens",
                                                          "source",
                                                          "as_of"};
constexpr std::array<std::string_view, 5> k_architectures{
    "decoder", "encoder", "moe-decoder", "cnn", "recommender"};

ModelArchitecture parse_architecture(std::string_view text) {
    if (text == "encoder") {
        return ModelArchitecture::encoder;
    }
    if (text == "moe-decoder") {
        return ModelArchitecture::moe_decoder;
    }
    if (text == "cnn") {
        return ModelArchitecture::cnn;
    }
    if (text == "recommender") {
        return ModelArchitecture::recommender;
    }
    return ModelArchitecture::decoder;
}

std::optional<ModelSpec>
decode_model(FieldReader& read, const YamlNode& node, const std::string& path) {
    static const auto fields = [] {
        std::vector<std::string_view> all(k_model_fields.begin(), k_model_fields.end());
        all.insert(all.end(), {"confidence", "notes"});
        return all;
    }();
    const std::size_t before = read.diagnostics().error_count();
    if (!read.mapping(node, path, "a model", fields)) {
        return std::nullopt;
    }
    ModelSpec model;
    model.id = read.id(node, "id", path, Need::required).value_or("");
    if (const auto* aliases = read.list(node, "aliases", path, Need::optional)) {
        for (const YamlNode& alias : *aliases) {
            if (alias.is_scalar() && read.is_valid_id(alias.text)) {
                model.aliases.emplace_back(alias.text);
            } else {
                read.diagnostics().error(read.pos(alias),
                                         "bad-value",
                                         fmt::format("{}.aliases: not a valid name", path));
            }
        }
    }
    model.name = read.text(node, "name", path, Need::optional).value_or(model.id);
    model.family = read.text(node, "family", path, Need::optional).value_or("");
    model.architecture = parse_architecture(
        read.one_of(node, "architecture", path, Need::required, k_architectures).value_or(""));
    const Range count{0, false, 1e16};
    model.parameters = read.number(node, "parameters", path, Need::required, count).value_or(0);
    model.active_parameters = read.number(node, "active_parameters", path, Need::optional, count)
                                  .value_or(model.parameters);
    const Range size{1, true, 1e7};
    model.layers = read.whole(node, "layers", path, Need::optional, size).value_or(0);
    model.hidden_size = read.whole(node, "hidden_size", path, Need::optional, size).value_or(0);
    model.attention_heads =
        read.whole(node, "attention_heads", path, Need::optional, size).value_or(0);
    model.kv_heads =
        read.whole(node, "kv_heads", path, Need::optional, size).value_or(model.attention_heads);
    model.head_dim =
        read.whole(node, "head_dim", path, Need::optional, size)
            .value_or(model.attention_heads > 0 ? model.hidden_size / model.attention_heads : 0);
    for (const char* unused : {"intermediate_size", "vocab_size", "experts", "experts_per_token"}) {
        read.whole(
            node, unused, path, Need::optional, size); // checked, kept in the file for people
    }
    model.context_length =
        read.whole(node, "context_length", path, Need::optional, size).value_or(0);
    model.flops_per_sample_g =
        read.number(node, "flops_per_sample_g", path, Need::optional, {0, false, 1e9}).value_or(0);
    model.activation_gb_per_sample =
        read.number(node, "activation_gb_per_sample", path, Need::optional, {0, false, 1e4});
    model.reference_input = read.text(node, "reference_input", path, Need::optional).value_or("");
    model.pretraining_tokens = read.number(node, "pretraining_tokens", path, Need::optional, count);
    model.provenance = read.provenance(node, path);
    const bool transformer = model.layers > 0;
    if (transformer && (model.hidden_size == 0 || model.attention_heads == 0)) {
        read.diagnostics().error(read.pos(node),
                                 "missing-field",
                                 fmt::format("{}: a transformer needs hidden_size and "
                                             "attention_heads",
                                             path));
    }
    if (!transformer && model.flops_per_sample_g <= 0) {
        read.diagnostics().error(read.pos(node),
                                 "missing-field",
                                 fmt::format("{}: give layers (a transformer) or "
                                             "flops_per_sample_g (any other model)",
                                             path));
    }
    if (read.diagnostics().error_count() != before) {
        return std::nullopt;
    }
    return model;
}

} // namespace

std::string_view to_string(ModelArchitecture architecture) {
    switch (architecture) {
    case ModelArchitecture::decoder:
        return "decoder";
    case ModelArchitecture::encoder:
        return "encoder";
    case ModelArchitecture::moe_decoder:
        return "moe-decoder";
    case ModelArchitecture::cnn:
        return "cnn";
    case ModelArchitecture::recommender:
        return "recommender";
    }
    return "decoder";
}

ModelCatalog::ModelCatalog(std::vector<ModelSpec> models) : m_models(std::move(models)) {
    std::sort(m_models.begin(), m_models.end(), [](const ModelSpec& a, const ModelSpec& b) {
        return a.id < b.id;
    });
}

const ModelSpec* ModelCatalog::find(std::string_view name) const {
    const std::string lower = to_lower(name);
    for (const ModelSpec& model : m_models) {
        if (to_lower(model.id) == lower) {
            return &model;
        }
        for (const std::string& alias : model.aliases) {
            if (to_lower(alias) == lower) {
                return &model;
            }
        }
    }
    return nullptr;
}

std::vector<std::string> ModelCatalog::names_near(std::string_view name) const {
    std::vector<std::string> names;
    for (const ModelSpec& model : m_models) {
        names.push_back(model.id);
    }
    return nearest_names(name, names);
}

ModelSpec generic_transformer(double parameters) {
    // N ~ 12 L h^2 with h = 128 L (the Llama 2 7B/13B shape): L = cbrt(N / (12 * 128^2)).
    const double layers = std::max(1.0, std::round(std::cbrt(parameters / (12.0 * 128 * 128))));
    const double hidden = std::max(128.0, std::round(128 * layers / 128) * 128);
    ModelSpec model;
    model.id = fmt::format("generic-{}", format_number(std::round(parameters / 1e8) / 10) + "b");
    model.name = "generic dense transformer";
    model.architecture = ModelArchitecture::decoder;
    model.parameters = model.active_parameters = parameters;
    model.layers = static_cast<int>(layers);
    model.hidden_size = static_cast<int>(hidden);
    model.head_dim = 128;
    model.attention_heads = model.kv_heads = static_cast<int>(hidden / 128);
    model.context_length = 4096;
    model.provenance.source = "derived from the parameter count (docs/sizing-model.md)";
    model.provenance.confidence = Confidence::low;
    model.provenance.notes = fmt::format(
        "shape derived from N = 12 L h^2 with h = 128 L: {} layers, hidden size {}, {} heads of "
        "128, no grouped-query attention",
        model.layers,
        model.hidden_size,
        model.attention_heads);
    return model;
}

namespace {

constexpr std::array<std::string_view, 2> k_top{"schema_version", "models"};

// The file's contents past its top level.
void decode_models(FieldReader& read, const YamlNode& root, ModelLoad& load) {
    std::vector<ModelSpec> models;
    if (const auto* list = read.list(root, "models", "", Need::required)) {
        for (std::size_t i = 0; i < list->size(); ++i) {
            const std::string path = fmt::format("models[{}]", i);
            if (auto model = decode_model(read, (*list)[i], path)) {
                if (ModelCatalog(models).find(model->id) != nullptr) {
                    load.diagnostics.error(read.pos((*list)[i]),
                                           "duplicate-id",
                                           fmt::format("{}: a second model '{}'", path, model->id));
                    continue;
                }
                models.push_back(std::move(*model));
            }
        }
    }
    load.catalog = ModelCatalog(std::move(models));
}

} // namespace

ModelLoad load_models_text(const std::string& file, std::string_view text) {
    return load_data_file<ModelLoad>(file, text, {"a models file", k_top}, decode_models);
}

} // namespace gpuadvisor
