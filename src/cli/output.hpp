// JSON documents and diagnostics, the two things every command prints.
#pragma once

#include "gpuadvisor/catalog.hpp"
#include "gpuadvisor/diagnostic.hpp"
#include "gpuadvisor/fx.hpp"
#include "io.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuadvisor::cli {

using Json = nlohmann::ordered_json;

// The version of every JSON document's shape (CLI.md "JSON output"; docs/cli.md "JSON contract").
inline constexpr int k_json_schema_version = 2;

// {"schema_version": 2, "command": name, "ok": true}: the start of every JSON document. A
// command that answers in the negative (exit 1) sets "ok" to false; a failure (fail()) does.
// Writes `text` to the file at `path` (created or truncated); false when it cannot be written
// whole.
bool write_text_file(const std::string& path, std::string_view text);

Json json_document(std::string_view command);

// Writes a JSON document (strict: invalid UTF-8 is replaced, never emitted).
void write_json(const Json& document, Io& io);

Json diagnostic_json(const Diagnostic& diagnostic);

// At most Diagnostics::k_shown of them, as JSON objects.
Json diagnostics_json(const Diagnostics& diagnostics);

// Human form on stderr: "file:line:col: error[code]: message" then "  hint: ...", at most
// Diagnostics::k_shown of them, then "... and N more".
void print_diagnostics(const Diagnostics& diagnostics, Io& io);

// A failure: with -o json, {"ok": false, "diagnostics": [...]} on stdout; always the human
// form on stderr. Returns `exit_code`.
int fail(std::string_view command, const Diagnostics& diagnostics, int exit_code, Io& io);
int fail(std::string_view command,
         std::string code,
         std::string message,
         std::string hint,
         int exit_code,
         Io& io);

// A JSON value as a table cell: strings as they are, null as empty, numbers without locale.
std::string cell_text(const Json& value);

// Optional number as JSON (null when absent).
Json optional_number(const std::optional<double>& value);

// A count (instances, GPUs, servers) as a JSON integer when it is whole, as it always is but
// for a fractional --count; a number otherwise.
Json count_json(double value);

// Money in JSON is one object, {"currency": "USD", <amount keys>}, each amount an exact
// decimal string made from the integer micro-units (or null when absent):
//   {"currency": "USD", "per_hour": "32.7726", "total": "287087.98"}.
// A rate (per hour, per month, per million tokens) keeps every digit it has ("32.7726",
// "0.000001", at least two decimals): rate_amount. An amount billed (a total, a saving, a
// difference) is to the cent as the tables show it (format_cents, half up; under half a cent
// it keeps its digits rather than read as a free 0.00): billed_amount. Signs are kept.
Json rate_amount(std::optional<std::int64_t> micros);
Json billed_amount(std::optional<std::int64_t> micros);

struct MoneyAmount {
    std::string_view key; // "per_hour", "per_month", "total", ...
    Json amount;          // rate_amount or billed_amount: a string, or null
};
Json money_json(std::string_view currency, std::initializer_list<MoneyAmount> amounts);

// The usual billed amount alone: {"currency": ..., "total": "12.50"}.
Json total_json(std::string_view currency, std::optional<std::int64_t> micros);

// A currency conversion as JSON names it wherever one is used: {"from": "CNY", "to": "EUR",
// "rate": 0.12798397 (8 significant digits), "as_of", "source"}. A cross rate goes through
// USD: its date is the older of its two rates' and its source names both. Null when `from` is
// `to` or a rate is missing.
Json conversion_json(const FxTable& fx, std::string_view from, std::string_view to);
// The conversions to `to` from each of these currencies (each once, in code order; `to` itself
// and a currency without a rate left out).
Json conversions_json(const FxTable& fx, std::vector<std::string> from, std::string_view to);
// The same in words, for under a table: "1 USD = 0.9603 EUR (EUR: source, date)".
std::vector<std::string>
conversion_lines(const FxTable& fx, std::vector<std::string> from, std::string_view to);

} // namespace gpuadvisor::cli
