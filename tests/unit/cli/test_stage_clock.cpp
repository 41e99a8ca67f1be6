// --timings (stage_clock.cpp): the line is made from the stages' figures, the rest is what
// they leave, and a stage is timed only when a clock was asked for.
#include "stage_clock.hpp"

#include <catch2/catch.hpp>

using namespace gpuadvisor::cli;
using std::chrono::microseconds;

TEST_CASE("timings: each stage's time and share, the rest, the whole and the CPU time") {
    const std::vector<StageClock::Stage> stages{
        {"catalog", microseconds(30'000), "100620 offers, 5 file(s) from the cache"},
        {"plan", microseconds(10'500), ""},
        {"output", microseconds(250), ""}};
    const StageClock::Cpu cpu{microseconds(40'000), microseconds(21'126)};
    CHECK(timings_line(stages, microseconds(45'000), cpu) ==
          "gpuadvisor: timings: catalog 30.00 ms (67%; 100620 offers, 5 file(s) from the cache),"
          " plan 10.50 ms (23%), output 0.25 ms (1%), other 4.25 ms (9%); 45.00 ms from main to"
          " the end; CPU 61.13 ms (user 40.00, system 21.13) in all threads since exec");
}

TEST_CASE("timings: no stage timed, stages that overrun the whole, a whole of nothing") {
    const StageClock::Cpu cpu{};
    CHECK(timings_line({}, microseconds(2'000), cpu) ==
          "gpuadvisor: timings: other 2.00 ms (100%); 2.00 ms from main to the end; CPU 0.00 ms "
          "(user 0.00, system 0.00) in all threads since exec");
    const std::vector<StageClock::Stage> over{{"plan", microseconds(3'000), ""}};
    CHECK_THAT(timings_line(over, microseconds(2'000), cpu),
               Catch::Contains("plan 3.00 ms (150%), other 0.00 ms (0%);"));
    CHECK_THAT(timings_line(over, StageClock::Clock::duration{}, cpu),
               Catch::Contains("plan 3.00 ms (0%), other 0.00 ms (0%); 0.00 ms from main"));
}

TEST_CASE("timings: a stage timed twice is summed; without a clock nothing is timed") {
    StageClock clock;
    clock.add("plan", microseconds(1'000), "first");
    clock.add("catalog", microseconds(500));
    clock.add("plan", microseconds(2'000));
    const std::string line = clock.line();
    CHECK_THAT(line, Catch::StartsWith("gpuadvisor: timings: plan 3.00 ms ("));
    CHECK_THAT(line, Catch::Contains("; first), catalog 0.50 ms ("));
    {
        TimedStage stage(&clock, "output");
        stage.note("written");
    }
    CHECK_THAT(clock.line(), Catch::Contains("), output "));
    CHECK_THAT(clock.line(), Catch::Contains("; written), other "));
    TimedStage nothing(nullptr, "output"); // no clock: no stage, and no crash at its end
    nothing.note("unused");
}
