// Rendering `recommend`: the ranked configurations, why, and (with --explain) what lost.
#pragma once

#include "gpuadvisor/planner.hpp"
#include "io.hpp"

namespace gpuadvisor::cli {

struct RecommendReport {
    const NormalizedWorkload* workload = nullptr;
    const Requirements* requirements = nullptr;
    const PlanResult* result = nullptr;
    const PlanConstraints* constraints = nullptr;
    bool explain = false;
};

void print_recommendations(const RecommendReport& report, Io& io);

} // namespace gpuadvisor::cli
