// The flags of `recommend` and the planning they drive, shared with `export` (which exports a
// row of the same answer).
#pragma once

#include "app.hpp"
#include "data_options.hpp"
#include "gpuadvisor/recommend.hpp"
#include "workload_options.hpp"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gpuadvisor::cli {

struct RecommendFlags {
    std::string kind;
    WorkloadFlags workload;
    std::vector<std::string> providers;
    std::vector<std::string> regions;
    std::vector<std::string> gpus;
    std::vector<std::string> rule_files;
    bool no_default_rules = false;
    int max_instances = 0;
    std::string pricing;
    bool interruptible = false;
    int top = 5;
    std::string sort = "cost";
    std::optional<double> value_per_day;
    double prefer_within = 10;
    int max_price_age = 365;
    bool explain = false;
    DataFlags data; // --dataset-tb, --data-region, --link-gbps
};

// The workload, constraint and ranking flags; `listing` adds recommend's own --top and
// --explain (export picks one row with --rank instead).
void add_recommend_flags(CLI::App& cmd, RecommendFlags& o, bool listing);

struct PlannedAnswer {
    Recommendation answer;
    PlanConstraints constraints;
    std::shared_ptr<const std::vector<Rule>> rules; // what the answer's rule pointers point to
};

// The answer the flags ask for, its warnings (rules', prices' age) printed or kept in
// result.warnings; nullopt after printing why not, with `exit_code` set. Its rows point into
// the active catalog (load_active_catalog), which lives as long as the program.
std::optional<PlannedAnswer> plan_recommendation(RecommendFlags o,
                                                 const GlobalOptions& global,
                                                 std::string_view command,
                                                 Io& io,
                                                 int& exit_code);

} // namespace gpuadvisor::cli
