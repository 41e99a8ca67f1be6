#include "render_size.hpp"

#include "catalog_listing.hpp"
#include "output.hpp"
#include "render_data.hpp"
#include "render_table.hpp"
#include "text.hpp"

#include <fmt/format.h>

#include <cmath>

namespace gpuadvisor::cli {

namespace {

// Rounds for display and JSON: estimates are not more precise than 4 significant digits.
double round4(double value) {
    if (value == 0 || !std::isfinite(value)) {
        return 0;
    }
    const double scale = std::pow(10.0, 3 - std::floor(std::log10(std::abs(value))));
    return std::round(value * scale) / scale;
}

} // namespace

Json workload_json(const NormalizedWorkload& w) {
    Json json;
    json["kind"] = to_string(w.kind);
    if (w.model.parameters > 0) {
        json["model"] = w.model.id;
        json["model_is_preset"] = w.model_is_preset;
        json["parameters"] = count_json(w.model.parameters);
        json["active_parameters"] = count_json(w.model.active_parameters);
        json["precision"] = to_string(w.precision);
    }
    switch (w.kind) {
    case WorkloadKind::training:
    case WorkloadKind::finetune:
        json[w.model.is_transformer() ? "tokens" : "samples"] = count_json(w.tokens);
        if (w.model.is_transformer()) {
            json["seq_len"] = count_json(w.seq_len);
        }
        json["batch"] = count_json(w.batch);
        if (w.kind == WorkloadKind::finetune) {
            json["method"] = to_string(w.method);
            if (w.method != FinetuneMethod::full) {
                json["lora_rank"] = count_json(w.lora_rank);
            }
        }
        break;
    case WorkloadKind::inference:
        json["qps"] = w.qps;
        json["latency_ms"] = w.latency_ms > 0 ? Json(w.latency_ms) : Json(nullptr);
        json["ttft_ms"] = w.ttft_ms > 0 ? Json(w.ttft_ms) : Json(nullptr);
        json["tpot_ms"] = w.tpot_ms > 0 ? Json(w.tpot_ms) : Json(nullptr);
        json["input_tokens"] = count_json(w.input_tokens);
        json["output_tokens"] = count_json(w.output_tokens);
        break;
    case WorkloadKind::hpc:
        json["fp64_tflops"] = w.fp64_tflops;
        json["fp64_tensor"] = w.fp64_tensor;
        json["memory_gb"] = w.memory_gb;
        json["bandwidth_gb_per_s"] =
            w.bandwidth_gb_per_s > 0 ? Json(w.bandwidth_gb_per_s) : Json(nullptr); // not given
        break;
    case WorkloadKind::graphics:
        json["sessions"] = count_json(w.sessions);
        json["memory_per_session_gb"] = w.memory_per_session_gb;
        json["byo_vgpu"] = w.byo_vgpu;
        break;
    }
    if (w.deadline_hours) {
        json["deadline_hours"] = *w.deadline_hours;
    }
    return json;
}

Json requirements_json(const Requirements& r, WorkloadKind kind) {
    Json json;
    json["memory_total_gb"] = round4(r.memory_total_gb);
    json["min_gpu_memory_gb"] = round4(r.min_gpu_memory_gb);
    json["sharding"] = r.sharding;
    const bool finite = is_finite_work(kind);
    if (finite) {
        json["weights_gb"] = round4(r.weights_gb);
        json["optimizer_state_gb"] = round4(r.optimizer_state_gb);
        json["activations_gb"] = round4(r.activations_gb);
        json["compute_flops"] = round4(r.compute_flops);
    }
    if (kind == WorkloadKind::inference) {
        json["weights_gb"] = round4(r.weights_gb);
        json["kv_cache_per_token_bytes"] = r.kv_cache_per_token_bytes;
        json["throughput"] = {{"output_tokens_per_s", round4(r.throughput_tokens_per_s)}};
    }
    json["fp64_tflops"] = r.fp64_tflops;
    json["network_gbps"] = r.network_gbps;
    json["rdma"] = r.rdma;
    json["storage_tb"] = round4(r.storage_tb);
    json["storage_tier"] = r.storage_tier;
    return json;
}

namespace {

Json estimate_json(const Estimate& e, const SizeReport& report) {
    Json json;
    json["gpu"] = report.estimate_gpu;
    json["gpus"] = report.estimate_gpus;
    json["count_chosen"] = report.count_chosen;
    json["fits"] = e.fits;
    json["layout"] = e.fit_reason;
    json["memory_per_gpu_gb"] = round4(e.memory_per_gpu_gb);
    json["scaling_efficiency"] = round4(e.scaling_efficiency);
    switch (report.workload.kind) {
    case WorkloadKind::training:
    case WorkloadKind::finetune:
        json["hours"] = e.fits ? Json(round4(e.hours)) : Json(nullptr);
        json["gpu_hours"] = e.fits ? Json(round4(e.gpu_hours)) : Json(nullptr);
        json["min_gpus"] = e.min_gpus > 0 ? Json(e.min_gpus) : Json(nullptr);
        json["tensor_parallel"] = e.tensor_parallel;
        json["pipeline_parallel"] = e.pipeline_parallel;
        json["virtual_stages"] = e.virtual_stages;
        json["zero_stage"] = e.zero_stage;
        json["recompute_share"] = round4(e.recompute_share);
        json["mfu"] = round4(e.mfu);
        json["recompute"] = e.recompute;
        if (report.workload.deadline_hours) {
            json["meets_deadline"] = e.fits && e.hours <= *report.workload.deadline_hours;
        }
        break;
    case WorkloadKind::inference:
        json["batch"] = count_json(e.batch);
        json["latency_ms"] = round4(e.latency_ms);
        json["prefill_ms"] = round4(e.prefill_ms);
        json["decode_step_ms"] = round4(e.decode_step_ms);
        json["ttft_ms"] = round4(e.prefill_ms);
        json["tpot_ms"] = round4(e.tpot_ms);
        json["tokens_per_s"] = round4(e.tokens_per_s);
        json["qps_per_replica"] = round4(e.qps_per_replica);
        json["gpus_per_replica"] = e.gpus_per_replica;
        json["replicas"] = e.replicas;
        json["gpus_needed"] = e.replicas * e.gpus_per_replica;
        break;
    case WorkloadKind::hpc:
        json["fp64_tflops_per_gpu"] = round4(e.fp64_tflops_per_gpu);
        json["gpus_needed"] = e.replicas;
        break;
    case WorkloadKind::graphics:
        json["vgpu_profile_gb"] = e.vgpu_profile_gb > 0 ? Json(e.vgpu_profile_gb) : Json(nullptr);
        json["sessions_per_gpu"] = e.sessions_per_gpu;
        json["gpus_needed"] = e.replicas;
        break;
    }
    json["notes"] = e.notes;
    return json;
}

void add_rows(Table& table, const std::string& section, const Json& object) {
    for (const auto& [key, value] : object.items()) {
        if (value.is_object()) {
            for (const auto& [inner, item] : value.items()) {
                table.rows.push_back({section, key + "." + inner, cell_text(item)});
            }
        } else if (value.is_array()) {
            for (const auto& item : value) {
                table.rows.push_back({section, key, cell_text(item)});
            }
        } else {
            table.rows.push_back({section, key, cell_text(value)});
        }
    }
}

} // namespace

std::string gpus_label(const InstanceType& instance) {
    return gpus_text(instance);
}

void print_size(const SizeReport& report, Io& io) {
    Json document = json_document("size");
    document["ok"] = !report.estimate || report.estimate->fits; // else exit 1
    document["workload"] = workload_json(report.workload);
    document["requirements"] = requirements_json(report.requirements, report.workload.kind);
    if (report.estimate) {
        document["estimate"] = estimate_json(*report.estimate, report);
    }
    Json assumptions = Json::array();
    for (const UsedAssumption& used : report.assumptions) {
        assumptions.push_back({{"name", used.name}, {"value", used.value}, {"unit", used.unit}});
    }
    document["assumptions"] = assumptions;
    document["notes"] = report.notes;
    if (report.data && report.data_request) {
        document["data"] =
            data_move_json(*report.data, *report.data_request, report.data->storage_currency);
    }
    if (io.format == OutputFormat::json) {
        write_json(document, io);
        return;
    }
    // A terminal's table; CSV and Markdown are data: the JSON's values a row each (a nested
    // one's field "outer.inner"), headed in snake_case, and the notes on stderr.
    const bool data = io.format != OutputFormat::table;
    Table table{{{data ? "section" : "SECTION"},
                 {data ? "field" : "FIELD"},
                 {data ? "value" : "VALUE", Align::left, true}},
                {}};
    add_rows(table, "workload", document["workload"]);
    add_rows(table, "requirements", document["requirements"]);
    if (report.estimate) {
        add_rows(table, "estimate", document["estimate"]);
    }
    if (report.data) {
        add_rows(table, "data", document["data"]);
    }
    for (const UsedAssumption& used : report.assumptions) {
        table.rows.push_back({"assumption", used.name, format_number(used.value)});
    }
    for (const std::string& note : report.notes) {
        if (!data) {
            table.rows.push_back({"note", "", note});
        }
    }
    render_table(table, io);
    for (const std::string& note : report.notes) {
        if (data && !io.quiet) {
            io.err << "gpuadvisor: note: " << terminal_safe(note) << '\n';
        }
    }
}

} // namespace gpuadvisor::cli
