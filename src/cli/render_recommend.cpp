#include "render_recommend.hpp"

#include "data_table.hpp"
#include "gpuadvisor/discounts.hpp"
#include "output.hpp"
#include "render_chart_svg.hpp"
#include "render_data.hpp"
#include "render_report_html.hpp"
#include "render_size.hpp"
#include "render_table.hpp"
#include "text.hpp"

#include <fmt/format.h>

#include <cmath>
#include <map>
#include <ostream>

namespace gpuadvisor::cli {

namespace {

double round3(double value) {
    return std::round(value * 1000) / 1000;
}

// LLM serving: priced per token as well as per hour.
bool serves_tokens(const NormalizedWorkload& w) {
    return w.kind == WorkloadKind::inference && w.model.generates_tokens();
}

// At the target load: an hour's cost over the tokens (output only, or input and output) the
// QPS asks for in that hour; none without an hourly rate.
std::optional<std::int64_t>
per_million_tokens(const Candidate& c, const NormalizedWorkload& w, bool output_only) {
    if (!c.per_hour_micros) {
        return std::nullopt;
    }
    const double tokens =
        w.qps * (output_only ? w.output_tokens : w.input_tokens + w.output_tokens) * 3600;
    const double micros = static_cast<double>(*c.per_hour_micros) * 1e6 / tokens;
    if (!(micros < 9e18)) { // a load so light that no int64 of micro-units holds the figure
        return std::nullopt;
    }
    return std::llround(micros);
}

Json estimate_json(const Candidate& c, const NormalizedWorkload& w) {
    const Estimate& e = *c.estimate;
    Json json;
    if (c.hours) {
        json["hours"] = round3(*c.hours);
        json["gpu_hours"] = round3(*c.hours * c.total_gpus);
    }
    if (w.kind == WorkloadKind::inference) {
        json["throughput"] = {{"output_tokens_per_s", round3(e.tokens_per_s * e.replicas)},
                              {"qps", round3(e.qps_per_replica * e.replicas)}};
        json["latency_ms"] = round3(e.latency_ms);
        if (w.model.generates_tokens()) {
            json["ttft_ms"] = round3(e.prefill_ms);
            json["tpot_ms"] = round3(e.tpot_ms);
        }
        json["replicas"] = e.replicas;
        json["qps_per_replica"] = round3(e.qps_per_replica);
    }
    json["memory_per_gpu_gb"] = round3(e.memory_per_gpu_gb);
    json["scaling_efficiency"] = round3(e.scaling_efficiency);
    json["fits"] = e.fits;
    return json;
}

Json recommendation_json(const Candidate& c, const RecommendReport& report) {
    const std::string& currency = report.constraints->currency;
    Json parts = Json::array();
    for (const PricedPart& part : c.quote.parts) {
        parts.push_back(
            {{"tier", part.tier.empty() ? Json(nullptr) : Json(part.tier)},
             {"plan", plan_flag_name(part.plan)},
             {"share", part.share},
             {"discount", part.rate.discount ? Json(part.rate.discount->id) : Json(nullptr)}});
    }
    Json also = Json::array();
    for (const auto& [region, micros] : c.also_in) {
        also.push_back({{"region", region}, {"cost", total_json(currency, micros)}});
    }
    // The rate per hour keeps every digit; the total is to the cent, as the table's TOTAL.
    Json cost = money_json(
        currency,
        {{"per_hour", rate_amount(c.per_hour_micros)}, {"total", billed_amount(c.total_micros)}});
    const NormalizedWorkload& w = *report.workload;
    if (serves_tokens(w)) {
        cost["per_million_output_tokens"] = rate_amount(per_million_tokens(c, w, true));
        cost["per_million_tokens"] = rate_amount(per_million_tokens(c, w, false));
    }
    return {{"rank", c.rank},
            {"provider", c.instance->provider},
            {"instance", c.instance->id},
            {"region", c.row->region},
            {"gpu", c.gpu->id},
            {"gpus_per_instance", count_json(c.instance->gpu_count)},
            {"instance_count", count_json(c.count)},
            {"total_gpus", count_json(c.total_gpus)},
            {"pricing", c.pricing},
            {"parts", parts},
            {"cost", cost},
            {"list_cost", total_json(currency, c.list_total_micros)},
            {"period", is_finite_work(w.kind) ? "job" : "month"},
            {"estimate", estimate_json(c, *report.workload)},
            {"pareto", c.pareto},
            {"price_as_of", format_date(c.row->provenance.as_of)},
            {"price_confidence", to_string(c.row->provenance.confidence)},
            {"preferred_by", c.preferred_by},
            {"reasons", c.reasons},
            {"warnings", c.warnings},
            {"also_in", also}};
}

// With --dataset-tb, the row's object gets its data parts.
Json recommendation_with_data(const Candidate& c, const RecommendReport& report) {
    Json json = recommendation_json(c, report);
    if (c.data_move && report.constraints->data_move) {
        json["data"] = data_move_json(
            *c.data_move, *report.constraints->data_move, report.constraints->currency);
    }
    return json;
}

// The currencies the rows shown are priced in (the tiers' rows too), as often as they are.
std::vector<std::string> shown_currencies(const PlanResult& r) {
    std::vector<std::string> currencies;
    for (const Candidate& c : r.recommendations) {
        currencies.push_back(c.row->currency.str());
    }
    for (const PreferredTier& tier : r.tiers) {
        currencies.push_back(tier.best.row->currency.str());
    }
    return currencies;
}

Json document_json(const RecommendReport& report, const FxTable& fx) {
    const PlanResult& r = *report.result;
    Json document = json_document("recommend");
    document["ok"] = !r.recommendations.empty();
    document["currency"] = report.constraints->currency;
    document["conversions"] =
        conversions_json(fx, shown_currencies(r), report.constraints->currency);
    document["workload"] = workload_json(*report.workload);
    document["requirements"] = requirements_json(*report.requirements, report.workload->kind);
    document["rules"] = Json::array();
    for (const FiredRule& fired : r.rules) {
        document["rules"].push_back({{"id", fired.rule->id},
                                     {"effect", to_string(fired.rule->effect)},
                                     {"reason", fired.rule->reason},
                                     {"note", fired.note},
                                     {"source", fired.rule->provenance.source}});
    }
    document["recommendations"] = Json::array();
    for (const Candidate& c : r.recommendations) {
        document["recommendations"].push_back(recommendation_with_data(c, report));
    }
    document["preferred_tiers"] = Json::array();
    for (const PreferredTier& tier : r.tiers) {
        const Candidate& first = r.recommendations.front();
        document["preferred_tiers"].push_back(
            {{"rule", tier.rule->id},
             {"reason", tier.rule->reason},
             {"recommendation", recommendation_with_data(tier.best, report)},
             {"extra_cost",
              total_json(report.constraints->currency,
                         tier.best.total_micros - first.total_micros)}});
    }
    document["feasible"] = r.feasible;
    document["considered"] = r.considered;
    document["warnings"] = r.warnings;
    document["notes"] = r.notes;
    document["no_fit"] = r.no_fit.empty() ? Json(nullptr) : Json(r.no_fit);
    if (report.explain) {
        document["assumptions"] = Json::array();
        for (const UsedAssumption& a : shown_assumptions(report)) {
            document["assumptions"].push_back(
                {{"name", a.name}, {"value", a.value}, {"unit", a.unit}});
        }
        document["rejected"] = Json::array();
        for (const Rejection& x : r.rejected) {
            document["rejected"].push_back(
                {{"provider", x.instance->provider},
                 {"instance", x.instance->id},
                 {"region", x.region.empty() ? Json(nullptr) : Json(x.region)},
                 {"instance_count", count_json(x.count)},
                 {"code", x.code},
                 {"reason", x.reason}});
        }
    }
    return document;
}

std::string time_cell(const Candidate& c, const NormalizedWorkload& w) {
    if (c.hours) {
        return *c.hours >= 48 ? fmt::format("{:.1f} d", *c.hours / 24)
                              : fmt::format("{:.1f} h", *c.hours);
    }
    if (w.kind == WorkloadKind::inference) {
        return format_ms(c.estimate->latency_ms) + " ms";
    }
    return "-";
}

// The price's date; "?" after it when the catalog gives it low confidence.
std::string price_date_cell(const Candidate& c) {
    const Provenance& p = c.row->provenance;
    return format_date(p.as_of) + (p.confidence == Confidence::low ? "?" : "");
}

// A prefer rule #1 does not meet: its best row and what following it costs against #1.
std::string tier_line(const PreferredTier& tier,
                      const Candidate& first,
                      const NormalizedWorkload& w,
                      const std::string& currency) {
    const Candidate& c = tier.best;
    const std::int64_t extra = c.total_micros - first.total_micros;
    std::string cost = extra >= 0 ? fmt::format("{} {} more", format_cents(extra), currency)
                                  : fmt::format("{} {} less", format_cents(-extra), currency);
    if (first.total_micros > 0) {
        cost +=
            fmt::format(" ({:+.0f}%)",
                        static_cast<double>(extra) / static_cast<double>(first.total_micros) * 100);
    }
    const bool has_speed = (c.hours && first.hours) || w.kind == WorkloadKind::inference;
    const std::string speed =
        has_speed ? fmt::format(", {} against {}", time_cell(c, w), time_cell(first, w)) : "";
    return fmt::format("Rule {} ({}) is not met by #1; its best is #{}, {} x {} ({} {}, {}): "
                       "{} than #1{}.",
                       tier.rule->id,
                       tier.rule->reason,
                       c.rank,
                       c.count,
                       c.instance->id,
                       c.instance->provider,
                       c.row->region,
                       c.pricing,
                       cost,
                       speed);
}

std::string why_cell(const Candidate& c) {
    std::vector<std::string> parts;
    if (!c.preferred_by.empty()) {
        parts.push_back(fmt::format("rules: {}", fmt::join(c.preferred_by, ", ")));
    }
    if (!c.estimate->fit_reason.empty()) {
        parts.push_back(c.estimate->fit_reason);
    }
    return fmt::format("{}", fmt::join(parts, "; "));
}

// The speed a workload kind is ranked on besides cost: time, latency, or none.
std::string speed_header(const NormalizedWorkload& w) {
    return is_finite_work(w.kind) ? "TIME" : w.kind == WorkloadKind::inference ? "LATENCY" : "";
}

} // namespace

Table recommend_table(const RecommendReport& report) {
    const PlanResult& r = *report.result;
    const NormalizedWorkload& w = *report.workload;
    const bool finite = is_finite_work(w.kind);
    const std::string speed = speed_header(w);
    Table table{{{"#", Align::right},
                 {"PROVIDER"},
                 {"INSTANCE"},
                 {"REGION"},
                 {"GPUS", Align::right},
                 {"PLAN"},
                 {"PER HOUR", Align::right},
                 {finite ? "TOTAL" : "PER MONTH", Align::right}},
                {}};
    if (!speed.empty()) {
        table.columns.push_back({speed, Align::right});
    }
    const bool tokens = serves_tokens(w);
    if (tokens) {
        table.columns.push_back({"PER 1M OUT", Align::right});
    }
    table.columns.push_back({"PRICED"});
    table.columns.push_back({"WHY", Align::left, true});
    for (const Candidate& c : r.recommendations) {
        std::vector<std::string> row{
            fmt::format("{}{}", c.rank, c.pareto && !speed.empty() ? "*" : ""),
            c.instance->provider,
            fmt::format("{} x {}", terminal_safe(c.instance->id), c.count),
            c.also_in.empty() ? c.row->region.str()
                              : fmt::format("{} (+{})", c.row->region, c.also_in.size()),
            fmt::format("{} {}", format_number(c.total_gpus), c.gpu->id),
            c.pricing,
            c.per_hour_micros ? format_cents(*c.per_hour_micros) : std::string("-"),
            format_cents(c.total_micros)};
        if (!speed.empty()) {
            row.push_back(time_cell(c, w));
        }
        if (tokens) {
            const auto micros = per_million_tokens(c, w, true);
            row.push_back(micros ? format_cents(*micros) : std::string("-"));
        }
        row.push_back(price_date_cell(c));
        row.push_back(terminal_safe(why_cell(c)));
        table.rows.push_back(std::move(row));
    }
    return table;
}

std::string recommend_summary(const RecommendReport& report) {
    const PlanResult& r = *report.result;
    const bool finite = is_finite_work(report.workload->kind);
    const std::string speed = speed_header(*report.workload);
    return fmt::format(
        "{} configuration(s) fit out of {} priced; costs in {}{}.{} PRICED: the price's "
        "date (? = low confidence).",
        r.feasible,
        r.considered,
        report.constraints->currency,
        finite ? " for the whole job" : " per month",
        speed.empty() ? ""
                      : fmt::format(" * = on the cost-{} front.", finite ? "time" : "latency"));
}

namespace {

void print_table(const RecommendReport& report, Io& io) {
    write_paragraph(recommend_summary(report), io);
    io.out << '\n';
    render_table(recommend_table(report), io);
}

// The table's warning lines on stderr, for the forms that have no room for them.
void print_warnings(const RecommendReport& report, Io& io) {
    if (io.quiet) {
        return;
    }
    for (const std::string& warning : report.result->warnings) { // (as the table's notes)
        io.err << "gpuadvisor: warning: " << terminal_safe(warning) << '\n';
    }
    for (const Candidate& c : report.result->recommendations) {
        for (const std::string& warning : c.warnings) {
            io.err << fmt::format("gpuadvisor: warning: #{}: {}\n", c.rank, terminal_safe(warning));
        }
    }
}

// CSV and Markdown: the recommendations' values as the JSON gives them, one a cell.
void print_data(const RecommendReport& report, Io& io) {
    const NormalizedWorkload& w = *report.workload;
    std::vector<DataColumn> columns{{"rank", "/rank", Align::right},
                                    {"provider", "/provider"},
                                    {"instance", "/instance"},
                                    {"instance_count", "/instance_count", Align::right},
                                    {"region", "/region"},
                                    {"gpu", "/gpu"},
                                    {"gpus_per_instance", "/gpus_per_instance", Align::right},
                                    {"total_gpus", "/total_gpus", Align::right},
                                    {"pricing", "/pricing"},
                                    {"currency", "/cost/currency"},
                                    {"per_hour", "/cost/per_hour", Align::right},
                                    {"total", "/cost/total", Align::right},
                                    {"period", "/period"}};
    if (is_finite_work(w.kind)) {
        columns.push_back({"hours", "/estimate/hours", Align::right});
    } else if (w.kind == WorkloadKind::inference) {
        columns.push_back({"latency_ms", "/estimate/latency_ms", Align::right});
    }
    if (serves_tokens(w)) {
        columns.push_back(
            {"per_million_output_tokens", "/cost/per_million_output_tokens", Align::right});
    }
    if (report.constraints->data_move) {
        columns.insert(columns.end(),
                       {{"transfer_hours", "/data/transfer_hours", Align::right},
                        {"egress", "/data/egress/total", Align::right},
                        {"storage", "/data/storage/total", Align::right}});
    }
    columns.insert(columns.end(),
                   {{"pareto", "/pareto"},
                    {"price_as_of", "/price_as_of"},
                    {"price_confidence", "/price_confidence"},
                    {"preferred_by", "/preferred_by"},
                    {"reasons", "/reasons"}});
    Json objects = Json::array();
    for (const Candidate& c : report.result->recommendations) {
        objects.push_back(recommendation_with_data(c, report));
    }
    render_table(data_table(columns, objects), io);
    print_warnings(report, io);
}

} // namespace

void print_explanations(const RecommendReport& report, Io& io) {
    const PlanResult& r = *report.result;
    for (const std::string& rate :
         conversion_lines(io.rates(), shown_currencies(r), report.constraints->currency)) {
        write_paragraph("Converted at " + terminal_safe(rate), io);
    }
    for (const std::string& warning : r.warnings) {
        write_paragraph("Warning: " + terminal_safe(warning), io);
    }
    for (const Candidate& c : r.recommendations) {
        for (const std::string& warning : c.warnings) {
            write_paragraph(fmt::format("Warning (#{}): {}", c.rank, terminal_safe(warning)), io);
        }
    }
    for (const PreferredTier& tier : r.tiers) {
        write_paragraph("Tier: " + terminal_safe(tier_line(tier,
                                                           r.recommendations.front(),
                                                           *report.workload,
                                                           report.constraints->currency)),
                        io);
    }
    for (const std::string& note : r.notes) {
        write_paragraph("Note: " + terminal_safe(note), io);
    }
    for (const Candidate& c : r.recommendations) {
        if (c.list_total_micros != c.total_micros) {
            std::vector<std::string> ids;
            for (const PricedPart& part : c.quote.parts) {
                if (part.rate.discount != nullptr) {
                    ids.push_back(describe_discount(*part.rate.discount));
                }
            }
            write_paragraph(fmt::format("Discount (#{}): {} at list prices, {}",
                                        c.rank,
                                        format_cents(c.list_total_micros),
                                        terminal_safe(fmt::format("{}", fmt::join(ids, "; ")))),
                            io);
        }
    }
    for (const Candidate& c : r.recommendations) {
        if (c.data_move) {
            write_paragraph(terminal_safe(data_move_line(*c.data_move, c.rank)), io);
        }
    }
    if (!report.explain) {
        std::vector<std::string> ids;
        for (const FiredRule& fired : r.rules) {
            ids.push_back(fired.rule->id);
        }
        write_paragraph(fmt::format("Rules fired: {} (--explain for details and the rejected)",
                                    ids.empty() ? "none" : fmt::format("{}", fmt::join(ids, ", "))),
                        io);
        return;
    }
    io.out << (r.warnings.empty() && r.notes.empty() ? "Rules fired:\n" : "\nRules fired:\n");
    for (const FiredRule& fired : r.rules) {
        io.out << fmt::format("  {} ({}): {}; {}\n",
                              terminal_safe(fired.rule->id),
                              to_string(fired.rule->effect),
                              terminal_safe(fired.rule->reason),
                              terminal_safe(fired.note));
    }
    std::vector<std::string> factors;
    for (const UsedAssumption& a : shown_assumptions(report)) {
        factors.push_back(fmt::format("{} = {}", a.name, format_number(a.value)));
    }
    io.out << fmt::format("\nAssumptions (built in): {}\n", fmt::join(factors, ", "));
    std::map<std::pair<std::string, std::string>, std::vector<std::string>> groups;
    for (const Rejection& x : r.rejected) {
        groups[{x.code, x.reason}].push_back(
            fmt::format("{}{}{}",
                        x.instance->id,
                        x.count > 0 ? fmt::format(" x {}", x.count) : std::string(),
                        x.region.empty() ? "" : " " + x.region));
    }
    if (r.rejected.empty()) {
        io.out << "\nRejected: none.\n";
        return;
    }
    io.out << fmt::format("\nRejected ({} configurations), by reason:\n", r.rejected.size());
    for (const auto& [key, who] : groups) {
        io.out << fmt::format(
            "  [{}] {} ({}): {}{}\n",
            key.first,
            terminal_safe(key.second),
            who.size(),
            terminal_safe(fmt::format(
                "{}",
                fmt::join(who.begin(),
                          who.begin() +
                              std::min<std::ptrdiff_t>(3, static_cast<std::ptrdiff_t>(who.size())),
                          ", "))),
            who.size() > 3 ? ", ..." : "");
    }
}

void print_recommendations(const RecommendReport& report, Io& io) {
    const PlanResult& r = *report.result;
    if (io.format == OutputFormat::json) {
        Json document = document_json(report, io.rates());
        if (!r.no_fit.empty()) {
            Diagnostics diagnostics;
            diagnostics.error({"gpuadvisor", 0, 0}, "no-fit", r.no_fit, "relax a constraint");
            document["diagnostics"] = diagnostics_json(diagnostics);
        }
        write_json(document, io);
        return;
    }
    if (!r.no_fit.empty()) {
        io.err << "gpuadvisor: error[no-fit]: " << terminal_safe(r.no_fit) << '\n';
        io.err << "  hint: relax the constraint that binds (--deadline, --budget, --max-instances, "
                  "--provider, --gpu, --rules)\n";
        if (report.explain) {
            print_explanations(report, io);
        } else { // (offers left out for want of an exchange rate, say: maybe why none fits)
            for (const std::string& warning : r.warnings) {
                io.err << "gpuadvisor: warning: " << terminal_safe(warning) << '\n';
            }
        }
        return;
    }
    if (io.format == OutputFormat::html || io.format == OutputFormat::svg) {
        io.out << (io.format == OutputFormat::html ? recommend_report_html(report, io)
                                                   : recommend_chart_svg(report, true));
        if (io.format == OutputFormat::svg) {
            print_warnings(report, io);
        }
        return;
    }
    if (io.format != OutputFormat::table) {
        print_data(report, io);
        return;
    }
    print_table(report, io);
    io.out << '\n';
    print_explanations(report, io);
}

// The sizing assumptions the workload used, and with --dataset-tb the transfer's throughput
// per path.
std::vector<UsedAssumption> shown_assumptions(const RecommendReport& report) {
    const Assumptions& built_in = builtin_assumptions();
    std::vector<UsedAssumption> used = used_assumptions(*report.workload, built_in);
    if (report.constraints->data_move) {
        for (const auto& [name, path] :
             {std::pair{"data_link_same_region_gbps", DataPath::same_region},
              std::pair{"data_link_inter_region_gbps", DataPath::inter_region},
              std::pair{"data_link_cross_provider_gbps", DataPath::cross_provider}}) {
            used.push_back({name, path_link_gbps(path, built_in), "Gbit/s"});
        }
    }
    return used;
}

} // namespace gpuadvisor::cli
