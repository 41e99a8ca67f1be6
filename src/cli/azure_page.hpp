// One Azure Retail Prices API page ({"BillingCurrency", "Items": [...], "NextPageLink", "Count"}):
// its items as JSON values, each with the file:line:column of the item and of its fields.
#pragma once

#include "gpuadvisor/diagnostic.hpp"

#include <nlohmann/json.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuadvisor::cli {

// The item fields the importer reads (a field's position is kept for these only).
enum class AzureField : std::uint8_t {
    currencyCode,
    unitPrice,
    retailPrice,
    armRegionName,
    location,
    effectiveStartDate,
    effectiveEndDate,
    meterId,
    meterName,
    skuId,
    productName,
    serviceName,
    unitOfMeasure,
    type,
    armSkuName,
    reservationTerm,
};
inline constexpr std::size_t k_azure_fields = 16;
std::string_view to_string(AzureField field);

// Where a value starts: byte offset, 1-based line and column (in characters).
struct TextPos {
    std::size_t offset = 0;
    std::uint32_t line = 0; // 0: not there
    std::uint32_t column = 0;
};

// The positions of Items[k] (its value is page.json["Items"][k]).
struct AzureItem {
    TextPos pos;                                           // the item's first character
    std::array<TextPos, k_azure_fields> fields{};          // each known field's value
    std::vector<std::pair<std::string, TextPos>> repeated; // a key given twice: the second
};

struct AzurePage {
    std::string file;
    std::string text;
    nlohmann::json json;
    std::vector<AzureItem> items;

    SourcePos pos(const TextPos& at) const { return {file, at.line, at.column}; }
    SourcePos pos(const AzureItem& item, AzureField field) const {
        const TextPos& at = item.fields[static_cast<std::size_t>(field)];
        return at.line == 0 ? pos(item.pos) : pos(at);
    }
    // A number field's text as the file writes it ("27.197"), for exact decimal reading.
    std::string_view number_text(const AzureItem& item, AzureField field) const;
};

// Reads and checks one page: a JSON object with an "Items" array. nullopt with the problems
// (io, syntax with file:line:column, wrong-type, missing-field, nesting over 64) in
// diagnostics.
std::optional<AzurePage> read_azure_page(const std::string& file, Diagnostics& diagnostics);
// The same, of a file's bytes already read.
std::optional<AzurePage>
parse_azure_page(const std::string& file, std::string text, Diagnostics& diagnostics);

} // namespace gpuadvisor::cli
