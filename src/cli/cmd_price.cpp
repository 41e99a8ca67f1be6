// gpuadvisor price INSTANCE [--region R] [--instances N] [--hours H | --months M]
//                           [--pricing P | --mix M] [--utilization U] [--baseline B]
#include "app.hpp"
#include "catalog_options.hpp"
#include "data_options.hpp"
#include "exit_status.hpp"
#include "gpuadvisor/fx.hpp"
#include "gpuadvisor/pricing.hpp"
#include "gpuadvisor/spelling.hpp"
#include "output.hpp"
#include "render_price.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>

namespace gpuadvisor::cli {

namespace {

struct Options {
    std::string instance;
    std::string provider;
    std::string region;
    double count = 1;
    double hours = 0;
    double months = 0;
    double utilization = 1;
    double baseline = 0;
    std::optional<double> idle_stretches_per_day;
    std::string plan = "on-demand";
    std::string mix;
    bool estimate_missing = false;
    double interruptible_share = 0;
    std::optional<double> interruptions_per_hour;
    std::optional<double> checkpoint_hours;
    std::optional<double> restart_hours;
    int max_price_age = 365;
    DataFlags data;
};

// Spot overhead from the flags, else the defaults in data/pricing.yaml.
SpotModel spot_model(const Options& o) {
    SpotModel spot = builtin_pricing().spot_defaults;
    spot.interruptions_per_hour = o.interruptions_per_hour.value_or(spot.interruptions_per_hour);
    spot.checkpoint_interval_hours = o.checkpoint_hours.value_or(spot.checkpoint_interval_hours);
    spot.restart_hours = o.restart_hours.value_or(spot.restart_hours);
    return spot;
}

// The mix asked for; empty for --mix auto.
std::optional<std::vector<PlanShare>> read_mix(const Options& o, Io& io) {
    if (o.mix == "auto") {
        return std::vector<PlanShare>{};
    }
    if (!o.mix.empty()) {
        MixParse mix = parse_mix(o.mix);
        if (!mix.error.empty()) {
            fail("price",
                 "usage",
                 "--mix: " + mix.error,
                 "e.g. --mix reserved-1y=0.5,on-demand=0.2,spot=0.3",
                 k_exit_usage,
                 io);
            return std::nullopt;
        }
        return mix.shares;
    }
    return std::vector<PlanShare>{{*parse_plan(o.plan), 1}};
}

// --dataset-tb: the data's parts in the chosen region, in the quote's currency.
bool price_data(PriceReport& report,
                const DataMoveRequest& request,
                const TransferData& transfer,
                Io& io) {
    const Quote& quote = *report.chosen->result.quote;
    std::string error;
    report.data_request = request;
    report.data = data_move_for(request,
                                transfer,
                                *report.instance,
                                report.chosen->row->region,
                                static_cast<int>(std::ceil(report.usage.instances)),
                                report.usage.running_hours(),
                                quote.currency,
                                io.rates(),
                                error);
    if (!report.data) {
        fail("price", "no-price", "data: " + error, std::string(k_data_hint), k_exit_negative, io);
    }
    return report.data != nullptr;
}

int run(const Options& o, const GlobalOptions& global, Io& io) {
    const std::string& currency = global.currency;
    if (!check_currency(currency, "price", io)) {
        return k_exit_usage;
    }
    const auto catalog = load_active_catalog(global, "price", io);
    if (!catalog) {
        return k_exit_input;
    }
    const InstanceType* instance =
        resolve_instance(*catalog, o.instance, o.provider, "instance", "price", io);
    const auto mix = instance != nullptr ? read_mix(o, io) : std::nullopt;
    std::optional<DataMoveRequest> data;
    if (instance == nullptr || !mix || !read_data_flags(o.data, *catalog, "price", io, data)) {
        return k_exit_usage;
    }
    if (o.baseline > o.count) {
        return fail("price",
                    "usage",
                    fmt::format("--baseline: {} instances always on is more than --instances {}",
                                format_number(o.baseline),
                                format_number(o.count)),
                    "--instances is the peak: the baseline plus the bursts",
                    k_exit_usage,
                    io);
    }
    Usage usage;
    usage.instances = o.count;
    usage.period_hours =
        o.months > 0 ? o.months * k_hours_per_month : (o.hours > 0 ? o.hours : k_hours_per_month);
    usage.utilization = o.utilization;
    usage.baseline = o.baseline;
    if (usage.used_instance_hours() < 0.001) { // else billed at the resolution: see pricing.md
        return fail("price",
                    "usage",
                    fmt::format("the usage is {:.3g} instance-hours, under the 0.001 "
                                "instance-hours costs are counted in",
                                usage.used_instance_hours()),
                    "raise --hours, --utilization or --instances",
                    k_exit_usage,
                    io);
    }
    const SpotModel spot = spot_model(o);
    const bool auto_mix = mix->empty();
    const bool uses_spot = auto_mix ? o.interruptible_share > 0
                                    : std::any_of(mix->begin(), mix->end(), [](const PlanShare& p) {
                                          return p.plan == Plan::spot;
                                      });
    if (uses_spot && spot.overhead(o.count) >= 1) {
        return fail("price",
                    "usage",
                    fmt::format("the spot overhead is {:.0f}%{}: the work would take more than "
                                "twice as long as it runs",
                                spot.overhead(o.count) * 100,
                                o.count > 1 ? fmt::format(" for one job on {} instances",
                                                          format_number(o.count))
                                            : std::string()),
                    "check --interruptions-per-hour, --checkpoint-hours and --restart-hours",
                    k_exit_usage,
                    io);
    }
    if (!currency.empty()) {
        for (const PriceRow& row : instance->regions) {
            if (!io.rates().convert(1, row.currency, currency)) {
                return fail(
                    "price",
                    "usage",
                    fmt::format("--currency: no rate from {} to {}", row.currency, currency),
                    "rates: 'gpuadvisor catalog list currencies'",
                    k_exit_usage,
                    io);
            }
        }
    }
    const PricingContext context{
        spot, builtin_pricing().rules, o.estimate_missing, catalog->discounts(), io.today};
    PriceReport report;
    report.instance = instance;
    report.usage = usage;
    report.mix = *mix;
    report.spot = spot;
    report.auto_release = builtin_pricing().auto_release;
    report.auto_release.idle_stretches_per_day =
        o.idle_stretches_per_day.value_or(report.auto_release.idle_stretches_per_day);
    report.currency = currency;
    report.auto_mix = auto_mix;
    report.interruptible_share = o.interruptible_share;
    for (const PriceRow& row : instance->regions) {
        const Offer offer{instance, &row};
        QuoteResult quote = auto_mix ? cheapest_mix(offer, usage, o.interruptible_share, context)
                                     : price_offer(offer, usage, *mix, context);
        QuoteResult baseline; // all on-demand, for the saving an automatic mix makes
        if (auto_mix) {
            const std::vector<PlanShare> on_demand{{Plan::on_demand, 1}};
            baseline = price_offer(offer, usage, on_demand, {spot, {}, false, context.discounts});
        }
        report.regions.push_back({&row, std::move(quote), std::move(baseline)});
    }
    sort_regions(report, io.rates()); // by the prices as listed, converted to USD
    if (!currency.empty()) { // then every figure shown in --currency, or the region says why not
        for (RegionQuote& region : report.regions) {
            for (QuoteResult* result : {&region.result, &region.all_on_demand}) {
                if (result->quote) {
                    *result = convert_quote(*result->quote, io.rates(), currency);
                }
            }
        }
    }
    if (!o.region.empty()) {
        const auto chosen =
            std::find_if(report.regions.begin(), report.regions.end(), [&](const RegionQuote& r) {
                return r.row->region == o.region;
            });
        if (chosen == report.regions.end()) {
            std::vector<std::string> regions;
            for (const PriceRow& row : instance->regions) {
                regions.push_back(row.region);
            }
            return fail("price",
                        "unknown-region",
                        fmt::format("--region: {} is not priced in '{}'", instance->id, o.region),
                        fmt::format("priced in: {}", fmt::join(regions, ", ")),
                        k_exit_usage,
                        io);
        }
        report.chosen = &*chosen;
    } else {
        report.chosen = first_priced(report);
    }
    if (report.chosen == nullptr || !report.chosen->result.quote) {
        // (first_priced gives the first region when none is priced: null only without regions)
        const QuoteResult* failed = report.chosen != nullptr ? &report.chosen->result : nullptr;
        if (failed != nullptr && failed->too_large) {
            return fail(
                "price",
                "usage",
                fmt::format(
                    "{} in {}: {}", instance->id, report.chosen->row->region, failed->error),
                currency.empty() ? "lower --instances, --hours or --months"
                                 : "lower --instances, --hours or --months, or choose "
                                   "another --currency",
                k_exit_usage,
                io);
        }
        const std::string why = failed != nullptr
                                    ? failed->error
                                    : fmt::format("{} has no price in the catalog", instance->id);
        return fail("price",
                    "no-price",
                    why,
                    o.estimate_missing ? "try another --pricing or --region"
                                       : "try another --pricing or --region, or --estimate-missing "
                                         "to estimate it from a documented discount",
                    k_exit_negative,
                    io);
    }
    if (data && !price_data(report, *data, catalog->transfer(), io)) {
        return k_exit_negative;
    }
    report.warnings =
        price_freshness_warnings({&report.chosen->row->provenance}, io.today, o.max_price_age);
    print_price(report, io.rates(), io);
    return k_exit_ok;
}

} // namespace

void register_price(CLI::App& app, Registry registry) {
    auto o = std::make_shared<Options>();
    CLI::App* price = app.add_subcommand(
        "price", "The cost of an instance type under a plan or a mix, with break-even");
    price->add_option("instance", o->instance, "An instance type id")->required();
    price->add_option("--provider", o->provider, "The provider, if several use the name");
    price->add_option("--region", o->region, "Price here (default: the cheapest region)");
    auto* instances = price->add_option("--instances", o->count, "Instances (default 1)")
                          ->check(whole_range(1, 1e6));
    add_old_spelling(*price, instances, "--count", o->count)->check(whole_range(1, 1e6));
    auto* hours = price->add_option("--hours", o->hours, "Hours the usage spans (default 730)")
                      ->check(finite_range(0.001, 1e6));
    auto* months = price->add_option("--months", o->months, "Months the usage spans (730 h each)")
                       ->check(finite_range(0.001, 1200));
    hours->excludes(months);
    price
        ->add_option("--utilization",
                     o->utilization,
                     "Share of the span the instances run, 0-1 (default 1); with --baseline, "
                     "the bursts' share")
        ->check(finite_range(0.0001, 1));
    price
        ->add_option("--baseline",
                     o->baseline,
                     "How many of --instances run the whole span; the rest burst at "
                     "--utilization (default 0)")
        ->check(whole_range(0, 1e6));
    price
        ->add_option("--idle-stretches-per-day",
                     o->idle_stretches_per_day,
                     "Idle stretches a day per instance, for the auto-release what-if "
                     "(default: a built-in planning figure, named in the output)")
        ->check(finite_range(0, 1440));
    const auto plans = choices(k_plan_names);
    auto* plan =
        price->add_option("--pricing", o->plan, "One plan for all of it (default on-demand)")
            ->check(one_of(plans))
            ->type_name(choices_type(plans));
    add_old_spelling(*price, plan, "--plan", o->plan)->check(one_of(plans));
    auto* mix = price
                    ->add_option("--mix",
                                 o->mix,
                                 "Shares of the instance-hours per plan: "
                                 "reserved-1y=0.5,on-demand=0.2,spot=0.3; or auto, the cheapest")
                    ->type_name("PLAN=SHARE,...|auto");
    price
        ->add_option("--interruptible-share",
                     o->interruptible_share,
                     "With --mix auto: the share of the work that may run on spot (default 0)")
        ->check(finite_range(0, 1));
    plan->excludes(mix);
    price->add_flag("--estimate-missing",
                    o->estimate_missing,
                    "Estimate a plan a region lacks from a documented discount (marked)");
    price
        ->add_option(
            "--interruptions-per-hour",
            o->interruptions_per_hour,
            "Spot interruptions per instance-hour (default: the offer's interruption band, "
            "else a built-in planning figure)")
        ->check(finite_range(0, 10));
    price
        ->add_option("--checkpoint-hours",
                     o->checkpoint_hours,
                     "Hours between checkpoints, for the spot overhead")
        ->check(finite_range(0, 1000));
    price->add_option("--restart-hours", o->restart_hours, "Hours to restart after an interruption")
        ->check(finite_range(0, 1000));
    price
        ->add_option("--max-price-age",
                     o->max_price_age,
                     "Warn when the price is older than this many days (default 365)")
        ->check(whole_range(0, 36500))
        ->type_name("DAYS");
    add_data_flags(*price, o->data);
    price->footer(
        "Examples:\n"
        "  gpuadvisor price p4d.24xlarge --region us-east-1 --instances 2 --months 12 --pricing "
        "reserved-1y\n"
        "  gpuadvisor price p4d.24xlarge --mix reserved-1y=0.6,spot=0.4 --months 12\n"
        "  gpuadvisor price p4d.24xlarge --mix auto --interruptible-share 0.3 --months 36\n"
        "  gpuadvisor price p4d.24xlarge --mix auto --instances 6 --baseline 2 --utilization 0.25 "
        "--months 12\n"
        "  gpuadvisor price ecs.gn6i-c4g1.xlarge --months 3 --pricing subscription --currency USD\n"
        "  gpuadvisor price p4d.24xlarge --hours 200 --dataset-tb 10 --data-region "
        "aws:us-east-1\n"
        "On-demand and spot are billed while running; reserved and subscription for whole\n"
        "terms. Exit 1 when the plan has no price there.");
    registry.runners.push_back({price, [o, &global = registry.global](Io& io) {
                                    return run(*o, global, io);
                                }});
}

} // namespace gpuadvisor::cli
