#include "planner_rules.hpp"

#include "gpuadvisor/pricing.hpp"

#include <algorithm>
#include <string>

namespace gpuadvisor::planner_detail {

namespace {

bool reads_plan(RuleLevel level) {
    return level == RuleLevel::plan || level == RuleLevel::region_plan;
}

bool reads_region(RuleLevel level) {
    return level == RuleLevel::region || level == RuleLevel::region_plan;
}

RuleLevel combine(RuleLevel a, RuleLevel b) {
    const bool plan = reads_plan(a) || reads_plan(b);
    const bool region = reads_region(a) || reads_region(b);
    return region ? (plan ? RuleLevel::region_plan : RuleLevel::region)
                  : (plan ? RuleLevel::plan : RuleLevel::configuration);
}

// True if the condition reads a candidate field other than the plan (the configuration's, the
// instance type's, the region's).
bool reads_beyond_plan(const Condition& condition) {
    if (condition.op == Condition::Op::all || condition.op == Condition::Op::any ||
        condition.op == Condition::Op::none) {
        return std::any_of(condition.children.begin(), condition.children.end(), reads_beyond_plan);
    }
    const FieldInfo* field = find_rule_field(condition.field);
    return condition.field != "plan" && (field == nullptr || field->scope != FieldScope::workload);
}

// True if the condition reads a field that tells instance types of the same hardware apart:
// their provider, id or family, or a row's region or country.
bool reads_identity(const Condition& condition) {
    if (condition.op == Condition::Op::all || condition.op == Condition::Op::any ||
        condition.op == Condition::Op::none) {
        return std::any_of(condition.children.begin(), condition.children.end(), reads_identity);
    }
    for (const std::string_view field : {"provider", "instance", "family", "region", "country"}) {
        if (condition.field == field) {
            return true;
        }
    }
    return false;
}

} // namespace

std::size_t pricing_index(std::string_view pricing) {
    for (std::size_t i = 0; i < std::size(k_all_plans); ++i) {
        if (plan_flag_name(k_all_plans[i]) == pricing) {
            return i;
        }
    }
    return std::size(k_all_plans); // "mix"
}

RuleLevel level_of(const Condition& condition) {
    if (condition.op == Condition::Op::all || condition.op == Condition::Op::any ||
        condition.op == Condition::Op::none) {
        RuleLevel level = RuleLevel::configuration;
        for (const Condition& child : condition.children) {
            level = combine(level, level_of(child));
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
    : m_active(active), m_levels(active.size()), m_holds(active.size()),
      m_by_pricing(active.size() * k_pricings), m_plan_alone(active.size()),
      m_region_plan(&m_region) {
    for (std::size_t i = 0; i < active.size(); ++i) {
        if (active[i]->candidate) {
            m_levels[i] = level_of(*active[i]->candidate);
            m_reads[static_cast<std::size_t>(m_levels[i])] = true;
            m_any = true;
            m_hardware_decides &= !reads_identity(*active[i]->candidate);
            if (m_levels[i] == RuleLevel::plan) {
                m_plan_alone[i] = reads_beyond_plan(*active[i]->candidate) ? 0 : 1;
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
    const std::string_view pricing =
        row < std::size(k_all_plans) ? plan_flag_name(k_all_plans[row]) : "mix";
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
