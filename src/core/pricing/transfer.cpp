// data/transfer.yaml: storage tiers and transfer prices per provider, read with FieldReader.
#include "gpuadvisor/transfer.hpp"

#include "yaml/schema.hpp"
#include "yaml/yaml_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace gpuadvisor {

namespace {

constexpr std::array<std::string_view, 2> k_top{"schema_version", "providers"};
constexpr std::array<std::string_view, 10> k_provider_fields{"provider",
                                                             "currency",
                                                             "storage",
                                                             "ingress_per_gb",
                                                             "inter_region_per_gb",
                                                             "internet_egress",
                                                             "source",
                                                             "as_of",
                                                             "confidence",
                                                             "notes"};
constexpr std::array<std::string_view, 7> k_storage_fields{
    "tier", "product", "per_gb_month", "source", "as_of", "confidence", "notes"};
constexpr std::array<std::string_view, 2> k_step_fields{"up_to_tb", "per_gb"};
constexpr std::array<std::string_view, 4> k_tier_names{
    "object", "block", "local-nvme", "distributed"};

// A required price that may be 0 (free ingress, storage paid with the instance).
std::optional<std::int64_t>
free_or_price(FieldReader& read, const YamlNode& map, std::string_view key, std::string_view path) {
    const YamlNode* node = read.value(map, key, path, Need::required);
    if (node == nullptr) {
        return std::nullopt;
    }
    if (node->kind == YamlNode::Kind::scalar && node->plain &&
        parse_money_micros(node->text) == 0) {
        return 0;
    }
    return read.money(map, key, path);
}

StorageTier parse_tier(std::string_view name) {
    const auto it = std::find(k_tier_names.begin(), k_tier_names.end(), name);
    return static_cast<StorageTier>(it - k_tier_names.begin());
}

void decode_storage(FieldReader& read,
                    const YamlNode& node,
                    const std::string& path,
                    ProviderTransfer& provider) {
    const auto* list = read.list(node, "storage", path, Need::required);
    for (std::size_t i = 0; list != nullptr && i < list->size(); ++i) {
        const YamlNode& item = (*list)[i];
        const std::string at = fmt::format("{}.storage[{}]", path, i);
        if (!read.mapping(item, at, "a storage product", k_storage_fields)) {
            continue;
        }
        const auto tier = read.one_of(item, "tier", at, Need::required, k_tier_names);
        StorageProduct product;
        product.product = read.text(item, "product", at, Need::required).value_or("");
        product.per_gb_month_micros = free_or_price(read, item, "per_gb_month", at).value_or(0);
        product.provenance = read.provenance(item, at);
        if (!tier) {
            continue;
        }
        product.tier = parse_tier(*tier);
        if (provider.find(product.tier) != nullptr) {
            read.diagnostics().error(read.pos(item),
                                     "duplicate-id",
                                     fmt::format("{}: a second '{}' tier", at, *tier),
                                     "give each tier once per provider");
            continue;
        }
        provider.storage.push_back(std::move(product));
    }
}

void decode_egress(FieldReader& read,
                   const YamlNode& node,
                   const std::string& path,
                   ProviderTransfer& provider) {
    const auto* steps = read.list(node, "internet_egress", path, Need::required);
    if (steps != nullptr && steps->empty()) {
        read.diagnostics().error(read.pos(node),
                                 "missing-field",
                                 fmt::format("{}.internet_egress: no step", path),
                                 "give at least one {per_gb: N}");
    }
    double last = 0;
    for (std::size_t i = 0; steps != nullptr && i < steps->size(); ++i) {
        const YamlNode& item = (*steps)[i];
        const std::string at = fmt::format("{}.internet_egress[{}]", path, i);
        if (!read.mapping(item, at, "an egress step", k_step_fields)) {
            continue;
        }
        EgressStep step;
        step.per_gb_micros = free_or_price(read, item, "per_gb", at).value_or(0);
        const bool final = i + 1 == steps->size();
        step.up_to_tb = read.number(
            item, "up_to_tb", at, final ? Need::optional : Need::required, {0, false, 1e9});
        if (step.up_to_tb && final) {
            read.diagnostics().error(read.pos(item),
                                     "invalid-value",
                                     fmt::format("{}.up_to_tb: the last step has no bound", at),
                                     "leave up_to_tb out of the last step: it prices the rest");
        } else if (step.up_to_tb && *step.up_to_tb <= last) {
            read.diagnostics().error(
                read.pos(item),
                "invalid-value",
                fmt::format("{}.up_to_tb: {} is not above the step before ({})",
                            at,
                            format_number(*step.up_to_tb),
                            format_number(last)),
                "steps go up: each up_to_tb is the cumulative TB the step ends at");
        }
        last = step.up_to_tb.value_or(last);
        provider.internet_egress.push_back(step);
    }
}

void decode_transfer(FieldReader& read, const YamlNode& root, TransferLoad& load) {
    read.whole(root, "schema_version", "", Need::required, {1, true, 1});
    const auto* providers = read.list(root, "providers", "", Need::required);
    for (std::size_t i = 0; providers != nullptr && i < providers->size(); ++i) {
        const YamlNode& node = (*providers)[i];
        const std::string path = fmt::format("providers[{}]", i);
        if (!read.mapping(node, path, "a provider's transfer prices", k_provider_fields)) {
            continue;
        }
        ProviderTransfer p;
        p.origin = read.pos(node);
        p.provider = read.id(node, "provider", path, Need::required).value_or("");
        p.currency = read.text(node, "currency", path, Need::required).value_or("USD");
        decode_storage(read, node, path, p);
        p.ingress_per_gb_micros = free_or_price(read, node, "ingress_per_gb", path).value_or(0);
        p.inter_region_per_gb_micros =
            free_or_price(read, node, "inter_region_per_gb", path).value_or(0);
        decode_egress(read, node, path, p);
        p.provenance = read.provenance(node, path);
        if (!p.provider.empty() && load.data.find(p.provider) != nullptr) {
            read.diagnostics().error(read.pos(node),
                                     "duplicate-id",
                                     fmt::format("{}: provider '{}' again", path, p.provider),
                                     "give each provider once");
            continue;
        }
        load.data.providers.push_back(std::move(p));
    }
}

} // namespace

std::string_view to_string(StorageTier tier) {
    return k_tier_names[static_cast<std::size_t>(tier)];
}

const StorageProduct* ProviderTransfer::find(StorageTier tier) const {
    const auto it = std::find_if(
        storage.begin(), storage.end(), [&](const StorageProduct& s) { return s.tier == tier; });
    return it == storage.end() ? nullptr : &*it;
}

const ProviderTransfer* TransferData::find(std::string_view provider) const {
    const auto it = std::find_if(
        providers.begin(), providers.end(), [&](const auto& p) { return p.provider == provider; });
    return it == providers.end() ? nullptr : &*it;
}

TransferLoad load_transfer_text(const std::string& file, std::string_view text) {
    return load_data_file<TransferLoad>(
        file, text, {"a transfer prices file", k_top}, decode_transfer);
}

} // namespace gpuadvisor
