// The one-call entry point on the built-in catalog: a ranked answer that keeps the constraints
// and the deadline, in the objective's order.
#include "gpuadvisor/recommend.hpp"
#include "test_helpers.hpp"

#include <catch2/catch.hpp>

using namespace gpuadvisor;

namespace {

NormalizedWorkload training(const std::string& model, double tokens, double deadline_hours) {
    Workload w;
    w.kind = WorkloadKind::training;
    w.model = model;
    w.tokens = tokens;
    w.deadline_hours = deadline_hours;
    const NormalizeResult result = normalize(w, builtin_models());
    INFO(test::describe(result.diagnostics));
    REQUIRE(result.workload);
    return *result.workload;
}

const std::vector<Rule> k_no_rules; // no prefer rule lifts a row: the objective alone ranks

RecommendOptions options_without_rules() {
    RecommendOptions options;
    options.rules = &k_no_rules;
    options.today = *parse_date("2026-12-02");
    options.constraints.top = 10;
    return options;
}

void check_ranks(const PlanResult& result) {
    for (std::size_t i = 0; i < result.recommendations.size(); ++i) {
        CHECK(result.recommendations[i].rank == static_cast<int>(i) + 1);
    }
}

} // namespace

TEST_CASE("recommend: training on the built-in catalog, ranked by total cost, in the deadline") {
    const Recommendation answer =
        recommend(training("llama-2-7b", 1e12, 720), options_without_rules(), builtin_catalog());
    const auto& rows = answer.result.recommendations;
    REQUIRE(!rows.empty());
    CHECK(rows.size() <= 10);
    CHECK(answer.result.feasible >= rows.size());
    CHECK(answer.result.no_fit.empty());
    CHECK(answer.requirements.compute_flops > 0);
    check_ranks(answer.result);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        INFO(rows[i].instance->provider << " " << rows[i].instance->id);
        CHECK(rows[i].estimate->fits);
        REQUIRE(rows[i].hours);
        CHECK(*rows[i].hours <= 720);
        CHECK(rows[i].total_micros > 0);
        if (i > 0) {
            CHECK(rows[i - 1].total_micros <= rows[i].total_micros);
        }
    }
}

TEST_CASE("recommend: --sort time's order, and the providers and plan asked for") {
    RecommendOptions options = options_without_rules();
    options.constraints.sort_by_time = true;
    options.constraints.providers = {"aws"};
    options.constraints.plan = Plan::on_demand;
    const Recommendation answer =
        recommend(training("llama-2-7b", 1e12, 720), options, builtin_catalog());
    const auto& rows = answer.result.recommendations;
    REQUIRE(!rows.empty());
    check_ranks(answer.result);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        CHECK(rows[i].instance->provider == "aws");
        CHECK(rows[i].pricing == "on-demand");
        if (i > 0) {
            CHECK(*rows[i - 1].hours <= *rows[i].hours);
        }
    }
}

TEST_CASE("recommend: the built-in rules by default, and a deadline nothing meets") {
    const NormalizedWorkload rushed = training("llama-2-70b", 2e12, 1);
    RecommendOptions options;
    options.today = *parse_date("2026-12-02");
    const Recommendation answer = recommend(rushed, options, builtin_catalog());
    CHECK(answer.result.recommendations.empty());
    CHECK(answer.result.rejected_by_code.count("deadline") == 1);
    CHECK_FALSE(answer.result.no_fit.empty());
    options.rules = &builtin_rules();
    const Recommendation same = recommend(rushed, options, builtin_catalog());
    CHECK(same.result.no_fit == answer.result.no_fit);
    CHECK(same.result.considered == answer.result.considered);
}
