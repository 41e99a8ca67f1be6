#include "planner_rules.hpp"

#include <algorithm>

namespace gpuadvisor::planner_detail {

RuleLevel level_of(const Condition& condition) {
    if (condition.op == Condition::Op::all || condition.op == Condition::Op::any ||
        condition.op == Condition::Op::none) {
        RuleLevel level = RuleLevel::configuration;
        for (const Condition& child : condition.children) {
            level = std::max(level, level_of(child));
        }
        return level;
    }
    if (condition.field == "plan") {
        return RuleLevel::plan;
    }
    if (condition.field == "region" || condition.field == "country") {
        return RuleLevel::region;
    }
    return RuleLevel::configuration;
}

CandidateRules::CandidateRules(const std::vector<const Rule*>& active)
    : m_active(active), m_levels(active.size()), m_holds(active.size()) {
    for (std::size_t i = 0; i < active.size(); ++i) {
        if (active[i]->candidate) {
            m_levels[i] = level_of(*active[i]->candidate);
            m_reads[static_cast<std::size_t>(m_levels[i])] = true;
            m_any = true;
        }
    }
}

void CandidateRules::test(RuleLevel level, const Facts& facts) {
    for (std::size_t i = 0; i < m_active.size(); ++i) {
        if (m_active[i]->candidate && m_levels[i] == level) {
            m_holds[i] = holds(*m_active[i]->candidate, facts) ? 1 : 0;
        }
    }
}

const Rule* CandidateRules::unmet() const {
    for (std::size_t i = 0; i < m_active.size(); ++i) {
        const Rule* rule = m_active[i];
        if (rule->candidate && rule->effect == RuleEffect::require && m_holds[i] == 0) {
            return rule;
        }
    }
    return nullptr;
}

void CandidateRules::matches(std::vector<std::uint32_t>& out) const {
    for (std::size_t i = 0; i < m_active.size(); ++i) {
        const Rule* rule = m_active[i];
        const bool tags = rule->effect == RuleEffect::prefer || rule->effect == RuleEffect::warn;
        if (rule->candidate && tags && m_holds[i] != 0) {
            out.push_back(static_cast<std::uint32_t>(i));
        }
    }
}

} // namespace gpuadvisor::planner_detail
