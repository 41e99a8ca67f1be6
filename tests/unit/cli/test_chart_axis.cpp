// The chart's axes (chart_axis.cpp): log past a 10x spread, linear otherwise; ticks that cover
// the values; labels without locale.
#include "chart_axis.hpp"

#include <catch2/catch.hpp>

#include <vector>

using namespace gpuadvisor::cli;

namespace {

// Every value lies inside the axis, and the ticks climb from lo to hi.
void check_covers(const Axis& axis, const std::vector<double>& values) {
    for (const double v : values) {
        CHECK(axis.fraction(v) >= 0);
        CHECK(axis.fraction(v) <= 1);
    }
    REQUIRE(axis.ticks.size() >= 2);
    CHECK(axis.ticks.front() == Approx(axis.lo));
    CHECK(axis.ticks.back() == Approx(axis.hi));
    CHECK(std::is_sorted(axis.ticks.begin(), axis.ticks.end()));
}

} // namespace

TEST_CASE("An axis is logarithmic when its values span more than 10x, and may be") {
    const std::vector<double> wide{150, 40'000};
    const Axis axis = make_axis(wide, true);
    CHECK(axis.log);
    CHECK(axis.lo == Approx(100));
    CHECK(axis.hi == Approx(100'000));
    CHECK(axis.ticks == std::vector<double>{100, 1000, 10'000, 100'000});
    CHECK(axis.fraction(1000) == Approx(1.0 / 3));
    check_covers(axis, wide);
    CHECK_FALSE(make_axis(wide, false).log);     // a rank, say
    CHECK_FALSE(make_axis({10, 100}, true).log); // exactly 10x: linear
    CHECK_FALSE(make_axis({0, 5000}, true).log); // a zero has no logarithm
}

TEST_CASE("A log axis over two decades or fewer has ticks at 2 and 5 too") {
    const Axis axis = make_axis({15, 900}, true);
    CHECK(axis.ticks == std::vector<double>{10, 20, 50, 100, 200, 500, 1000});
    CHECK(make_axis({3, 150}, true).ticks == std::vector<double>{1, 10, 100, 1000});
}

TEST_CASE("A linear axis pads its values, stays at or above 0, and ticks at 1, 2 or 5 x 10^n") {
    const std::vector<double> costs{170'770.56, 177'739.27, 307'662.55};
    const Axis axis = make_axis(costs, true);
    CHECK_FALSE(axis.log);
    CHECK(axis.lo == Approx(150'000));
    CHECK(axis.hi == Approx(350'000));
    CHECK(axis.ticks.size() == 5);
    check_covers(axis, costs);
    const Axis hours = make_axis({129, 178, 356, 701}, true);
    CHECK(hours.lo == 0); // not below 0 when no value is
    check_covers(hours, {129, 178, 356, 701});
}

TEST_CASE("A single value, or all equal, or zero, still makes an axis with room around it") {
    for (const double v : {0.0, 1.0, 0.004, 12'345.0}) {
        const Axis axis = make_axis({v, v}, true);
        CHECK(axis.hi > axis.lo);
        check_covers(axis, {v});
    }
}

TEST_CASE("Tick labels: plain to 9999, then k and M, never a locale's separators") {
    CHECK(tick_label(0) == "0");
    CHECK(tick_label(150) == "150");
    CHECK(tick_label(2500) == "2500");
    CHECK(tick_label(0.25) == "0.25");
    CHECK(tick_label(10'000) == "10k");
    CHECK(tick_label(350'000) == "350k");
    CHECK(tick_label(1'500'000) == "1.5M");
}
