// The table of the workload's fields: profile keys, flags, members, and the overlay.
#include "gpuadvisor/workload.hpp"
#include "test_helpers.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <string>

using namespace gpuadvisor;

TEST_CASE("workload fields: keys and members unique, each flag '--' and the key with '-'") {
    std::set<std::string_view> keys;
    for (std::size_t i = 0; i < k_workload_fields.size(); ++i) {
        const WorkloadField& field = k_workload_fields[i];
        CAPTURE(field.key);
        CHECK(keys.insert(field.key).second);
        std::string flag = "--" + std::string(field.key);
        std::replace(flag.begin(), flag.end(), '_', '-');
        CHECK(field.flag == flag);
        for (std::size_t j = 0; j < i; ++j) {
            CHECK(k_workload_fields[j].member != field.member);
        }
    }
    CHECK(keys.size() == 22);
}

TEST_CASE("workload fields: sizes and durations are read with their units, the rest as counts") {
    // By hand: --memory-gb and --memory-per-session-gb take 80GB, --deadline takes 30d.
    std::map<std::string_view, QuantityKind> not_counts;
    for (const WorkloadField& field : k_workload_fields) {
        if (field.kind != QuantityKind::count) {
            not_counts.emplace(field.key, field.kind);
        }
    }
    CHECK(not_counts == std::map<std::string_view, QuantityKind>{
                            {"deadline", QuantityKind::duration_hours},
                            {"memory_gb", QuantityKind::bytes},
                            {"memory_per_session_gb", QuantityKind::bytes},
                        });
}

TEST_CASE("workload fields: each one set in a profile is read, and a flag overrides it") {
    for (const WorkloadField& field : k_workload_fields) {
        CAPTURE(field.key);
        if (const auto* number = std::get_if<WorkloadField::Number>(&field.member)) {
            const auto load = load_workload_text(
                "p.yaml", "schema_version: 1\n" + std::string(field.key) + ": 3\n");
            REQUIRE_FALSE(load.diagnostics.has_errors());
            CHECK(load.workload.**number == 3); // a bare number: a count, GB or hours
            Workload flags;
            CHECK(overlay(load.workload, flags).**number == 3);
            flags.** number = 5;
            CHECK(overlay(load.workload, flags).**number == 5);
            CHECK(overlay(Workload{}, flags).**number == 5);
        } else {
            const auto on = std::get<WorkloadField::Switch>(field.member);
            const auto load = load_workload_text(
                "p.yaml", "schema_version: 1\n" + std::string(field.key) + ": true\n");
            REQUIRE_FALSE(load.diagnostics.has_errors());
            CHECK(load.workload.*on == true);
            Workload flags;
            CHECK(overlay(load.workload, flags).*on == true);
            flags.*on = false;
            CHECK(overlay(load.workload, flags).*on == false);
        }
    }
}

TEST_CASE("workload profile: fields with units, switches and choices, and flags win where given") {
    const auto load = load_workload_text("p.yaml",
                                         "schema_version: 1\nworkload: graphics\n"
                                         "precision: fp16\nseq_len: 4K\nmemory_gb: 2TB\n"
                                         "deadline: 2w\nbyo_vgpu: true\nbandwidth_gb_per_s: 900\n");
    REQUIRE_FALSE(load.diagnostics.has_errors());
    CHECK(load.workload.seq_len == 4000);
    CHECK(load.workload.memory_gb == 2000);
    CHECK(load.workload.deadline_hours == 336); // 2 x 168 h
    CHECK(load.workload.byo_vgpu == true);
    CHECK(load.workload.bandwidth_gb_per_s == 900);
    CHECK_FALSE(load.workload.fp64_tensor);
    Workload flags;
    flags.kind = WorkloadKind::hpc;
    flags.seq_len = 2048;
    flags.fp64_tensor = true;
    const Workload merged = overlay(load.workload, flags);
    CHECK(merged.kind == WorkloadKind::hpc);
    CHECK(merged.precision == Precision::fp16);
    CHECK(merged.seq_len == 2048);
    CHECK(merged.memory_gb == 2000);
    CHECK(merged.deadline_hours == 336);
    CHECK(merged.byo_vgpu == true);
    CHECK(merged.fp64_tensor == true);
    CHECK_FALSE(merged.tokens);
}

TEST_CASE("workload profile: its fields are listed in the order the keys came in") {
    // The list a hint shows for a key near none; did-you-mean ties follow the same order.
    const auto load = load_workload_text("p.yaml", "schema_version: 1\nzzzzzzzzzzzz: 1\n");
    CHECK(test::describe(load.diagnostics) ==
          "2:1: error[unknown-field]: (top): 'zzzzzzzzzzzz' is not a field of a workload "
          "profile\n  hint: the fields of a workload profile are: schema_version, workload, "
          "model, params, tokens, precision, method, seq_len, batch, qps, latency_ms, "
          "input_tokens, output_tokens, fp64_tflops, fp64_tensor, memory_gb, sessions, "
          "byo_vgpu, memory_per_session_gb, ttft_ms, tpot_ms, lora_rank, deadline, budget, "
          "hours_per_month, samples, name, bandwidth_gb_per_s\n");
}
