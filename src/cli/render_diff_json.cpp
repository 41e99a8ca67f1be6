// catalog diff -o json (docs/schema/catalog-diff.schema.json).
#include "output.hpp"
#include "render_diff.hpp"

#include <cmath>
#include <cstdint>

namespace gpuadvisor::cli {

namespace {

// The percent as JSON: to 4 decimals, null where there is none.
Json percent_json(const PriceChange& change) {
    const auto percent = change.percent();
    return percent ? Json(std::round(*percent * 1e4) / 1e4) : Json(nullptr);
}

// A whole number as a JSON integer (5, not 5.0).
Json number_json(double value) {
    return std::trunc(value) == value && std::fabs(value) < 1e15
               ? Json(static_cast<std::int64_t>(value))
               : Json(value);
}

std::string_view rate_key(Plan plan) {
    return plan == Plan::subscription_monthly ? "per_month" : "per_hour";
}

Json price_json(const std::optional<std::int64_t>& micros, const std::string& currency, Plan plan) {
    return micros ? money_json(currency, {{rate_key(plan), rate_amount(micros)}}) : Json(nullptr);
}

Json key_json(const DiffKey& key) {
    Json item{{"provider", key.provider}, {"instance", key.instance}};
    if (!key.region.empty()) {
        item["region"] = key.region;
    }
    return item;
}

Json keys_json(const std::vector<DiffKey>& keys) {
    Json list = Json::array();
    for (const DiffKey& key : keys) {
        list.push_back(key_json(key));
    }
    return list;
}

} // namespace

void write_diff_json(const DiffReport& report, Io& io) {
    const CatalogDiff& d = report.diff;
    Json document = json_document("catalog diff");
    document["ok"] = report.exceeded == 0;
    document["old"] = report.old_name;
    document["new"] = report.new_name;
    document["providers"] = report.providers;
    document["threshold"] = report.threshold ? Json{{"percent", number_json(*report.threshold)},
                                                    {"direction", report.direction},
                                                    {"exceeded", report.exceeded}}
                                             : Json(nullptr);
    document["summary"] = {{"gpus_added", d.gpus_added.size()},
                           {"gpus_removed", d.gpus_removed.size()},
                           {"instances_added", d.instances_added.size()},
                           {"instances_removed", d.instances_removed.size()},
                           {"offers_added", d.offers_added.size()},
                           {"offers_removed", d.offers_removed.size()},
                           {"price_changes", d.price_changes.size()},
                           {"spec_changes", d.spec_changes.size()},
                           {"provenance_changes", d.provenance_changes.size()}};
    document["gpus_added"] = d.gpus_added;
    document["gpus_removed"] = d.gpus_removed;
    document["instances_added"] = keys_json(d.instances_added);
    document["instances_removed"] = keys_json(d.instances_removed);
    document["offers_added"] = keys_json(d.offers_added);
    document["offers_removed"] = keys_json(d.offers_removed);
    Json prices = Json::array();
    for (std::size_t i = 0; i < d.price_changes.size(); ++i) {
        const PriceChange& c = d.price_changes[i];
        Json item = key_json(c.offer);
        item["plan"] = to_string(c.plan);
        item["change"] = to_string(c.kind);
        item["old"] = price_json(c.old_micros, c.old_currency, c.plan);
        item["new"] = price_json(c.new_micros, c.new_currency, c.plan);
        item["difference"] = price_json(c.delta_micros(), c.new_currency, c.plan);
        item["percent"] = percent_json(c);
        item["over_threshold"] = report.over[i];
        prices.push_back(std::move(item));
    }
    document["price_changes"] = std::move(prices);
    Json specs = Json::array();
    for (const SpecChange& c : d.spec_changes) {
        const bool gpu = c.kind == "gpu";
        specs.push_back(Json{{"kind", c.kind},
                             {"provider", gpu ? Json(nullptr) : Json(c.item.provider)},
                             {"id", c.item.instance},
                             {"field", c.field},
                             {"old", c.old_value.empty() ? Json(nullptr) : Json(c.old_value)},
                             {"new", c.new_value.empty() ? Json(nullptr) : Json(c.new_value)}});
    }
    document["spec_changes"] = std::move(specs);
    write_json(document, io);
}

} // namespace gpuadvisor::cli
