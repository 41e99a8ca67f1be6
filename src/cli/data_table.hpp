// CSV and Markdown are data: a table made from the objects the JSON document holds, one column a
// value, headed by its JSON key (docs/cli.md "Output").
#pragma once

#include "output.hpp"
#include "render_table.hpp"

#include <string>
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

// A column for each key of `object`, a number's right-aligned: for flat objects.
std::vector<DataColumn> key_columns(const Json& object);

// The columns of price_row_json's fields: each plan's money object as its amount under the
// plan's key ("on_demand": "35.50"), the row's one currency in "currency".
std::vector<DataColumn> price_row_columns();

} // namespace gpuadvisor::cli
