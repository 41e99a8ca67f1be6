#include "chart_axis.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace gpuadvisor::cli {

double Axis::fraction(double v) const {
    return log ? (std::log10(v) - std::log10(lo)) / (std::log10(hi) - std::log10(lo))
               : (v - lo) / (hi - lo);
}

namespace {

Axis log_axis(double min, double max) {
    Axis axis{std::pow(10.0, std::floor(std::log10(min))),
              std::pow(10.0, std::ceil(std::log10(max))),
              true,
              {}};
    const bool few = axis.hi / axis.lo <= 100; // two decades or fewer: 2 and 5 too
    for (double decade = axis.lo; decade <= axis.hi * 1.0001; decade *= 10) {
        for (const double m : {1.0, 2.0, 5.0}) {
            if ((m == 1.0 || few) && decade * m <= axis.hi * 1.0001) {
                axis.ticks.push_back(decade * m);
            }
        }
    }
    return axis;
}

// About five ticks at 1, 2 or 5 times a power of ten, the values padded inside.
Axis linear_axis(double min, double max) {
    const double pad = max > min ? (max - min) * 0.08 : (max == 0 ? 1 : std::abs(max) * 0.1);
    double lo = min - pad;
    double hi = max + pad;
    if (min >= 0 && lo < 0) {
        lo = 0;
    }
    const double raw = (hi - lo) / 5;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    const double step = raw / magnitude <= 1   ? magnitude
                        : raw / magnitude <= 2 ? 2 * magnitude
                        : raw / magnitude <= 5 ? 5 * magnitude
                                               : 10 * magnitude;
    Axis axis{std::floor(lo / step) * step, std::ceil(hi / step) * step, false, {}};
    for (double t = axis.lo; t <= axis.hi + step / 2; t += step) {
        axis.ticks.push_back(std::abs(t) < step / 1e6 ? 0 : t);
    }
    return axis;
}

} // namespace

Axis make_axis(const std::vector<double>& values, bool may_be_log) {
    const auto [min, max] = std::minmax_element(values.begin(), values.end());
    return may_be_log && *min > 0 && *max / *min > 10 ? log_axis(*min, *max)
                                                      : linear_axis(*min, *max);
}

std::string tick_label(double v) {
    if (std::abs(v) >= 1e6) {
        return fmt::format("{:g}M", v / 1e6);
    }
    return std::abs(v) >= 1e4 ? fmt::format("{:g}k", v / 1e3) : fmt::format("{:g}", v);
}

} // namespace gpuadvisor::cli
