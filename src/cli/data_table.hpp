// CSV and Markdown are data: a table made from the objects the JSON document holds, one column a
// value, headed by its JSON key (docs/cli.md "Output").
#pragma once

#include "output.hpp"
#include "render_table.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace gpuadvisor::cli {

struct DataColumn {
    std::string key;     // the header: the value's JSON key, snake_case ("per_hour")
    std::string pointer; // where the value is in each object, a JSON pointer ("/cost/per_hour")
    Align align = Align::left;
};

// One row per object of `objects`, each cell the value at its column's pointer as cell_text
// writes it (absent or null: empty); an array is its items joined by "; ".
Table data_table(const std::vector<DataColumn>& columns, const Json& objects);

// A column for each key the objects have, in the order first met, a number's right-aligned; a
// money object ({"currency": ..., "per_hour": ...}) is its amount, its currency the caller's to
// name; a key whose value is another object has none.
std::vector<DataColumn> key_columns(const Json& objects);

// `objects` as the format asks: with -o json, the document `command` with them under `key`;
// with CSV or Markdown, as data in `columns`. False for a terminal table, which the caller writes.
bool print_listing(std::string_view command,
                   const char* key,
                   const Json& objects,
                   const std::vector<DataColumn>& columns,
                   Io& io);

// The columns of price_row_json's fields: each plan's money object as its amount under the
// plan's key ("on_demand": "35.50"), the row's one currency in "currency".
std::vector<DataColumn> price_row_columns();

} // namespace gpuadvisor::cli
