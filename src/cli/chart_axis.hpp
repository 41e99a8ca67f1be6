// A chart's axis: its range, scale and ticks, from the values drawn on it (render_chart_svg).
#pragma once

#include <string>
#include <vector>

namespace gpuadvisor::cli {

// Linear, or logarithmic (base 10) when the values span more than 10x.
struct Axis {
    double lo = 0;
    double hi = 1;
    bool log = false;
    std::vector<double> ticks; // from lo to hi

    // Where `v` falls: 0 at lo, 1 at hi.
    double fraction(double v) const;
};

// The axis for these values (finite, at least one): logarithmic when `may_be_log`, all are
// positive and the largest is over 10x the smallest, from the decade below the smallest to the
// decade above the largest, a tick at each decade (and at 2 and 5 times it over two decades or
// fewer); otherwise linear, the values padded by 8% of their spread (not below 0 when none is),
// about five ticks at 1, 2 or 5 times a power of ten.
Axis make_axis(const std::vector<double>& values, bool may_be_log);

// A tick's label: "150", "2500", "10k", "350k", "1.5M".
std::string tick_label(double v);

} // namespace gpuadvisor::cli
