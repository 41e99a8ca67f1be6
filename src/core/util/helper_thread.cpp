#include "util/helper_thread.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <system_error>
#include <thread>
#include <vector>

#if defined(__linux__) && defined(__GLIBC__)
#include <pthread.h>
#include <sched.h>
#define GPUADVISOR_PLACE_THREADS 1
#endif

namespace gpuadvisor {

#ifdef GPUADVISOR_PLACE_THREADS

struct HelperThread::State {
    std::function<void()> work;
    cpu_set_t allowed{}; // where the process may run (the caller's mask)
    bool placed = false; // started on `allowed` less the caller's CPU
    pthread_t thread{};
    bool joinable = false;
};

void* HelperThread::run(void* state) {
    auto& s = *static_cast<State*>(state);
    if (s.placed) { // running elsewhere now: free to move again
        pthread_setaffinity_np(pthread_self(), sizeof s.allowed, &s.allowed);
    }
    try {
        s.work();
    } catch (...) {
        std::terminate(); // as std::thread does
    }
    return nullptr;
}

HelperThread::HelperThread(std::function<void()> work) : m_state(std::make_unique<State>()) {
    State& s = *m_state;
    s.work = std::move(work);
    pthread_attr_t attr;
    if (const int error = pthread_attr_init(&attr); error != 0) {
        throw std::system_error(error, std::generic_category(), "cannot start a thread");
    }
    const int cpu = sched_getcpu(); // this thread's now
    const auto here = static_cast<std::size_t>(cpu);
    if (sched_getaffinity(0, sizeof s.allowed, &s.allowed) == 0 && cpu >= 0 && here < CPU_SETSIZE &&
        CPU_ISSET(here, &s.allowed)) {
        cpu_set_t elsewhere = s.allowed;
        CPU_CLR(here, &elsewhere);
        s.placed = CPU_COUNT(&elsewhere) > 0 &&
                   pthread_attr_setaffinity_np(&attr, sizeof elsewhere, &elsewhere) == 0;
    }
    const int error = pthread_create(&s.thread, &attr, run, &s);
    pthread_attr_destroy(&attr);
    if (error != 0) {
        throw std::system_error(error, std::generic_category(), "cannot start a thread");
    }
    s.joinable = true;
}

void HelperThread::join() {
    if (m_state && m_state->joinable) {
        m_state->joinable = false;
        pthread_join(m_state->thread, nullptr);
    }
}

#else // elsewhere: a plain std::thread

struct HelperThread::State {
    std::thread thread;
};

HelperThread::HelperThread(std::function<void()> work) : m_state(std::make_unique<State>()) {
    m_state->thread = std::thread(std::move(work));
}

void HelperThread::join() {
    if (m_state && m_state->thread.joinable()) {
        m_state->thread.join();
    }
}

#endif

HelperThread::HelperThread(HelperThread&& other) noexcept = default;

HelperThread::~HelperThread() {
    join();
}

std::size_t threads_for_shares(std::size_t shares) {
    constexpr std::size_t k_max_threads = 8;
    // (hardware_concurrency is 0 when it cannot tell)
    return std::max<std::size_t>(
        1, std::min<std::size_t>({shares, std::thread::hardware_concurrency(), k_max_threads}));
}

void parallel_for(std::size_t shares,
                  std::size_t threads,
                  const std::function<void(std::size_t share, std::size_t thread)>& work) {
    threads = std::clamp<std::size_t>(threads, 1, std::max<std::size_t>(shares, 1));
    // What each share throws (out of memory), kept: an exception must not leave a helper
    // thread, and the caller's must not leave before the helpers end.
    std::vector<std::exception_ptr> errors(shares);
    std::atomic<std::size_t> next{0};
    const auto take_shares = [&](std::size_t thread) {
        for (std::size_t share = next++; share < shares; share = next++) {
            try {
                work(share, thread);
            } catch (...) {
                errors[share] = std::current_exception();
            }
        }
    };
    std::vector<HelperThread> helpers;
    helpers.reserve(threads - 1);
    try {
        while (helpers.size() + 1 < threads) {
            helpers.emplace_back(
                [&take_shares, thread = helpers.size() + 1] { take_shares(thread); });
        }
    } catch (const std::system_error&) { // no more threads to be had: the running ones do the rest
    }
    take_shares(0);
    for (HelperThread& helper : helpers) {
        helper.join();
    }
    for (const std::exception_ptr& error : errors) {
        if (error) {
            std::rethrow_exception(error);
        }
    }
}

} // namespace gpuadvisor
