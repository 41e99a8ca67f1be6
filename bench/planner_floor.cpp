// The least work any exact planner must do on a catalog, timed: read each row's prices once and
// price every (row, plan, instance count) once, as the planner's pass must to count what it
// considered and find each configuration's cheapest row: a 64-bit product with its overflow
// check, a conversion for a row in another currency, a term plan compared with on-demand, a
// comparison with the cheapest so far and a count. No sizing, rules, deadlines or budgets:
// what is left is the floor under the plan stage that `--timings` reports (docs/performance.md,
// "How far the planner is from its floor").
//   cmake --build build --target gpuadvisor_planner_floor
//   build/gpuadvisor_planner_floor [--threads N] [--spot] CATALOG...  (files or folders to load)
// Loads the catalog (over no built-in catalog, the files' cache as the CLI's), then times the
// pass 41 times on N threads (default 2) and prints the first pass (the rows not yet in the
// processor's caches, as for the planner), then the other 40's median, quickest and slowest.
#include "gpuadvisor/catalog_io.hpp"
#include "planner/planner_internal.hpp"
#include "util/helper_thread.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace {

using gpuadvisor::InstanceType;
using gpuadvisor::Plan;
using Clock = std::chrono::steady_clock;

constexpr std::array k_plans{
    Plan::on_demand, Plan::spot, Plan::reserved_1y, Plan::reserved_3y, Plan::subscription_monthly};
constexpr int k_counts = 4;            // instance counts priced per instance type, as the planner's
constexpr double k_yuan_per_usd = 7.2; // any rate: the work is the same

struct Tally {
    std::uint64_t priced = 0;
    std::uint64_t cheapest_sum = 0; // kept so the work cannot be optimised away
};

struct Rate {
    std::int64_t micros;
    std::int64_t on_demand; // the row's, for a term plan (0: none)
    bool converted;
};

// A total in thousandths of an hour's price, converted to dollars where the row's is not.
bool total_of(const Rate& rate, std::int64_t thousandths, std::int64_t& total) {
    if (__builtin_mul_overflow(rate.micros, thousandths, &total)) {
        return false;
    }
    total /= 1000;
    if (rate.converted) {
        total = std::llround(static_cast<double>(total) / k_yuan_per_usd);
    }
    return true;
}

// Spot is priced only for interruptible work (`spot`: --spot), as the planner prices it.
void price_instance(const InstanceType& instance,
                    bool spot,
                    std::array<std::vector<Rate>, k_plans.size()>& rates,
                    Tally& tally) {
    for (auto& plan_rates : rates) {
        plan_rates.clear();
    }
    for (const gpuadvisor::PriceRow& row : instance.regions) { // each row read once
        const bool converted = std::string_view(row.currency) != "USD";
        const std::int64_t on_demand = row.on_demand.value_or(0);
        for (std::size_t p = 0; p < k_plans.size(); ++p) {
            if (k_plans[p] == Plan::spot && !spot) {
                continue;
            }
            if (const auto& price = row.price(k_plans[p])) {
                rates[p].push_back({*price, p >= 2 ? on_demand : 0, converted});
            }
        }
    }
    for (int count = 1; count <= k_counts; ++count) {
        for (std::size_t p = 0; p < k_plans.size(); ++p) {
            const std::int64_t thousandths = 720'000 * count * static_cast<std::int64_t>(p + 1);
            std::int64_t cheapest = INT64_MAX;
            for (const Rate& rate : rates[p]) {
                std::int64_t total = 0;
                std::int64_t on_demand = 0;
                if (!total_of(rate, thousandths, total) ||
                    (rate.on_demand != 0 &&
                     total_of({rate.on_demand, 0, rate.converted}, 720'000 * count, on_demand) &&
                     total >= on_demand)) {
                    continue;
                }
                ++tally.priced;
                cheapest = std::min(cheapest, total);
            }
            tally.cheapest_sum += cheapest == INT64_MAX ? 0 : static_cast<std::uint64_t>(cheapest);
        }
    }
}

Tally price_slice(std::span<const InstanceType> instances, bool spot) {
    std::array<std::vector<Rate>, k_plans.size()> rates;
    Tally tally;
    for (const InstanceType& instance : instances) {
        price_instance(instance, spot, rates, tally);
    }
    return tally;
}

// One pass, a slice a thread (started as the planner starts them); its wall time in ms.
double timed_pass(std::span<const std::span<const InstanceType>> slices, bool spot, Tally& all) {
    std::vector<Tally> tallies(slices.size());
    const Clock::time_point start = Clock::now();
    gpuadvisor::run_on_threads(slices.size(),
                               [&](std::size_t k) { tallies[k] = price_slice(slices[k], spot); });
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    for (const Tally& tally : tallies) {
        all.priced += tally.priced;
        all.cheapest_sum += tally.cheapest_sum;
    }
    return ms;
}

const char* cache_dir() {
    const char* dir = std::getenv("GPUADVISOR_CACHE_DIR");
    return dir != nullptr ? dir : "";
}

} // namespace

int main(int argc, char** argv) {
    std::size_t threads = 2;
    bool spot = false;
    gpuadvisor::CatalogSources sources;
    sources.include_builtin = false;
    sources.cache.dir = cache_dir();
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--spot") {
            spot = true;
        } else if (arg == "--threads" && i + 1 < argc) {
            threads = static_cast<std::size_t>(std::max(1, std::atoi(argv[++i])));
        } else {
            sources.paths.emplace_back(arg);
        }
    }
    if (sources.paths.empty()) {
        std::fprintf(stderr, "usage: gpuadvisor_planner_floor [--threads N] [--spot] CATALOG...\n");
        return 2;
    }
    const gpuadvisor::CatalogLoad load = gpuadvisor::load_catalog(sources);
    if (load.diagnostics.has_errors()) { // a floor over a part of the catalog would mislead
        std::size_t shown = 0;
        for (const gpuadvisor::Diagnostic& d : load.diagnostics.items()) {
            if (d.severity == gpuadvisor::Severity::error && shown++ < 10) {
                std::fprintf(stderr, "%s\n", gpuadvisor::format_diagnostic(d).c_str());
            }
        }
        std::fprintf(stderr,
                     "gpuadvisor_planner_floor: the catalog has %zu error(s); nothing timed\n",
                     load.diagnostics.error_count());
        return 1;
    }
    const std::vector<InstanceType>& instances = load.catalog.instances();
    if (instances.empty()) {
        std::fprintf(stderr, "gpuadvisor_planner_floor: the catalog has no instance types\n");
        return 1;
    }
    const std::size_t offers = load.catalog.offer_count();
    // Slices of about equal offers, one a thread, cut as the planner cuts its pieces.
    const auto slices = gpuadvisor::planner_detail::pieces_of(instances, offers, threads);
    std::vector<double> ms;
    Tally tally;
    for (int round = 0; round < 41; ++round) {
        ms.push_back(timed_pass(slices, spot, tally));
    }
    const double first = ms.front();
    ms.erase(ms.begin()); // the others' figures below
    std::sort(ms.begin(), ms.end());
    std::printf("%zu offers, %zu instance types, %zu thread(s): %llu options priced a pass; "
                "first %.2f ms; then median %.2f ms, quickest %.2f, slowest %.2f (check %llu)\n",
                offers,
                instances.size(),
                threads,
                static_cast<unsigned long long>(tally.priced / (ms.size() + 1)),
                first,
                ms[ms.size() / 2],
                ms.front(),
                ms.back(),
                static_cast<unsigned long long>(tally.cheapest_sum % 1'000'000));
    return 0;
}
