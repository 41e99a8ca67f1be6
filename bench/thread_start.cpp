// How late a helper thread starts when its parent is busy: std::thread against HelperThread
// (src/core/util/helper_thread.hpp, which starts it on another CPU). Each round lets the CPUs go
// idle, keeps this thread busy for 5 ms, starts a thread that notes the time it begins, and
// keeps busy 6 ms more (as the catalog decode and the planner's pass do).
//   cmake --build build --target gpuadvisor_thread_start && build/gpuadvisor_thread_start
// Prints the median, 90th percentile and largest delay of 41 rounds for each.
#include "util/helper_thread.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double ms_between(Clock::time_point from, Clock::time_point to) {
    return std::chrono::duration<double, std::milli>(to - from).count();
}

void keep_busy(double ms) {
    const Clock::time_point start = Clock::now();
    std::atomic<std::uint64_t> turns{0};
    while (ms_between(start, Clock::now()) < ms) {
        turns.fetch_add(1, std::memory_order_relaxed);
    }
}

template <class Start> void measure(const char* name, Start start) {
    std::vector<double> delays;
    for (int round = 0; round < 41; ++round) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20)); // the other CPUs go idle
        keep_busy(5);
        std::atomic<Clock::rep> began{0};
        const Clock::time_point asked = Clock::now();
        auto thread = start([&] { began = Clock::now().time_since_epoch().count(); });
        keep_busy(6);
        thread.join();
        delays.push_back(ms_between(asked, Clock::time_point(Clock::duration(began.load()))));
    }
    std::sort(delays.begin(), delays.end());
    std::printf("%-13s start delay: median %.3f ms, 90th percentile %.3f ms, largest %.3f ms\n",
                name,
                delays[delays.size() / 2],
                delays[delays.size() * 9 / 10],
                delays.back());
}

} // namespace

int main() {
    measure("std::thread", [](auto work) { return std::thread(work); });
    measure("HelperThread", [](auto work) { return gpuadvisor::HelperThread(work); });
}
