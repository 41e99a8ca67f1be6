#include "catalog/discount_decode.hpp"

#include "gpuadvisor/discounts.hpp"
#include "gpuadvisor/spelling.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>

namespace gpuadvisor {

namespace {

constexpr std::array<std::string_view, 13> k_discount_fields{"id",
                                                             "provider",
                                                             "plans",
                                                             "family",
                                                             "instance",
                                                             "regions",
                                                             "percent",
                                                             "expires",
                                                             "source",
                                                             "as_of",
                                                             "confidence",
                                                             "notes",
                                                             "currency"};

std::optional<Plan> plan_named(std::string_view name) {
    for (const Plan plan : k_all_plans) {
        if (to_string(plan) == name) {
            return plan;
        }
    }
    return std::nullopt;
}

std::vector<std::string> plan_names() {
    std::vector<std::string> names;
    for (const Plan plan : k_all_plans) {
        names.emplace_back(to_string(plan));
    }
    return names;
}

// A list of scalars under `key`; each item passed to `take`, which reports its own errors.
template <typename Take>
void read_items(FieldReader& read,
                const YamlNode& node,
                std::string_view key,
                const std::string& path,
                Take take) {
    if (const auto* items = read.list(node, key, path, Need::optional)) {
        for (const YamlNode& item : *items) {
            if (!item.is_scalar()) {
                read.diagnostics().error(read.pos(item),
                                         "wrong-type",
                                         fmt::format("{}.{}: an item is not a name", path, key),
                                         "write the names as a list: [a, b]");
                continue;
            }
            take(item);
        }
    }
}

void read_plans(FieldReader& read, const YamlNode& node, const std::string& path, Discount& out) {
    read_items(read, node, "plans", path, [&](const YamlNode& item) {
        if (const auto plan = plan_named(item.text)) {
            out.plans.push_back(*plan);
            return;
        }
        const std::string near = did_you_mean(nearest_names(item.text, plan_names()));
        read.diagnostics().error(
            read.pos(item),
            "bad-value",
            fmt::format("{}.plans: '{}' is not a plan", path, item.text),
            near.empty() ? "plans: on_demand, spot, reserved_1y, reserved_3y, subscription_monthly"
                         : near);
    });
}

void check_percent(FieldReader& read, const YamlNode& node, const std::string& path, double pct) {
    const SourcePos pos = read.pos(*node.find("percent"));
    if (pct <= 1) {
        read.diagnostics().warning(
            pos,
            "implausible-discount",
            fmt::format("{}.percent: {}% off is very little", path, format_number(pct)),
            fmt::format("percent is a percentage: write {} for {}%",
                        format_number(pct * 100),
                        format_number(pct * 100)));
    } else if (pct > 90) {
        read.diagnostics().warning(
            pos,
            "implausible-discount",
            fmt::format("{}.percent: {}% off is more than any published discount",
                        path,
                        format_number(pct)),
            "check the figure: the largest list discounts (3-year terms, spot) are about 72-90%");
    }
}

} // namespace

std::optional<Discount>
decode_discount(FieldReader& read, const YamlNode& node, const std::string& path) {
    const std::size_t before = read.diagnostics().error_count();
    if (!read.mapping(node, path, "a discount", k_discount_fields)) {
        return std::nullopt;
    }
    Discount discount;
    discount.origin = read.pos(node);
    discount.id = read.id(node, "id", path, Need::required).value_or("");
    discount.provider = read.id(node, "provider", path, Need::required).value_or("");
    discount.family = read.text(node, "family", path, Need::optional).value_or("");
    discount.instance = read.id(node, "instance", path, Need::optional).value_or("");
    read_plans(read, node, path, discount);
    read_items(read, node, "regions", path, [&](const YamlNode& item) {
        discount.regions.emplace_back(item.text);
    });
    const auto percent = read.number(node, "percent", path, Need::required, {0, false, 99.9999});
    discount.expires = read.date(node, "expires", path, Need::optional);
    discount.provenance = read.provenance(node, path);
    if (const YamlNode* currency = node.find("currency")) {
        read.diagnostics().error(read.pos(*currency),
                                 "unknown-field",
                                 fmt::format("{}: a discount is a percentage, not an amount", path),
                                 "remove 'currency'; the discount applies to each price in its "
                                 "own currency");
    }
    if (!discount.family.empty() && !discount.instance.empty()) {
        read.diagnostics().error(read.pos(*node.find("family")),
                                 "bad-value",
                                 fmt::format("{}: give 'family' or 'instance', not both", path),
                                 "an instance belongs to one family: name the one you mean");
    }
    if (read.diagnostics().error_count() != before || !percent) {
        return std::nullopt;
    }
    check_percent(read, node, path, *percent);
    discount.off_ppm = std::llround(*percent * 10'000);
    return discount;
}

namespace {

bool overlaps(const std::vector<std::string>& a, const std::vector<std::string>& b) {
    return a.empty() || b.empty() || std::any_of(a.begin(), a.end(), [&](const std::string& x) {
               return std::find(b.begin(), b.end(), x) != b.end();
           });
}

bool overlaps(const std::vector<Plan>& a, const std::vector<Plan>& b) {
    return a.empty() || b.empty() || std::any_of(a.begin(), a.end(), [&](Plan x) {
               return std::find(b.begin(), b.end(), x) != b.end();
           });
}

void unknown(Diagnostics& diagnostics,
             const Discount& discount,
             std::string_view field,
             const std::string& name,
             const std::vector<std::string>& known) {
    const std::string near = did_you_mean(nearest_names(name, known));
    diagnostics.error(discount.origin,
                      "unknown-reference",
                      fmt::format("discounts[{}].{}: '{}' is not in the catalog{}",
                                  discount.id,
                                  field,
                                  name,
                                  field == "provider" ? "" : " for " + discount.provider),
                      near.empty() ? fmt::format("see 'gpuadvisor catalog list instances "
                                                 "--provider {}'",
                                                 discount.provider)
                                   : near);
}

// True if every name the discount gives exists under its provider; reports the first missing.
bool references_exist(const Discount& discount,
                      std::span<const Provider> provider_list,
                      std::span<const InstanceType> instance_list,
                      Diagnostics& diagnostics) {
    std::vector<std::string> providers;
    for (const Provider& provider : provider_list) {
        providers.push_back(provider.id);
    }
    if (std::find(providers.begin(), providers.end(), discount.provider) == providers.end()) {
        unknown(diagnostics, discount, "provider", discount.provider, providers);
        return false;
    }
    std::vector<std::string> instances;
    std::vector<std::string> families;
    std::set<std::string> regions;
    for (const InstanceType& instance : instance_list) {
        if (instance.provider != discount.provider) {
            continue;
        }
        instances.push_back(instance.id);
        if (std::find(families.begin(), families.end(), instance.family) == families.end()) {
            families.push_back(instance.family);
        }
        for (const PriceRow& row : instance.regions) {
            regions.insert(row.region);
        }
    }
    if (!discount.instance.empty() &&
        std::none_of(instances.begin(), instances.end(), [&](const std::string& id) {
            return to_lower(id) == to_lower(discount.instance);
        })) {
        unknown(diagnostics, discount, "instance", discount.instance, instances);
        return false;
    }
    if (!discount.family.empty() &&
        std::find(families.begin(), families.end(), discount.family) == families.end()) {
        unknown(diagnostics, discount, "family", discount.family, families);
        return false;
    }
    for (const std::string& region : discount.regions) {
        if (regions.count(region) == 0) {
            unknown(diagnostics, discount, "regions", region, {regions.begin(), regions.end()});
            return false;
        }
    }
    return true;
}

} // namespace

std::vector<Discount> check_discounts(std::vector<Discount> discounts,
                                      std::span<const Provider> providers,
                                      std::span<const InstanceType> instances,
                                      Date today,
                                      Diagnostics& diagnostics) {
    std::vector<Discount> kept;
    for (Discount& discount : discounts) {
        if (!references_exist(discount, providers, instances, diagnostics)) {
            continue;
        }
        if (discount.expires && *discount.expires < today) {
            diagnostics.warning(discount.origin,
                                "discount-expired",
                                fmt::format("discounts[{}]: expired on {}; it is not applied",
                                            discount.id,
                                            format_date(*discount.expires)),
                                "renew the date or remove the discount");
        }
        // Equally specific discounts covering the same offers and plans would leave the
        // price to file order: refuse them.
        const auto clash = std::find_if(kept.begin(), kept.end(), [&](const Discount& other) {
            return other.provider == discount.provider &&
                   discount_rank(other) == discount_rank(discount) &&
                   to_lower(other.instance) == to_lower(discount.instance) &&
                   other.family == discount.family && overlaps(other.regions, discount.regions) &&
                   overlaps(other.plans, discount.plans);
        });
        if (clash != kept.end()) {
            const SourcePos& first = clash->origin;
            diagnostics.error(discount.origin,
                              "discount-overlap",
                              fmt::format("discounts[{}]: covers the same offers and plans as "
                                          "'{}' ({})",
                                          discount.id,
                                          clash->id,
                                          first.file == discount.origin.file
                                              ? fmt::format("line {}", first.line)
                                              : fmt::format("{}:{}", first.file, first.line)),
                              "narrow one by plans or regions, or remove one");
            continue;
        }
        kept.push_back(std::move(discount));
    }
    return kept;
}

} // namespace gpuadvisor
