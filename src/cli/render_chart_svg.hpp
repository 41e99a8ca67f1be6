// recommend's trade-off as an SVG chart: each row's cost against its time (training, finetune,
// hpc) or latency (inference), the cost-time front the planner marked, the documents' tier.
#pragma once

#include "render_recommend.hpp"

#include <string>

namespace gpuadvisor::cli {

// The colour of the n-th point drawn (0-based; ten, then again): used by nothing else on the
// page, so a test can find each point in a rendering.
std::string_view chart_point_colour(std::size_t n);

// The chart as an <svg> element; `standalone`: an SVG file of its own (XML declaration and
// namespace), otherwise for inline use in HTML. Every text is escaped (xml_text).
std::string recommend_chart_svg(const RecommendReport& report, bool standalone);

} // namespace gpuadvisor::cli
