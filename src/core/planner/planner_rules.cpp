#include "planner/planner_rules.hpp"

#include "gpuadvisor/pricing.hpp"

#include <algorithm>
#include <string>

namespace gpuadvisor::planner_detail {

namespace {

// True if some field the condition compares (any leaf of its all / any / not) passes `test`.
template <class Test> bool reads_any(const Condition& condition, const Test& test) {
    if (condition.op == Condition::Op::all || condition.op == Condition::Op::any ||
        condition.op == Condition::Op::none) {
        return std::any_of(condition.children.begin(),
                           condition.children.end(),
                           [&](const Condition& child) { return reads_any(child, test); });
    }
    return test(std::string_view(condition.field));
}

bool is_region_field(std::string_view field) {
    return field == "region" || field == "country";
}

// A candidate field other than the plan (the configuration's, the instance type's, the
// region's).
bool is_beyond_plan(std::string_view field) {
    const FieldInfo* info = find_rule_field(field);
    return field != "plan" && (info == nullptr || info->scope != FieldScope::workload);
}

} // namespace

std::size_t pricing_index(std::string_view pricing) {
    for (std::size_t i = 0; i < k_pricings; ++i) {
        if (pricing_name(i) == pricing) {
            return i;
        }
    }
    return k_pricings - 1; // "mix"
}

std::string_view pricing_name(std::size_t index) {
    return index < std::size(k_all_plans) ? plan_flag_name(k_all_plans[index]) : "mix";
}

RuleLevel level_of(const Condition& condition) {
    const bool plan = reads_any(condition, [](std::string_view f) { return f == "plan"; });
    const bool region = reads_any(condition, is_region_field);
    return region ? (plan ? RuleLevel::region_plan : RuleLevel::region)
                  : (plan ? RuleLevel::plan : RuleLevel::configuration);
}

CandidateRules::CandidateRules(const std::vector<const Rule*>& active)
    : m_active(active), m_levels(active.size()), m_holds(active.size()),
      m_by_pricing(active.size() * k_pricings), m_plan_alone(active.size()),
      m_region_plan(&m_region) {
    for (std::size_t i = 0; i < active.size(); ++i) {
        if (active[i]->candidate) {
            m_levels[i] = level_of(*active[i]->candidate);
            m_reads[static_cast<std::size_t>(m_levels[i])] = true;
            m_any = true;
            if (m_levels[i] == RuleLevel::plan) {
                m_plan_alone[i] = reads_any(*active[i]->candidate, is_beyond_plan) ? 0 : 1;
                m_plan_reads_configuration |= m_plan_alone[i] == 0;
            }
        }
    }
}

void CandidateRules::test(RuleLevel level, const Facts& facts, char* verdicts) {
    for (std::size_t i = 0; i < m_active.size(); ++i) {
        if (m_active[i]->candidate && m_levels[i] == level) {
            verdicts[i] = holds(*m_active[i]->candidate, facts) ? 1 : 0;
        }
    }
}

void CandidateRules::enter_configuration(const Facts& configuration) {
    test(RuleLevel::configuration, configuration, m_holds.data());
    m_pricing_known.fill(false);
    if (m_configuration != &configuration) { // the planner reuses one: set up once
        m_configuration = &configuration;
        m_region = Facts(&configuration);
        m_plan = Facts(&configuration);
    }
}

void CandidateRules::enter_region(std::string_view region, std::string_view country) {
    m_region.set("region", std::string(region));
    m_region.set("country", std::string(country));
    test(RuleLevel::region, m_region, m_holds.data());
}

// The plan-level rules' verdicts: those reading the plan alone only once per pricing.
void CandidateRules::test_plan(char* verdicts, bool plan_alone) {
    for (std::size_t i = 0; i < m_active.size(); ++i) {
        if (m_active[i]->candidate && m_levels[i] == RuleLevel::plan &&
            (plan_alone || m_plan_alone[i] == 0)) {
            verdicts[i] = holds(*m_active[i]->candidate, m_plan) ? 1 : 0;
        }
    }
}

void CandidateRules::enter_plan(std::size_t row) {
    const std::string_view pricing = pricing_name(row);
    if (reads(RuleLevel::plan)) {
        char* verdicts = m_by_pricing.data() + row * m_active.size();
        const bool plan_alone = !m_plan_alone_known[row];
        if (!m_pricing_known[row] && (plan_alone || m_plan_reads_configuration)) {
            m_plan.set("plan", std::string(pricing));
            test_plan(verdicts, plan_alone);
            m_plan_alone_known[row] = true;
        }
        m_pricing_known[row] = true;
        for (std::size_t i = 0; i < m_active.size(); ++i) {
            if (m_active[i]->candidate && m_levels[i] == RuleLevel::plan) {
                m_holds[i] = verdicts[i];
            }
        }
    }
    if (reads(RuleLevel::region_plan)) {
        m_region_plan.set("plan", std::string(pricing));
        test(RuleLevel::region_plan, m_region_plan, m_holds.data());
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
