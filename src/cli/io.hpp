// What a command writes to, and how.
#pragma once

#include "gpuadvisor/date.hpp"
#include "gpuadvisor/enum_names.hpp"

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace gpuadvisor::cli {

// github, sarif and junit are `catalog validate`'s only (render_validate.hpp): reports for CI.
enum class OutputFormat { table, json, csv, markdown, github, sarif, junit };
inline constexpr EnumNames<OutputFormat, 7> k_output_format_names{{
    {OutputFormat::table, "table"},
    {OutputFormat::json, "json"},
    {OutputFormat::csv, "csv"},
    {OutputFormat::markdown, "markdown"},
    {OutputFormat::github, "github"},
    {OutputFormat::sarif, "sarif"},
    {OutputFormat::junit, "junit"},
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
    std::string today; // --today: the date answers are given on (empty: see answer_date)
};

struct Io {
    std::ostream& out;
    std::ostream& err;
    OutputFormat format = OutputFormat::table;
    bool color = false; // ANSI styles on stdout
    bool quiet = false;
    StageClock* clock = nullptr; // --timings: where the stages' times go
    Date today{};                // the date answers are given on (answer_date)
};

OutputFormat parse_output_format(std::string_view text);

} // namespace gpuadvisor::cli
