// The planner: every candidate configuration (offer x instance count x pricing plan) for a
// workload, sized, priced, filtered by constraints and rules, ranked (docs/recommend.md).
#pragma once

#include "gpuadvisor/fx.hpp"
#include "gpuadvisor/pricing.hpp"
#include "gpuadvisor/rules.hpp"
#include "gpuadvisor/sizing.hpp"
#include "gpuadvisor/transfer.hpp"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gpuadvisor {

struct PlanConstraints {
    std::vector<std::string> providers; // empty: every provider
    std::vector<std::string> regions;   // empty: every region
    std::vector<std::string> gpus;      // GPU names, by family (A100 is every A100)
    std::optional<int> max_instances;
    std::optional<Plan> plan; // one plan only; nullopt: on-demand, spot when interruptible,
                              // and term plans where they cost less than on-demand
    bool auto_mix = false;    // the cheapest mix per offer instead (--pricing auto)
    bool interruptible = false;
    std::string currency = "USD"; // costs compared, budget given, in this currency
    bool sort_by_time = false;
    // What finishing a day sooner is worth, in `currency` (finite work): ranked on the total
    // plus this much per day of wall time.
    std::optional<double> value_per_day;
    // A prefer rule lifts a row only among rows within this share of the best on the objective.
    double prefer_within = 0.10;
    std::size_t top = 5;
    bool list_rejections = true; // false: rejections counted by code, not listed (no --explain)
    // --dataset-tb: each option's time and cost include moving and storing the data.
    std::optional<DataMoveRequest> data_move;
};

// One configuration: `count` instances of an offer under a plan or mix.
struct Candidate {
    const InstanceType* instance = nullptr;
    const PriceRow* row = nullptr;
    const Gpu* gpu = nullptr;
    int count = 1;
    double total_gpus = 0;
    std::string pricing;                // a plan's flag name, or "mix" (the parts say which)
    Quote quote;                        // in the row's currency
    std::int64_t total_micros = 0;      // in the constraints' currency
    std::int64_t list_total_micros = 0; // the same before negotiated discounts
    // The whole configuration per running hour, in the constraints' currency (nullopt: beyond
    // what gpuadvisor can count).
    std::optional<std::int64_t> per_hour_micros;
    std::shared_ptr<const Estimate> estimate; // shared by the configuration's regions and plans
    std::optional<double> hours;              // finite work: wall time, spot overhead included
    double score = 0;                         // the weights of the prefer rules it matches
    std::vector<std::string> preferred_by;    // rule ids
    std::vector<std::string> reasons;
    std::vector<std::string> warnings;                         // warn rules that name it
    std::vector<std::pair<std::string, std::int64_t>> also_in; // other regions, cost
    bool pareto = false; // on the cost-time (or cost-latency) front
    int rank = 0;
    // With --dataset-tb: the data's parts, already in hours and total_micros.
    std::shared_ptr<const DataMove> data_move;
};

// Why a configuration was left out; `code`: fit, deadline, budget, latency, rule, price,
// constraint.
struct Rejection {
    const InstanceType* instance = nullptr;
    std::string region; // empty: every region of the instance type
    int count = 0;
    std::string code;
    std::string reason;
};

struct FiredRule {
    const Rule* rule = nullptr;
    std::string note; // what it did here, in words
};

// A prefer rule the first row does not meet, and its best row (in rank order): the price of
// following it.
struct PreferredTier {
    const Rule* rule = nullptr;
    Candidate best; // its rank is its place in the whole ranking
};

struct PlanResult {
    std::vector<Candidate> recommendations; // ranked, at most `top`
    std::vector<PreferredTier> tiers;       // the prefer rules #1 does not meet
    std::size_t feasible = 0;               // configurations that passed every check
    std::size_t considered = 0;             // configurations sized and priced
    std::vector<Rejection> rejected;        // when PlanConstraints::list_rejections
    std::map<std::string, std::size_t, std::less<>> rejected_by_code; // always
    std::vector<FiredRule> rules;
    std::vector<std::string> warnings;
    std::vector<std::string> notes; // physics against the matrix, the choice of counts
    std::string no_fit;             // why nothing fits and what to relax (empty if any fits)
    // Serving targets no count can meet: per GPU, the best batch-1 figures ("latency" rejections).
    std::map<std::string, Estimate, std::less<>> out_of_reach;
};

struct PlanInput {
    const NormalizedWorkload* workload = nullptr;
    const Requirements* requirements = nullptr;
    const Catalog* catalog = nullptr;
    const Assumptions* assumptions = nullptr;
    const std::vector<Rule>* rules = nullptr;
    const FxTable* fx = nullptr;
    PricingContext pricing;
    PlanConstraints constraints;
    const TransferData* transfer = nullptr; // needed with constraints.data_move
};

PlanResult plan(const PlanInput& input);

} // namespace gpuadvisor
