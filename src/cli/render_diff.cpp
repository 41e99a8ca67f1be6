#include "render_diff.hpp"

#include "output.hpp"
#include "render_table.hpp"
#include "text.hpp"

#include <fmt/format.h>

#include <cmath>
#include <ostream>

namespace gpuadvisor::cli {

void mark_over_threshold(DiffReport& report) {
    report.over.assign(report.diff.price_changes.size(), false);
    report.exceeded = 0;
    if (!report.threshold) {
        return;
    }
    const bool up = report.direction != "down";
    const bool down = report.direction != "up";
    for (std::size_t i = 0; i < report.over.size(); ++i) {
        const PriceChange& change = report.diff.price_changes[i];
        const auto delta = change.delta_micros();
        if (!delta) {
            continue;
        }
        const auto percent = change.percent(); // none: from a price of 0
        const bool over = percent ? (up && *percent > *report.threshold) ||
                                        (down && -*percent > *report.threshold)
                                  : up && *delta > 0;
        report.over[i] = over;
        report.exceeded += over ? 1 : 0;
    }
}

namespace {

std::string signed_micros(std::int64_t micros) {
    return (micros > 0 ? "+" : "") + format_micros(micros);
}

std::string percent_text(const PriceChange& change) {
    const auto percent = change.percent();
    return percent ? fmt::format("{:+.2f}%", *percent) : "";
}

// "Moved more than 15%: testcloud big.8x us-east-1 spot -20.06%, ..." (at most 5 named).
std::string over_line(const DiffReport& report) {
    constexpr std::size_t k_named = 5;
    std::vector<std::string> named;
    for (std::size_t i = 0; i < report.over.size(); ++i) {
        const PriceChange& c = report.diff.price_changes[i];
        if (report.over[i] && named.size() < k_named) {
            const std::string percent = percent_text(c);
            named.push_back(fmt::format("{} {} {} {} {}",
                                        c.offer.provider,
                                        c.offer.instance,
                                        c.offer.region,
                                        to_string(c.plan),
                                        percent.empty() ? "from 0" : percent));
        }
    }
    return fmt::format("Moved more than {}%{}: {}{}",
                       *report.threshold,
                       report.direction == "both" ? "" : " " + report.direction,
                       fmt::join(named, ", "),
                       report.exceeded > named.size()
                           ? fmt::format(" and {} more", report.exceeded - named.size())
                           : "");
}

std::string money_cell(const std::optional<std::int64_t>& micros, const std::string& currency) {
    return micros ? fmt::format("{} {}", format_micros(*micros), currency) : "";
}

std::string summary_line(const DiffReport& report) {
    const CatalogDiff& d = report.diff;
    std::string line =
        fmt::format("{} instance type(s) added, {} removed; {} offer(s) added, {} removed; "
                    "{} price change(s); {} spec change(s); {} GPU(s) added, {} removed; "
                    "{} offer(s) with a new source or date",
                    d.instances_added.size(),
                    d.instances_removed.size(),
                    d.offers_added.size(),
                    d.offers_removed.size(),
                    d.price_changes.size(),
                    d.spec_changes.size(),
                    d.gpus_added.size(),
                    d.gpus_removed.size(),
                    d.provenance_changes.size());
    if (report.threshold) {
        line += fmt::format("; {} price(s) moved more than {}%{}",
                            report.exceeded,
                            *report.threshold,
                            report.direction == "both" ? "" : " " + report.direction);
    }
    return line;
}

std::vector<std::string> key_cells(const DiffKey& key) {
    return {key.provider, key.instance, key.region};
}

// CSV and Markdown: one row per change, the kind of change in the first column.
Table change_table(const DiffReport& report) {
    const CatalogDiff& d = report.diff;
    Table table{{{"change"},
                 {"provider"},
                 {"id"},
                 {"region"},
                 {"field"},
                 {"old", Align::right},
                 {"new", Align::right},
                 {"old_currency"},
                 {"new_currency"},
                 {"difference", Align::right},
                 {"percent", Align::right},
                 {"over_threshold"}},
                {}};
    const auto row = [&](std::vector<std::string> cells) {
        cells.resize(table.columns.size());
        table.rows.push_back(std::move(cells));
    };
    for (const std::string& id : d.gpus_added) {
        row({"gpu-added", "", id});
    }
    for (const std::string& id : d.gpus_removed) {
        row({"gpu-removed", "", id});
    }
    const auto keys = [&](const char* change, const std::vector<DiffKey>& list) {
        for (const DiffKey& key : list) {
            row({change, key.provider, key.instance, key.region});
        }
    };
    keys("instance-added", d.instances_added);
    keys("instance-removed", d.instances_removed);
    keys("offer-added", d.offers_added);
    keys("offer-removed", d.offers_removed);
    for (std::size_t i = 0; i < d.price_changes.size(); ++i) {
        const PriceChange& c = d.price_changes[i];
        const auto delta = c.delta_micros();
        const auto percent = c.percent();
        row({fmt::format("price-{}", to_string(c.kind)),
             c.offer.provider,
             c.offer.instance,
             c.offer.region,
             std::string(to_string(c.plan)),
             c.old_micros ? format_micros(*c.old_micros) : "",
             c.new_micros ? format_micros(*c.new_micros) : "",
             c.old_currency,
             c.new_currency,
             delta ? format_micros(*delta) : "",
             percent ? fmt::format("{:.2f}", *percent) : "",
             report.threshold ? (report.over[i] ? "true" : "false") : ""});
    }
    for (const SpecChange& c : d.spec_changes) {
        row({"spec-" + c.kind,
             c.item.provider,
             c.item.instance,
             "",
             c.field,
             c.old_value,
             c.new_value});
    }
    return table;
}

void section(const std::string& title, const Table& table, Io& io) {
    if (table.rows.empty()) {
        return;
    }
    io.out << fmt::format("{} ({}):\n", title, table.rows.size());
    render_table(table, io);
    io.out << '\n';
}

Table key_table(const std::vector<DiffKey>& keys, bool regions) {
    Table table{{{"Provider"}, {"Instance"}}, {}};
    if (regions) {
        table.columns.push_back({"Region"});
    }
    for (const DiffKey& key : keys) {
        std::vector<std::string> cells = key_cells(key);
        cells.resize(table.columns.size());
        table.rows.push_back(std::move(cells));
    }
    return table;
}

Table gpu_table(const std::vector<std::string>& ids) {
    Table table{{{"GPU"}}, {}};
    for (const std::string& id : ids) {
        table.rows.push_back({id});
    }
    return table;
}

Table price_table(const DiffReport& report) {
    Table table{{{"Provider"},
                 {"Instance"},
                 {"Region"},
                 {"Plan"},
                 {"Old", Align::right},
                 {"New", Align::right},
                 {"Change", Align::right},
                 {"%", Align::right}},
                {}};
    const bool gate = report.threshold.has_value();
    if (gate) {
        table.columns.push_back({"Over"});
    }
    for (std::size_t i = 0; i < report.diff.price_changes.size(); ++i) {
        const PriceChange& c = report.diff.price_changes[i];
        const auto delta = c.delta_micros();
        std::vector<std::string> cells{c.offer.provider,
                                       c.offer.instance,
                                       c.offer.region,
                                       std::string(to_string(c.plan)),
                                       money_cell(c.old_micros, c.old_currency),
                                       money_cell(c.new_micros, c.new_currency),
                                       delta ? signed_micros(*delta)
                                             : std::string(to_string(c.kind)),
                                       percent_text(c)};
        if (gate) {
            cells.emplace_back(!delta ? "" : report.over[i] ? "yes" : "no");
        }
        table.rows.push_back(std::move(cells));
    }
    return table;
}

Table spec_table(const std::vector<SpecChange>& changes) {
    Table table{{{"Kind"}, {"Provider"}, {"Id"}, {"Field"}, {"Old"}, {"New"}}, {}};
    for (const SpecChange& c : changes) {
        table.rows.push_back(
            {c.kind, c.item.provider, c.item.instance, c.field, c.old_value, c.new_value});
    }
    return table;
}

} // namespace

void print_diff(const DiffReport& report, Io& io) {
    if (io.format == OutputFormat::json) {
        write_diff_json(report, io);
        return;
    }
    if (io.format != OutputFormat::table) {
        render_table(change_table(report), io);
        return;
    }
    const CatalogDiff& d = report.diff;
    io.out << fmt::format("Catalog diff: {} -> {}\n\n",
                          terminal_safe(report.old_name),
                          terminal_safe(report.new_name));
    section("GPUs added", gpu_table(d.gpus_added), io);
    section("GPUs removed", gpu_table(d.gpus_removed), io);
    section("Instance types added", key_table(d.instances_added, false), io);
    section("Instance types removed", key_table(d.instances_removed, false), io);
    section("Offers added", key_table(d.offers_added, true), io);
    section("Offers removed", key_table(d.offers_removed, true), io);
    section("Price changes", price_table(report), io);
    section("Spec changes", spec_table(d.spec_changes), io);
    write_paragraph("Summary: " + summary_line(report), io);
    if (report.exceeded > 0) {
        write_paragraph(terminal_safe(over_line(report)), io);
    }
}

} // namespace gpuadvisor::cli
