// The sizing model against published runs (data/calibration.yaml): the comparison table in
// docs/sizing-model.md is generated here (UPDATE_GOLDEN=1 rewrites it), so it cannot drift.
// One set of defaults serves every run: nothing here is fitted per case.
#include "gpuadvisor/sizing.hpp"
#include "test_helpers.hpp"
#include "yaml/schema.hpp"
#include "yaml/yaml_reader.hpp"

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
    std::string instance;
    std::string method;
    std::optional<double> gpus, tokens, samples, seq_len, gpu_hours, wall_hours, batch,
        input_tokens, output_tokens, tokens_per_second, samples_per_second, latency_ms, ttft_ms,
        tpot_ms;
    std::string precision;
    bool fitted = false;
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
    return node != nullptr && node->is_scalar() && node->text != "null" ? std::string(node->text)
                                                                        : std::string();
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
        r.instance = text(node, "instance");
        r.method = text(node, "method");
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
        r.samples_per_second = number(node, "samples_per_second");
        r.latency_ms = number(node, "latency_ms");
        r.ttft_ms = number(node, "ttft_ms");
        r.tpot_ms = number(node, "tpot_ms");
        r.precision = text(node, "precision");
        r.fitted = text(node, "fitted") == "true";
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
    bool fitted = false;
};

// A run whose GPU count is not published is estimated on this many GPUs (the cluster the
// LLaMA-1 paper names, and a size common to large pretraining runs); the table says so.
constexpr int k_typical_cluster = 2048;

// The hardware as a user names it: --instance with --instances where the run's node is a
// catalog instance type, else --gpu with --gpus (nodes as the catalog's instance types).
Hardware hardware(const Run& run, int gpus, std::string& basis) {
    const Gpu* gpu = builtin_catalog().find_gpu(run.gpu);
    REQUIRE(gpu != nullptr);
    if (!run.instance.empty()) {
        const auto found = builtin_catalog().match_instances(run.instance);
        REQUIRE(found.size() == 1);
        const InstanceType& instance = *found[0];
        basis = fmt::format("--instance {} --instances {}", instance.id, gpus / instance.gpu_count);
        return hardware_of(instance, *gpu, static_cast<int>(gpus / instance.gpu_count));
    }
    std::string nodes;
    const Hardware hw = hardware_for_gpu(builtin_catalog(), *gpu, gpus, nodes);
    basis = fmt::format("--gpu {} --gpus {}", gpu->id, gpus);
    return hw;
}

std::optional<Comparison> compare_training(const Run& run) {
    Workload w;
    w.kind = parse_workload_kind(run.kind);
    w.model = run.model;
    w.precision = parse_precision(run.precision);
    if (!run.method.empty()) {
        w.method = parse_finetune_method(run.method);
    }
    const ModelSpec* model = builtin_models().find(run.model);
    REQUIRE(model != nullptr);
    // Throughput rows publish no token count: any large one measures the steady state.
    const double tokens = run.tokens ? *run.tokens
                          : run.samples && model->is_transformer()
                              ? *run.samples * run.seq_len.value_or(2048)
                          : run.samples ? *run.samples
                                        : 1e11;
    if (model->is_transformer()) {
        w.tokens = tokens;
        w.seq_len = run.seq_len;
    } else {
        w.samples = tokens;
    }
    const auto normalized = normalize(w, builtin_models());
    REQUIRE(normalized.workload);
    const int gpus = static_cast<int>(run.gpus.value_or(k_typical_cluster));
    std::string basis;
    const Estimate e =
        estimate(*normalized.workload, hardware(run, gpus, basis), builtin_assumptions());
    INFO(e.fit_reason);
    REQUIRE(e.fits);
    if (!run.gpus) {
        basis += " (count not published: a typical cluster)";
    }
    basis += ": " + e.fit_reason;
    if (run.gpu_hours || run.wall_hours) {
        const double published = run.gpu_hours ? *run.gpu_hours : *run.wall_hours * gpus;
        return Comparison{run.id, "GPU-hours", published, e.gpu_hours, basis, run.fitted};
    }
    if (const auto per_second =
            run.samples_per_second ? run.samples_per_second : run.tokens_per_second) {
        return Comparison{run.id,
                          run.samples_per_second ? "trained samples/s" : "trained tokens/s",
                          *per_second,
                          tokens / (e.hours * 3600),
                          basis,
                          run.fitted};
    }
    return std::nullopt;
}

std::optional<Comparison> compare(const Run& run) {
    if (run.kind == "training" || run.kind == "finetune") {
        return compare_training(run);
    }
    if (!run.tokens_per_second) {
        return std::nullopt; // nothing published to compare with
    }
    Workload w;
    w.kind = WorkloadKind::inference;
    w.model = run.model;
    w.precision = parse_precision(run.precision);
    w.input_tokens = run.input_tokens;
    w.output_tokens = run.output_tokens;
    w.batch = run.batch;
    // A throughput benchmark offers more load than any replica keeps up with; a server run's
    // measured time per token (and to first token) is the target it met.
    w.qps = 1e6;
    w.tpot_ms = run.tpot_ms;
    w.ttft_ms = run.ttft_ms;
    const auto normalized = normalize(w, builtin_models());
    REQUIRE(normalized.workload);
    const int gpus = static_cast<int>(run.gpus.value_or(1));
    std::string basis;
    const Estimate e =
        estimate(*normalized.workload, hardware(run, gpus, basis), builtin_assumptions());
    INFO(e.fit_reason);
    REQUIRE(e.tokens_per_s > 0); // the saturating load needs more replicas than the run had
    const double replicas = std::floor(gpus / static_cast<double>(e.gpus_per_replica));
    return Comparison{run.id,
                      "output tokens/s",
                      *run.tokens_per_second,
                      e.tokens_per_s * replicas,
                      fmt::format("{}: {} replica(s) of {} GPU(s), batch {}",
                                  basis,
                                  replicas,
                                  e.gpus_per_replica,
                                  format_number(e.batch)),
                      run.fitted};
}

std::string significant(double value) {
    return format_number(std::round(value * 1000) / 1000 >= 1000 ? std::round(value)
                                                                 : std::round(value * 1000) / 1000);
}

double error(const Comparison& c) {
    return c.estimated / c.published - 1;
}

std::string table(const std::vector<Comparison>& rows) {
    std::string text =
        "| run | measure | published | estimated | error | fitted on | estimated as |\n"
        "|---|---|---:|---:|---:|---|---|\n";
    for (const Comparison& c : rows) {
        text += fmt::format("| {} | {} | {} | {} | {:+.0f}% | {} | {} |\n",
                            c.id,
                            c.what,
                            significant(c.published),
                            significant(c.estimated),
                            error(c) * 100,
                            c.fitted ? "yes" : "",
                            c.basis);
    }
    return text;
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
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

TEST_CASE("the sizing model against published runs, through the user's path") {
    std::vector<Comparison> rows;
    for (const Run& run : load_runs()) {
        INFO(run.id);
        if (auto comparison = compare(run)) {
            rows.push_back(*comparison);
        }
    }
    REQUIRE(rows.size() >= 40);
    std::vector<double> held_back;
    std::vector<double> fitted;
    for (const Comparison& c : rows) {
        (c.fitted ? fitted : held_back).push_back(std::abs(error(c)));
        if (std::getenv("CALIBRATION_PRINT") != nullptr) {
            fmt::print(
                "{:+6.0f}% {} {} | {}\n", error(c) * 100, c.fitted ? "F" : " ", c.id, c.basis);
        }
    }
    REQUIRE_FALSE(fitted.empty());
    REQUIRE(held_back.size() >= 30);
    const double worst = *std::max_element(held_back.begin(), held_back.end());
    const std::string summary = fmt::format(
        "{} runs: {} fitted on (median |error| {:.0f}%), {} held back: median |error| {:.0f}%, "
        "worst {:.0f}%\n",
        rows.size(),
        fitted.size(),
        median(fitted) * 100,
        held_back.size(),
        median(held_back) * 100,
        worst * 100);
    INFO(summary);
    // Issue 28 asks for a median of 15% and no row past 40% on the held-back rows; this guards
    // what holds today (docs/sizing-model.md, Calibration, lists the rows past 40%).
    CHECK(median(held_back) <= 0.22);
    for (const Comparison& c : rows) {
        INFO(c.id << ": published " << c.published << ", estimated " << c.estimated);
        CHECK(c.estimated / c.published > 1.0 / 3); // every run within a factor of three
        CHECK(c.estimated / c.published < 3.0);
    }
    check_doc_section("calibration", summary + "\n" + table(rows));
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
