#include "data_table.hpp"

#include "gpuadvisor/catalog.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace gpuadvisor::cli {

namespace {

std::string data_cell(const Json& value) {
    if (!value.is_array()) {
        return cell_text(value);
    }
    std::vector<std::string> items;
    for (const Json& item : value) {
        items.push_back(cell_text(item));
    }
    return fmt::format("{}", fmt::join(items, "; "));
}

} // namespace

Table data_table(const std::vector<DataColumn>& columns, const Json& objects) {
    Table table;
    std::vector<Json::json_pointer> pointers;
    for (const DataColumn& column : columns) {
        table.columns.push_back({column.key, column.align});
        pointers.emplace_back(column.pointer);
    }
    for (const Json& object : objects) {
        auto& row = table.rows.emplace_back();
        for (const auto& pointer : pointers) {
            row.push_back(object.contains(pointer) ? data_cell(object.at(pointer)) : "");
        }
    }
    return table;
}

namespace {

// A money object's amount key ("per_hour" of {"currency": "USD", "per_hour": "1.20"}); empty
// for any other value.
std::string money_amount(const Json& value) {
    if (!value.is_object() || value.size() != 2 || !value.contains("currency")) {
        return {};
    }
    for (const auto& [key, amount] : value.items()) {
        if (key != "currency") {
            return key;
        }
    }
    return {};
}

} // namespace

std::vector<DataColumn> key_columns(const Json& objects) {
    std::vector<DataColumn> columns;
    for (const Json& object : objects) {
        for (const auto& [key, value] : object.items()) {
            const std::string amount = money_amount(value);
            if (value.is_object() && amount.empty()) {
                continue;
            }
            auto column = std::find_if(
                columns.begin(), columns.end(), [&key = key](auto& c) { return c.key == key; });
            if (column == columns.end()) {
                column = columns.insert(columns.end(), {key, "/" + key});
            }
            if (!amount.empty()) {
                column->pointer = "/" + key + "/" + amount;
            }
            if (value.is_number() || !amount.empty()) { // (a number in any row)
                column->align = Align::right;
            }
        }
    }
    return columns;
}

bool print_listing(std::string_view command,
                   const char* key,
                   const Json& objects,
                   const std::vector<DataColumn>& columns,
                   Io& io) {
    if (io.format == OutputFormat::json) {
        Json document = json_document(command);
        document[key] = objects;
        write_json(document, io);
        return true;
    }
    if (io.format == OutputFormat::table) {
        return false;
    }
    render_table(data_table(columns, objects), io);
    return true;
}

std::vector<DataColumn> price_row_columns() {
    std::vector<DataColumn> columns{{"region", "/region"}, {"currency", "/currency"}};
    for (const Plan plan : k_all_plans) {
        const std::string key(to_string(plan));
        const char* amount = plan == Plan::subscription_monthly ? "/per_month" : "/per_hour";
        columns.push_back({key, "/" + key + amount, Align::right});
    }
    columns.insert(columns.end(),
                   {{"spot_interruption", "/spot_interruption"},
                    {"as_of", "/as_of"},
                    {"confidence", "/confidence"},
                    {"source", "/source"},
                    {"defined_at", "/defined_at"}});
    return columns;
}

} // namespace gpuadvisor::cli
