#include "gpuadvisor/planner.hpp"

#include "gpuadvisor/units.hpp"
#include "planner_rank.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <tuple>
#include <type_traits>

namespace gpuadvisor {

namespace {

constexpr int k_default_max_instances = 64;
constexpr double k_max_gpus = 4096;

bool slice(const InstanceType& instance) {
    return instance.gpu_count < 1;
}

Hardware hardware_for(const InstanceType& instance, const Gpu& gpu, int count) {
    Hardware hw;
    hw.gpu = &gpu;
    hw.gpu_fraction = slice(instance) ? instance.gpu_count : 1;
    hw.gpus = slice(instance) ? count : static_cast<int>(std::floor(instance.gpu_count * count));
    hw.gpus_per_node = std::max(1, static_cast<int>(std::floor(instance.gpu_count)));
    hw.nvlink = instance.nvlink;
    hw.network_gbps = instance.network_gbps;
    hw.rdma = instance.rdma;
    return hw;
}

// GPUs (or vGPU slices) the workload needs, read from an estimate on any number of them.
double units_needed(const NormalizedWorkload& w, const Estimate& e) {
    switch (w.kind) {
    case WorkloadKind::training:
    case WorkloadKind::finetune:
        return e.min_gpus;
    case WorkloadKind::inference:
        return static_cast<double>(e.replicas) * e.gpus_per_replica;
    default:
        return e.replicas;
    }
}

// The facts rules test about the workload.
Facts workload_facts(const NormalizedWorkload& w, const Requirements& r, bool interruptible) {
    Facts facts;
    facts.set("kind", std::string(to_string(w.kind)));
    facts.set("model", w.model_is_preset ? w.model.id : std::string());
    facts.set("params", w.model.parameters);
    facts.set("tokens", w.tokens);
    facts.set("precision", std::string(to_string(w.precision)));
    facts.set("qps", w.qps);
    facts.set("latency_ms", w.latency_ms);
    facts.set("fp64_tflops", w.fp64_tflops);
    facts.set("memory_gb", w.memory_gb);
    facts.set("sessions", w.sessions);
    facts.set("interruptible", interruptible);
    if (w.deadline_hours) {
        facts.set("deadline_hours", *w.deadline_hours);
    }
    if (w.budget) {
        facts.set("budget", *w.budget);
    }
    facts.set("memory_total_gb", r.memory_total_gb);
    facts.set("min_gpu_memory_gb", r.min_gpu_memory_gb);
    facts.set("required_network_gbps", r.network_gbps);
    facts.set("storage_tb", r.storage_tb);
    return facts;
}

// A configuration's facts, the same in every region (the region's own are set per offer, the
// plan per candidate).
struct ConfigurationFacts {
    const InstanceType& instance;
    const Gpu& gpu;
    int count;
    const Estimate& estimate;
};

Facts configuration_facts(const ConfigurationFacts& o, const Facts& workload) {
    Facts facts(&workload); // a candidate condition may test the workload too
    facts.reserve(15);
    const InstanceType& instance = o.instance;
    facts.set("provider", instance.provider);
    facts.set("instance", instance.id);
    facts.set("family", instance.family);
    facts.set("gpu", o.gpu.id);
    facts.set("gpu_memory_gb", o.gpu.memory_gb);
    facts.set("gpu_fp64_tflops", o.gpu.fp64_tflops);
    facts.set("gpu_memory_bandwidth_gb_per_s", o.gpu.memory_bandwidth_gb_per_s);
    facts.set("gpus_per_instance", instance.gpu_count);
    facts.set("instance_count", static_cast<double>(o.count));
    facts.set("total_gpus", o.count * instance.gpu_count);
    facts.set("network_gbps", instance.network_gbps);
    facts.set("rdma", instance.rdma);
    facts.set("nvlink", instance.nvlink);
    facts.set("scaling_efficiency", o.estimate.scaling_efficiency);
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

// A configuration that misses the deadline: only what its rejection and the no-fit
// explanation use (on a large catalog most configurations end here).
struct Late {
    const InstanceType* instance = nullptr;
    const PriceRow* row = nullptr;
    int count = 0;
    std::string pricing;
    std::optional<double> hours;
    std::int64_t total_micros = 0;
};

class Planner {
  public:
    explicit Planner(const PlanInput& in)
        : m_in(in), m_w(*in.workload), m_c(in.constraints),
          m_workload_facts(workload_facts(m_w, *in.requirements, m_c.interruptible)),
          m_quiet(in.pricing) {
        m_quiet.explain = m_c.auto_mix; // a mix is chosen from its quotes: keep them whole
    }

    PlanResult run();

  private:
    void fire_rules();
    void instance_type(const InstanceType& instance, const Gpu& gpu);
    std::vector<int> counts(const InstanceType& instance, const Gpu& gpu);
    void configuration(const InstanceType& instance, const Gpu& gpu, int count);
    void offer(const InstanceType& instance,
               const Gpu& gpu,
               int count,
               const std::shared_ptr<const Estimate>& e,
               const Facts& configuration,
               const PriceRow& row);
    void keep(Option o, Facts& facts);
    std::uint32_t tags_of(const std::vector<std::uint32_t>& matched);
    std::shared_ptr<const Estimate>
    estimate_on(const InstanceType& instance, const Gpu& gpu, int count);
    const Rule* unmet_requirement(const Facts& facts);
    void keep_late(Late late, Facts& facts);
    Usage usage_for(int count, const Estimate& e) const;
    Quote full_quote(const Option& o) const;
    Candidate candidate_of(const Group& group) const;
    // Counted always; listed with its reason (a string, or a function that words it) only
    // when asked: on a large catalog most configurations are rejected, and words cost.
    template <class Reason>
    void reject(const InstanceType& instance,
                std::string_view region,
                int count,
                std::string_view code,
                Reason&& reason) {
        const auto counted = m_result.rejected_by_code.find(code);
        if (counted != m_result.rejected_by_code.end()) {
            ++counted->second;
        } else {
            m_result.rejected_by_code.emplace(std::string(code), 1);
        }
        if (!m_c.list_rejections) {
            return;
        }
        std::string text;
        if constexpr (std::is_invocable_v<Reason>) {
            text = reason();
        } else {
            text = std::forward<Reason>(reason);
        }
        m_result.rejected.push_back(
            {&instance, std::string(region), count, std::string(code), std::move(text)});
    }
    void explain_no_fit();
    void physics_notes(const std::vector<Group>& groups);
    int max_instances() const { return m_c.max_instances.value_or(k_default_max_instances); }
    std::string money(std::int64_t micros) const {
        const std::int64_t cents = (micros + 5'000) / 10'000; // costs are shown to the cent
        return fmt::format("{} {}", format_micros(cents * 10'000, 2), m_c.currency);
    }

    const PlanInput& m_in;
    const NormalizedWorkload& m_w;
    const PlanConstraints& m_c;
    Facts m_workload_facts;
    PricingContext m_quiet; // m_in.pricing without the words, for the pass over every offer
    std::vector<const Rule*> m_active; // rules whose `when` holds
    std::map<const Rule*, int> m_rule_rejections;
    std::vector<Option> m_feasible;
    std::vector<Late> m_late; // priced, but past the deadline
    // Estimates by hardware: instance types alike in GPU, count, NVLink and network (across
    // providers and synthetic copies) are sized once.
    std::map<std::tuple<const Gpu*, int, int, bool, double, bool, double>,
             std::shared_ptr<const Estimate>>
        m_estimates;
    std::vector<Option> m_over_budget; // priced, but over the budget
    std::vector<RuleTags> m_tags;      // the distinct tags options carry, by index
    std::map<std::vector<std::uint32_t>, std::uint32_t> m_tag_index; // matched rules -> tags
    PlanResult m_result;
};

void Planner::fire_rules() {
    for (const Rule& rule : *m_in.rules) {
        if (!rule.when || holds(*rule.when, m_workload_facts)) {
            m_active.push_back(&rule);
        }
    }
}

// The fewest instances from `from` up to `cap` for which `good` holds, assuming it holds from
// some count on: steps of one, then doubling, then bisection back; nullopt if not even `cap`.
template <class Good> std::optional<int> fewest(int from, int cap, Good good) {
    int miss = from - 1;
    int n = from;
    for (int tries = 0; !good(n); ++tries) {
        if (n >= cap) {
            return std::nullopt;
        }
        miss = n;
        n = std::min(cap, tries < 3 ? n + 1 : n * 2);
    }
    while (n - miss > 1) {
        const int mid = miss + (n - miss) / 2;
        (good(mid) ? n : miss) = mid;
    }
    return n;
}

// The instance counts worth pricing: the fewest that run the workload, the fewest that meet
// the deadline, and (for finite work) two and four times that, to show what speed costs.
std::shared_ptr<const Estimate>
Planner::estimate_on(const InstanceType& instance, const Gpu& gpu, int count) {
    const Hardware hw = hardware_for(instance, gpu, count);
    auto& memo = m_estimates[std::tuple(
        hw.gpu, hw.gpus, hw.gpus_per_node, hw.nvlink, hw.network_gbps, hw.rdma, hw.gpu_fraction)];
    if (!memo) {
        memo = std::make_shared<const Estimate>(estimate(m_w, hw, *m_in.assumptions));
    }
    return memo;
}

std::vector<int> Planner::counts(const InstanceType& instance, const Gpu& gpu) {
    const Estimate& one = *estimate_on(instance, gpu, 1);
    const double units = units_needed(m_w, one);
    const double per_instance = slice(instance) ? 1 : instance.gpu_count;
    const double needed = std::ceil(units / per_instance - 1e-9);
    const int cap = std::min(max_instances(), static_cast<int>(k_max_gpus / per_instance));
    if (!std::isfinite(units) || !(units > 0)) {
        reject(instance, {}, 0, "fit", one.fit_reason);
        return {};
    }
    if (needed > cap) {
        reject(instance,
               {},
               0,
               "fit",
               fmt::format("needs {} instances, more than the limit of {}{}",
                           format_number(needed),
                           cap,
                           cap < max_instances() ? " (4096 GPUs)" : " (--max-instances)"));
        return {};
    }
    const auto run = [&](int n) -> const Estimate& {
        return *estimate_on(instance, gpu, n);
    };
    const auto fit =
        fewest(std::max(1, static_cast<int>(needed)), cap, [&](int n) { return run(n).fits; });
    if (!fit) {
        reject(instance, {}, cap, "fit", run(cap).fit_reason);
        return {};
    }
    std::vector<int> result{*fit};
    if (!is_finite_work(m_w.kind)) {
        return result;
    }
    int fast = *fit;
    if (m_w.deadline_hours) {
        fast = fewest(*fit, cap, [&](int n) {
                   const Estimate& e = run(n);
                   return e.fits && e.hours <= *m_w.deadline_hours;
               }).value_or(cap); // none meets it: the fastest, to say how far off it is
    }
    for (const int count : {fast, fast * 2, fast * 4}) {
        if (count <= cap && std::find(result.begin(), result.end(), count) == result.end()) {
            result.push_back(count);
        }
    }
    return result;
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
    for (const int count : counts(instance, gpu)) {
        configuration(instance, gpu, count);
    }
}

void Planner::configuration(const InstanceType& instance, const Gpu& gpu, int count) {
    const auto e = estimate_on(instance, gpu, count);
    if (!e->fits) {
        reject(instance, {}, count, "fit", e->fit_reason);
        return;
    }
    const Facts facts = configuration_facts({instance, gpu, count, *e}, m_workload_facts);
    for (const PriceRow& row : instance.regions) {
        if (named(m_c.regions, row.region)) {
            offer(instance, gpu, count, e, facts, row);
        }
    }
}

// The plans to price for an offer, each as a quote; `too_large` set when a total is beyond
// what money arithmetic holds.
// A plan priced for an offer: its name (a static string) and its quote.
struct PricedPlan {
    std::string_view name;
    Plan plan;
    Quote quote;
};

std::vector<PricedPlan> priced_plans(const Offer& offer,
                                     const Usage& usage,
                                     const PlanConstraints& c,
                                     const PricingContext& pricing,
                                     std::string& too_large) {
    std::vector<PricedPlan> result;
    const auto keep = [&](QuoteResult q) {
        if (q.too_large) {
            too_large = q.error;
        }
        return std::move(q.quote);
    };
    if (c.auto_mix) {
        if (auto q = keep(cheapest_mix(offer, usage, c.interruptible ? 1 : 0, pricing))) {
            const Plan first = q->parts.front().plan;
            const std::string_view name =
                q->parts.size() == 1 ? plan_flag_name(first) : std::string_view("mix");
            result.push_back({name, first, std::move(*q)});
        }
        return result;
    }
    std::vector<Plan> plans;
    if (c.plan) {
        plans.push_back(*c.plan);
    } else {
        plans = {Plan::on_demand, Plan::reserved_1y, Plan::reserved_3y, Plan::subscription_monthly};
        if (c.interruptible) {
            plans.insert(plans.begin() + 1, Plan::spot);
        }
    }
    std::optional<std::int64_t> on_demand;
    for (const Plan plan : plans) {
        const std::vector<PlanShare> mix{{plan, 1}};
        auto q = keep(price_offer(offer, usage, mix, pricing));
        if (!q) {
            continue;
        }
        const bool term = plan != Plan::on_demand && plan != Plan::spot;
        if (plan == Plan::on_demand) {
            on_demand = q->total_micros;
        } else if (term && !c.plan && on_demand && q->total_micros >= *on_demand) {
            continue; // a term plan that does not pay for this usage
        }
        result.push_back({plan_flag_name(plan), plan, std::move(*q)});
    }
    return result;
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

// A shown option's quote, priced again with its words: the same function on the same inputs,
// so the same figures (checked).
Quote Planner::full_quote(const Option& o) const {
    const Offer offer{o.instance, o.row};
    const Usage usage = usage_for(o.count, *o.estimate);
    const std::vector<PlanShare> mix{{o.plan, 1}};
    QuoteResult full = m_c.auto_mix
                           ? cheapest_mix(offer, usage, m_c.interruptible ? 1 : 0, m_in.pricing)
                           : price_offer(offer, usage, mix, m_in.pricing);
    if (!full.quote) {
        throw std::logic_error("a shown option could not be priced again: " + full.error);
    }
    return std::move(*full.quote);
}

// The full Candidate of a group to show: its words, its rules' tags, its other regions.
Candidate Planner::candidate_of(const Group& group) const {
    const Option& o = m_feasible[group.best];
    Candidate c;
    c.instance = o.instance;
    c.row = o.row;
    c.gpu = o.gpu;
    c.count = o.count;
    c.total_gpus = o.count * o.instance->gpu_count; // a fraction for vGPU slices
    c.pricing = std::string(o.pricing);
    c.quote = full_quote(o);
    c.total_micros = o.total_micros;
    c.list_total_micros = o.list_total_micros;
    c.per_hour_micros = o.per_hour_micros;
    c.estimate = o.estimate;
    c.hours = o.hours;
    c.score = o.score;
    c.preferred_by = m_tags[o.tags].preferred_by;
    c.warnings = m_tags[o.tags].warnings;
    for (const std::size_t other : group.others) {
        c.also_in.emplace_back(m_feasible[other].row->region, m_feasible[other].total_micros);
    }
    c.pareto = group.pareto;
    return c;
}

void Planner::offer(const InstanceType& instance,
                    const Gpu& gpu,
                    int count,
                    const std::shared_ptr<const Estimate>& e,
                    const Facts& configuration,
                    const PriceRow& row) {
    const bool finite = is_finite_work(m_w.kind);
    const Usage usage = usage_for(count, *e);
    const double hours = usage.period_hours;
    std::string too_large;
    const auto plans = priced_plans({&instance, &row}, usage, m_c, m_quiet, too_large);
    if (!too_large.empty()) {
        reject(instance, row.region, count, "price", too_large);
    } else if (plans.empty() && (m_c.plan || m_c.auto_mix)) {
        reject(instance,
               row.region,
               count,
               "price",
               m_c.plan ? fmt::format("no {} price", plan_flag_name(*m_c.plan))
                        : std::string("no price for any plan"));
    }
    Facts facts(&configuration);
    facts.reserve(3);
    facts.set("region", row.region);
    facts.set("country", m_in.catalog->country_of(instance.provider, row.region));
    for (const auto& [name, plan, quote] : plans) {
        const auto total = m_in.fx->convert(quote.total_micros, quote.currency, m_c.currency);
        const auto list = m_in.fx->convert(quote.list_total_micros, quote.currency, m_c.currency);
        if (!total || !list) {
            reject(instance, row.region, count, "price", "no exchange rate to " + m_c.currency);
            continue;
        }
        const bool spot = std::any_of(quote.parts.begin(), quote.parts.end(), [](const auto& p) {
            return p.plan == Plan::spot;
        });
        const std::optional<double> run_hours =
            finite ? std::optional(hours * (spot ? 1 + m_in.pricing.spot.overhead() : 1))
                   : std::nullopt;
        if (m_w.deadline_hours && run_hours && *run_hours > *m_w.deadline_hours) {
            keep_late({&instance, &row, count, std::string(name), run_hours, *total}, facts);
            continue;
        }
        Option o;
        o.instance = &instance;
        o.row = &row;
        o.gpu = &gpu;
        o.estimate = e;
        o.count = count;
        o.pricing = name;
        o.plan = plan;
        o.total_micros = *total;
        o.list_total_micros = *list;
        o.per_hour_micros = quote.running_hours > 0
                                ? static_cast<std::int64_t>(std::llround(
                                      static_cast<double>(*total) / quote.running_hours))
                                : 0;
        o.hours = run_hours;
        keep(std::move(o), facts);
    }
}

// The first `require` rule the configuration fails (counted), or nullptr.
const Rule* Planner::unmet_requirement(const Facts& facts) {
    for (const Rule* rule : m_active) {
        if (rule->candidate && rule->effect == RuleEffect::require &&
            !holds(*rule->candidate, facts)) {
            ++m_rule_rejections[rule];
            return rule;
        }
    }
    return nullptr;
}

void Planner::keep_late(Late late, Facts& facts) {
    ++m_result.considered;
    facts.set("plan", late.pricing);
    if (const Rule* rule = unmet_requirement(facts)) {
        reject(*late.instance, late.row->region, late.count, "rule", [&] {
            return fmt::format("{} ({}): {}", rule->id, late.pricing, rule->reason);
        });
        return;
    }
    m_late.push_back(std::move(late));
}

void Planner::keep(Option o, Facts& facts) {
    ++m_result.considered;
    facts.set("plan", std::string(o.pricing));
    if (const Rule* rule = unmet_requirement(facts)) {
        reject(*o.instance, o.row->region, o.count, "rule", [&] {
            return fmt::format("{} ({}): {}", rule->id, o.pricing, rule->reason);
        });
        return;
    }
    std::vector<std::uint32_t> matched; // indices in m_active of the prefer and warn rules
    for (std::uint32_t i = 0; i < m_active.size(); ++i) {
        const Rule* rule = m_active[i];
        const bool tags = rule->effect == RuleEffect::prefer || rule->effect == RuleEffect::warn;
        if (rule->candidate && tags && holds(*rule->candidate, facts)) {
            matched.push_back(i);
            o.score += rule->effect == RuleEffect::prefer ? rule->weight : 0;
        }
    }
    o.tags = tags_of(matched);
    if (m_w.budget &&
        static_cast<double>(o.total_micros) > *m_w.budget * Money::k_micros_per_unit) {
        m_over_budget.push_back(std::move(o));
        return;
    }
    m_feasible.push_back(std::move(o));
}

// The index of the tags these matched rules give, made once per distinct set.
std::uint32_t Planner::tags_of(const std::vector<std::uint32_t>& matched) {
    const auto [it, inserted] =
        m_tag_index.try_emplace(matched, static_cast<std::uint32_t>(m_tags.size()));
    if (inserted) {
        RuleTags tags;
        for (const std::uint32_t i : matched) {
            const Rule* rule = m_active[i];
            if (rule->effect == RuleEffect::prefer) {
                tags.preferred_by.push_back(rule->id);
            } else {
                tags.warnings.push_back(fmt::format("{}: {}", rule->id, rule->message));
            }
        }
        m_tags.push_back(std::move(tags));
    }
    return it->second;
}

template <class Configuration> std::string describe_candidate(const Configuration& c) {
    return fmt::format("{} x {} ({} {}, {})",
                       c.count,
                       c.instance->id,
                       c.instance->provider,
                       c.row->region,
                       c.pricing);
}

template <class Configuration>
const Configuration* cheapest(const std::vector<Configuration>& list) {
    const auto it = std::min_element(list.begin(), list.end(), [](const auto& a, const auto& b) {
        return a.total_micros < b.total_micros;
    });
    return it == list.end() ? nullptr : &*it;
}

std::string duration(double hours) {
    const auto one_decimal = [](double x) {
        return format_number(std::round(x * 10) / 10);
    };
    return hours >= 48 ? one_decimal(hours / 24) + " days" : one_decimal(hours) + " h";
}

template <class Configuration>
const Configuration* fastest(const std::vector<const Configuration*>& list) {
    const auto it = std::min_element(list.begin(), list.end(), [](const auto* a, const auto* b) {
        return std::tuple(*a->hours, a->total_micros) < std::tuple(*b->hours, b->total_micros);
    });
    return it == list.end() ? nullptr : *it;
}

// Which constraint bound, and the nearest configurations on each side of it.
void Planner::explain_no_fit() {
    const auto& deadline = m_w.deadline_hours;
    const std::optional<std::int64_t> budget =
        m_w.budget
            ? std::optional(static_cast<std::int64_t>(*m_w.budget * Money::k_micros_per_unit))
            : std::nullopt;
    std::vector<const Late*> late;
    std::vector<const Late*> late_affordable;
    for (const Late& c : m_late) {
        late.push_back(&c);
        if (!budget || c.total_micros <= *budget) {
            late_affordable.push_back(&c);
        }
    }
    std::vector<std::string> parts;
    if (m_late.empty() && m_over_budget.empty()) { // neither deadline nor budget bound
        std::vector<std::string> counts;
        for (const auto& [code, n] : m_result.rejected_by_code) {
            counts.push_back(fmt::format("{} {}", n, code));
        }
        parts.push_back(counts.empty()
                            ? "no instance type matches the filters"
                            : fmt::format("no configuration fits the workload and the constraints "
                                          "(rejected: {}; see --explain)",
                                          fmt::join(counts, ", ")));
    } else if (deadline && budget) {
        parts.push_back(fmt::format("no configuration meets the {} deadline under {}",
                                    duration(*deadline),
                                    money(*budget)));
    } else if (deadline) {
        parts.push_back(fmt::format("no configuration meets the {} deadline", duration(*deadline)));
    } else if (budget) {
        parts.push_back(fmt::format("no configuration costs less than {}", money(*budget)));
    }
    if (const auto* on_time = cheapest(m_over_budget)) {
        parts.push_back(fmt::format("the cheapest that {} costs {} ({})",
                                    deadline ? "meets the deadline" : "fits",
                                    money(on_time->total_micros),
                                    describe_candidate(*on_time)));
    } else if (const auto* quick = fastest(late)) {
        const bool instance_limit = quick->count >= max_instances();
        parts.push_back(fmt::format(
            "with at most {} the fastest takes {} ({}, {}){}",
            instance_limit ? fmt::format("{} instances", max_instances())
                           : fmt::format("{} GPUs", format_number(k_max_gpus)),
            duration(*quick->hours),
            describe_candidate(*quick),
            money(quick->total_micros),
            instance_limit ? ": raise --max-instances or relax --deadline" : ": relax --deadline"));
    }
    if (budget && deadline) {
        if (const auto* quick = fastest(late_affordable)) {
            parts.push_back(fmt::format("the fastest under budget takes {} ({}, {})",
                                        duration(*quick->hours),
                                        describe_candidate(*quick),
                                        money(quick->total_micros)));
        } else if (const auto* low = cheapest(m_late)) {
            parts.push_back(fmt::format("nothing costs less than the budget: the cheapest costs "
                                        "{} ({}, {})",
                                        money(low->total_micros),
                                        describe_candidate(*low),
                                        duration(*low->hours)));
        }
    }
    m_result.no_fit = fmt::format("{}", fmt::join(parts, "; "));
}

void Planner::physics_notes(const std::vector<Group>& groups) {
    std::vector<const Option*> list; // the rows, in rank order
    for (const Group& g : groups) {
        list.push_back(&m_feasible[g.best]);
    }
    const Option* overall = nullptr;
    for (const Option* o : list) {
        if (overall == nullptr || o->total_micros < overall->total_micros) {
            overall = o;
        }
    }
    for (const Rule* rule : m_active) {
        std::string note;
        if (rule->effect == RuleEffect::require) {
            const int n = m_rule_rejections[rule];
            note = n > 0 ? fmt::format("rejected {} configuration(s)", n) : "rejected none";
        } else if (rule->effect == RuleEffect::prefer) {
            std::size_t inside = 0;
            const Option* best_inside = nullptr;
            for (const Option* o : list) {
                const auto& preferred = m_tags[o->tags].preferred_by;
                if (std::find(preferred.begin(), preferred.end(), rule->id) != preferred.end()) {
                    ++inside;
                    if (best_inside == nullptr || o->total_micros < best_inside->total_micros) {
                        best_inside = o;
                    }
                }
            }
            if (best_inside == nullptr) {
                note = "no configuration in this tier passes the checks: the ranking follows "
                       "the sizing";
                m_result.notes.push_back(fmt::format("Rule {} ({}) matched no configuration that "
                                                     "fits and meets the constraints, so the "
                                                     "ranking follows the sizing.",
                                                     rule->id,
                                                     rule->reason));
            } else {
                note = fmt::format("{} configuration(s) match", inside);
                if (overall != nullptr && overall->total_micros < best_inside->total_micros) {
                    m_result.notes.push_back(fmt::format(
                        "Rule {}: the cheapest configuration, {}, is outside this tier and "
                        "costs {} against {} for the best inside it ({}).",
                        rule->id,
                        describe_candidate(*overall),
                        money(overall->total_micros),
                        money(best_inside->total_micros),
                        describe_candidate(*best_inside)));
                }
            }
        } else if (rule->effect == RuleEffect::warn && !rule->candidate) {
            m_result.warnings.push_back(rule->message);
            note = rule->message;
        } else {
            note = rule->message;
            if (rule->effect == RuleEffect::suggest) {
                m_result.notes.push_back(rule->message);
            }
        }
        m_result.rules.push_back({rule, note});
    }
}

PlanResult Planner::run() {
    fire_rules();
    for (const InstanceType& instance : m_in.catalog->instances()) {
        if (const Gpu* gpu = m_in.catalog->find_gpu(instance.gpu)) {
            instance_type(instance, *gpu);
        }
    }
    for (const Late& c : m_late) {
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
    m_result.feasible = m_feasible.size();
    // One row per configuration across regions, unless --region asked for regions by name.
    std::vector<Group> groups = merge_regions(m_feasible, m_c.regions.empty());
    if (is_finite_work(m_w.kind) || m_w.kind == WorkloadKind::inference) {
        mark_pareto(m_feasible, groups); // HPC and graphics have nothing to trade against cost
    }
    rank_groups(m_feasible, groups, m_c.sort_by_time);
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

} // namespace

PlanResult plan(const PlanInput& input) {
    Planner planner(input);
    return planner.run();
}

} // namespace gpuadvisor
