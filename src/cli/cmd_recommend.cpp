// gpuadvisor recommend WORKLOAD [constraints]: ranked, priced, explained configurations.
#include "app.hpp"
#include "catalog_options.hpp"
#include "exit_status.hpp"
#include "gpuadvisor/recommend.hpp"
#include "output.hpp"
#include "recommend_flags.hpp"
#include "render_recommend.hpp"
#include "render_report_html.hpp"
#include "stage_clock.hpp"
#include "workload_options.hpp"

#include <fmt/format.h>

#include <memory>

namespace gpuadvisor::cli {

namespace {

using Options = RecommendFlags;

// recommend's flags, and --report (the HTML page besides the output), which export lacks.
struct RecommendCommandFlags : RecommendFlags {
    std::string report_file;
};

// Every price a row of the answer (or a tier's row) uses.
std::vector<const Provenance*> prices_shown(const PlanResult& result) {
    std::vector<const Provenance*> prices;
    for (const Candidate& c : result.recommendations) {
        prices.push_back(&c.row->provenance);
    }
    for (const PreferredTier& tier : result.tiers) {
        prices.push_back(&tier.best.row->provenance);
    }
    return prices;
}

// The built-in rules (unless --no-default-rules) and the --rules files; nullopt after
// printing their errors (exit 3).
std::optional<std::vector<Rule>> active_rules(const Options& o,
                                              const Catalog& catalog,
                                              std::string_view command,
                                              Diagnostics& warnings,
                                              Io& io) {
    std::vector<Rule> rules;
    if (!o.no_default_rules) {
        rules = builtin_rules();
    }
    if (o.rule_files.empty()) {
        return rules;
    }
    RuleLoad load = load_rule_files(o.rule_files);
    check_rule_names(load.rules, catalog, load.diagnostics);
    for (const Rule& rule : load.rules) {
        const bool clash = std::any_of(rules.begin(), rules.end(), [&](const Rule& r) {
            return to_lower(r.id) == to_lower(rule.id);
        });
        if (clash) {
            load.diagnostics.error(rule.origin,
                                   "duplicate-id",
                                   fmt::format("rule '{}' is also a built-in rule", rule.id),
                                   "give your rule another id, or use --no-default-rules");
        }
    }
    if (load.diagnostics.has_errors()) {
        fail(command, load.diagnostics, k_exit_input, io);
        return std::nullopt;
    }
    warnings.append(load.diagnostics);
    rules.insert(rules.end(), load.rules.begin(), load.rules.end());
    return rules;
}

std::optional<PlanConstraints> constraints(const Options& o,
                                           const Catalog& catalog,
                                           const GlobalOptions& global,
                                           std::string_view command,
                                           Io& io) {
    PlanConstraints c;
    const auto providers = check_providers({&catalog}, split_list(o.providers), command, io);
    const auto gpus = resolve_gpu_names(catalog, split_list(o.gpus), command, io);
    if (!providers || !gpus || !read_data_flags(o.data, catalog, command, io, c.data_move)) {
        return std::nullopt;
    }
    c.providers.assign(providers->begin(), providers->end());
    c.gpus = *gpus;
    c.regions = split_list(o.regions);
    c.list_rejections = o.explain; // only --explain shows them
    if (o.max_instances > 0) {
        c.max_instances = o.max_instances;
    }
    if (o.pricing == "auto") {
        c.auto_mix = true;
    } else if (!o.pricing.empty()) {
        c.plan = parse_plan(o.pricing);
    }
    c.interruptible = o.interruptible;
    c.currency = global.currency.empty() ? "USD" : global.currency;
    c.sort_by_time = o.sort == "time";
    c.value_per_day = o.value_per_day;
    c.prefer_within = o.prefer_within / 100;
    c.top = static_cast<std::size_t>(o.top);
    if (c.plan == Plan::spot && !o.interruptible) {
        fail(command,
             "usage",
             "--pricing spot: spot instances can be taken back at any time",
             "add --interruptible if the work survives preemption (checkpoints, batch jobs)",
             k_exit_usage,
             io);
        return std::nullopt;
    }
    return c;
}

std::vector<std::string> price_warnings(const PlanResult& result, const Options& o, Io& io) {
    return price_freshness_warnings(prices_shown(result), io.today, o.max_price_age);
}

int run(const RecommendCommandFlags& o, const GlobalOptions& global, Io& io) {
    int exit_code = k_exit_ok;
    auto answer = plan_recommendation(o, global, "recommend", io, exit_code);
    if (!answer) {
        return exit_code;
    }
    const Recommendation& a = answer->answer;
    const PlanResult& result = a.result;
    {
        const TimedStage stage(io.clock, "output");
        const RecommendReport report{
            &a.workload, &a.requirements, &result, &answer->constraints, o.explain};
        if (!o.report_file.empty() && !result.recommendations.empty() &&
            !write_text_file(o.report_file, recommend_report_html(report, io))) {
            return fail("recommend",
                        "io",
                        fmt::format("--report: cannot write {}", o.report_file),
                        "check the folder exists and is writable",
                        k_exit_input,
                        io);
        }
        print_recommendations(report, io);
    }
    return result.recommendations.empty() ? k_exit_negative : k_exit_ok;
}

} // namespace

std::optional<PlannedAnswer> plan_recommendation(
    Options o, const GlobalOptions& global, std::string_view command, Io& io, int& exit_code) {
    if (!o.kind.empty()) {
        o.workload.kind = o.kind;
    }
    exit_code = k_exit_ok;
    const auto workload = read_workload(o.workload, command, io, exit_code);
    if (!workload) {
        return std::nullopt;
    }
    exit_code = k_exit_usage;
    if (!check_currency(global.currency, command, io)) {
        return std::nullopt;
    }
    exit_code = k_exit_input;
    const auto catalog = load_active_catalog(global, command, io);
    if (!catalog) {
        return std::nullopt;
    }
    Diagnostics rule_warnings;
    const auto rules = active_rules(o, *catalog, command, rule_warnings, io);
    if (!rules) {
        return std::nullopt;
    }
    exit_code = k_exit_usage;
    const auto limits = constraints(o, *catalog, global, command, io);
    if (!limits) {
        return std::nullopt;
    }
    if (o.value_per_day && !is_finite_work(workload->kind)) {
        fail(command,
             "usage",
             "--value-per-day: a service has no finishing time to value",
             "use it for training or finetune; rank a service with --sort cost|time",
             k_exit_usage,
             io);
        return std::nullopt;
    }
    exit_code = k_exit_ok;
    // The answer's fired rules and tiers point into the rules: they go with it.
    auto kept = std::make_shared<const std::vector<Rule>>(std::move(*rules));
    const RecommendOptions options{*limits, kept.get(), &io.rates(), io.today};
    Recommendation answer = [&] {
        const TimedStage stage(io.clock, "plan");
        return recommend(*workload, options, *catalog);
    }();
    for (std::string& warning : price_warnings(answer.result, o, io)) {
        answer.result.warnings.push_back(std::move(warning));
    }
    if (!io.quiet) {
        print_diagnostics(rule_warnings, io);
    }
    return PlannedAnswer{std::move(answer), options.constraints, std::move(kept)};
}

void add_recommend_flags(CLI::App& cmd, RecommendFlags& o, bool listing) {
    add_workload_flags(cmd, o.workload);
    const auto group = "Constraints";
    cmd.add_option("--provider", o.providers, "Only these providers (aws,gcp,...)")->group(group);
    cmd.add_option("--region", o.regions, "Only these regions")->group(group);
    cmd.add_option("--gpu", o.gpus, "Only these GPUs (A100,H100: every variant)")->group(group);
    cmd.add_option("--max-instances", o.max_instances, "At most this many instances (64)")
        ->check(whole_range(1, 4096))
        ->group(group);
    const auto plans = choices(k_plan_names, {"auto"});
    cmd.add_option("--pricing", o.pricing, "One plan, or auto: the cheapest mix per offer")
        ->check(one_of(plans))
        ->type_name(choices_type(plans))
        ->group(group);
    cmd.add_flag("--interruptible",
                 o.interruptible,
                 "The work survives preemption (checkpoints), so spot is allowed")
        ->group(group);
    cmd.add_option("--rules", o.rule_files, "A rule file or folder, added to the built-in rules")
        ->group(group);
    cmd.add_flag("--no-default-rules",
                 o.no_default_rules,
                 "Leave out the source documents' matrix (data/rules)")
        ->group(group);
    add_data_flags(cmd, o.data);
    if (listing) {
        cmd.add_option("--top", o.top, "Show this many (default 5)")
            ->check(whole_range(1, 1000))
            ->group("Output");
    }
    cmd.add_option("--sort", o.sort, "Rank by total cost (default) or by time (or latency)")
        ->check(one_of({"cost", "time"}))
        ->type_name("cost|time")
        ->group("Output");
    cmd.add_option("--value-per-day",
                   o.value_per_day,
                   "Training, finetune: what finishing a day sooner is worth (output currency); "
                   "rank by total + this x days")
        ->check(finite_range(0, 1e12))
        ->type_name("N")
        ->group("Output");
    cmd.add_option("--prefer-within",
                   o.prefer_within,
                   "A prefer rule lifts a row only within this % of the best row (default 10)")
        ->check(finite_range(0, 1000))
        ->type_name("PCT")
        ->group("Output");
    cmd.add_option("--max-price-age",
                   o.max_price_age,
                   "Warn when a price shown is older than this many days (default 365)")
        ->check(whole_range(0, 36500))
        ->type_name("DAYS")
        ->group("Output");
    if (listing) {
        cmd.add_flag("--explain",
                     o.explain,
                     "Add the fired rules, the assumptions and every rejected candidate")
            ->group("Output");
    }
}

void register_recommend(CLI::App& app, Registry registry) {
    auto o = std::make_shared<RecommendCommandFlags>();
    CLI::App* cmd =
        app.add_subcommand("recommend", "Ranked, priced, explained configurations for a workload");
    const auto kinds = choices(k_workload_kind_names);
    cmd->add_option("kind", o->kind, "The workload kind (same as --workload)")
        ->check(one_of(kinds))
        ->type_name(choices_type(kinds));
    add_recommend_flags(*cmd, *o, true);
    cmd->add_option("--report",
                    o->report_file,
                    "Also write the HTML page (-o html: chart, table, notes) to this file")
        ->type_name("FILE.html")
        ->group("Output");
    cmd->footer(
        "Examples:\n"
        "  gpuadvisor recommend training --model llama-2-7b --tokens 1T --deadline 30d\n"
        "  gpuadvisor recommend inference --model bert-base --qps 2000 --latency-ms 50\n"
        "  gpuadvisor recommend hpc --fp64-tflops 40 --memory-gb 200 --provider aws,azure\n"
        "  gpuadvisor recommend inference --model llama-2-70b --qps 5 --ttft-ms 2000 "
        "--tpot-ms 60\n"
        "  gpuadvisor recommend graphics --sessions 40 --memory-per-session-gb 6\n"
        "  gpuadvisor recommend training --params 70B --tokens 2T --interruptible "
        "--pricing auto --explain\n"
        "  gpuadvisor recommend training --model llama-2-7b --tokens 1T --value-per-day "
        "5000\n"
        "  gpuadvisor recommend training --model llama-2-7b --tokens 1T --dataset-tb 10 "
        "--data-region aws:us-east-1\n"
        "  gpuadvisor recommend training --model llama-2-7b --tokens 1T --deadline 30d "
        "--report report.html\n"
        "  gpuadvisor -o svg recommend hpc --fp64-tflops 40 --memory-gb 200 > chart.svg\n"
        "-o html writes a page with the cost-time (or cost-latency) chart, -o svg the chart "
        "alone.\n"
        "Exit 1 when no configuration fits; the message says which constraint bound.");
    registry.runners.push_back({cmd, [o, &global = registry.global](Io& io) {
                                    return run(*o, global, io);
                                }});
}

} // namespace gpuadvisor::cli
