// The active rules' candidate conditions in the planner's pass, tested as seldom as the
// fields they read allow: once per configuration; again per region only for those that read
// region or country; per plan only for those that read plan (a catalog of 100k offers prices
// some 300k options, and most rules read none of the three).
#pragma once

#include "gpuadvisor/rules.hpp"

#include <array>
#include <cstdint>
#include <vector>

namespace gpuadvisor::planner_detail {

// The least often a condition can be tested: what varies within its level is not read.
enum class RuleLevel { configuration, region, plan };
RuleLevel level_of(const Condition& condition);

class CandidateRules {
  public:
    // `active`: the rules whose `when` holds, in order; it must outlive this.
    explicit CandidateRules(const std::vector<const Rule*>& active);

    bool any() const { return m_any; } // some active rule tests candidates
    bool reads(RuleLevel level) const { return m_reads[static_cast<std::size_t>(level)]; }
    // Tests the rules of `level` on the facts of the option at hand (which fall back to the
    // facts of the levels above).
    void test(RuleLevel level, const Facts& facts);
    // The first `require` rule, in order, the option at hand fails, or nullptr.
    const Rule* unmet() const;
    // The indices (in `active`) of the prefer and warn rules the option at hand matches.
    void matches(std::vector<std::uint32_t>& out) const;

  private:
    const std::vector<const Rule*>& m_active;
    std::vector<RuleLevel> m_levels;
    std::vector<char> m_holds; // by rule: its candidate condition holds for the option at hand
    std::array<bool, 3> m_reads{};
    bool m_any = false;
};

} // namespace gpuadvisor::planner_detail
