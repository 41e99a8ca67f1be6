// recommend -o html (and --report FILE.html): one self-contained page with the ranked table,
// the trade-off chart (render_chart_svg.hpp), and the lines under the table.
#pragma once

#include "io.hpp"
#include "render_recommend.hpp"

#include <string>

namespace gpuadvisor::cli {

// The formats only `recommend` writes: html and svg.
bool is_recommend_only_format(OutputFormat format);

// The page: no network (a Content-Security-Policy that allows nothing but its one stylesheet,
// by hash), no script, every text escaped; dated by io.today only. UTF-8.
std::string recommend_report_html(const RecommendReport& report, const Io& io);

} // namespace gpuadvisor::cli
