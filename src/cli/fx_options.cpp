#include "fx_options.hpp"

#include "exit_status.hpp"
#include "output.hpp"
#include "text.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

namespace gpuadvisor::cli {

std::optional<FxRate> parse_fx_rate(std::string_view text, Date today, std::string& why) {
    const std::size_t equals = text.find('=');
    const std::string_view code = text.substr(0, equals);
    if (equals == std::string_view::npos || !is_currency_code(code)) {
        why = "write CODE=RATE, the currency's units per US dollar: EUR=0.92";
        return std::nullopt;
    }
    if (code == "USD") {
        why = "USD is the base (1 by definition): give the other currency's rate";
        return std::nullopt;
    }
    std::string_view number = text.substr(equals + 1);
    const std::size_t at = number.find('@');
    const std::string_view date_text =
        at == std::string_view::npos ? std::string_view() : number.substr(at + 1);
    number = number.substr(0, at);
    double per_usd = 0;
    const auto [end, error] =
        std::from_chars(number.data(), number.data() + number.size(), per_usd);
    if (error != std::errc() || end != number.data() + number.size() || !std::isfinite(per_usd) ||
        per_usd < k_lowest_per_usd || per_usd > k_highest_per_usd) {
        why = fmt::format("the rate must be a number of {} per US dollar, from {:.6f} to {:.0f}",
                          code,
                          k_lowest_per_usd,
                          k_highest_per_usd);
        return std::nullopt;
    }
    const std::optional<Date> as_of = at == std::string_view::npos ? today : parse_date(date_text);
    if (!as_of) {
        why = "the date after '@' is the rate's date, as YYYY-MM-DD";
        return std::nullopt;
    }
    return FxRate{std::string(code),
                  per_usd,
                  {fmt::format("--fx-rate {}", text), *as_of, Confidence::high, {}}};
}

std::optional<FxTable> load_rates(const std::vector<std::string>& files,
                                  const std::vector<std::string>& rates,
                                  std::string_view command,
                                  int& exit_code,
                                  Io& io) {
    std::vector<FxRate> over;
    for (const std::string& file : files) {
        FxLoad load = load_fx_file(file);
        if (load.diagnostics.has_errors()) {
            exit_code = fail(command, load.diagnostics, k_exit_input, io);
            return std::nullopt;
        }
        for (const FxRate& rate : load.table.rates()) {
            if (rate.currency != "USD") { // (the table's own base)
                over.push_back(rate);
            }
        }
    }
    for (const std::string& text : rates) {
        std::string why;
        const std::optional<FxRate> rate = parse_fx_rate(text, io.today, why);
        if (!rate) {
            exit_code = fail(command,
                             "usage",
                             fmt::format("--fx-rate: '{}' is not a rate", terminal_safe(text)),
                             why,
                             k_exit_usage,
                             io);
            return std::nullopt;
        }
        over.push_back(*rate);
    }
    return builtin_fx().overlaid(over);
}

} // namespace gpuadvisor::cli
