// The sizing model against published runs (data/calibration.yaml): the comparison table in
// docs/sizing-model.md is generated here (UPDATE_GOLDEN=1 rewrites it), so it cannot drift.
// One set of defaults serves every run: nothing here is fitted per case.
#include "gpuadvisor/sizing.hpp"
#include "schema.hpp"
#include "test_helpers.hpp"
#include "yaml_reader.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>

using namespace gpuadvisor;

namespace {

struct Run {
    std::string id;
    std::string kind;
    std::string model;
    std::string gpu;
    std::optional<double> gpus, tokens, samples, seq_len, gpu_hours, wall_hours, batch,
        input_tokens, output_tokens, tokens_per_second, network_gbps;
    std::string precision;
    std::string source;
};

std::optional<double> number(const YamlNode& run, std::string_view key) {
    const YamlNode* node = run.find(key);
    if (node == nullptr || node->kind != YamlNode::Kind::scalar) {
        return std::nullopt;
    }
    return parse_strict_number(node->text);
}

std::string text(const YamlNode& run, std::string_view key) {
    const YamlNode* node = run.find(key);
    return node != nullptr && node->is_scalar() ? std::string(node->text) : std::string();
}

std::vector<Run> load_runs() {
    Diagnostics diagnostics;
    const std::string path = std::string(GPUADVISOR_DATA) + "/calibration.yaml";
    const auto document = parse_yaml(path, test::read_text(path), {}, diagnostics);
    REQUIRE(document.root);
    std::vector<Run> runs;
    for (const YamlNode& node : document.root->find("runs")->items) {
        Run r;
        r.id = text(node, "id");
        r.kind = text(node, "kind");
        r.model = text(node, "model");
        r.gpu = text(node, "gpu");
        r.gpus = number(node, "gpus");
        r.tokens = number(node, "tokens");
        r.samples = number(node, "samples");
        r.seq_len = number(node, "seq_len");
        r.gpu_hours = number(node, "gpu_hours");
        r.wall_hours = number(node, "wall_hours");
        r.batch = number(node, "batch");
        r.input_tokens = number(node, "input_tokens");
        r.output_tokens = number(node, "output_tokens");
        r.tokens_per_second = number(node, "tokens_per_second");
        r.network_gbps = number(node, "network_gbps");
        r.precision = text(node, "precision");
        r.source = text(node, "source");
        runs.push_back(std::move(r));
    }
    return runs;
}

struct Comparison {
    std::string id;
    std::string what;
    double published = 0;
    double estimated = 0;
    std::string basis;
};

Hardware hardware(const Run& run, int gpus) {
    Hardware hw;
    hw.gpu = builtin_catalog().find_gpu(run.gpu);
    REQUIRE(hw.gpu != nullptr);
    hw.gpus = gpus;
    hw.gpus_per_node = std::min(gpus, 8);
    hw.nvlink = hw.gpu->nvlink_gb_per_s > 0;
    hw.network_gbps = run.network_gbps.value_or(400);
    hw.rdma = true;
    return hw;
}

std::optional<Comparison> compare(const Run& run) {
    const Assumptions& a = builtin_assumptions();
    Workload w;
    w.kind = parse_workload_kind(run.kind);
    w.model = run.model;
    w.precision = parse_precision(run.precision);
    if (run.kind == "training") {
        const ModelSpec* model = builtin_models().find(run.model);
        REQUIRE(model != nullptr);
        if (model->is_transformer()) {
            w.tokens = run.tokens ? run.tokens : *run.samples * run.seq_len.value_or(2048);
            w.seq_len = run.seq_len;
        } else {
            w.samples = run.samples;
        }
        const auto normalized = normalize(w, builtin_models());
        REQUIRE(normalized.workload);
        const double published = run.gpu_hours ? *run.gpu_hours : *run.wall_hours * *run.gpus;
        if (!run.gpus) { // GPU count not published: ideal scaling
            const double peak =
                peak_tflops(*builtin_catalog().find_gpu(run.gpu), normalized.workload->precision) *
                1e12;
            const double hours = requirements(*normalized.workload, a).compute_flops /
                                 (peak * a.get("training_mfu")) / 3600;
            return Comparison{
                run.id, "GPU-hours", published, hours, "C / (P x MFU), GPU count not published"};
        }
        const Estimate e =
            estimate(*normalized.workload, hardware(run, static_cast<int>(*run.gpus)), a);
        REQUIRE(e.fits);
        return Comparison{run.id,
                          "GPU-hours",
                          published,
                          e.gpu_hours,
                          fmt::format("{} GPUs, {}", *run.gpus, e.fit_reason)};
    }
    if (!run.tokens_per_second) {
        return std::nullopt; // nothing published to compare with
    }
    w.input_tokens = run.input_tokens;
    w.output_tokens = run.output_tokens;
    w.batch = run.batch;
    const auto normalized = normalize(w, builtin_models());
    REQUIRE(normalized.workload);
    const int gpus = static_cast<int>(run.gpus.value_or(1));
    const Estimate e = estimate(*normalized.workload, hardware(run, gpus), a);
    REQUIRE(e.fits);
    const double replicas = std::floor(gpus / static_cast<double>(e.gpus_per_replica));
    return Comparison{run.id,
                      "output tokens/s",
                      *run.tokens_per_second,
                      e.tokens_per_s * replicas,
                      fmt::format("{} replica(s) of {} GPU(s), batch {}",
                                  replicas,
                                  e.gpus_per_replica,
                                  format_number(e.batch))};
}

std::string significant(double value) {
    return format_number(std::round(value * 1000) / 1000 >= 1000 ? std::round(value)
                                                                 : std::round(value * 1000) / 1000);
}

std::string table(const std::vector<Comparison>& rows) {
    std::string text = "| run | measure | published | estimated | error | estimate's basis |\n"
                       "|---|---|---:|---:|---:|---|\n";
    for (const Comparison& c : rows) {
        text += fmt::format("| {} | {} | {} | {} | {:+.0f}% | {} |\n",
                            c.id,
                            c.what,
                            significant(c.published),
                            significant(c.estimated),
                            (c.estimated / c.published - 1) * 100,
                            c.basis);
    }
    return text;
}

// The text between <!-- NAME:begin --> and <!-- NAME:end --> in docs/sizing-model.md must be
// `generated`; UPDATE_GOLDEN=1 rewrites it.
void check_doc_section(const std::string& name, const std::string& generated) {
    const std::string doc_path = std::string(GPUADVISOR_DATA) + "/../docs/sizing-model.md";
    std::string doc = test::read_text(doc_path);
    const std::string begin = "<!-- " + name + ":begin -->\n";
    const std::string end = "<!-- " + name + ":end -->";
    const auto from = doc.find(begin);
    const auto to = doc.find(end);
    REQUIRE(from != std::string::npos);
    REQUIRE(to != std::string::npos);
    if (std::getenv("UPDATE_GOLDEN") != nullptr) {
        doc.replace(from + begin.size(), to - from - begin.size(), generated);
        std::ofstream(doc_path) << doc;
        return;
    }
    CHECK(doc.substr(from + begin.size(), to - from - begin.size()) == generated);
}

} // namespace

TEST_CASE("the sizing model against published runs, one set of defaults for all") {
    std::vector<Comparison> rows;
    for (const Run& run : load_runs()) {
        INFO(run.id);
        if (auto comparison = compare(run)) {
            rows.push_back(*comparison);
        }
    }
    REQUIRE(rows.size() >= 10);
    std::vector<double> errors;
    for (const Comparison& c : rows) {
        INFO(c.id << ": published " << c.published << ", estimated " << c.estimated);
        const double ratio = c.estimated / c.published;
        CHECK(ratio > 1.0 / 3); // every run within a factor of three
        CHECK(ratio < 3.0);
        errors.push_back(std::abs(std::log(ratio)));
    }
    std::sort(errors.begin(), errors.end());
    CHECK(std::exp(errors[errors.size() / 2]) < 1.5); // the median run within 50%

    check_doc_section("calibration", table(rows));
}

TEST_CASE("the docs list every sizing factor with its value and source") {
    std::string text = "| factor | value | unit | source |\n|---|---:|---|---|\n";
    for (const auto& [name, assumption] : builtin_assumptions().all()) {
        text += fmt::format("| `{}` | {} | {} | {} |\n",
                            name,
                            format_number(assumption.value),
                            assumption.unit,
                            assumption.source);
    }
    check_doc_section("assumptions", text);
}
