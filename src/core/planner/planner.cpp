#include "gpuadvisor/planner.hpp"

#include "gpuadvisor/units.hpp"
#include "planner/planner_internal.hpp"
#include "planner/planner_rank.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <stdexcept>
#include <tuple>
#include <type_traits>

namespace gpuadvisor {

namespace planner_detail {

bool slice(const InstanceType& instance) {
    return instance.gpu_count < 1;
}

// The facts rules test about the workload.
Facts workload_facts(const NormalizedWorkload& w, const Requirements& r, bool interruptible) {
    Facts facts;
    facts.add("kind", std::string(to_string(w.kind)));
    facts.add("model", w.model_is_preset ? w.model.id : std::string());
    facts.add("params", w.model.parameters);
    facts.add("tokens", w.tokens);
    facts.add("precision", std::string(to_string(w.precision)));
    facts.add("qps", w.qps);
    facts.add("latency_ms", w.latency_ms);
    facts.add("fp64_tflops", w.fp64_tflops);
    facts.add("memory_gb", w.memory_gb);
    facts.add("sessions", w.sessions);
    facts.add("interruptible", interruptible);
    if (w.deadline_hours) {
        facts.add("deadline_hours", *w.deadline_hours);
    }
    if (w.budget) {
        facts.add("budget", *w.budget);
    }
    facts.add("memory_total_gb", r.memory_total_gb);
    facts.add("min_gpu_memory_gb", r.min_gpu_memory_gb);
    facts.add("required_network_gbps", r.network_gbps);
    facts.add("storage_tb", r.storage_tb);
    return facts;
}

// An instance type's facts, the same for every count and region (a configuration's own are
// set per count, the region's per offer, the plan per option).
Facts instance_facts(const InstanceType& instance, const Gpu& gpu, const Facts& workload) {
    Facts facts(&workload); // a candidate condition may test the workload too
    facts.reserve(11);
    facts.add("provider", instance.provider);
    facts.add("instance", instance.id);
    facts.add("family", instance.family);
    facts.add("gpu", gpu.id);
    facts.add("gpu_memory_gb", gpu.memory_gb);
    facts.add("gpu_fp64_tflops", gpu.fp64_tflops);
    facts.add("gpu_memory_bandwidth_gb_per_s", gpu.memory_bandwidth_gb_per_s);
    facts.add("gpus_per_instance", instance.gpu_count);
    // Between instances: the GPU fabric where the type has one, else its network.
    const Hardware node = hardware_of(instance, gpu, 1);
    facts.add("network_gbps", node.network_gbps);
    facts.add("rdma", node.rdma);
    facts.add("nvlink", instance.nvlink);
    return facts;
}

bool named(const std::vector<std::string>& names, const std::string& value) {
    return names.empty() || std::any_of(names.begin(), names.end(), [&](const std::string& n) {
               return to_lower(n) == to_lower(value);
           });
}

bool gpu_named(const std::vector<std::string>& names, const Catalog& catalog, const Gpu& gpu) {
    return names.empty() || std::any_of(names.begin(), names.end(), [&](const std::string& n) {
               const auto matches = catalog.match_gpus(n);
               return std::find(matches.begin(), matches.end(), &gpu) != matches.end();
           });
}

Planner::Planner(const PlanInput& in)
    : m_in(in), m_w(*in.workload), m_c(in.constraints),
      m_budget_micros(m_w.budget ? std::optional(static_cast<std::int64_t>(
                                       *m_w.budget * Money::k_micros_per_unit))
                                 : std::nullopt),
      m_currency(in.fx != nullptr ? in.fx->find(m_c.currency) : nullptr), m_quiet(in.pricing),
      m_workload_facts(workload_facts(m_w, *in.requirements, m_c.interruptible)) {
    m_quiet.explain = false; // the shown options are priced again with their words (full_quote)
    for (const Plan plan : k_all_plans) {
        if (m_c.plan ? plan == *m_c.plan : plan != Plan::spot || m_c.interruptible) {
            m_plans_asked.push_back(plan);
        }
    }
}

void Planner::fire_rules() {
    for (const Rule& rule : *m_in.rules) {
        if (!rule.when || holds(*rule.when, m_workload_facts)) {
            m_active.push_back(&rule);
        }
    }
    m_candidates.emplace(m_active);
}

// The estimate on `count` instances of a type, memoised by hardware.
const std::shared_ptr<const Estimate>&
Planner::estimate_on(const InstanceType& instance, const Gpu& gpu, int count) {
    const Hardware hw = hardware_of(instance, gpu, count);
    auto& estimate_of = m_estimates[std::tuple(hw.gpu,
                                               hw.gpus,
                                               hw.gpus_per_node,
                                               hw.nvlink,
                                               hw.network_gbps,
                                               hw.rdma,
                                               hw.gpu_fraction,
                                               hw.vgpu_series)];
    if (!estimate_of) {
        estimate_of = std::make_shared<const Estimate>(estimate(m_w, hw, *m_in.assumptions));
    }
    return estimate_of;
}

// The counts for an instance type, worked out once per kind of hardware (GPU, GPUs per
// instance, NVLink, network, RDMA, vGPU series): instance types alike in these get the same.
const CountChoice& Planner::counts(const InstanceType& instance, const Gpu& gpu) {
    const Hardware node = hardware_of(instance, gpu, 1);
    const auto [known, added] = m_counts.try_emplace(std::tuple(
        &gpu, instance.gpu_count, node.nvlink, node.network_gbps, node.rdma, node.vgpu_series));
    CountChoice& choice = known->second;
    if (!added) {
        return choice;
    }
    const double per_instance = slice(instance) ? 1 : instance.gpu_count;
    const int cap = std::min(max_instances(), static_cast<int>(k_max_gpus / per_instance));
    const CountSearch search = search_counts(m_w, per_instance, cap, [&](int n) -> const Estimate& {
        return *estimate_on(instance, gpu, n);
    });
    choice.counts = search.counts;
    for (const int count : choice.counts) {
        choice.estimates.push_back(&estimate_on(instance, gpu, count));
    }
    if (!search.counts.empty()) {
        return choice;
    }
    if (search.why == nullptr) {
        choice.rejection =
            fmt::format("needs {} instances, more than the limit of {}{}",
                        format_number(search.needed),
                        cap,
                        cap < max_instances() ? " (4096 GPUs)" : " (--max-instances)");
        return choice;
    }
    choice.rejected_at = search.rejected_at;
    choice.rejection = search.why->fit_reason;
    if (search.rejected_at == 0 && search.why->latency_out_of_reach) {
        choice.out_of_reach = search.why;
    }
    return choice;
}

void Planner::instance_type(const InstanceType& instance, const Gpu& gpu) {
    if (!named(m_c.providers, instance.provider) || !gpu_named(m_c.gpus, *m_in.catalog, gpu)) {
        return; // not asked for: not a rejection
    }
    if (slice(instance) && m_w.kind != WorkloadKind::graphics) {
        return; // a vGPU slice runs desktops, not jobs
    }
    const bool priced =
        std::any_of(instance.regions.begin(), instance.regions.end(), [&](const PriceRow& row) {
            return named(m_c.regions, row.region);
        });
    if (!priced) {
        return;
    }
    count_offers_without_rate(instance);
    const CountChoice& choice = counts(instance, gpu);
    if (choice.counts.empty()) {
        if (const Estimate* best = choice.out_of_reach) {
            const auto found = m_result.out_of_reach.find(gpu.id);
            if (found == m_result.out_of_reach.end() ||
                best->latency_ms < found->second.latency_ms) {
                m_result.out_of_reach.insert_or_assign(gpu.id, *best);
            }
        }
        reject(instance,
               {},
               choice.rejected_at,
               choice.out_of_reach != nullptr ? "latency" : "fit",
               [&] { return choice.rejection; });
        return;
    }
    for (std::size_t i = 0; i < choice.counts.size(); ++i) {
        configuration(instance, gpu, choice.counts[i], *choice.estimates[i]);
    }
}

// Each wanted offer of a configuration priced, and its feasible options grouped: one group per
// pricing and rule tags across regions, unless --region asked for regions by name.
void Planner::configuration(const InstanceType& instance,
                            const Gpu& gpu,
                            int count,
                            const std::shared_ptr<const Estimate>& e) {
    if (!e->fits) {
        reject(instance, {}, count, "fit", [&] { return e->fit_reason; });
        return;
    }
    m_at = {&instance, &gpu, &e, count, false};
    for (Verdict& v : m_verdicts) {
        v.known = false;
    }
    m_run.clear();
    const Bill bill = bill_for(count, *e);
    for (const PriceRow& row : instance.regions) {
        if (named(m_c.regions, row.region)) {
            offer(bill, row);
        }
    }
    m_groups.add_run(m_run, m_c.regions.empty());
}

// Gives the rules the configuration at hand's facts (only rules read them: none, none to set).
void Planner::enter_rules() {
    m_at.entered = true;
    if (!m_candidates->any()) {
        return;
    }
    if (m_facts_of != m_at.instance) {
        m_facts_of = m_at.instance;
        m_instance_facts = instance_facts(*m_at.instance, *m_at.gpu, m_workload_facts);
    }
    m_count_facts.set("instance_count", static_cast<double>(m_at.count));
    m_count_facts.set("total_gpus", m_at.count * m_at.instance->gpu_count);
    m_count_facts.set("scaling_efficiency", (*m_at.estimate)->scaling_efficiency);
    m_candidates->enter_configuration(m_count_facts);
}

// What each plan asked for bills for a configuration, and its wall time off spot and on it.
Bill Planner::bill_for(int count, const Estimate& e) const {
    Bill bill;
    bill.usage = usage_for(count, e);
    for (const Plan plan : m_plans_asked) { // (a mix prices the usage itself)
        bill.by_plan[static_cast<std::size_t>(plan)] =
            billed_quantities(bill.usage, plan, m_quiet.spot);
    }
    if (is_finite_work(m_w.kind)) {
        bill.run_hours[0] = bill.usage.period_hours;
        bill.run_hours[1] =
            bill.usage.period_hours * (1 + m_quiet.spot.overhead(bill.usage.instances));
    }
    return bill;
}

// Finite work is billed to the 0.001 h the output shows, so the cost can be checked by hand;
// a service for a month at its hours per month.
Usage Planner::usage_for(int count, const Estimate& e) const {
    const double hours = std::max(0.001, std::round(e.hours * 1000) / 1000);
    return is_finite_work(m_w.kind) ? Usage{static_cast<double>(count), hours, 1, 0}
                                    : Usage{static_cast<double>(count),
                                            k_hours_per_month,
                                            m_w.hours_per_month / k_hours_per_month,
                                            0};
}

// The offers of an instance type asked for (region included) that no total can be converted
// for: priced in a currency with no rate to the one asked for.
void Planner::count_offers_without_rate(const InstanceType& instance) {
    for (const PriceRow& row : instance.regions) {
        if (row.currency != m_c.currency && named(m_c.regions, row.region) &&
            (m_currency == nullptr || m_in.fx->find(row.currency) == nullptr)) {
            ++m_offers_without_rate[row.currency];
        }
    }
}

// Those offers are in no answer, so the normal output says so (--explain lists each).
void Planner::warn_offers_without_rate() {
    for (const auto& [currency, n] : m_offers_without_rate) {
        m_result.warnings.push_back(
            fmt::format("{} offer(s) priced in {} left out: no exchange rate from {} to {} "
                        "(rates: 'gpuadvisor catalog list currencies')",
                        n,
                        currency,
                        currency,
                        m_c.currency));
    }
}

// The options past the deadline or over the budget, as rejections.
void Planner::list_rejections_late_and_over_budget() {
    if (m_late.count > 0 && !m_c.list_rejections) {
        m_result.rejected_by_code["deadline"] += m_late.count;
    }
    for (const Late& c : m_late.listed) {
        reject(*c.instance, c.row->region, c.count, "deadline", [&] {
            return fmt::format("{}: takes {} h, over the {} h deadline",
                               c.pricing,
                               format_number(std::round(*c.hours * 10) / 10),
                               format_number(*m_w.deadline_hours));
        });
    }
    for (const Option& c : m_over_budget) {
        reject(*c.instance, c.row->region, c.count, "budget", [&] {
            return fmt::format("{}: costs {}, over the budget", c.pricing, money(c.total_micros));
        });
    }
}

PlanResult Planner::run() {
    fire_rules();
    for (const InstanceType& instance : m_in.catalog->instances()) {
        if (const Gpu* gpu = m_in.catalog->find_gpu(instance.gpu)) {
            instance_type(instance, *gpu);
        }
    }
    warn_offers_without_rate();
    list_rejections_late_and_over_budget();
    m_result.feasible = m_groups.options;
    std::vector<Group>& groups = m_groups.groups;
    ranking().rank(m_groups.best, groups, m_c.top);
    if (is_finite_work(m_w.kind) || m_w.kind == WorkloadKind::inference) {
        // (HPC and graphics have nothing to trade against cost)
        mark_pareto(m_groups.best, groups, m_c.top);
    }
    physics_notes(groups);
    if (groups.empty()) {
        explain_no_fit();
    }
    for (std::size_t i = 0; i < groups.size() && i < m_c.top; ++i) {
        Candidate c = candidate_of(groups[i]);
        c.rank = static_cast<int>(i + 1);
        explain_candidate(c, m_w);
        m_result.recommendations.push_back(std::move(c));
    }
    return std::move(m_result);
}

} // namespace planner_detail

PlanResult plan(const PlanInput& input) {
    planner_detail::Planner planner(input);
    return planner.run();
}

} // namespace gpuadvisor
