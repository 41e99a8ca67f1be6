// Reading data/pricing.yaml: documented discounts (for opt-in estimates), spot defaults, the
// source documents' auto-release policy, and the claims checked against the catalog.
#include "gpuadvisor/pricing.hpp"
#include "yaml/schema.hpp"
#include "yaml/yaml_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace gpuadvisor {

namespace {

constexpr std::array<std::string_view, 5> k_top{
    "schema_version", "conventions", "estimates", "spot", "auto_release"};
constexpr std::array<std::string_view, 9> k_rule_fields{
    "id", "plan", "discount", "providers", "kind", "source", "as_of", "confidence", "notes"};
constexpr std::array<std::string_view, 5> k_plans{
    "on_demand", "spot", "reserved_1y", "reserved_3y", "subscription_monthly"};
constexpr std::array<std::string_view, 3> k_kinds{"typical", "maximum", "alternative"};
constexpr std::array<std::string_view, 6> k_value_fields{
    "value", "unit", "source", "as_of", "confidence", "notes"};
constexpr std::array<std::string_view, 7> k_spot_fields{"interruption_per_hour_default",
                                                        "bands",
                                                        "checkpoint_interval_hours_default",
                                                        "restart_hours_default",
                                                        "interruption_notice",
                                                        "discount_claims",
                                                        "notes"};
constexpr std::array<std::string_view, 6> k_band_fields{
    "band", "monthly_rate", "per_hour", "source", "confidence", "notes"};
constexpr std::array<std::string_view, 6> k_release_fields{"utilization_threshold",
                                                           "idle_minutes",
                                                           "idle_stretches_per_day",
                                                           "source",
                                                           "confidence",
                                                           "notes"};

Plan plan_of(std::string_view name) {
    for (const Plan plan : k_all_plans) {
        if (to_string(plan) == name) {
            return plan;
        }
    }
    return Plan::on_demand;
}

// A {value, unit, source, ...} entry's value.
std::optional<double> value_entry(FieldReader& read,
                                  const YamlNode& map,
                                  std::string_view key,
                                  std::string_view path,
                                  Range range) {
    const YamlNode* node = read.value(map, key, path, Need::required);
    const std::string entry = join_path(path, key);
    if (node == nullptr || !read.mapping(*node, entry, "a default", k_value_fields)) {
        return std::nullopt;
    }
    read.text(*node, "source", entry, Need::required);
    return read.number(*node, "value", entry, Need::required, range);
}

std::vector<EstimateRule> read_rules(FieldReader& read, const YamlNode& root) {
    std::vector<EstimateRule> rules;
    const auto* list = read.list(root, "estimates", "", Need::required);
    if (list == nullptr) {
        return rules;
    }
    for (std::size_t i = 0; i < list->size(); ++i) {
        const YamlNode& node = (*list)[i];
        const std::string path = fmt::format("estimates[{}]", i);
        if (!read.mapping(node, path, "an estimate rule", k_rule_fields)) {
            continue;
        }
        EstimateRule rule;
        rule.id = read.id(node, "id", path, Need::required).value_or("");
        rule.plan = plan_of(read.one_of(node, "plan", path, Need::required, k_plans).value_or(""));
        rule.discount =
            read.number(node, "discount", path, Need::required, {0, false, 0.99}).value_or(0);
        const std::string kind =
            read.one_of(node, "kind", path, Need::required, k_kinds).value_or("");
        rule.source = read.text(node, "source", path, Need::required).value_or("");
        read.date(node, "as_of", path, Need::required);
        if (const auto* providers = read.list(node, "providers", path, Need::required)) {
            for (const YamlNode& provider : *providers) {
                rule.providers.emplace_back(provider.text);
            }
        }
        if (kind == "typical") { // maxima and alternatives are documented, never used to estimate
            rules.push_back(std::move(rule));
        }
    }
    // Provider-specific rules before the ones for any provider.
    std::stable_sort(rules.begin(), rules.end(), [](const EstimateRule& a, const EstimateRule& b) {
        const auto general = [](const EstimateRule& r) {
            return r.providers.empty() || r.providers.front() == "any";
        };
        return !general(a) && general(b);
    });
    return rules;
}

void read_spot(FieldReader& read, const YamlNode& root, PricingData& data) {
    const YamlNode* spot = read.value(root, "spot", "", Need::required);
    if (spot == nullptr || !read.mapping(*spot, "spot", "the spot defaults", k_spot_fields)) {
        return;
    }
    data.spot_defaults.interruptions_per_hour =
        value_entry(read, *spot, "interruption_per_hour_default", "spot", {0, true, 10})
            .value_or(0);
    data.spot_defaults.checkpoint_interval_hours =
        value_entry(read, *spot, "checkpoint_interval_hours_default", "spot", {0, true, 1000})
            .value_or(1);
    data.spot_defaults.restart_hours =
        value_entry(read, *spot, "restart_hours_default", "spot", {0, true, 1000}).value_or(0);
    if (const auto* bands = read.list(*spot, "bands", "spot", Need::optional)) {
        for (std::size_t i = 0; i < bands->size(); ++i) {
            const std::string path = fmt::format("spot.bands[{}]", i);
            if (read.mapping((*bands)[i], path, "an interruption band", k_band_fields)) {
                data.bands.push_back(
                    {read.text((*bands)[i], "band", path, Need::required).value_or(""),
                     read.number((*bands)[i], "monthly_rate", path, Need::required, {0, true, 100})
                         .value_or(0)});
            }
        }
    }
}

} // namespace

namespace {

// The file's contents past its top level.
void decode_pricing_data(FieldReader& read, const YamlNode& root, PricingLoad& load) {
    load.data.rules = read_rules(read, root);
    read_spot(read, root, load.data);
    if (const YamlNode* release = read.value(root, "auto_release", "", Need::required)) {
        if (read.mapping(*release, "auto_release", "the auto-release policy", k_release_fields)) {
            AutoReleasePolicy& policy = load.data.auto_release;
            const auto number = [&](std::string_view key, Range range) {
                return read.number(*release, key, "auto_release", Need::required, range)
                    .value_or(0);
            };
            policy.utilization_threshold = number("utilization_threshold", {0, true, 1});
            policy.idle_minutes = number("idle_minutes", {0, true, 1440});
            policy.idle_stretches_per_day = number("idle_stretches_per_day", {0, true, 1440});
            policy.source =
                read.text(*release, "source", "auto_release", Need::required).value_or("");
        }
    }
}

} // namespace

PricingLoad load_pricing_data_text(const std::string& file, std::string_view text) {
    return load_data_file<PricingLoad>(
        file, text, {"a pricing data file", k_top}, decode_pricing_data);
}

} // namespace gpuadvisor
