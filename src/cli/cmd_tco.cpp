// gpuadvisor tco --instance ID [--instances N] [--utilization U] [--years Y] [--pricing P | --mix
// M]
#include "app.hpp"
#include "catalog_listing.hpp"
#include "catalog_options.hpp"
#include "data_table.hpp"
#include "exit_status.hpp"
#include "gpuadvisor/discounts.hpp"
#include "gpuadvisor/fx.hpp"
#include "gpuadvisor/spelling.hpp"
#include "gpuadvisor/tco.hpp"
#include "output.hpp"
#include "render_table.hpp"
#include "text.hpp"

#include <fmt/format.h>

#include <memory>
#include <ostream>

namespace gpuadvisor::cli {

namespace {

struct Options {
    std::string instance;
    std::string provider;
    std::string region;
    double count = 1;
    double utilization = 1;
    double years = 3;
    std::string plan = "on-demand";
    std::string mix;
    std::string server;
    std::string electricity;
};

Json line_json(std::string_view item,
               const std::string& currency,
               std::int64_t micros,
               std::string_view basis) {
    return {{"item", item}, {"cost", total_json(currency, micros)}, {"basis", basis}};
}

// The cloud's line: its plan, and what it rents.
std::string cloud_item(const Options& o) {
    return fmt::format("cloud ({})", o.mix.empty() ? o.plan : o.mix);
}
std::string cloud_basis(const TcoInput& in, const Options& o) {
    return fmt::format("{} x {} in {}, {}% utilisation",
                       format_number(o.count),
                       in.offer->instance->id,
                       in.offer->prices->region,
                       format_number(o.utilization * 100));
}

// CSV, Markdown: the table's lines as data (the owning lines as the JSON's "own", then the own
// total and the cloud's); the rest is the JSON's.
void print_data(const TcoResult& r, const TcoInput& in, const Options& o, Io& io) {
    Json lines = Json::array();
    for (const TcoLine& line : r.own) {
        lines.push_back(line_json(line.item, r.currency, line.micros, line.basis));
    }
    lines.push_back(line_json("own total", r.currency, r.own_total, ""));
    lines.push_back(line_json(cloud_item(o), r.currency, r.cloud_total, cloud_basis(in, o)));
    const std::vector<DataColumn> columns{{"item", "/item"},
                                          {"currency", "/cost/currency"},
                                          {"cost", "/cost/total", Align::right},
                                          {"basis", "/basis"}};
    render_table(data_table(columns, lines), io);
}

void print(const TcoResult& r, const TcoInput& in, const Options& o, Io& io) {
    const double own = static_cast<double>(r.own_total);
    const double cloud = static_cast<double>(r.cloud_total);
    // The currencies the figures are listed in: the cloud's, the server's and the power's.
    const std::vector<std::string> listed{
        in.offer->prices->currency.str(), r.server->currency, in.electricity->currency};
    if (io.format == OutputFormat::json) {
        Json document = json_document("tco");
        document["instance"] = in.offer->instance->id;
        document["region"] = in.offer->prices->region;
        document["usage"] = {
            {"instances", count_json(o.count)}, {"utilization", o.utilization}, {"years", o.years}};
        document["server"] = {{"id", r.server->id},
                              {"count", r.servers},
                              {"source", r.server->provenance.source},
                              {"confidence", to_string(r.server->provenance.confidence)}};
        document["own"] = Json::array();
        for (const TcoLine& line : r.own) {
            document["own"].push_back(line_json(line.item, r.currency, line.micros, line.basis));
        }
        document["own_total"] = total_json(r.currency, r.own_total);
        document["cash_outlay"] = total_json(r.currency, r.cash_outlay);
        document["cloud_total"] = total_json(r.currency, r.cloud_total);
        document["cloud_list_total"] = total_json(r.currency, r.cloud_list_total);
        document["discounts"] = Json::array();
        for (const Discount* discount : r.discounts) {
            document["discounts"].push_back({{"id", discount->id},
                                             {"percent", discount_percent(*discount)},
                                             {"source", discount->provenance.source}});
        }
        document["cloud_saving"] =
            cloud > 0 ? Json(std::round((1 - cloud / own) * 1000) / 1000) : Json(nullptr);
        document["break_even_utilization"] =
            r.break_even_utilization ? Json(std::round(*r.break_even_utilization * 1000) / 1000)
                                     : Json(nullptr);
        document["payback_months"] =
            r.payback_months ? Json(std::round(*r.payback_months * 10) / 10) : Json(nullptr);
        document["conversions"] = conversions_json(io.rates(), listed, r.currency);
        write_json(document, io);
        return;
    }
    if (io.format != OutputFormat::table) {
        print_data(r, in, o, io);
        return;
    }
    Table table{{{"OWN"}, {"COST", Align::right}, {"BASIS", Align::left, true}}, {}};
    for (const TcoLine& line : r.own) {
        table.rows.push_back({line.item, format_cents(line.micros), line.basis});
    }
    table.rows.push_back({"own total", format_cents(r.own_total), ""});
    table.rows.push_back({cloud_item(o), format_cents(r.cloud_total), cloud_basis(in, o)});
    io.out << fmt::format("{} years, in {}: owning {} x {} vs renting\n\n",
                          format_number(o.years),
                          r.currency,
                          r.servers,
                          terminal_safe(r.server->name));
    render_table(table, io);
    io.out << '\n';
    write_paragraph(fmt::format("Cloud is {:.0f}% {} than owning over {} years (cash up front "
                                "for owning: {} {}).",
                                std::abs(1 - cloud / own) * 100,
                                cloud < own ? "cheaper" : "dearer",
                                format_number(o.years),
                                format_cents(r.cash_outlay),
                                r.currency),
                    io);
    if (!r.break_even_utilization) {
        io.out << "Break-even utilisation: n/a (the plan bills whole terms).\n";
    } else if (*r.break_even_utilization > 1) {
        io.out << "Owning does not pay off at any utilisation against this plan.\n";
    } else {
        io.out << fmt::format("Owning pays off above {:.0f}% utilisation.\n",
                              *r.break_even_utilization * 100);
    }
    io.out << (r.payback_months ? fmt::format("The purchase pays back in {:.1f} months of these "
                                              "cloud bills.\n",
                                              *r.payback_months)
                                : std::string("The purchase never pays back at this usage.\n"));
    for (const Discount* discount : r.discounts) {
        write_paragraph("Cloud discount " + terminal_safe(describe_discount(*discount)), io);
    }
    if (!r.discounts.empty()) {
        io.out << fmt::format(
            "Cloud at list price: {} {}.\n", format_cents(r.cloud_list_total), r.currency);
    }
    write_paragraph(fmt::format("Server {} priced at {} {} as of {} ({} confidence); its "
                                "source: 'gpuadvisor catalog list servers'.",
                                terminal_safe(r.server->id),
                                format_cents(r.server->price_micros),
                                r.server->currency,
                                format_date(r.server->provenance.as_of),
                                to_string(r.server->provenance.confidence)),
                    io);
    print_notes({conversion_lines(io.rates(), listed, r.currency), {}}, io);
}

int run(const Options& o, const GlobalOptions& global, Io& io) {
    const auto catalog = load_active_catalog(global, "tco", io);
    if (!catalog) {
        return k_exit_input;
    }
    const InstanceType* found =
        resolve_instance(*catalog, o.instance, o.provider, "--instance", "tco", io);
    if (found == nullptr) {
        return k_exit_usage;
    }
    const InstanceType& instance = *found;
    std::vector<PlanShare> mix{{*parse_plan(o.plan), 1}};
    if (!o.mix.empty()) {
        const MixParse parsed = parse_mix(o.mix);
        if (!parsed.error.empty()) {
            return fail("tco", "usage", "--mix: " + parsed.error, "", k_exit_usage, io);
        }
        mix = parsed.shares;
    }
    if (!check_currency(global.currency, "tco", io)) {
        return k_exit_usage;
    }
    // The region (or --region) where the plan is sold and costs least, compared in USD.
    const Usage usage{o.count, o.years * k_hours_per_year, o.utilization};
    const PricingContext context{
        builtin_pricing().spot_defaults, {}, false, catalog->discounts(), io.today};
    const PriceRow* row = nullptr;
    std::int64_t best_usd = 0;
    std::string why =
        fmt::format("{} has no price{}", instance.id, o.region.empty() ? "" : " in " + o.region);
    for (const PriceRow& candidate : instance.regions) {
        if (!o.region.empty() && candidate.region != o.region) {
            continue;
        }
        const QuoteResult quote = price_offer({&instance, &candidate}, usage, mix, context);
        const auto usd =
            quote.quote
                ? io.rates().convert(quote.quote->total_micros, quote.quote->currency, "USD")
                : std::nullopt;
        if (!usd) { // not sold there, or no rate to USD to compare it by
            why = !quote.quote
                      ? (quote.error.empty() ? why : quote.error)
                      : io.rates().conversion_error(
                            "the total", quote.quote->total_micros, quote.quote->currency, "USD");
            continue;
        }
        if (row == nullptr || *usd < best_usd) {
            row = &candidate;
            best_usd = *usd;
        }
    }
    if (row == nullptr) {
        return fail(
            "tco", "no-price", why, "try another --pricing or --region", k_exit_negative, io);
    }
    const TcoData& data = builtin_tco();
    const Server* server = nullptr;
    for (const Server& candidate : data.servers) {
        server = candidate.id == o.server ? &candidate : server;
    }
    const std::string market = !o.electricity.empty() ? o.electricity
                               : catalog->country_of(instance.provider, row->region) == "CN"
                                   ? "cn-industrial"
                                   : "us-commercial";
    const Electricity* electricity = nullptr;
    for (const Electricity& candidate : data.electricity) {
        electricity = candidate.market == market ? &candidate : electricity;
    }
    if (!o.server.empty() && server == nullptr) {
        return fail("tco",
                    "usage",
                    fmt::format("--server: no server '{}'", o.server),
                    "servers: 'gpuadvisor catalog list servers'",
                    k_exit_usage,
                    io);
    }
    if (electricity == nullptr) {
        std::vector<std::string> markets;
        for (const Electricity& candidate : data.electricity) {
            markets.push_back(candidate.market);
        }
        return fail("tco",
                    "usage",
                    fmt::format("--electricity: no market '{}'", market),
                    fmt::format("markets: {}", fmt::join(markets, ", ")),
                    k_exit_usage,
                    io);
    }
    const Offer offer{&instance, row};
    const TcoInput input{&offer,
                         usage,
                         mix,
                         context,
                         server,
                         electricity,
                         global.currency.empty() ? row->currency.str() : global.currency};
    const TcoResult result = compare_tco(input, data, io.rates());
    if (!result.error.empty()) {
        return fail("tco",
                    result.too_large ? "usage" : "no-price",
                    result.error,
                    result.too_large ? "lower --instances or --years, or choose another --currency"
                                     : "",
                    result.too_large ? k_exit_usage : k_exit_negative,
                    io);
    }
    print(result, input, o, io);
    return k_exit_ok;
}

} // namespace

void register_tco(CLI::App& app, Registry registry) {
    auto o = std::make_shared<Options>();
    CLI::App* tco = app.add_subcommand("tco", "Owning the hardware vs renting it over N years");
    tco->add_option("--instance", o->instance, "The instance type rented")->required();
    tco->add_option("--provider", o->provider, "Its provider, if ambiguous");
    tco->add_option("--region", o->region, "Its region (default: the cheapest on-demand one)");
    auto* instances = tco->add_option("--instances", o->count, "Instances (default 1)")
                          ->check(whole_range(1, 1e5));
    add_old_spelling(*tco, instances, "--count", o->count)->check(whole_range(1, 1e5));
    tco->add_option("--utilization", o->utilization, "Share of the time in use, 0-1 (default 1)")
        ->check(finite_range(0.0001, 1));
    tco->add_option("--years", o->years, "Years compared (default 3)")
        ->check(finite_range(0.1, 20));
    const auto plans = choices(k_plan_names);
    auto* plan = tco->add_option("--pricing", o->plan, "The cloud plan (default on-demand)")
                     ->check(one_of(plans))
                     ->type_name(choices_type(plans));
    add_old_spelling(*tco, plan, "--plan", o->plan)->check(one_of(plans));
    auto* mix = tco->add_option("--mix", o->mix, "Or a mix: reserved-3y=0.6,on-demand=0.4");
    plan->excludes(mix);
    tco->add_option("--server", o->server, "The server bought (default: one with the same GPU)");
    tco->add_option("--electricity",
                    o->electricity,
                    "Power market (default: cn-industrial in China, else us-commercial)");
    tco->footer("Examples:\n  gpuadvisor tco --instance p5.48xlarge --utilization 0.6 --years 3\n"
                "  gpuadvisor tco --instance p4d.24xlarge --pricing reserved-3y --instances 4\n"
                "Owning: servers and network (depreciated), power x PUE, colocation space,\n"
                "operations and maintenance; renting: the plan for the same usage.\n"
                "The servers, their prices and sources: 'gpuadvisor catalog list servers'.");
    registry.runners.push_back({tco, [o, &global = registry.global](Io& io) {
                                    return run(*o, global, io);
                                }});
}

} // namespace gpuadvisor::cli
