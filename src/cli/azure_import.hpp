// The Azure Retail Prices API importer's item rules (azure_items.cpp) and what it keeps between
// pages: the chosen price of each (instance type, region, plan), the items seen, the unknown
// GPU sizes and the skipped items' counts.
#pragma once

#include "azure_page.hpp"
#include "catalog_import.hpp"

#include <fmt/format.h>

#include <map>
#include <set>
#include <string>
#include <tuple>

namespace gpuadvisor::cli {

inline constexpr std::size_t k_azure_max_errors = 1000;

class AzureReader {
  public:
    AzureReader(const ImportContext& context, ImportResult& result);

    void page(const AzurePage& page);
    // True once a page stopped at the error limit (it said so).
    bool stopped() const { return m_stopped; }
    // The chosen prices into the result, with the unknown GPU sizes and the summary.
    void finish(const std::string& first_file);

  private:
    // The price an item gives, before the newest of its (instance, region, plan) is chosen.
    struct Chosen {
        ImportedPrice price;
        Date start{};
        std::string file; // the page's file name, for the source
        std::int64_t term_micros = 0;
        std::string term; // "1 Year", "3 Years" or ""
        std::size_t items = 0;
    };
    struct Unknown { // the sizes of one GPU VM series the catalog lacks
        std::set<std::string> skus;
        std::size_t items = 0;
        SourcePos first;
    };
    // Why items were not imported -> how many (the summary line, in the reasons' order).
    std::map<std::string, std::size_t> m_skipped;

    const ImportContext& m_context;
    ImportResult& m_result;
    const Provider* m_azure = nullptr;
    std::map<std::tuple<std::string, std::string, Plan>, Chosen> m_chosen;
    std::map<std::string, SourcePos> m_seen;  // an item's identity -> where it was first
    std::map<std::string, Unknown> m_unknown; // productName -> its unknown sizes
    std::size_t m_items = 0;
    std::size_t m_pages = 0;
    bool m_stopped = false;

    // One item's context while it is read.
    const AzurePage* m_page = nullptr;
    const AzureItem* m_item = nullptr;
    const nlohmann::json* m_value = nullptr;
    std::size_t m_index = 0;
    bool m_ok = true;

    void item();
    void price_item(const InstanceType& type, std::string_view kind, std::string_view meter);
    bool skip(const std::string& why);
    std::string path(AzureField field) const;
    SourcePos pos(AzureField field) const { return m_page->pos(*m_item, field); }
    void error(AzureField field, const char* code, std::string message, std::string hint);
    std::optional<std::string> text(AzureField field);
    std::optional<Date> date(AzureField field);
    std::optional<std::int64_t> micros(std::string_view currency, double hours);
    const InstanceType* instance(const std::string& sku) const;
    bool region_known(const std::string& region);
    void choose(Chosen chosen, const std::string& identity);
    void report_unknown();
    void summary(const std::string& first_file);
};

} // namespace gpuadvisor::cli
