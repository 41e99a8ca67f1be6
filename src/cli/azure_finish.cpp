// After the last page: one price row a (instance type, region) with one as_of and source, the
// regions they add, the GPU sizes the catalog lacks, and what was not imported and why.
#include "azure_import.hpp"
#include "azure_regions.hpp"
#include "gpuadvisor/spelling.hpp"
#include "gpuadvisor/units.hpp"

#include <algorithm>

namespace gpuadvisor::cli {

namespace {

std::string plural(std::size_t count, std::string_view one, std::string_view many) {
    return fmt::format("{} {}", count, count == 1 ? one : many);
}

} // namespace

void AzureReader::finish(const std::string& first_file) {
    std::map<std::pair<std::string, std::string>, std::vector<const Chosen*>> rows;
    for (const auto& [key, chosen] : m_chosen) {
        rows[{std::get<0>(key), std::get<1>(key)}].push_back(&chosen);
    }
    for (const auto& [row, prices] : rows) {
        // The row's prices were all in effect on the newest of their start dates.
        Date as_of = prices.front()->start;
        std::set<std::string> files;
        for (const Chosen* chosen : prices) {
            as_of = std::max(as_of, chosen->start);
            files.insert(chosen->file);
        }
        const std::string source = fmt::format("Azure Retail Prices API page{} {}",
                                               files.size() == 1 ? "" : "s",
                                               fmt::join(files, ", "));
        for (const Chosen* chosen : prices) {
            ImportedPrice price = chosen->price;
            price.as_of = as_of;
            price.source = source;
            price.confidence = Confidence::high;
            price.notes = chosen->term.empty()
                              ? fmt::format("{} effective {}",
                                            to_string(price.plan),
                                            format_date(chosen->start))
                              : fmt::format("{}: {} {} for {} / {} h, effective {}",
                                            to_string(price.plan),
                                            format_micros(chosen->term_micros),
                                            price.currency,
                                            chosen->term,
                                            chosen->term == "1 Year" ? 8760 : 26280,
                                            format_date(chosen->start));
            if (chosen->items > 1) {
                m_result.diagnostics.info(
                    price.pos,
                    "newest-price",
                    fmt::format("{} {} {}: {} items, the newest (effective {}) is taken",
                                price.instance,
                                price.region,
                                to_string(price.plan),
                                chosen->items,
                                format_date(chosen->start)),
                    "");
            }
            m_result.prices.push_back(std::move(price));
        }
        const std::string& region = row.second; // (clang 14 lambdas cannot capture a binding)
        const RegionInfo* added = azure_region(region);
        const bool listed = m_azure == nullptr || m_azure->regions.empty() ||
                            std::any_of(m_azure->regions.begin(),
                                        m_azure->regions.end(),
                                        [&](const RegionInfo& r) { return r.id == region; });
        const bool taken = std::any_of(m_result.regions.begin(),
                                       m_result.regions.end(),
                                       [&](const auto& r) { return r.second.id == region; });
        if (!listed && !taken && added != nullptr) {
            m_result.regions.emplace_back("azure", *added);
        }
    }
    report_unknown();
    summary(first_file);
}

void AzureReader::report_unknown() {
    for (const auto& [series, unknown] : m_unknown) {
        const std::vector<std::string> skus(unknown.skus.begin(), unknown.skus.end());
        const std::vector<std::string> shown(
            skus.begin(), skus.begin() + std::min<std::ptrdiff_t>(std::ssize(skus), 4));
        const std::string hint = did_you_mean(m_context.catalog.instance_names_near(skus[0]));
        m_result.diagnostics.warning(
            unknown.first,
            "unknown-reference",
            fmt::format("armSkuName: {} of '{}' not in the active catalog ({}{}): {} not imported",
                        plural(skus.size(), "GPU size", "GPU sizes"),
                        series,
                        fmt::join(shown, ", "),
                        skus.size() > shown.size() ? ", ..." : "",
                        plural(unknown.items, "item", "items")),
            fmt::format("{}{}define the instance types in a --catalog file (the feed has no "
                        "specs), then import again",
                        hint,
                        hint.empty() ? "" : " If not, "));
    }
}

void AzureReader::summary(const std::string& first_file) {
    std::vector<std::string> skipped;
    for (const auto& [why, count] : m_skipped) {
        skipped.push_back(fmt::format("{} {}", why, count));
    }
    const std::string message = fmt::format("{} read from {}: {} kept{}{}",
                                            plural(m_items, "item", "items"),
                                            plural(m_pages, "page", "pages"),
                                            plural(m_result.prices.size(), "price", "prices"),
                                            skipped.empty() ? "" : "; not imported: ",
                                            fmt::join(skipped, ", "));
    if (m_result.prices.empty() && !m_result.diagnostics.has_errors()) {
        m_result.diagnostics.error(
            {first_file, 0, 0},
            "no-price",
            fmt::format("no price of an azure instance type of the active catalog: {}", message),
            "import pages of serviceName 'Virtual Machines' (Linux, Consumption or "
            "Reservation) that price the catalog's GPU sizes (catalog list instances "
            "--provider azure)");
        return;
    }
    if (!m_result.diagnostics.has_errors()) { // else the errors say what matters
        m_result.diagnostics.info({first_file, 0, 0}, "import-summary", message, "");
    }
}

} // namespace gpuadvisor::cli
