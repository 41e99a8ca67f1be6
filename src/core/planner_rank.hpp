// The planner's second half: merging regions, the Pareto front, ranking, reasons.
#pragma once

#include "gpuadvisor/planner.hpp"

#include <vector>

namespace gpuadvisor {

// One row per (instance type, count, pricing): the cheapest region, the others in `also_in`
// (cheapest first).
std::vector<Candidate> merge_regions(std::vector<Candidate> candidates);

// Marks the candidates no other beats on both cost and time (finite work) or cost and
// latency (serving).
void mark_pareto(std::vector<Candidate>& candidates);

// Rule-preferred first (higher score), then by total cost (or time); ranks from 1.
void rank_candidates(std::vector<Candidate>& candidates, bool by_time);

// One line per reason a candidate was chosen: fit, time or throughput, rules, plan.
void explain_candidate(Candidate& candidate, const NormalizedWorkload& workload);

} // namespace gpuadvisor
