// Did-you-mean: the known names nearest a misspelt one; case folding.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gpuadvisor {

// Lower-case ASCII copy.
std::string to_lower(std::string_view text);

// Edit distance (insertions, deletions, substitutions, adjacent swaps), case-insensitive.
std::size_t edit_distance(std::string_view a, std::string_view b);

// Up to `most` candidates within a distance that grows with the word's length
// (1 for short words, about a third of the length for long ones), nearest first,
// ties in the candidates' order.
std::vector<std::string> nearest_names(std::string_view word,
                                       const std::vector<std::string>& candidates,
                                       std::size_t most = 3);

// "did you mean 'a'?" / "did you mean 'a' or 'b'?" / "" for no candidates.
std::string did_you_mean(const std::vector<std::string>& names);

} // namespace gpuadvisor
