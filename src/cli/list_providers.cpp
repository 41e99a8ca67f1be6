// gpuadvisor catalog list providers: each provider's coverage in the active catalog.
#include "catalog_listing.hpp"
#include "data_table.hpp"
#include "render_table.hpp"

#include <fmt/format.h>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace gpuadvisor::cli {

namespace {

// What the catalog holds of one provider.
struct Coverage {
    const Provider* provider = nullptr;
    std::size_t instance_types = 0;
    std::size_t priced_instance_types = 0; // with at least one price row
    std::set<std::string> priced_regions;  // regions with at least one price row
    std::size_t offers = 0;                // price rows
    std::set<std::string> gpus;            // of every instance type, priced or not
    std::set<Plan> plans;                  // the plans some row gives a price for
    std::optional<Date> oldest;            // the price rows' as_of
    std::optional<Date> newest;
    std::optional<Date> transfer; // the as_of of its transfer prices, if it has them
};

void count_row(const PriceRow& row, Coverage& coverage) {
    ++coverage.offers;
    coverage.priced_regions.insert(std::string(row.region));
    for (const Plan plan : k_all_plans) {
        if (row.price(plan)) {
            coverage.plans.insert(plan);
        }
    }
    const Date as_of = row.provenance.as_of;
    if (!coverage.oldest || as_of < *coverage.oldest) {
        coverage.oldest = as_of;
    }
    if (!coverage.newest || *coverage.newest < as_of) {
        coverage.newest = as_of;
    }
}

std::vector<Coverage> measure(const Catalog& catalog, const std::set<std::string>& wanted) {
    std::map<std::string, Coverage> by_id;
    for (const Provider& provider : catalog.providers()) {
        if (wanted.empty() || wanted.contains(provider.id)) {
            by_id[provider.id].provider = &provider;
            if (const ProviderTransfer* transfer = catalog.transfer().find(provider.id)) {
                by_id[provider.id].transfer = transfer->provenance.as_of;
            }
        }
    }
    for (const InstanceType& instance : catalog.instances()) {
        const auto found = by_id.find(instance.provider);
        if (found == by_id.end()) {
            continue;
        }
        Coverage& coverage = found->second;
        ++coverage.instance_types;
        coverage.gpus.insert(instance.gpu);
        if (!instance.regions.empty()) {
            ++coverage.priced_instance_types;
        }
        for (const PriceRow& row : instance.regions) {
            count_row(row, coverage);
        }
    }
    std::vector<Coverage> listed;
    for (auto& [id, coverage] : by_id) {
        listed.push_back(std::move(coverage));
    }
    return listed;
}

std::vector<std::string> plan_names(const std::set<Plan>& plans) {
    std::vector<std::string> names;
    for (const Plan plan : plans) {
        names.emplace_back(to_string(plan));
    }
    return names;
}

Json date_or_null(const std::optional<Date>& date) {
    return date ? Json(format_date(*date)) : Json(nullptr);
}

Json coverage_json(const Coverage& coverage) {
    const Provider& provider = *coverage.provider;
    return {{"id", provider.id},
            {"name", provider.name},
            {"currency", provider.currency},
            {"instance_types", coverage.instance_types},
            {"priced_instance_types", coverage.priced_instance_types},
            {"regions", provider.regions.size()},
            {"priced_regions", coverage.priced_regions.size()},
            {"offers", coverage.offers},
            {"gpus", std::vector<std::string>(coverage.gpus.begin(), coverage.gpus.end())},
            {"plans", plan_names(coverage.plans)},
            {"oldest_price", date_or_null(coverage.oldest)},
            {"newest_price", date_or_null(coverage.newest)},
            {"transfer_as_of", date_or_null(coverage.transfer)}};
}

std::string date_text(const std::optional<Date>& date) {
    return date ? format_date(*date) : std::string();
}

} // namespace

void list_providers(const Catalog& catalog, const std::set<std::string>& wanted, Io& io) {
    const std::vector<Coverage> listed = measure(catalog, wanted);
    Json objects = Json::array();
    for (const Coverage& coverage : listed) {
        objects.push_back(coverage_json(coverage));
    }
    if (print_listing("catalog list providers", "providers", objects, key_columns(objects), io)) {
        return;
    }
    Table table{{{"PROVIDER"},
                 {"TYPES", Align::right},
                 {"TYPES PRICED", Align::right},
                 {"REGIONS", Align::right},
                 {"REGIONS PRICED", Align::right},
                 {"OFFERS", Align::right},
                 {"OLDEST"},
                 {"NEWEST"},
                 {"TRANSFER"},
                 {"PLANS"},
                 {"GPUS", Align::left, true}},
                {}};
    for (const Coverage& coverage : listed) {
        table.rows.push_back({coverage.provider->id,
                              std::to_string(coverage.instance_types),
                              std::to_string(coverage.priced_instance_types),
                              std::to_string(coverage.provider->regions.size()),
                              std::to_string(coverage.priced_regions.size()),
                              std::to_string(coverage.offers),
                              date_text(coverage.oldest),
                              date_text(coverage.newest),
                              coverage.transfer ? format_date(*coverage.transfer) : "-",
                              fmt::format("{}", fmt::join(plan_names(coverage.plans), ", ")),
                              fmt::format("{}", fmt::join(coverage.gpus, ", "))});
    }
    render_table(table, io);
}

} // namespace gpuadvisor::cli
