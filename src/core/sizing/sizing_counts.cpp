// How many units (instances, or nodes of GPUs) a workload runs on: shared by recommend and size.
#include "gpuadvisor/sizing.hpp"

#include <algorithm>
#include <cmath>

namespace gpuadvisor {

namespace {

// The fewest units from `from` up to `cap` for which `good` holds: steps of one, then doubling
// until it holds, then every count between the last miss and there, in order; nullopt if not
// even `cap`. Every count of the last step is tried, not a bisection: time is not monotonic in
// the count (a count with a better layout beats the next one up), and the steps do not depend
// on `cap` below it, so callers with different caps agree.
template <class Good> std::optional<int> fewest(int from, int cap, Good good) {
    int miss = from - 1;
    int n = from;
    for (int tries = 0; !good(n); ++tries) {
        if (n >= cap) {
            return std::nullopt;
        }
        miss = n;
        n = std::min(cap, tries < 3 ? n + 1 : n * 2);
    }
    for (int between = miss + 1; between < n; ++between) {
        if (good(between)) {
            return between;
        }
    }
    return n;
}

} // namespace

double units_needed(const NormalizedWorkload& w, const Estimate& e) {
    switch (w.kind) {
    case WorkloadKind::training:
    case WorkloadKind::finetune:
        return e.min_gpus;
    case WorkloadKind::inference:
        return static_cast<double>(e.replicas) * e.gpus_per_replica;
    default:
        return e.replicas;
    }
}

CountSearch search_counts(const NormalizedWorkload& w,
                          double gpus_per_unit,
                          int cap,
                          const std::function<const Estimate&(int)>& run) {
    CountSearch result;
    const Estimate& one = run(1);
    double units = units_needed(w, one);
    const auto helps = [](double u) {
        return std::isfinite(u) && u > 0;
    };
    if (!helps(units) && !one.latency_out_of_reach && cap >= 2) {
        // Serving splits a model over two nodes only when there are two: a model one unit
        // cannot hold may fit on two.
        units = units_needed(w, run(2));
    }
    if (!helps(units)) {
        result.why = &one;
        return result;
    }
    result.needed = std::ceil(units / gpus_per_unit - 1e-9);
    if (result.needed > cap) {
        return result;
    }
    const auto fit = fewest(
        std::max(1, static_cast<int>(result.needed)), cap, [&](int n) { return run(n).fits; });
    if (!fit) {
        result.rejected_at = cap;
        result.why = &run(cap);
        return result;
    }
    result.counts.push_back(*fit);
    result.deadline_count = *fit;
    if (!is_finite_work(w.kind)) {
        return result;
    }
    if (w.deadline_hours) {
        result.deadline_count = fewest(*fit, cap, [&](int n) {
                                    const Estimate& e = run(n);
                                    return e.fits && e.hours <= *w.deadline_hours;
                                }).value_or(cap); // none meets it: the fastest, to say how far
    }
    const int fast = result.deadline_count;
    for (const int count : {fast, fast * 2, fast * 4}) {
        if (count <= cap &&
            std::find(result.counts.begin(), result.counts.end(), count) == result.counts.end()) {
            result.counts.push_back(count);
        }
    }
    return result;
}

} // namespace gpuadvisor
