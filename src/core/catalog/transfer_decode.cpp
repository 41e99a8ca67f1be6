// The catalog's `transfer:` entries: storage tiers and transfer prices per provider, read with
// FieldReader, checked, and merged over files.
#include "catalog/transfer_decode.hpp"

#include "gpuadvisor/spelling.hpp"
#include "util/currency_codes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace gpuadvisor {

namespace {

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

// The most a GB may cost to store for a month or to move, in the file's currency: the dearest
// list prices are about 0.3 (USD, EBS io2) and 0.2 (egress from some regions); 10 leaves room
// for CNY (x7) and the like, and catches a price per TB written per GB (23 for S3's 0.023).
constexpr double k_most_per_gb = 10;

// A required price that may be 0 (free ingress, storage paid with the instance), at most
// k_most_per_gb.
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
    if (node->kind == YamlNode::Kind::scalar && node->plain && node->text.starts_with('-') &&
        parse_strict_number(node->text)) {
        read.diagnostics().error(
            read.pos(*node),
            "out-of-range",
            fmt::format("{}: {} is negative", join_path(path, key), node->text),
            "a price is 0 (free, or paid with the instance) or above");
        return std::nullopt;
    }
    const auto micros = read.money(map, key, path);
    if (micros && *micros > static_cast<std::int64_t>(k_most_per_gb * 1e6)) {
        read.diagnostics().error(
            read.pos(*node),
            "implausible-price",
            fmt::format("{}: {} per GB{} is not a storage or transfer price",
                        join_path(path, key),
                        format_number(static_cast<double>(*micros) / 1e6),
                        key == "per_gb_month" ? "-month" : ""),
            fmt::format("prices are per decimal GB (a price per TB is 1,000 times it); at most {}",
                        format_number(k_most_per_gb)));
        return std::nullopt;
    }
    return micros;
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
                                     "bad-value",
                                     fmt::format("{}.up_to_tb: the last step has no bound", at),
                                     "leave up_to_tb out of the last step: it prices the rest");
        } else if (step.up_to_tb && *step.up_to_tb <= last) {
            read.diagnostics().error(
                read.pos(item),
                "bad-value",
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

std::optional<ProviderTransfer>
decode_transfer(FieldReader& read, const YamlNode& node, const std::string& path) {
    const std::size_t errors = read.diagnostics().error_count();
    if (!read.mapping(node, path, "a provider's transfer prices", k_provider_fields)) {
        return std::nullopt;
    }
    ProviderTransfer p;
    p.origin = read.pos(node);
    p.provider = read.id(node, "provider", path, Need::required).value_or("");
    p.currency = read_currency(read, node, path, Need::required).value_or("");
    decode_storage(read, node, path, p);
    p.ingress_per_gb_micros = free_or_price(read, node, "ingress_per_gb", path).value_or(0);
    p.inter_region_per_gb_micros =
        free_or_price(read, node, "inter_region_per_gb", path).value_or(0);
    decode_egress(read, node, path, p);
    p.provenance = read.provenance(node, path);
    if (read.diagnostics().error_count() > errors) { // left out: the provider keeps its entry
        return std::nullopt;
    }
    return p;
}

TransferData merge_transfer(const Catalog* base,
                            std::vector<CatalogFragment>& fragments,
                            const std::vector<Provider>& providers,
                            Diagnostics& diagnostics) {
    TransferData merged;
    const auto add = [&](ProviderTransfer entry) {
        std::erase_if(merged.providers,
                      [&](const ProviderTransfer& p) { return p.provider == entry.provider; });
        merged.providers.push_back(std::move(entry));
    };
    if (base != nullptr) {
        for (const ProviderTransfer& entry : base->transfer().providers) {
            add(entry);
        }
    }
    std::vector<std::string> known;
    for (const Provider& provider : providers) {
        known.push_back(provider.id);
    }
    for (CatalogFragment& fragment : fragments) {
        for (ProviderTransfer& entry : fragment.transfer) {
            if (std::find(known.begin(), known.end(), entry.provider) == known.end()) {
                const std::string near = did_you_mean(nearest_names(entry.provider, known));
                diagnostics.error(
                    entry.origin,
                    "unknown-reference",
                    fmt::format("transfer[{}].provider: '{}' is not in the catalog",
                                entry.provider,
                                entry.provider),
                    near.empty() ? std::string("see 'gpuadvisor catalog list providers'") : near);
                continue;
            }
            add(std::move(entry));
        }
    }
    return merged;
}

} // namespace gpuadvisor
