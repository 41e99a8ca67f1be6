// HelperThread: runs its work on a thread of its own, joins, and leaves the thread free to run
// on any CPU the process may (placed elsewhere only to start).
#include "util/helper_thread.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#if defined(__linux__) && defined(__GLIBC__)
#include <sched.h>
#endif

using namespace gpuadvisor;

TEST_CASE("helper thread: the work runs on another thread, done when joined") {
    std::vector<std::thread::id> ran_on(4);
    std::atomic<int> done{0};
    {
        std::vector<HelperThread> helpers;
        for (std::size_t i = 0; i < ran_on.size(); ++i) {
            helpers.emplace_back([&, i] {
                ran_on[i] = std::this_thread::get_id();
                ++done;
            });
        }
        helpers[0].join();
        helpers[0].join(); // a second join does nothing
        CHECK(ran_on[0] != std::thread::id());
    } // the others join as they go
    CHECK(done == 4);
    for (const std::thread::id id : ran_on) {
        CHECK(id != std::this_thread::get_id());
        CHECK(id != std::thread::id());
    }
}

#if defined(__linux__) && defined(__GLIBC__)
TEST_CASE("helper thread: once started it may run on every CPU its parent may") {
    cpu_set_t parent;
    REQUIRE(sched_getaffinity(0, sizeof parent, &parent) == 0);
    cpu_set_t seen;
    CPU_ZERO(&seen);
    HelperThread helper([&] { sched_getaffinity(0, sizeof seen, &seen); });
    helper.join();
    CHECK(CPU_EQUAL(&seen, &parent));
}
#endif

TEST_CASE("run_on_threads: what a share throws is rethrown on the caller once all have ended") {
    std::atomic<int> done{0};
    const auto run = [&](std::size_t throwing) {
        done = 0;
        run_on_threads(4, [&](std::size_t t) {
            if (t == throwing || t == 3) {
                throw std::runtime_error("share " + std::to_string(t));
            }
            ++done;
        });
    };
    // A helper's share (not the caller's): the first by index is the one rethrown.
    CHECK_THROWS_WITH(run(1), "share 1");
    CHECK(done == 2);
    // The caller's own share throws: the helpers still end before it leaves.
    CHECK_THROWS_WITH(run(0), "share 0");
    CHECK(done == 2);
    std::atomic<bool> ran{false};
    CHECK_NOTHROW(run_on_threads(2, [&](std::size_t t) {
        if (t == 1) {
            ran = true;
        }
    }));
    CHECK(ran);
}

TEST_CASE("threads for shares: one per core, at most 8, at most one per share, never none") {
    const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
    CHECK(threads_for_shares(0) == 1);
    CHECK(threads_for_shares(1) == 1);
    CHECK(threads_for_shares(2) == std::min<std::size_t>(2, cores));
    CHECK(threads_for_shares(1000) == std::min<std::size_t>(8, cores));
}
