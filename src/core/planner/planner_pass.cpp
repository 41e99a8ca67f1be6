// The pass over every offer, on several threads for a large catalog: the instance types are cut
// into contiguous pieces, each priced with its own state by whichever thread takes it, and the
// pieces are joined in catalog order, so the result is the one a single pass gives (tested).
// The threads share the sizing (SizingMemo): each kind of hardware is sized once.
#include "planner/planner_internal.hpp"
#include "util/helper_thread.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <string_view>
#include <system_error>
#include <tuple>
#include <unordered_map>

namespace gpuadvisor::planner_detail {

namespace {

// Below this many offers a second thread costs more than it saves.
constexpr std::size_t k_offers_per_thread = 20'000;
// Pieces of the catalog per thread, each taken by whichever thread is free next: a thread that
// runs slower (its CPU busy with other work, as on a shared machine) takes fewer.
constexpr std::size_t k_pieces_per_thread = 4;

// Of equals, the first met in a single pass (Late::met_before), whatever the order of adding.
bool quicker(const Late& a, const std::optional<Late>& b) {
    if (!b) {
        return true;
    }
    const auto key = [](const Late& l) {
        return std::tuple(*l.hours, l.total_micros);
    };
    return key(a) < key(*b) || (key(a) == key(*b) && a.met_before(*b));
}

bool cheaper(const Late& a, const std::optional<Late>& b) {
    return !b || a.total_micros < b->total_micros ||
           (a.total_micros == b->total_micros && a.met_before(*b));
}

} // namespace

std::vector<std::span<const InstanceType>>
pieces_of(const std::vector<InstanceType>& instances, std::size_t offers, std::size_t pieces) {
    std::vector<std::span<const InstanceType>> result;
    std::size_t begin = 0;
    std::size_t seen = 0;
    for (std::size_t i = 0; i < instances.size(); ++i) {
        seen += instances[i].regions.size();
        const bool last = i + 1 == instances.size();
        if (last || seen * pieces >= offers * (result.size() + 1)) {
            result.emplace_back(instances.data() + begin, i + 1 - begin);
            begin = i + 1;
        }
    }
    return result;
}

void LateSummary::add(const Late& late, std::optional<std::int64_t> budget, bool list) {
    ++count;
    if (list) {
        listed.push_back(late);
    }
    consider(late, budget);
}

void LateSummary::consider(const Late& late, std::optional<std::int64_t> budget) {
    if (quicker(late, fastest)) {
        fastest = late;
    }
    if ((!budget || late.total_micros <= *budget) && quicker(late, fastest_affordable)) {
        fastest_affordable = late;
    }
    if (cheaper(late, cheapest)) {
        cheapest = late;
    }
}

void LateSummary::append(LateSummary&& later) {
    count += later.count;
    listed.insert(listed.end(), later.listed.begin(), later.listed.end());
    if (later.fastest && quicker(*later.fastest, fastest)) {
        fastest = later.fastest;
    }
    if (later.fastest_affordable && quicker(*later.fastest_affordable, fastest_affordable)) {
        fastest_affordable = later.fastest_affordable;
    }
    if (later.cheapest && cheaper(*later.cheapest, cheapest)) {
        cheapest = later.cheapest;
    }
}

// Room, asked for once, for the groups and counted late configurations a slice is likely to
// make: as many as it can make (four counts per instance type, a group per plan), but no more
// than one per offer, so room stays in proportion to the catalog (a slice that makes more
// grows as before). Grown by doubling from nothing, these vectors copy themselves and touch
// twice the memory, and on a large catalog a page touched first costs more than the work
// stored in it; room never used is never touched.
void Planner::reserve_room(std::span<const InstanceType> instances) {
    std::size_t offers = 0;
    for (const InstanceType& instance : instances) {
        offers += instance.regions.size();
    }
    const std::size_t configurations = std::min(offers, instances.size() * k_max_counts);
    m_groups.reserve(
        std::min(offers, configurations * std::max<std::size_t>(1, m_plans_asked.size())));
    if (m_w.deadline_hours) {
        m_counted_late.reserve(configurations);
    }
}

void Planner::pass(std::span<const InstanceType> instances) {
    reserve_room(instances);
    // Each GPU's entry looked up once by name (a catalog has tens of GPUs and 10,000s of types).
    std::unordered_map<std::string_view, const Gpu*> gpus;
    for (const InstanceType& instance : instances) {
        const auto [it, added] = gpus.try_emplace(instance.gpu, nullptr);
        if (added) {
            it->second = m_in.catalog->find_gpu(instance.gpu);
        }
        if (it->second != nullptr) {
            instance_type(instance, *it->second);
        }
    }
}

const CountChoice& SizingMemo::counts(const Kind& kind,
                                      const std::function<CountChoice(Estimates&)>& make) {
    Entry* entry = nullptr;
    {
        const std::lock_guard lock(m_mutex);
        std::unique_ptr<Entry>& slot = m_entries[kind];
        if (!slot) {
            slot = std::make_unique<Entry>();
        }
        entry = slot.get();
    }
    std::call_once(entry->made, [&] { entry->choice = make(entry->estimates); });
    return entry->choice;
}

void Planner::pass_over_offers() {
    const std::vector<InstanceType>& instances = m_in.catalog->instances();
    const std::size_t offers = m_in.catalog->offer_count();
    std::size_t threads = m_c.threads;
    if (threads == 0) {
        threads = threads_for_shares(offers / k_offers_per_thread);
    }
    threads = std::clamp<std::size_t>(threads, 1, std::max<std::size_t>(1, instances.size()));
    if (threads == 1 || offers == 0) {
        pass(instances);
        return;
    }
    const std::vector<std::span<const InstanceType>> pieces =
        pieces_of(instances, offers, threads * k_pieces_per_thread);
    for (std::size_t k = 1; k < pieces.size(); ++k) { // all made before any thread starts
        m_helpers.push_back(std::make_unique<Planner>(m_in));
        m_helpers.back()->m_sizing = m_sizing;
    }
    // Each thread takes the next piece not yet taken: the first for this planner.
    std::atomic<std::size_t> next{0};
    std::vector<std::exception_ptr> errors(pieces.size());
    const auto price_pieces = [&] {
        std::shared_ptr<AlikeMap> alike; // this thread's: bills and verdicts outlast a piece
        for (std::size_t k = next++; k < pieces.size(); k = next++) {
            try {
                Planner& planner = k == 0 ? *this : *m_helpers[k - 1];
                if (k > 0) {
                    planner.fire_rules();
                }
                if (alike) {
                    planner.m_alike = alike;
                } else {
                    alike = planner.m_alike;
                }
                planner.pass(pieces[k]);
            } catch (...) {
                errors[k] = std::current_exception();
            }
        }
    };
    std::vector<HelperThread> running;
    running.reserve(threads - 1);
    try {
        while (running.size() + 1 < threads) {
            running.emplace_back(price_pieces);
        }
    } catch (const std::system_error&) { // no more threads: the ones running take the rest
    }
    price_pieces();
    for (HelperThread& thread : running) {
        thread.join();
    }
    for (const std::exception_ptr& error : errors) {
        if (error) {
            std::rethrow_exception(error);
        }
    }
    Groups::Sizes all = m_groups.sizes(); // room for every slice's groups, asked for once
    std::size_t counted_late = m_counted_late.size();
    for (const auto& helper : m_helpers) {
        all += helper->m_groups.sizes();
        counted_late += helper->m_counted_late.size();
    }
    m_groups.reserve(all);
    m_counted_late.reserve(counted_late);
    for (const auto& helper : m_helpers) { // in catalog order
        absorb(std::move(*helper));
    }
}

// Joins the state of a later slice's pass to this one's, as if this planner had gone on to
// price that slice itself. The helper stays alive: options point to its estimates.
void Planner::absorb(Planner&& later) {
    auto& rejected = m_result.rejected;
    rejected.insert(rejected.end(),
                    std::make_move_iterator(later.m_result.rejected.begin()),
                    std::make_move_iterator(later.m_result.rejected.end()));
    for (const auto& [code, n] : later.m_result.rejected_by_code) {
        m_result.rejected_by_code[code] += n;
    }
    for (const auto& [gpu, best] : later.m_result.out_of_reach) {
        keep_out_of_reach(gpu, best, m_result.out_of_reach);
    }
    m_result.considered += later.m_result.considered;
    for (const auto& [rule, n] : later.m_rule_rejections) {
        m_rule_rejections[rule] += n;
    }
    for (const auto& [currency, n] : later.m_offers_without_rate) {
        m_offers_without_rate[currency] += n;
    }
    // Tags are numbered as first seen: the later slice's, in its order, after this one's.
    std::vector<const std::vector<std::uint32_t>*> matched_by_tags(later.m_tags.size());
    for (const auto& [matched, index] : later.m_tag_index) {
        matched_by_tags[index] = &matched;
    }
    std::vector<std::uint32_t> renumbered;
    for (const auto* matched : matched_by_tags) {
        renumbered.push_back(tags_of(*matched));
    }
    for (auto* options : {&later.m_groups.best, &later.m_over_budget}) {
        for (Option& o : *options) {
            o.tags = renumbered[o.tags];
        }
    }
    m_groups.append(std::move(later.m_groups));
    m_over_budget.insert(
        m_over_budget.end(), later.m_over_budget.begin(), later.m_over_budget.end());
    m_late.append(std::move(later.m_late));
    m_counted_late.insert(
        m_counted_late.end(), later.m_counted_late.begin(), later.m_counted_late.end());
}

} // namespace gpuadvisor::planner_detail
