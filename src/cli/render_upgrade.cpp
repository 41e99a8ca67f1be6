// `upgrade`'s answer: the CPU server's run, then each GPU configuration's (table/CSV/Markdown,
// JSON).
#include "output.hpp"
#include "render_table.hpp"
#include "text.hpp"
#include "upgrade.hpp"

#include <fmt/format.h>

#include <cmath>

namespace gpuadvisor::cli {

namespace {

double round3(double value) {
    return std::round(value * 1000) / 1000;
}

Json optional_count(const std::optional<double>& value) {
    return value ? Json(round3(*value)) : Json(nullptr);
}

Json cpu_json(const UpgradeReport& r) {
    const Cpu& cpu = *r.server.cpu;
    const CpuRun& run = r.cpu;
    return {{"id", cpu.id},
            {"sockets", r.server.sockets},
            {"precision", run.precision},
            {"peak_tflops", round3(run.peak_tflops)},
            {"efficiency", run.efficiency},
            {"memory_bandwidth_gb_per_s", cpu.memory_bandwidth_gb_per_s * r.server.sockets},
            {"model_hours", run.model_hours > 0 ? Json(round3(run.model_hours)) : Json(nullptr)},
            {"hours", round3(run.hours)},
            {"hours_basis", run.measured ? "measured (--cpu-hours)" : "estimate"},
            {"cost",
             money_json(r.currency,
                        {{"per_hour", rate_amount(run.cost_per_hour_micros)},
                         {"total",
                          billed_amount(std::llround(static_cast<double>(run.cost_per_hour_micros) *
                                                     run.hours))}})},
            {"cost_basis", run.cost_basis},
            {"source", std::string(cpu.provenance.source)},
            {"as_of", format_date(cpu.provenance.as_of)},
            {"confidence", to_string(cpu.provenance.confidence)}};
}

Json option_json(const GpuRun& g, const UpgradeReport& r) {
    const Candidate& c = *g.candidate;
    const std::optional<std::int64_t> per_month =
        g.saving_micros
            ? std::optional(std::llround(static_cast<double>(*g.saving_micros) * r.runs_per_month))
            : std::nullopt;
    return {{"rank", c.rank},
            {"provider", c.instance->provider},
            {"instance", c.instance->id},
            {"region", std::string(c.row->region)},
            {"instances", c.count},
            {"gpu", c.gpu->id},
            {"gpus", count_json(c.total_gpus)},
            {"pricing", c.pricing},
            {"hours", round3(g.hours)},
            {"speedup", round3(g.speedup)},
            {"cost",
             money_json(r.currency,
                        {{"per_hour", rate_amount(c.per_hour_micros)},
                         {"total", billed_amount(g.cost_micros)}})},
            {"saving_per_run", total_json(r.currency, g.saving_micros)},
            {"saving_per_month", total_json(r.currency, per_month)},
            {"runs_to_break_even", optional_count(g.runs_to_break_even)},
            {"months_to_pay_back", optional_count(g.months_to_pay_back)}};
}

std::string money_cell(const std::optional<std::int64_t>& micros) {
    return micros ? format_cents(*micros) : std::string();
}

Table options_table(const UpgradeReport& r) {
    Table table{{{"#", Align::right},
                 {"PROVIDER"},
                 {"INSTANCE"},
                 {"REGION"},
                 {"N", Align::right},
                 {"GPUS"},
                 {"HOURS", Align::right},
                 {"SPEEDUP", Align::right},
                 {"COST/RUN", Align::right},
                 {"SAVING/RUN", Align::right},
                 {"PAYBACK"}},
                {}};
    for (const GpuRun& g : r.gpus) {
        const Candidate& c = *g.candidate;
        table.rows.push_back({std::to_string(c.rank),
                              c.instance->provider,
                              c.instance->id,
                              std::string(c.row->region),
                              std::to_string(c.count),
                              fmt::format("{} x {}", format_number(c.total_gpus), c.gpu->id),
                              fmt::format("{:.2f}", g.hours),
                              fmt::format("{:.1f}x", g.speedup),
                              money_cell(g.cost_micros),
                              money_cell(g.saving_micros),
                              g.runs_to_break_even
                                  ? fmt::format("{} runs ({:.1f} months)",
                                                format_number(*g.runs_to_break_even),
                                                *g.months_to_pay_back)
                                  : std::string()});
    }
    return table;
}

void print_text(const UpgradeReport& r, Io& io) {
    const CpuRun& cpu = r.cpu;
    const double cpu_cost = static_cast<double>(cpu.cost_per_hour_micros) * cpu.hours;
    write_paragraph(
        fmt::format("CPU server: {} socket(s) of {} ({} TFLOPS {} peak, {:.0f}% sustained); "
                    "{:.2f} h per run ({}); {} {}/h ({}), {} {} per run.",
                    r.server.sockets,
                    r.server.cpu->id,
                    format_number(round3(cpu.peak_tflops)),
                    cpu.precision,
                    cpu.efficiency * 100,
                    cpu.hours,
                    cpu.measured ? "measured, --cpu-hours"
                                 : "estimate of the sizing engine; --cpu-hours to give yours",
                    r.currency,
                    format_cents(cpu.cost_per_hour_micros),
                    cpu.cost_basis,
                    r.currency,
                    format_cents(std::llround(cpu_cost))),
        io);
    io.out << '\n';
    render_table(options_table(r), io);
    if (!r.gpus.empty()) {
        io.out << '\n';
        write_paragraph(fmt::format("Speed-up = CPU hours / GPU hours; saving = the CPU "
                                    "server's cost of a run - the GPUs' ({}), at {} run(s) a "
                                    "month.",
                                    r.currency,
                                    format_number(r.runs_per_month)),
                        io);
    }
    for (const std::string& note : r.notes) {
        write_paragraph("Note: " + note, io);
    }
}

} // namespace

void print_upgrade(const UpgradeReport& r, Io& io) {
    if (io.format == OutputFormat::json) {
        Json document = json_document("upgrade");
        document["ok"] = !r.gpus.empty();
        document["workload"] = to_string(r.workload->kind);
        document["cpu"] = cpu_json(r);
        document["runs_per_month"] = r.runs_per_month;
        document["migration_cost"] = total_json(r.currency, std::llround(r.migration_cost * 1e6));
        Json options = Json::array();
        for (const GpuRun& g : r.gpus) {
            options.push_back(option_json(g, r));
        }
        document["options"] = std::move(options);
        document["notes"] = r.notes;
        write_json(document, io);
        return;
    }
    if (io.format != OutputFormat::table) {
        render_table(options_table(r), io);
        return;
    }
    print_text(r, io);
}

} // namespace gpuadvisor::cli
