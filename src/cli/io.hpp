// What a command writes to, and how.
#pragma once

#include "gpuadvisor/date.hpp"
#include "gpuadvisor/enum_names.hpp"
#include "gpuadvisor/fx.hpp"

#include <cstddef>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace gpuadvisor::cli {

// github, sarif and junit are `catalog validate`'s only (render_validate.hpp): reports for CI;
// html and svg are `recommend`'s only (render_report_html.hpp): the page and the chart.
enum class OutputFormat { table, json, csv, markdown, github, sarif, junit, html, svg };
inline constexpr EnumNames<OutputFormat, 9> k_output_format_names{{
    {OutputFormat::table, "table"},
    {OutputFormat::json, "json"},
    {OutputFormat::csv, "csv"},
    {OutputFormat::markdown, "markdown"},
    {OutputFormat::github, "github"},
    {OutputFormat::sarif, "sarif"},
    {OutputFormat::junit, "junit"},
    {OutputFormat::html, "html"},
    {OutputFormat::svg, "svg"},
}};

class StageClock; // stage_clock.hpp

struct GlobalOptions {
    std::vector<std::string> catalogs;
    bool no_default_catalog = false;
    bool no_cache = false;
    std::string format = "table";
    std::string color = "auto";
    std::string currency;
    bool quiet = false;
    bool timings = false;
    bool wide = false; // --wide: human tables as wide as their rows (table_width.hpp)
    std::string today; // --today: the date answers are given on (empty: see answer_date)
    std::vector<std::string> fx_files; // --fx: rate files over the built-in rates
    std::vector<std::string> fx_rates; // --fx-rate: CODE=RATE[@DATE], over those
};

struct Io {
    std::ostream& out;
    std::ostream& err;
    OutputFormat format = OutputFormat::table;
    bool color = false; // ANSI styles on stdout
    bool quiet = false;
    StageClock* clock = nullptr; // --timings: where the stages' times go
    Date today{};                // the date answers are given on (answer_date)
    std::size_t width = 0;       // what human tables fit in, 0: no limit (table_width.hpp)
    const FxTable* fx = nullptr; // the run's rates (load_rates); null: the built-in ones

    const FxTable& rates() const { return fx != nullptr ? *fx : builtin_fx(); }
};

OutputFormat parse_output_format(std::string_view text);

} // namespace gpuadvisor::cli
