// Where a command's wall time goes (--timings): the stages timed as they run (reading the
// catalog, planning, writing the output) and the rest, printed as one line on stderr at the end.
#pragma once

#include <chrono>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gpuadvisor::cli {

class StageClock {
  public:
    using Clock = std::chrono::steady_clock;

    struct Stage {
        std::string_view name; // a static string: "catalog", "plan", "output"
        Clock::duration took{};
        std::string note; // what the stage did, in a few words (may be empty)
    };
    // The process's CPU time so far, every thread and the start before main included.
    struct Cpu {
        Clock::duration user{};
        Clock::duration system{};
    };

    StageClock() : m_start(Clock::now()) {}

    // Adds `took` to the stage `name` (a stage timed twice is summed; its last note is kept).
    void add(std::string_view name, Clock::duration took, std::string note = {});
    // The line for the stages so far, the time since the clock started, and the CPU time.
    std::string line() const;

  private:
    Clock::time_point m_start;
    std::vector<Stage> m_stages;
};

// The line --timings prints: each stage's time and share of `whole`, then the rest ("other"),
// the whole, and the CPU time. Made from given figures, so that a test can check it.
std::string timings_line(std::span<const StageClock::Stage> stages,
                         StageClock::Clock::duration whole,
                         const StageClock::Cpu& cpu);

// Times the scope it lives in as a stage of `clock`; nothing when clock is nullptr (no
// --timings).
class TimedStage {
  public:
    TimedStage(StageClock* clock, std::string_view name)
        : m_clock(clock), m_name(name),
          m_start(clock != nullptr ? StageClock::Clock::now() : StageClock::Clock::time_point{}) {}
    TimedStage(const TimedStage&) = delete;
    TimedStage& operator=(const TimedStage&) = delete;
    ~TimedStage() {
        if (m_clock != nullptr) {
            m_clock->add(m_name, StageClock::Clock::now() - m_start, std::move(m_note));
        }
    }
    void note(std::string text) { m_note = std::move(text); }

  private:
    StageClock* m_clock;
    std::string_view m_name;
    StageClock::Clock::time_point m_start;
    std::string m_note;
};

} // namespace gpuadvisor::cli
