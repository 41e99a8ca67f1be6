// The active rules' candidate conditions in the planner's pass, tested as seldom as the
// fields they read allow (a catalog of 100k offers prices some 300k options, and most rules
// read neither the region nor the plan):
// - reading neither region, country nor plan: once per configuration;
// - reading the plan only: once per configuration and plan (reading nothing else: once per plan);
// - reading the region or country only: once per offer (configuration and region);
// - reading both: once per option.
#pragma once

#include "gpuadvisor/rules.hpp"

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace gpuadvisor::planner_detail {

enum class RuleLevel { configuration, plan, region, region_plan };
RuleLevel level_of(const Condition& condition);

// The pricings an option may have: the five plans' flag names (a plan's index is its own) and
// "mix"; the index of one, and the name at an index.
constexpr std::size_t k_pricings = 6;
std::size_t pricing_index(std::string_view pricing);
std::string_view pricing_name(std::size_t index);

class CandidateRules {
  public:
    // `active`: the rules whose `when` holds, in order; it must outlive this.
    explicit CandidateRules(const std::vector<const Rule*>& active);
    CandidateRules(const CandidateRules&) = delete; // m_region_plan points into it
    CandidateRules& operator=(const CandidateRules&) = delete;

    bool any() const { return m_any; } // some active rule tests candidates
    bool reads_region() const { return reads(RuleLevel::region) || reads(RuleLevel::region_plan); }

    // The option at hand, level by level; each call tests the rules of its level.
    // `configuration` must live until the next enter_configuration.
    void enter_configuration(const Facts& configuration);
    void enter_region(std::string_view region, std::string_view country); // if reads_region()
    void enter_plan(std::size_t pricing);                                 // pricing_index

    // The first `require` rule, in order, the option at hand fails, or nullptr.
    const Rule* unmet() const;
    // The indices (in `active`) of the prefer and warn rules the option at hand matches.
    void matches(std::vector<std::uint32_t>& out) const;

  private:
    bool reads(RuleLevel level) const { return m_reads[static_cast<std::size_t>(level)]; }
    void test(RuleLevel level, const Facts& facts, char* verdicts);
    void test_plan(char* verdicts, bool plan_alone);

    const std::vector<const Rule*>& m_active;
    std::vector<RuleLevel> m_levels;
    std::vector<char> m_holds; // by rule: its candidate condition holds for the option at hand
    // Plan-level verdicts of this configuration, by pricing (k_pricings rows of m_active's
    // size), and which rows are known.
    std::vector<char> m_by_pricing;
    std::array<bool, k_pricings> m_pricing_known{};
    // Plan-level rules that read no other candidate field (the plan and the workload only):
    // their verdicts hold for every configuration, so each pricing is tested once.
    std::vector<char> m_plan_alone;
    std::array<bool, k_pricings> m_plan_alone_known{};
    bool m_plan_reads_configuration = false; // some plan-level rule reads more than the plan
    std::array<bool, 4> m_reads{};
    bool m_any = false;
    const Facts* m_configuration = nullptr; // the facts m_region and m_plan fall back to
    Facts m_region;                         // over the configuration's
    Facts m_plan;                           // over the configuration's
    Facts m_region_plan;                    // over m_region
};

} // namespace gpuadvisor::planner_detail
