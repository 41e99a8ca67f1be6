// Rendering `recommend`: the ranked configurations, why, and (with --explain) what lost.
#pragma once

#include "gpuadvisor/planner.hpp"
#include "io.hpp"
#include "render_table.hpp"

#include <string>

namespace gpuadvisor::cli {

struct RecommendReport {
    const NormalizedWorkload* workload = nullptr;
    const Requirements* requirements = nullptr;
    const PlanResult* result = nullptr;
    const PlanConstraints* constraints = nullptr;
    bool explain = false;
};

void print_recommendations(const RecommendReport& report, Io& io);

// The pieces of the table form, for the HTML page (render_report_html.hpp): the line above the
// table, the ranked table (terminal-safe cells), and the lines under it (conversions, warnings,
// tiers, notes, discounts, the rules fired; with --explain the assumptions and the rejected).
std::string recommend_summary(const RecommendReport& report);
Table recommend_table(const RecommendReport& report);
void print_explanations(const RecommendReport& report, Io& io);
// The sizing assumptions the workload used and, with --dataset-tb, the transfer's throughput per
// path: what --explain and the HTML page list.
std::vector<UsedAssumption> shown_assumptions(const RecommendReport& report);

} // namespace gpuadvisor::cli
