// HelperThread: runs its work on a thread of its own, joins, and leaves the thread free to run
// on any CPU the process may (placed elsewhere only to start). parallel_for: every share once,
// on as many threads as asked and no more than there are shares; errors rethrown by share.
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

namespace {

// How many times each share ran, and on which thread, with `threads` threads.
struct Ran {
    std::vector<std::atomic<int>> times;
    std::vector<std::atomic<std::size_t>> thread;
    explicit Ran(std::size_t shares) : times(shares), thread(shares) {}
};

void run_all(Ran& ran, std::size_t threads) {
    parallel_for(ran.times.size(), threads, [&](std::size_t share, std::size_t thread) {
        ++ran.times[share];
        ran.thread[share] = thread;
    });
}

} // namespace

TEST_CASE("parallel_for: every share runs exactly once, on one thread or many") {
    for (const std::size_t threads : {0u, 1u, 2u, 3u, 8u}) {
        INFO(threads << " threads");
        Ran ran(100);
        run_all(ran, threads);
        for (std::size_t share = 0; share < ran.times.size(); ++share) {
            CHECK(ran.times[share] == 1);
            CHECK(ran.thread[share] < std::max<std::size_t>(threads, 1));
        }
    }
}

TEST_CASE("parallel_for: one thread runs every share on the caller, in order") {
    std::vector<std::size_t> order;
    parallel_for(5, 1, [&](std::size_t share, std::size_t thread) {
        CHECK(thread == 0);
        order.push_back(share);
    });
    CHECK(order == std::vector<std::size_t>{0, 1, 2, 3, 4});
}

TEST_CASE("parallel_for: more threads than shares start no more threads than shares") {
    Ran ran(3);
    run_all(ran, 16);
    for (std::size_t share = 0; share < 3; ++share) {
        CHECK(ran.times[share] == 1);
        CHECK(ran.thread[share] < 3);
    }
}

TEST_CASE("parallel_for: no shares, no work") {
    bool called = false;
    CHECK_NOTHROW(parallel_for(0, 4, [&](std::size_t, std::size_t) { called = true; }));
    CHECK_FALSE(called);
}

TEST_CASE("parallel_for: the first share by index that threw is rethrown once all have ended") {
    for (const std::size_t threads : {1u, 2u, 4u}) {
        INFO(threads << " threads");
        std::atomic<int> done{0};
        const auto run = [&](std::size_t throwing) {
            done = 0;
            parallel_for(6, threads, [&](std::size_t share, std::size_t) {
                if (share == throwing || share == 4) {
                    throw std::runtime_error("share " + std::to_string(share));
                }
                ++done;
            });
        };
        CHECK_THROWS_WITH(run(1), "share 1");
        CHECK(done == 4); // the other shares all ran
        CHECK_THROWS_WITH(run(0), "share 0");
        CHECK(done == 4);
        CHECK_THROWS_WITH(run(5), "share 4");
        CHECK(done == 4);
    }
}

TEST_CASE("threads for shares: one per core, at most 8, at most one per share, never none") {
    const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
    CHECK(threads_for_shares(0) == 1);
    CHECK(threads_for_shares(1) == 1);
    CHECK(threads_for_shares(2) == std::min<std::size_t>(2, cores));
    CHECK(threads_for_shares(1000) == std::min<std::size_t>(8, cores));
}
