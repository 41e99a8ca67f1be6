#include "gpuadvisor/spelling.hpp"

#include <algorithm>
#include <numeric>

namespace gpuadvisor {

std::string to_lower(std::string_view text) {
    std::string lower(text);
    for (char& c : lower) {
        if (c >= 'A' && c <= 'Z') {
            c = static_cast<char>(c - 'A' + 'a');
        }
    }
    return lower;
}

std::size_t edit_distance(std::string_view a_in, std::string_view b_in) {
    const std::string a = to_lower(a_in);
    const std::string b = to_lower(b_in);
    const std::size_t n = b.size();
    std::vector<std::size_t> before(n + 1);
    std::vector<std::size_t> previous(n + 1);
    std::vector<std::size_t> current(n + 1);
    std::iota(previous.begin(), previous.end(), std::size_t{0});
    for (std::size_t i = 1; i <= a.size(); ++i) {
        current[0] = i;
        for (std::size_t j = 1; j <= n; ++j) {
            const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
                current[j] = std::min(current[j], before[j - 2] + 1);
            }
        }
        std::swap(before, previous);
        std::swap(previous, current);
    }
    return previous[n];
}

std::vector<std::string>
nearest_names(std::string_view word, const std::vector<std::string>& candidates, std::size_t most) {
    if (word.size() > 256) {
        return {};
    }
    const std::size_t limit = std::max<std::size_t>(1, word.size() / 3);
    std::vector<std::pair<std::size_t, std::size_t>> scored; // distance, index
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        const std::string_view candidate = candidates[i];
        const std::string_view shorter = word.size() < candidate.size() ? word : candidate;
        const std::string_view longer = word.size() < candidate.size() ? candidate : word;
        // A misspelling that keeps the whole of a known name as its start ("on_demand_prce").
        const bool prefix = shorter.size() >= 4 && to_lower(longer).starts_with(to_lower(shorter));
        const std::size_t distance = prefix ? std::min(limit, longer.size() - shorter.size())
                                            : edit_distance(word, candidate);
        if (distance <= limit) {
            scored.emplace_back(distance, i);
        }
    }
    std::stable_sort(scored.begin(), scored.end());
    if (!scored.empty() && scored.front().first == 0) {
        // Only the case differs ("q" for "Q"): that name, not its neighbours as well.
        std::erase_if(scored, [](const auto& entry) { return entry.first > 0; });
    }
    std::vector<std::string> names;
    for (const auto& [distance, index] : scored) {
        if (names.size() == most) {
            break;
        }
        if (std::find(names.begin(), names.end(), candidates[index]) == names.end()) {
            names.push_back(candidates[index]);
        }
    }
    return names;
}

std::string did_you_mean(const std::vector<std::string>& names) {
    if (names.empty()) {
        return {};
    }
    std::string text = "did you mean '" + names[0] + "'";
    for (std::size_t i = 1; i < names.size(); ++i) {
        text += (i + 1 == names.size() ? " or '" : ", '") + names[i] + "'";
    }
    return text + "?";
}

} // namespace gpuadvisor
