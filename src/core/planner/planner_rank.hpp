// The planner's second half: the compact options of its pass over every offer, merging
// regions, the Pareto front, ranking, reasons.
#pragma once

#include "gpuadvisor/planner.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gpuadvisor {

// One priced configuration, small and without words: the pass over every offer keeps these,
// and makes full Candidates only of the ones it shows.
struct Option {
    const InstanceType* instance = nullptr;
    const PriceRow* row = nullptr;
    const Gpu* gpu = nullptr;
    // The planner's memo of the configuration's estimate (shared by its regions and plans; a
    // pointer, not a copy: no reference count to touch per option).
    const std::shared_ptr<const Estimate>* estimate = nullptr;
    int count = 1;
    std::string_view pricing;      // a plan's flag name, or "mix" (static strings)
    std::uint8_t pricing_rank = 0; // the pricing's place among their names in text order
    Plan plan = Plan::on_demand;   // the plan when pricing names one
    std::int64_t total_micros = 0; // in the constraints' currency
    std::int64_t list_total_micros = 0;
    std::optional<double> hours;          // finite work: wall time, spot overhead included
    double score = 0;                     // the weights of the prefer rules it matches
    std::uint32_t tags = 0;               // which RuleTags (an index into the planner's list)
    std::shared_ptr<const DataMove> data; // --dataset-tb: included in hours and totals
};

// What the rules said of an option: the prefer rules it matches, the warn rules that name it.
struct RuleTags {
    std::vector<std::string> preferred_by; // rule ids
    std::vector<std::string> warnings;     // "id: message"
};

// Another region of a group's configuration: where, and what it costs there.
struct AlsoIn {
    const PriceRow* row = nullptr;
    std::int64_t total_micros = 0;
};

// A row of the answer: an option, with the other regions merged into it.
struct Group {
    std::size_t best = 0;         // the cheapest region's option (in Groups::best)
    std::size_t others_begin = 0; // the other regions (in Groups::also), cheapest first
    std::size_t others_end = 0;
    bool pareto = false; // on the cost-time (or cost-latency) front
    // A prefer rule lifts it: it matches one, is within the tolerance of the best on the
    // objective, and no group beats it on both cost and speed (Ranking::lift_preferred).
    bool lifted = false;
};

// The groups of the feasible options, made as the pass goes: one per (instance type, count,
// pricing, rule tags), the cheapest region first and the others merged into it; or, without
// merging, one per option. Only a group's best option is kept whole.
struct Groups {
    std::vector<Option> best; // by Group::best
    std::vector<AlsoIn> also; // by Group::others_*
    std::vector<Group> groups;
    std::size_t options = 0; // the feasible options grouped

    // A configuration's options (one instance type and count, in the order priced).
    void add_run(std::span<const Option> run, bool merge);

  private:
    // add_run's sort keys (integers only), reused.
    struct RunKey {
        std::uint8_t pricing_rank;
        std::uint32_t tags;
        std::int64_t total_micros;
        const PriceRow* row;
        std::size_t option;
    };
    std::vector<RunKey> m_keys;
};

// The place of a pricing (by pricing_index: the plans in k_all_plans order, then "mix") among
// the pricings' names in text order: groups order by name, and integers compare faster.
std::uint8_t pricing_name_rank(std::size_t pricing_index);

// Marks which of `marked` (groups of `groups`) no group beats on both cost and time (finite
// work) or cost and latency (serving); of groups equal in both, the first in the pass. Other
// groups' marks are left as they are.
void mark_pareto(const std::vector<Option>& options,
                 const std::vector<Group>& groups,
                 std::span<Group* const> marked);
// The same for the first `shown` groups.
void mark_pareto(const std::vector<Option>& options, std::vector<Group>& groups, std::size_t shown);

// How groups are ranked (docs/recommend.md, "How they are ranked"): by the user's objective,
// with the rows a prefer rule lifts first.
struct Ranking {
    bool by_time = false;        // --sort time: time (or latency), then cost
    double micros_per_hour = 0;  // --value-per-day: cost + hours x this (finite work)
    double prefer_within = 0.10; // a prefer rule lifts rows within this share of the best
    bool trades_speed = false;   // finite work and serving: cost against time or latency

    // The figure ranked on: total cost (micro-units), time or latency, or cost plus time's value.
    double objective(const Option& o) const;
    // Marks which groups a prefer rule lifts: matched (score > 0), within prefer_within of the
    // best objective, and (where speed trades against cost) beaten on both by no group.
    void lift_preferred(const std::vector<Option>& options, std::vector<Group>& groups) const;
    // Lifted first (higher score), then by objective, cost and speed, with full tie-breakers: no
    // two groups rank equal.
    bool before(const std::vector<Option>& options, const Group& a, const Group& b) const;
    // Lifts, then puts the first `top` groups in rank order; the rest after them in no order.
    void
    rank(const std::vector<Option>& options, std::vector<Group>& groups, std::size_t top) const;
};

// One line per reason a candidate was chosen: fit, time or throughput, rules, plan.
void explain_candidate(Candidate& candidate, const NormalizedWorkload& workload);

} // namespace gpuadvisor
