// JSON documents and diagnostics, the two things every command prints.
#pragma once

#include "gpuadvisor/catalog.hpp"
#include "gpuadvisor/diagnostic.hpp"
#include "io.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string_view>

namespace gpuadvisor::cli {

using Json = nlohmann::ordered_json;

// {"schema_version": 1, "command": name}: the start of every JSON document.
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
// {"currency": "USD", "per_hour": 1.23} style money value.
double money_units(std::int64_t micros);

} // namespace gpuadvisor::cli
