// The planner's state and steps, shared by planner.cpp (the pass over every configuration, the
// ranking), planner_price.cpp (pricing an offer, the rules' verdict, keeping an option) and
// planner_explain.cpp (the words: full quotes, notes, why nothing fits).
#pragma once

#include "gpuadvisor/fx.hpp"
#include "gpuadvisor/planner.hpp"
#include "gpuadvisor/pricing.hpp"
#include "gpuadvisor/rules.hpp"
#include "gpuadvisor/units.hpp"
#include "planner/planner_rank.hpp"
#include "planner/planner_rules.hpp"

#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace gpuadvisor::planner_detail {

constexpr int k_default_max_instances = 64;
constexpr double k_max_gpus = 4096;

// A priced option that misses the deadline: what its rejection and the no-fit explanation use.
struct Late {
    const InstanceType* instance = nullptr;
    const PriceRow* row = nullptr;
    int count = 0;
    std::string_view pricing; // a plan's flag name, or "mix" (static strings)
    std::optional<double> hours;
    std::int64_t total_micros = 0;
};

// The options past the deadline: counted; listed one by one only for --explain; the three the
// no-fit explanation names kept as they come (the first met of equals).
struct LateSummary {
    std::size_t count = 0;
    std::vector<Late> listed;
    std::optional<Late> fastest;            // by hours, then total
    std::optional<Late> fastest_affordable; // the same, within the budget
    std::optional<Late> cheapest;           // by total

    void add(const Late& late, std::optional<std::int64_t> budget, bool list);
};

// The instance counts worth pricing for a kind of hardware: the fewest that run the workload,
// the fewest that meet the deadline, and (for finite work) two and four times that, with their
// estimates; or none, and why (a "fit" rejection at `rejected_at` instances).
struct CountChoice {
    std::vector<int> counts;
    std::vector<const std::shared_ptr<const Estimate>*> estimates; // Planner::m_estimates'
    int rejected_at = 0;
    std::string rejection;
    const Estimate* out_of_reach = nullptr; // set when a serving target is out of reach
};

// A configuration's usage, what each plan bills for it (by Plan) and its wall time: the same in
// every region.
struct Bill {
    Usage usage;
    std::array<BilledQuantities, std::size(k_all_plans)> by_plan;
    // Finite work: the wall time, off spot and on it (its restarts added); else none.
    std::array<std::optional<double>, 2> run_hours;
};

// A plan or mix priced for an offer, in the row's currency.
struct Priced {
    std::string_view pricing; // a plan's flag name, or "mix" (static strings)
    Plan plan;                // the plan, or a mix's first part's
    bool spot;                // some of it runs on spot
    Totals totals;
};

// What the rules say of the options of one pricing in the configuration (and region, when a
// rule reads it) at hand: the same for each of them, so worked out once.
struct Verdict {
    bool known = false;
    const Rule* unmet = nullptr;        // the first `require` rule failed, in rule order
    std::vector<std::uint32_t> matched; // the prefer and warn rules matched (none failed)
    double score = 0;                   // the weights of the prefer rules matched
    std::optional<std::uint32_t> tags;  // tags_of(matched), once an option is kept
};

class Planner {
  public:
    explicit Planner(const PlanInput& in);
    PlanResult run();

  private:
    // The pass over every configuration (planner.cpp).
    void fire_rules();
    void instance_type(const InstanceType& instance, const Gpu& gpu);
    const CountChoice& counts(const InstanceType& instance, const Gpu& gpu);
    const std::shared_ptr<const Estimate>&
    estimate_on(const InstanceType& instance, const Gpu& gpu, int count);
    void configuration(const InstanceType& instance,
                       const Gpu& gpu,
                       int count,
                       const std::shared_ptr<const Estimate>& e);
    Bill bill_for(int count, const Estimate& e) const;
    Usage usage_for(int count, const Estimate& e) const;
    void enter_rules();
    void count_offers_without_rate(const InstanceType& instance);
    void warn_offers_without_rate();
    void list_rejections_late_and_over_budget();

    // An offer priced, each option judged and kept (planner_price.cpp).
    void offer(const Bill& bill, const PriceRow& row);
    void option(const Bill& bill, const PriceRow& row, const Priced& priced);
    std::optional<Totals> converted(const Totals& totals, const PriceRow& row) const;
    // --dataset-tb: the data's parts added to the totals and hours (false: rejected).
    bool add_data_move(const PriceRow& row,
                       Totals& paid,
                       std::optional<double>& hours,
                       std::shared_ptr<const DataMove>& data);
    Verdict& verdict(std::size_t pricing); // by pricing_index
    std::uint32_t tags_of(const std::vector<std::uint32_t>& matched);
    void reject_unpriced(const PriceRow& row, bool too_large, bool any_priced);
    // Counted always; listed with its reason (a function that words it) only when asked: on a
    // large catalog most configurations are rejected, and words cost.
    template <class Reason>
    void reject(const InstanceType& instance,
                std::string_view region,
                int count,
                std::string_view code,
                const Reason& reason) {
        const auto counted = m_result.rejected_by_code.find(code);
        if (counted != m_result.rejected_by_code.end()) {
            ++counted->second;
        } else {
            m_result.rejected_by_code.emplace(std::string(code), 1);
        }
        if (m_c.list_rejections) {
            m_result.rejected.push_back(
                {&instance, std::string(region), count, std::string(code), reason()});
        }
    }
    bool late(const std::optional<double>& run_hours) const {
        return m_w.deadline_hours && run_hours && *run_hours > *m_w.deadline_hours;
    }
    bool over_budget(std::int64_t total_micros) const {
        return m_w.budget &&
               static_cast<double>(total_micros) > *m_w.budget * Money::k_micros_per_unit;
    }

    // The words (planner_explain.cpp).
    Quote full_quote(const Option& o) const;
    Candidate candidate_of(const Group& group) const;
    void explain_no_fit();
    void physics_notes(std::vector<Group>& groups);
    Candidate tier_row(std::vector<Group>& groups, std::size_t index);
    int max_instances() const { return m_c.max_instances.value_or(k_default_max_instances); }
    Ranking ranking() const;
    std::string money(std::int64_t micros) const;

    const PlanInput& m_in;
    const NormalizedWorkload& m_w;
    const PlanConstraints& m_c;
    std::optional<std::int64_t> m_budget_micros;
    const FxRate* m_currency = nullptr; // the currency asked for (nullptr: unknown)
    PricingContext m_quiet; // m_in.pricing without the words, for the pass over every offer
    std::vector<Plan> m_plans_asked; // --pricing's, or every plan (spot if interruptible), in order
    Facts m_workload_facts;
    Facts m_instance_facts;                     // the instance type's at hand
    const InstanceType* m_facts_of = nullptr;   // whose facts m_instance_facts holds
    Facts m_count_facts{&m_instance_facts};     // the configuration's at hand (reused)
    std::vector<const Rule*> m_active;          // rules whose `when` holds
    std::optional<CandidateRules> m_candidates; // the active rules' candidate conditions
    std::map<const Rule*, int> m_rule_rejections;
    // Offers asked for but priced in a currency with no rate to the one asked for, by currency.
    std::map<std::string, std::size_t, std::less<>> m_offers_without_rate;

    // Estimates by hardware (GPU, GPUs, GPUs per node, NVLink, network, RDMA, GPU fraction,
    // vGPU series), and the counts of each kind of hardware (GPU, GPUs per instance, NVLink,
    // network, RDMA, vGPU series): instance types alike are sized once. Map entries stay put:
    // options point to their estimates.
    std::map<std::tuple<const Gpu*, int, int, bool, double, bool, double, char>,
             std::shared_ptr<const Estimate>>
        m_estimates;
    std::map<std::tuple<const Gpu*, double, bool, double, bool, char>, CountChoice> m_counts;

    // The configuration at hand; the rules see its facts only once a verdict is worked out.
    struct AtHand {
        const InstanceType* instance = nullptr;
        const Gpu* gpu = nullptr;
        const std::shared_ptr<const Estimate>* estimate = nullptr; // an m_estimates entry
        int count = 0;
        bool entered = false; // the rules have its facts
    } m_at;
    std::array<Verdict, k_pricings> m_verdicts; // the configuration's (and region's) at hand
    std::vector<Option> m_run;                  // its feasible options

    Groups m_groups;                   // the feasible options, grouped
    LateSummary m_late;                // priced, but past the deadline
    std::vector<Option> m_over_budget; // priced, but over the budget
    std::vector<RuleTags> m_tags;      // the distinct tags options carry, by index
    std::map<std::vector<std::uint32_t>, std::uint32_t> m_tag_index; // matched rules -> tags
    PlanResult m_result;
};

} // namespace gpuadvisor::planner_detail
