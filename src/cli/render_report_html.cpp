#include "render_report_html.hpp"

#include "gpuadvisor/sizing.hpp"
#include "render_chart_svg.hpp"
#include "render_validate.hpp"

#include <fmt/format.h>

#include <sstream>
#include <string_view>

namespace gpuadvisor::cli {

namespace {

// The page's one stylesheet; the Content-Security-Policy allows it by its SHA-256 (base64),
// which tests/report/report_page.py recomputes: change one, change the other.
constexpr std::string_view k_style =
    "body{font-family:sans-serif;margin:24px;color:#222;background:#fff}"
    "table{border-collapse:collapse;margin:16px 0;font-size:13px}"
    "th,td{border:1px solid #ccc;padding:3px 8px;text-align:left;vertical-align:top}"
    "th{background:#f2f2f2}td{white-space:nowrap}td.r,th.r{text-align:right}"
    "td.p{white-space:normal;min-width:16em}svg{max-width:100%;height:auto}"
    "pre{white-space:pre-wrap;font-size:13px}";
constexpr std::string_view k_style_hash = "sha256-6d7bkN6WMFAPQiI1ewZjRSXYH2QGvx1U2p7QOdbFkmM=";

// Lines of text (made terminal-safe, then escaped), each its own line in the page.
std::string escaped_lines(const std::string& text) {
    std::string result;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        result += xml_text(line) + '\n';
    }
    return result;
}

std::string table_html(const Table& table) {
    std::string html = "<table>\n<thead><tr>";
    for (const Column& column : table.columns) {
        html += fmt::format("<th{}>{}</th>",
                            column.align == Align::right ? " class=\"r\"" : "",
                            xml_text(column.header));
    }
    html += "</tr></thead>\n<tbody>\n";
    for (const auto& row : table.rows) {
        html += "<tr>";
        for (std::size_t i = 0; i < row.size() && i < table.columns.size(); ++i) {
            const Column& column = table.columns[i];
            html += fmt::format("<td{}>{}</td>",
                                column.align == Align::right ? " class=\"r\""
                                : column.prose               ? " class=\"p\""
                                                             : "",
                                row[i].empty() ? "-" : xml_text(row[i]));
        }
        html += "</tr>\n";
    }
    return html + "</tbody>\n</table>\n";
}

// What recommend prints under its table, as it prints it (no wrapping).
std::string explanations_text(const RecommendReport& report, const Io& io) {
    std::ostringstream text;
    Io capture{text, text, OutputFormat::table};
    capture.today = io.today;
    capture.fx = io.fx;
    print_explanations(report, capture);
    return text.str();
}

std::string assumptions_html(const RecommendReport& report) {
    std::string html = "<ul>\n";
    for (const UsedAssumption& a : shown_assumptions(report)) {
        html += fmt::format("<li>{} = {}{}</li>\n",
                            xml_text(a.name),
                            format_number(a.value),
                            a.unit.empty() ? "" : " " + xml_text(a.unit));
    }
    return html + "</ul>\n";
}

} // namespace

bool is_recommend_only_format(OutputFormat format) {
    return format == OutputFormat::html || format == OutputFormat::svg;
}

std::string recommend_report_html(const RecommendReport& report, const Io& io) {
    const std::string kind(to_string(report.workload->kind));
    std::string html =
        fmt::format("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                    "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                    "style-src '{}'; base-uri 'none'; form-action 'none'\">\n"
                    "<title>gpuadvisor recommend: {}</title>\n<style>{}</style>\n</head>\n<body>\n"
                    "<h1>gpuadvisor recommend: {}</h1>\n<p>{} Answered on {}.</p>\n",
                    k_style_hash,
                    kind,
                    k_style,
                    kind,
                    xml_text(recommend_summary(report)),
                    format_date(io.today));
    html += recommend_chart_svg(report, false);
    html += table_html(recommend_table(report));
    html += "<h2>Notes</h2>\n<pre>" + escaped_lines(explanations_text(report, io)) + "</pre>\n";
    html += "<h2>Assumptions (built in)</h2>\n" + assumptions_html(report);
    return html + "</body>\n</html>\n";
}

} // namespace gpuadvisor::cli
