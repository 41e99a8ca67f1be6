// The exchange rates a run converts with: the built-in ones (data/fx.yaml), with the user's
// --fx files and --fx-rate values over them.
#pragma once

#include "gpuadvisor/fx.hpp"
#include "io.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuadvisor::cli {

// "EUR=0.92" or "EUR=0.92@2026-11-30": units of the currency per US dollar, dated `today`
// unless a date is given. nullopt with `why` set when the text is not one.
std::optional<FxRate> parse_fx_rate(std::string_view text, Date today, std::string& why);

// The rates of the run: the built-in table, then each --fx file's rates, then each --fx-rate
// (later wins on a currency). nullopt after reporting a bad one (fail(): exit 3 for a file,
// 2 for a flag), with `exit_code` set.
std::optional<FxTable> load_rates(const std::vector<std::string>& files,
                                  const std::vector<std::string>& rates,
                                  std::string_view command,
                                  int& exit_code,
                                  Io& io);

} // namespace gpuadvisor::cli
