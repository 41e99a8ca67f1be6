// The planner on the frozen test catalog: counts, prices equal to the cost module's, rules,
// ranking, merged regions, and the no-fit explanation.
#include "gpuadvisor/planner.hpp"
#include "gpuadvisor/pricing.hpp"
#include "planner/planner_internal.hpp"
#include "planner/planner_rank.hpp"
#include "planner/planner_rules.hpp"
#include "test_helpers.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <tuple>

using namespace gpuadvisor;

namespace {

struct Setup {
    NormalizedWorkload workload;
    Requirements needs;
    std::vector<Rule> rules;
    PlanConstraints constraints;
};

NormalizedWorkload workload_of(const Workload& w) {
    const NormalizeResult result = normalize(w, builtin_models());
    INFO(test::describe(result.diagnostics));
    REQUIRE(result.workload);
    return *result.workload;
}

PlanInput input_of(Setup& s) {
    s.needs = requirements(s.workload, builtin_assumptions());
    return {&s.workload,
            &s.needs,
            &test::test_catalog(),
            &builtin_assumptions(),
            &s.rules,
            &builtin_fx(),
            {},
            s.constraints};
}

PlanResult run(Setup& s) {
    return plan(input_of(s));
}

std::vector<Rule> rules_from(const std::string& text) {
    const NamedText file{"r.yaml", text};
    RuleLoad load = load_rule_texts(std::span(&file, 1));
    INFO(test::describe(load.diagnostics));
    REQUIRE_FALSE(load.diagnostics.has_errors());
    return load.rules;
}

Workload training_7b(double tokens) {
    Workload w;
    w.kind = WorkloadKind::training;
    w.model = "llama-2-7b";
    w.tokens = tokens;
    return w;
}

Workload serving(double qps) {
    Workload w;
    w.kind = WorkloadKind::inference;
    w.model = "bert-base";
    w.qps = qps;
    w.latency_ms = 50;
    return w;
}

} // namespace

namespace {

// Hours as the planner bills them: to the 0.001 h, at least 0.001 h.
double billed(double hours) {
    return std::max(0.001, std::round(hours * 1000) / 1000);
}

} // namespace

TEST_CASE("planner: serving is priced per month, exactly as the cost module prices it") {
    Setup s{workload_of(serving(100)), {}, {}, {}};
    const PlanResult r = run(s);
    REQUIRE_FALSE(r.recommendations.empty());
    const Candidate& best = r.recommendations.front();
    // The cheapest whole-GPU offer: small.1x (T4) on demand at 0.526 an hour.
    CHECK(best.instance->id == "small.1x");
    CHECK(best.pricing == "on-demand");
    const Offer offer{best.instance, best.row};
    const std::vector<PlanShare> on_demand{{Plan::on_demand, 1}};
    const QuoteResult quote =
        price_offer(offer, {static_cast<double>(best.count), 730, 1, 0}, on_demand, {});
    CHECK(best.total_micros == quote.quote->total_micros);
    CHECK(best.total_micros == *multiply_money(526'000, 730.0 * best.count));
    CHECK(best.rank == 1);
    // The vGPU slice is for desktops: never offered for serving.
    for (const Candidate& c : r.recommendations) {
        CHECK(c.instance->id != "yun.t4");
    }
}

TEST_CASE("planner: a require rule filters and says why; a prefer rule ranks first") {
    Setup s{workload_of(serving(100)), {}, {}, {}};
    s.rules = rules_from(R"(schema_version: 1
rules:
  - id: no-small
    require: {not: {instance: small.1x}}
    reason: "policy"
    source: "test"
    as_of: 2025-01-01
  - id: like-big
    prefer: {rdma: true}
    reason: "policy"
    source: "test"
    as_of: 2025-01-01
)");
    const PlanResult r = run(s);
    REQUIRE_FALSE(r.recommendations.empty());
    CHECK(r.recommendations.front().instance->id == "big.8x");
    CHECK(r.recommendations.front().preferred_by == std::vector<std::string>{"like-big"});
    const auto rejected = std::count_if(r.rejected.begin(), r.rejected.end(), [](auto& x) {
        return x.code == "rule" && x.instance->id == "small.1x";
    });
    CHECK(rejected == 1); // its one region, on-demand (no spot without --interruptible)
    REQUIRE(r.rules.size() == 2);
    CHECK(r.rules[0].note == "rejected 1 configuration(s)");
}

TEST_CASE("planner: regions merge into one row, cheapest first, the rest in also_in") {
    Workload w;
    w.kind = WorkloadKind::training;
    w.model = "llama-2-7b";
    w.tokens = 1e9;
    Setup s{workload_of(w), {}, {}, {}};
    s.constraints.gpus = {"A100-40GB"};
    const PlanResult r = run(s);
    REQUIRE_FALSE(r.recommendations.empty());
    const Candidate& best = r.recommendations.front();
    CHECK(best.instance->id == "big.8x");
    CHECK(best.row->region == "us-east-1"); // 32.7726 against 35.50 in eu-west-1
    REQUIRE(best.also_in.size() == 1);
    CHECK(best.also_in[0].first == "eu-west-1");
    CHECK(best.also_in[0].second > best.total_micros);
    REQUIRE(best.hours);
    CHECK(*best.hours == Approx(billed(best.estimate->hours))); // to the 0.001 h
    // Finite work: the total is the instances' hours on demand.
    CHECK(best.total_micros == *multiply_money(32'772'600, best.count * *best.hours));
}

TEST_CASE("planner: nothing fits a tight deadline and budget, and the message says what binds") {
    Workload w;
    w.kind = WorkloadKind::training;
    w.model = "llama-2-7b";
    w.tokens = 1e12;
    w.deadline_hours = 24;
    w.budget = 1000;
    Setup s{workload_of(w), {}, {}, {}};
    s.constraints.max_instances = 4;
    const PlanResult r = run(s);
    CHECK(r.recommendations.empty());
    CHECK(r.no_fit.starts_with("no configuration meets the 24 h deadline under 1000.00 USD; "
                               "with at most 4 instances the fastest takes "));
    CHECK(r.no_fit.find("nothing costs less than the budget: the cheapest costs ") !=
          std::string::npos);
    CHECK(std::any_of(
        r.rejected.begin(), r.rejected.end(), [](auto& x) { return x.code == "deadline"; }));
}

TEST_CASE("planner: with --interruptible, spot is priced and its time includes the overhead") {
    Workload w;
    w.kind = WorkloadKind::training;
    w.model = "llama-2-7b";
    w.tokens = 1e9;
    Setup s{workload_of(w), {}, {}, {}};
    s.constraints.interruptible = true;
    s.constraints.plan = Plan::spot;
    s.constraints.gpus = {"A100"};
    PlanResult r = run(s);
    REQUIRE_FALSE(r.recommendations.empty());
    const Candidate& spot = r.recommendations.front();
    CHECK(spot.pricing == "spot");
    // The default model: no interruptions.
    CHECK(*spot.hours == Approx(billed(spot.estimate->hours)));
    CHECK(spot.total_micros == *multiply_money(12'510'000, spot.count * *spot.hours));
}

TEST_CASE("planner: graphics may use vGPU slices, priced in their own currency") {
    Workload w;
    w.kind = WorkloadKind::graphics;
    w.sessions = 4;
    w.memory_per_session_gb = 4;
    Setup s{workload_of(w), {}, {}, {}};
    s.constraints.providers = {"yuncloud"};
    const PlanResult r = run(s);
    REQUIRE_FALSE(r.recommendations.empty());
    const Candidate& best = r.recommendations.front();
    CHECK(best.instance->id == "yun.t4");
    CHECK(best.count == 4); // one 4 GB slice per session
    CHECK(best.total_gpus == 1);
    // ap-southeast-1 in USD 0.60 x 4 x 730 = 1752.00 beats cn-shanghai's subscription
    // 1500 CNY x 4 (about 826 USD)? The ranking compares in USD at data/fx.yaml rates.
    const auto usd = builtin_fx().convert(best.quote.total_micros, best.quote.currency, "USD");
    CHECK(best.total_micros == *usd);
    for (const auto& [region, micros] : best.also_in) {
        CHECK(micros >= best.total_micros);
    }
}

TEST_CASE("planner: the fewest instances that meet the deadline, not just powers of two") {
    Workload w;
    w.kind = WorkloadKind::training;
    w.model = "llama-2-7b";
    w.tokens = 10e9;
    w.deadline_hours = 12;
    Setup s{workload_of(w), {}, {}, {}};
    s.constraints.gpus = {"A100"};
    const PlanResult r = run(s);
    REQUIRE_FALSE(r.recommendations.empty());
    const Candidate& best = r.recommendations.front();
    CHECK(*best.hours <= 12);
    const auto hours_on = [&](int count) {
        Hardware hw;
        hw.gpu = best.gpu;
        hw.gpus = 8 * count;
        return estimate(s.workload, hw, builtin_assumptions()).hours;
    };
    CHECK(hours_on(best.count - 1) > 12); // one instance fewer misses it
    CHECK(best.count != 16);              // 13 instances suffice on the test catalog
}

TEST_CASE("planner: a rule preferring a region keeps that region's row apart") {
    Workload w;
    w.kind = WorkloadKind::training;
    w.model = "llama-2-7b";
    w.tokens = 1e9;
    Setup s{workload_of(w), {}, {}, {}};
    s.constraints.gpus = {"A100"};
    s.rules = rules_from(R"(schema_version: 1
rules:
  - id: eu
    when: {kind: training}
    prefer: {region: eu-west-1, kind: training}
    weight: 100
    reason: "closer to the data"
    source: "test"
    as_of: 2025-01-01
)");
    const PlanResult r = run(s);
    REQUIRE_FALSE(r.recommendations.empty());
    // us-east-1 at the same count is as fast and cheaper: a prefer rule does not lift a row
    // another beats on both, so the rule's row is its tier's line, kept apart from the others.
    CHECK(r.recommendations.front().row->region != "eu-west-1");
    REQUIRE(r.tiers.size() == 1);
    const Candidate& tier = r.tiers.front().best;
    CHECK(tier.row->region == "eu-west-1");
    CHECK(tier.preferred_by == std::vector<std::string>{"eu"});
    CHECK(tier.also_in.empty());
    CHECK(tier.rank > 1);
    CHECK(tier.total_micros > r.recommendations.front().total_micros);
    if (tier.rank <= static_cast<int>(r.recommendations.size())) { // its rank is its place
        CHECK(r.recommendations[static_cast<std::size_t>(tier.rank - 1)].row->region ==
              "eu-west-1");
    }
}

TEST_CASE("planner: ranking by the objective, prefer rules lifting only near the best") {
    InstanceType instance;
    instance.provider = "p";
    instance.id = "t";
    PriceRow row;
    row.region = "r";
    const auto option = [&](std::int64_t cost, double hours, double score, int count) {
        Option o;
        o.instance = &instance;
        o.row = &row;
        o.count = count; // (a tie-breaker only)
        o.total_micros = cost;
        o.hours = hours;
        o.score = score;
        return o;
    };
    const std::vector<Option> options{
        option(100, 10, 0, 1), // A: the cheapest
        option(105, 5, 1, 2),  // B: preferred, within 10%, beaten by none on both
        option(108, 12, 1, 3), // C: preferred, within 10%, but A is cheaper and faster
        option(150, 1, 1, 4),  // D: preferred, the fastest, 50% over the cheapest
    };
    const auto order = [&](const Ranking& ranking) {
        std::vector<Group> groups;
        for (std::size_t i = 0; i < options.size(); ++i) {
            groups.push_back({i, 0, 0, false, false});
        }
        ranking.rank(options, groups, groups.size());
        std::string names;
        for (const Group& g : groups) {
            names += static_cast<char>('A' + g.best);
        }
        return names;
    };
    Ranking ranking;
    ranking.trades_speed = true;
    CHECK(order(ranking) == "BACD");
    ranking.prefer_within = 0.01;
    CHECK(order(ranking) == "ABCD");
    ranking.prefer_within = 1.0; // D within 100%: lifted too, after B (same score, dearer)
    CHECK(order(ranking) == "BDAC");
    ranking.prefer_within = 0.10;
    ranking.by_time = true;
    CHECK(order(ranking) == "DBAC");
    ranking.by_time = false;
    ranking.micros_per_hour = 2; // A 120, B 115, C 132, D 152
    CHECK(order(ranking) == "BACD");
    ranking.micros_per_hour = 0;
    ranking.trades_speed = false; // nothing traded against cost: C is lifted too
    CHECK(order(ranking) == "BCAD");
}

TEST_CASE("planner: a tiny job is billed at least 0.001 h, never 0") {
    Workload w;
    w.kind = WorkloadKind::training;
    w.params = 1e6;
    w.tokens = 1e3;
    Setup s{workload_of(w), {}, {}, {}};
    const PlanResult r = run(s);
    REQUIRE_FALSE(r.recommendations.empty());
    CHECK(r.recommendations.front().total_micros > 0);
    CHECK(*r.recommendations.front().hours == Approx(0.001));
}

// Rules that read the country, the plan and the region, of every effect.
const std::string k_policy_rules = R"(schema_version: 1
rules:
  - id: us-or-spot
    require: {any: [{country: US}, {plan: spot}]}
    reason: "policy"
    source: "test"
    as_of: 2025-01-01
  - id: big-ones
    require: {total_gpus: {at_least: 1}}
    reason: "policy"
    source: "test"
    as_of: 2025-01-01
  - id: east-note
    warn: "in the east"
    candidate: {region: us-east-1}
    reason: "policy"
    source: "test"
    as_of: 2025-01-01
  - id: spot-first
    prefer: {plan: spot}
    reason: "policy"
    source: "test"
    as_of: 2025-01-01
)";

TEST_CASE("planner: rules reading region, country and plan are tested for each option") {
    Setup s{workload_of(training_7b(1e9)), {}, {}, {}};
    s.constraints.interruptible = true;
    s.constraints.list_rejections = true;
    s.constraints.top = 100;
    s.rules = rules_from(k_policy_rules);
    const PlanResult r = run(s);
    REQUIRE_FALSE(r.recommendations.empty());
    bool east = false;
    for (const Candidate& c : r.recommendations) {
        const std::string country =
            test::test_catalog().country_of(c.instance->provider, c.row->region);
        CHECK((country == "US" || c.pricing == "spot"));
        const bool warned = !c.warnings.empty() && c.warnings.front().rfind("east-note", 0) == 0;
        CHECK(warned == (c.row->region == "us-east-1"));
        CHECK(c.preferred_by == (c.pricing == "spot" ? std::vector<std::string>{"spot-first"}
                                                     : std::vector<std::string>{}));
        east = east || warned;
    }
    CHECK(east);
    // Each rejection names the first rule, in order, that the option fails.
    std::size_t by_rule = 0;
    for (const auto& x : r.rejected) {
        if (x.code == "rule") {
            ++by_rule;
            CHECK(x.reason.rfind("us-or-spot (", 0) == 0);
            CHECK(test::test_catalog().country_of(x.instance->provider, x.region) != "US");
        }
    }
    CHECK(by_rule > 0);
    CHECK(r.rules.front().note == fmt::format("rejected {} configuration(s)", by_rule));
    CHECK(r.rules[1].note == "rejected none");
    CHECK(r.rejected_by_code.at("rule") == by_rule);
}

namespace {

// Everything a plan says, as text: two plans are the same when their dumps are.
std::string dump(const PlanResult& r) {
    std::string text = fmt::format("feasible {} considered {}\n", r.feasible, r.considered);
    for (const Candidate& c : r.recommendations) {
        text += fmt::format("#{} {} {} {} x{} {} {} {} {} {} [{}] [{}] pareto {}\n",
                            c.rank,
                            c.instance->provider,
                            c.instance->id,
                            c.row->region,
                            c.count,
                            c.pricing,
                            c.total_micros,
                            c.list_total_micros,
                            c.hours.value_or(-1),
                            c.score,
                            fmt::join(c.preferred_by, ","),
                            fmt::join(c.warnings, ","),
                            c.pareto);
        for (const auto& [region, total] : c.also_in) {
            text += fmt::format("  also {} {}\n", region, total);
        }
    }
    for (const Rejection& x : r.rejected) {
        text +=
            fmt::format("- {} {} {} {}: {}\n", x.instance->id, x.region, x.count, x.code, x.reason);
    }
    for (const auto& [code, n] : r.rejected_by_code) {
        text += fmt::format("{} {}\n", code, n);
    }
    for (const FiredRule& rule : r.rules) {
        text += fmt::format("rule {}: {}\n", rule.rule->id, rule.note);
    }
    text +=
        fmt::format("{}\n{}\n{}\n", fmt::join(r.warnings, "|"), fmt::join(r.notes, "|"), r.no_fit);
    return text;
}

} // namespace

namespace {

// Rules reading the plan alone, the plan and the configuration, the plan and the instance type;
// each condition given three times: as it is (its verdicts shared by configurations alike in
// hardware and count, once per pricing), with a clause on the provider that always holds (tested
// per configuration and pricing) and with one on the region (tested for every option).
enum class RuleClause { none, provider, region };

// On a given catalog and exchange rates.
PlanResult run_on(Setup& s, const Catalog& catalog, const FxTable& fx = builtin_fx()) {
    s.needs = requirements(s.workload, builtin_assumptions());
    return plan({&s.workload,
                 &s.needs,
                 &catalog,
                 &builtin_assumptions(),
                 &s.rules,
                 &fx,
                 {},
                 s.constraints});
}

// On the built-in catalog: many instance types alike in hardware, some not.
PlanResult run_builtin(Setup& s) {
    return run_on(s, builtin_catalog());
}

// The test catalog and one more instance type, big.8x (8 x A100-40GB), in the regions given
// (YAML flow mappings, one per line).
// The test catalog with big.8x priced in these rows alone: the test catalog's other rows for it
// are removed (an overlay's rows merge with the earlier ones by region).
CatalogLoad with_big_8x(const std::vector<std::string>& regions) {
    std::string text = R"(schema_version: 1
provider: {id: testcloud}
instances:
  - id: big.8x
    family: big
    gpu: A100-40GB
    gpu_count: 8
    vcpus: 96
    memory_gb: 1152
    network_gbps: 400
    rdma: true
    nvlink: true
    regions:
)";
    for (const std::string& region : regions) {
        text += "      - " + region + "\n";
    }
    for (const PriceRow& row : test::test_catalog().match_instances("big.8x").at(0)->regions) {
        const std::string given = "region: " + row.region.str() + ",";
        if (std::none_of(regions.begin(), regions.end(), [&](const std::string& r) {
                return r.find(given) != std::string::npos;
            })) {
            text += "      - {region: " + row.region.str() + ", remove: true}\n";
        }
    }
    return test::load_text(text);
}

std::string rule_text(const std::string& id, const std::string& effect) {
    return "  - id: " + id + "\n    " + effect +
           "\n    reason: \"level\"\n    source: \"test\"\n    as_of: 2025-01-01\n";
}

std::string level_rules(RuleClause clause) {
    const auto condition = [&](const std::string& c) {
        switch (clause) {
        case RuleClause::provider:
            return "{all: [" + c + ", {not: {provider: nowhere}}]}";
        case RuleClause::region:
            return "{all: [" + c + ", {not: {region: nowhere}}]}";
        default:
            return c;
        }
    };
    std::string text = "schema_version: 1\nrules:\n";
    const auto add = [&](const std::string& id, const std::string& effect) {
        text += rule_text(id, effect);
    };
    add("spot-small",
        "require: " + condition("{not: {all: [{plan: spot}, {instance_count: "
                                "{above: 2}}]}}"));
    add("no-spot-h100", "require: " + condition("{not: {all: [{plan: spot}, {gpu: H100}]}}"));
    add("on-demand-first", "prefer: " + condition("{plan: on-demand}"));
    add("spot-note", "warn: \"on spot\"\n    candidate: " + condition("{plan: spot}"));
    add("fast-scaling", "prefer: " + condition("{scaling_efficiency: {at_least: 0.9}}"));
    return text;
}

} // namespace

TEST_CASE("planner: a rule gives the same verdicts whichever level it is tested at") {
    for (const Workload& w : {training_7b(1e11), serving(2000)}) {
        for (const bool explain : {true, false}) {
            std::string per_option;
            for (const RuleClause clause :
                 {RuleClause::region, RuleClause::provider, RuleClause::none}) {
                Setup s{workload_of(w), {}, rules_from(level_rules(clause)), {}};
                s.constraints.interruptible = true;
                s.constraints.list_rejections = explain;
                s.constraints.top = 50;
                const PlanResult result = run_builtin(s);
                CHECK(result.rejected_by_code.count("rule") == 1); // some options fail a rule
                if (clause == RuleClause::region) {
                    per_option = dump(result);
                } else {
                    INFO("explain " << explain << ", clause " << static_cast<int>(clause));
                    CHECK(dump(result) == per_option);
                }
            }
        }
    }
}

TEST_CASE("planner: a rule naming a provider or instance type or family is not shared by hardware "
          "twins") {
    // Each rule as it is, and with a region clause that always holds (tested per option): the
    // same answer, so a rule naming one instance type is not applied to its hardware twins.
    for (const std::string condition :
         {"{provider: aws}", "{instance: p4d.24xlarge}", "{family: {in: [g5, g6]}}"}) {
        std::string per_option;
        for (const bool option_level : {true, false}) {
            const std::string c =
                option_level ? "{all: [" + condition + ", {not: {region: nowhere}}]}" : condition;
            const std::string text = "schema_version: 1\nrules:\n" +
                                     rule_text("named", "prefer: " + c) +
                                     rule_text("named-only", "require: " + c);
            Setup s{workload_of(training_7b(1e11)), {}, rules_from(text), {}};
            s.constraints.top = 30;
            const PlanResult result = run_builtin(s);
            INFO(condition);
            CHECK_FALSE(result.recommendations.empty());
            if (option_level) {
                per_option = dump(result);
            } else {
                CHECK(dump(result) == per_option);
            }
        }
    }
}

TEST_CASE("planner: of rows in two currencies equal in total once converted, the first is "
          "shown, listed or not") {
    // Options are compared once converted; where two rows in two currencies convert to the
    // same total, the group shows the first row (rows are in region order). Two yuan are a
    // dollar here, exactly; the yuan are in the first region, then in the second.
    const FxTable two_yuan({FxRate{"CNY", 2.0, {}}});
    for (const bool yuan_first : {true, false}) {
        const auto row = [](const char* region, bool yuan) {
            return yuan ? fmt::format("{{region: {}, currency: CNY, on_demand: 20, spot: 9}}",
                                      region)
                        : fmt::format("{{region: {}, on_demand: 10, spot: 4.5}}", region);
        };
        const CatalogLoad load =
            with_big_8x({row("eu-west-1", yuan_first), row("us-east-1", !yuan_first)});
        INFO(test::describe(load.diagnostics));
        REQUIRE_FALSE(load.diagnostics.has_errors());
        std::string unlisted;
        for (const bool listed : {false, true}) {
            INFO("yuan first " << yuan_first << " listed " << listed);
            Setup s{workload_of(training_7b(1e10)), {}, {}, {}};
            s.constraints.list_rejections = listed;
            s.constraints.interruptible = true;
            s.constraints.gpus = {"A100-40GB"};
            s.constraints.top = 100;
            PlanResult result = run_on(s, load.catalog, two_yuan);
            REQUIRE(result.recommendations.size() >= 2);
            for (const Candidate& c : result.recommendations) {
                INFO(c.count << " " << c.pricing);
                CHECK(c.row->region == "eu-west-1");
                REQUIRE(c.also_in.size() == 1);
                CHECK(c.also_in.front().second == c.total_micros);
            }
            if (!listed) {
                unlisted = dump(result);
            } else {
                result.rejected.clear();
                CHECK(dump(result) == unlisted);
            }
        }
    }
}

TEST_CASE("planner: of late configurations equal in time and cost, the first priced is named") {
    // Spot without interruptions takes as long as on-demand, and here costs as much in the
    // other region: the no-fit explanation names the first of the two in the order priced
    // (region, then plan), listed or not.
    const CatalogLoad load = with_big_8x({"{region: eu-west-1, on_demand: 12, spot: 10}",
                                          "{region: us-east-1, on_demand: 10, spot: 12}"});
    INFO(test::describe(load.diagnostics));
    REQUIRE_FALSE(load.diagnostics.has_errors());
    Workload w = training_7b(1e12);
    w.deadline_hours = 1;
    for (const bool listed : {false, true}) {
        Setup s{workload_of(w), {}, {}, {}};
        s.constraints.interruptible = true;
        s.constraints.list_rejections = listed;
        s.constraints.gpus = {"A100-40GB"};
        const PlanResult r = run_on(s, load.catalog);
        INFO(r.no_fit);
        CHECK(r.recommendations.empty());
        CHECK(r.no_fit.find("(testcloud eu-west-1, spot)") != std::string::npos);
    }
}

TEST_CASE("planner: a term plan that costs as much as on-demand is not priced, listed or not") {
    // A term plan is priced only where it costs less than on-demand, late or on time. Here, at
    // 64 instances, reserved_1y costs exactly what on-demand does.
    Workload w = training_7b(1e12);
    const NormalizedWorkload normalized = workload_of(w);
    Hardware hw;
    hw.gpu = builtin_catalog().find_gpu("A100-40GB");
    REQUIRE(hw.gpu != nullptr);
    hw.gpus = 8 * 64;
    hw.gpus_per_node = 8;
    hw.nvlink = true;
    hw.network_gbps = 400;
    hw.rdma = true;
    const Estimate e = estimate(normalized, hw, builtin_assumptions());
    const Usage usage{64, std::max(0.001, std::round(e.hours * 1000) / 1000), 1, 0};
    const SpotModel spot;
    const std::int64_t on_demand = *billed_quantities(usage, Plan::on_demand, spot).thousandths[0];
    const std::int64_t reserved = *billed_quantities(usage, Plan::reserved_1y, spot).thousandths[0];
    // Rates in the inverse ratio of the quantities: equal products, so equal totals.
    const std::int64_t common = std::gcd(on_demand, reserved);
    const std::int64_t scale = 1 + 1'000'000 / std::min(on_demand / common, reserved / common);
    const auto price = [](std::int64_t micros) {
        return fmt::format("{}.{:06}", micros / 1'000'000, micros % 1'000'000);
    };
    const CatalogLoad load =
        with_big_8x({fmt::format("{{region: eu-west-1, on_demand: {}, reserved_1y: {}}}",
                                 price(reserved / common * scale),
                                 price(on_demand / common * scale))});
    INFO(test::describe(load.diagnostics));
    REQUIRE_FALSE(load.diagnostics.has_errors());
    // A deadline nothing meets (every configuration late), and one that 64 instances just meet.
    for (const double deadline : {1.0, usage.period_hours + 0.5}) {
        INFO("deadline " << deadline);
        const bool all_late = deadline < 2;
        std::string unlisted;
        for (const bool listed : {false, true}) {
            Setup s{normalized, {}, {}, {}};
            s.workload.deadline_hours = deadline;
            s.constraints.list_rejections = listed;
            s.constraints.top = 1000;
            PlanResult r = run_on(s, load.catalog);
            const auto at_64 = [&](std::string_view pricing) {
                return std::count_if(
                    r.recommendations.begin(), r.recommendations.end(), [&](const Candidate& c) {
                        return c.instance->id == "big.8x" && c.count == 64 && c.pricing == pricing;
                    });
            };
            if (!all_late) { // at 64 instances on-demand alone is priced
                CHECK(at_64("on-demand") == 1);
                CHECK(at_64("reserved-1y") == 0);
            } else {
                CHECK(r.recommendations.empty());
            }
            if (!listed) {
                unlisted = dump(r);
            } else if (all_late) {
                // At 64 instances on-demand alone is priced: the tie is no reason to reserve.
                const auto late_at_64 =
                    std::count_if(r.rejected.begin(), r.rejected.end(), [](const auto& x) {
                        return x.instance->id == "big.8x" && x.count == 64 && x.code == "deadline";
                    });
                CHECK(late_at_64 == 1);
            }
            if (listed) {
                r.rejected.clear();
                CHECK(dump(r) == unlisted);
            }
        }
    }
}

TEST_CASE("planner: a pricing's rank is its name's place in text order") {
    // Groups sort by the rank in place of the name: the two orders must agree.
    using planner_detail::k_pricings;
    using planner_detail::pricing_index;
    std::vector<std::string_view> names;
    for (const Plan plan : k_all_plans) {
        names.push_back(plan_flag_name(plan));
    }
    names.push_back("mix");
    REQUIRE(names.size() == k_pricings);
    for (std::size_t i = 0; i < k_pricings; ++i) {
        CHECK(pricing_index(names[i]) == i);
        for (std::size_t j = 0; j < k_pricings; ++j) {
            INFO(names[i] << " " << names[j]);
            CHECK((pricing_name_rank(i) < pricing_name_rank(j)) == (names[i] < names[j]));
        }
    }
}

TEST_CASE("planner: the shown groups' Pareto marks are a full sweep's, ties to the first") {
    // The reference: every group in order of (cost, hours, place in the pass), each marked when
    // faster than all before it. mark_pareto asks it of the first `shown` groups only.
    std::vector<Option> options;
    std::mt19937 random(7); // dearer runs quicker; small ranges: ties in cost, hours and both
    for (std::size_t i = 0; i < 300; ++i) {
        Option o;
        const auto cost = random() % 40;
        o.total_micros = static_cast<std::int64_t>(cost) * 1'000'000;
        o.hours = static_cast<double>(40 - cost + random() % 6);
        options.push_back(o);
    }
    std::vector<Group> in_pass(options.size());
    for (std::size_t i = 0; i < in_pass.size(); ++i) {
        in_pass[i].best = i;
    }
    std::vector<std::size_t> order(options.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return std::tuple(options[a].total_micros, *options[a].hours, a) <
               std::tuple(options[b].total_micros, *options[b].hours, b);
    });
    std::vector<bool> front(options.size());
    double fastest = std::numeric_limits<double>::infinity();
    for (const std::size_t i : order) {
        front[i] = *options[i].hours < fastest;
        fastest = std::min(fastest, *options[i].hours);
    }
    REQUIRE(std::count(front.begin(), front.end(), true) >= 10);
    for (const std::size_t shown : {1UL, 5UL, 40UL, 300UL, 1000UL}) {
        std::vector<Group> groups = in_pass;
        std::shuffle(groups.begin(), groups.end(), random); // as ranking leaves them
        mark_pareto(options, groups, shown);
        for (std::size_t k = 0; k < std::min<std::size_t>(shown, groups.size()); ++k) {
            INFO("shown " << shown << ", group " << groups[k].best);
            CHECK(groups[k].pareto == front[groups[k].best]);
        }
    }
    // Two groups alike in cost and hours, both the cheapest: the first in the pass is marked.
    std::vector<Option> twins(2);
    for (Option& o : twins) {
        o.total_micros = 5;
        o.hours = 3.0;
    }
    std::vector<Group> groups(2);
    groups[0].best = 1;
    groups[1].best = 0;
    mark_pareto(twins, groups, 2);
    CHECK_FALSE(groups[0].pareto);
    CHECK(groups[1].pareto);
}

namespace {

// Draws for random_catalog.
struct Draw {
    std::mt19937& rng;
    int pick(int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); }
    bool chance(int percent) { return pick(100) < percent; }
};

// A row of random_catalog in region r: mostly an ordinary on-demand rate, some equal to the
// last row's, a cent, or up to 10^11 (past what int64 micros hold once billed for a year); the
// other plans near it, term plans on either side of on-demand.
std::string random_row(Draw& draw, int r, double& last) {
    const int kind = draw.pick(10);
    const double on_demand = kind < 6   ? 0.5 + draw.pick(5000) / 100.0
                             : kind < 8 ? last
                             : kind < 9 ? 0.01
                                        : 1e8 * (1 + draw.pick(999));
    last = on_demand;
    std::string row = fmt::format("      - {{region: r{}", r);
    if (draw.chance(25)) {
        row += draw.chance(50) ? ", currency: CNY" : ", currency: EUR";
    }
    int plans = 0;
    const auto price = [&](const char* plan, double value) {
        row += fmt::format(", {}: {:.4f}", plan, std::clamp(value, 0.0001, 9e11));
        ++plans;
    };
    if (draw.chance(90)) {
        price("on_demand", on_demand);
    }
    if (draw.chance(60)) {
        price("spot", on_demand * (20 + draw.pick(80)) / 100);
    }
    if (draw.chance(40)) {
        price("reserved_1y", on_demand * (30 + draw.pick(80)) / 100);
    }
    if (draw.chance(30)) {
        price("reserved_3y", on_demand * (20 + draw.pick(60)) / 100);
    }
    if (draw.chance(30)) {
        price("subscription_monthly", on_demand * (300 + draw.pick(700)));
    }
    if (plans == 0) { // a row sells something
        price("spot", on_demand);
    }
    return row + "}\n";
}

// A plan on a random catalog, dumped whole and without its listed rejections (its answer).
struct RandomRun {
    std::string whole;
    std::string answer;
    bool lists = false; // some rejection listed
};

// A random catalog of one provider over the test catalog's GPUs: a few instance types, each
// sold in some of eight regions, rows in dollars, yuan or euros (random_row).
std::string random_catalog(Draw& draw) {
    std::string text =
        "schema_version: 1\nprovider:\n  id: randcloud\n  name: Random\n  currency: USD\n"
        "  source: \"test\"\n  as_of: 2025-01-01\n  regions:\n";
    for (int r = 0; r < 8; ++r) {
        text += fmt::format("    - {{id: r{}, country: {}}}\n", r, r % 3 == 0 ? "CN" : "US");
    }
    text += "instances:\n";
    const char* gpus[] = {"A100-40GB", "A100-80GB", "T4"};
    const int types = 2 + draw.pick(4);
    for (int t = 0; t < types; ++t) {
        const int count = 1 << draw.pick(4);
        text += fmt::format("  - id: t{}\n    family: f{}\n    gpu: {}\n    gpu_count: {}\n"
                            "    vcpus: {}\n    memory_gb: {}\n    network_gbps: {}\n"
                            "    rdma: {}\n    nvlink: {}\n    regions:\n",
                            t,
                            t % 2,
                            gpus[draw.pick(3)],
                            count,
                            8 * count,
                            64 * count,
                            count == 8 ? 400 : 25,
                            count == 8,
                            count == 8);
        double last = 1;
        int rows = 0;
        for (int r = 0; r < 8; ++r) {
            if (draw.chance(70) || (r == 7 && rows == 0)) { // (every type sells somewhere)
                text += random_row(draw, r, last);
                ++rows;
            }
        }
    }
    return text;
}

} // namespace

TEST_CASE("planner: on random catalogs, listing the rejections changes nothing else") {
    // Catalogs made to hit the pricing's edges (equal and tiny rates, totals past int64 or the
    // conversion bound, term plans on either side of on-demand, rows in three currencies), with
    // exchange rates missing or extreme, deadlines, budgets, rules, --pricing (a plan or the
    // cheapest mix), --region and --max-instances drawn at random: no plan throws (a shown
    // option priced again with its words must give its total: full_quote), and listing the
    // rejections (--explain) changes no count, pick or word of the answer.
    const FxTable usd_only(std::vector<FxRate>{});
    const FxTable dear_yuan({FxRate{"CNY", 1e-9, {}}});
    const FxTable* rates[] = {&builtin_fx(), &builtin_fx(), &usd_only, &dear_yuan};
    const std::vector<Rule> rules = rules_from(level_rules(RuleClause::none));
    const double deadlines[] = {0, 1, 24, 720, 5000};
    const double budgets[] = {0, 1e3, 1e5, 1e9};
    const char* currencies[] = {"USD", "CNY", "EUR"};
    std::mt19937 rng(20261201);
    Draw draw{rng};
    for (int round = 0; round < 300; ++round) {
        const std::string text = random_catalog(draw);
        const CatalogLoad load = test::load_text(text);
        INFO(text);
        INFO(test::describe(load.diagnostics));
        REQUIRE_FALSE(load.diagnostics.has_errors());
        Workload w = draw.pick(4) == 0 ? serving(100 + draw.pick(3000))
                                       : training_7b(1e9 * (1 + draw.pick(999)));
        if (const double d = deadlines[draw.pick(5)]; d > 0 && w.kind == WorkloadKind::training) {
            w.deadline_hours = d;
        }
        if (const double b = budgets[draw.pick(4)]; b > 0) {
            w.budget = b;
        }
        const bool interruptible = draw.pick(2) == 0;
        const std::optional<Plan> plan =
            draw.pick(4) == 0 ? std::optional(k_all_plans[draw.pick(5)]) : std::nullopt;
        const std::string currency = currencies[draw.pick(3)];
        const FxTable& fx = *rates[draw.pick(4)];
        const bool with_rules = draw.pick(2) == 0;
        std::vector<std::string> regions; // --region: some rounds name a few
        for (int r = 0; r < 8 && draw.chance(30); ++r) {
            regions.push_back(fmt::format("r{}", draw.pick(8)));
        }
        const int max_instances = draw.chance(30) ? 1 + draw.pick(64) : 64;
        const bool auto_mix = !plan && draw.chance(15); // --pricing auto
        // The plan as dump gives it, and without its listed rejections (its rules point into
        // the Setup, so it is dumped here).
        const auto run = [&](bool listed) {
            Setup s{workload_of(w), {}, with_rules ? rules : std::vector<Rule>{}, {}};
            s.constraints.interruptible = interruptible;
            s.constraints.list_rejections = listed;
            s.constraints.plan = plan;
            s.constraints.currency = currency;
            s.constraints.providers = {"randcloud"};
            s.constraints.top = 40;
            s.constraints.regions = regions;
            s.constraints.max_instances = max_instances;
            s.constraints.auto_mix = auto_mix;
            PlanResult result = run_on(s, load.catalog, fx);
            const std::string whole = dump(result);
            const bool lists = !result.rejected.empty();
            result.rejected.clear();
            return RandomRun{whole, dump(result), lists};
        };
        INFO("round " << round << " " << currency << " rules " << with_rules);
        const RandomRun unlisted = run(false);
        const RandomRun listed = run(true);
        CHECK_FALSE(unlisted.lists);
        CHECK(listed.answer == unlisted.whole);
    }
}
