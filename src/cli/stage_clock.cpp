#include "stage_clock.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <sys/resource.h>

namespace gpuadvisor::cli {

namespace {

double milliseconds(StageClock::Clock::duration d) {
    return std::chrono::duration<double, std::milli>(d).count();
}

StageClock::Clock::duration from_timeval(const timeval& t) {
    return std::chrono::duration_cast<StageClock::Clock::duration>(
        std::chrono::seconds(t.tv_sec) + std::chrono::microseconds(t.tv_usec));
}

StageClock::Cpu cpu_so_far() {
    rusage usage{};
    if (getrusage(RUSAGE_SELF, &usage) != 0) {
        return {};
    }
    return {from_timeval(usage.ru_utime), from_timeval(usage.ru_stime)};
}

// "12.34 ms (31%": the stage's time and its share of the whole (the caller closes it).
std::string timed(StageClock::Clock::duration took, StageClock::Clock::duration whole) {
    const double share = whole.count() > 0 ? 100.0 * milliseconds(took) / milliseconds(whole) : 0;
    return fmt::format("{:.2f} ms ({:.0f}%", milliseconds(took), share);
}

} // namespace

void StageClock::add(std::string_view name, Clock::duration took, std::string note) {
    const auto it = std::find_if(
        m_stages.begin(), m_stages.end(), [&](const Stage& s) { return s.name == name; });
    if (it == m_stages.end()) {
        m_stages.push_back({name, took, std::move(note)});
        return;
    }
    it->took += took;
    if (!note.empty()) {
        it->note = std::move(note);
    }
}

std::string StageClock::line() const {
    return timings_line(m_stages, Clock::now() - m_start, cpu_so_far());
}

std::string timings_line(std::span<const StageClock::Stage> stages,
                         StageClock::Clock::duration whole,
                         const StageClock::Cpu& cpu) {
    std::string text = "gpuadvisor: timings:";
    StageClock::Clock::duration staged{};
    for (const StageClock::Stage& stage : stages) {
        staged += stage.took;
        text += fmt::format(" {} {}{}{}),",
                            stage.name,
                            timed(stage.took, whole),
                            stage.note.empty() ? "" : "; ",
                            stage.note);
    }
    const auto other = std::max(StageClock::Clock::duration{}, whole - staged);
    text += fmt::format(" other {}); {:.2f} ms from main to the end; CPU {:.2f} ms (user "
                        "{:.2f}, system {:.2f}) in all threads since exec",
                        timed(other, whole),
                        milliseconds(whole),
                        milliseconds(cpu.user + cpu.system),
                        milliseconds(cpu.user),
                        milliseconds(cpu.system));
    return text;
}

} // namespace gpuadvisor::cli
