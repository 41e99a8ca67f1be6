// A thread for a share of a parallel step (the catalog decode, the planner's pass), started on
// another CPU than the caller's where the process may use one; and parallel_for, which runs a
// step's shares on such threads.
//
// Linux queues a new thread on its parent's CPU and moves it to an idle one only when it next
// balances its queues: on this project's 2-CPU machine a std::thread started while its parent
// was busy began a median 0.7-1.7 ms late (90th percentile over 3 ms), a large part of a step
// of 5-15 ms; placed elsewhere from the start it begins in about 0.15 ms (bench/thread_start.cpp
// measures both). Once running, the helper may again run on any CPU the process may (a busy
// machine still balances it).
#pragma once

#include <cstddef>
#include <functional>
#include <memory>

namespace gpuadvisor {

class HelperThread {
  public:
    // Starts `work` (which must not throw, as for std::thread); std::system_error when no
    // thread can be started.
    explicit HelperThread(std::function<void()> work);
    HelperThread(HelperThread&& other) noexcept;
    HelperThread& operator=(HelperThread&& other) = delete;
    HelperThread(const HelperThread&) = delete;
    HelperThread& operator=(const HelperThread&) = delete;
    ~HelperThread(); // joins, if not joined already

    void join();

  private:
    struct State;
    static void* run(void* state); // the thread's body: `work`, once placed
    std::unique_ptr<State> m_state;
};

// Threads worth starting for `shares` pieces of work that may run at once: one per core, at
// most 8, at most `shares`, and at least 1.
std::size_t threads_for_shares(std::size_t shares);

// Runs work(share, thread) for every share in [0, shares), each exactly once, on up to
// `threads` threads: the calling thread (thread 0) and helper threads (1, 2, ...), each taking
// the next share not yet taken. `thread` indexes per-thread state; results kept per share are
// the same whatever the number of threads. When no more threads can be started, the running
// ones take the rest. Returns when every share has ended; then rethrows what the first share
// (by index) that threw threw, if any.
void parallel_for(std::size_t shares,
                  std::size_t threads,
                  const std::function<void(std::size_t share, std::size_t thread)>& work);

} // namespace gpuadvisor
