#include "gpuadvisor/catalog.hpp"

#include "gpuadvisor/spelling.hpp"

#include <algorithm>
#include <tuple>

namespace gpuadvisor {

std::string_view to_string(Plan plan) {
    switch (plan) {
    case Plan::on_demand:
        return "on_demand";
    case Plan::spot:
        return "spot";
    case Plan::reserved_1y:
        return "reserved_1y";
    case Plan::reserved_3y:
        return "reserved_3y";
    case Plan::subscription_monthly:
        return "subscription_monthly";
    }
    return "on_demand";
}

std::string_view interconnect(const Gpu& gpu) {
    return gpu.nvlink_gb_per_s > 0 ? "nvlink" : "pcie";
}

namespace {

// A catalog read back from the cache is in order already: checking is linear, sorting is not
// (and moves every row). The keys are unique, so the order is the same either way.
template <class T, class Less> void sort_unless_sorted(std::vector<T>& items, Less less) {
    if (!std::is_sorted(items.begin(), items.end(), less)) {
        std::sort(items.begin(), items.end(), less);
    }
}

} // namespace

Catalog::Catalog(std::vector<Gpu> gpus,
                 std::vector<Provider> providers,
                 std::vector<InstanceType> instances,
                 std::vector<Discount> discounts,
                 std::vector<Cpu> cpus,
                 TransferData transfer)
    : m_gpus(std::move(gpus)), m_providers(std::move(providers)), m_instances(std::move(instances)),
      m_discounts(std::move(discounts)), m_cpus(std::move(cpus)), m_transfer(std::move(transfer)) {
    sort_unless_sorted(m_transfer.providers,
                       [](const ProviderTransfer& a, const ProviderTransfer& b) {
                           return a.provider < b.provider;
                       });
    sort_unless_sorted(m_cpus, [](const Cpu& a, const Cpu& b) { return a.id < b.id; });
    sort_unless_sorted(m_discounts, [](const Discount& a, const Discount& b) {
        return std::tie(a.provider, a.id) < std::tie(b.provider, b.id);
    });
    sort_unless_sorted(m_gpus, [](const Gpu& a, const Gpu& b) { return a.id < b.id; });
    sort_unless_sorted(m_providers,
                       [](const Provider& a, const Provider& b) { return a.id < b.id; });
    sort_unless_sorted(m_instances, [](const InstanceType& a, const InstanceType& b) {
        return std::tie(a.provider, a.family, a.gpu_count, a.vcpus, a.id) <
               std::tie(b.provider, b.family, b.gpu_count, b.vcpus, b.id);
    });
    for (InstanceType& instance : m_instances) {
        sort_unless_sorted(instance.regions, [](const PriceRow& a, const PriceRow& b) {
            return a.region < b.region;
        });
    }
    for (std::size_t i = 0; i < m_gpus.size(); ++i) {
        m_gpu_by_name.emplace(to_lower(m_gpus[i].id), i);
        for (const std::string& alias : m_gpus[i].aliases) {
            m_gpu_by_name.emplace(to_lower(alias), i);
        }
    }
}

std::vector<Offer> Catalog::offers() const {
    std::vector<Offer> offers;
    for (const InstanceType& instance : m_instances) {
        for (const PriceRow& row : instance.regions) {
            offers.push_back({&instance, &row});
        }
    }
    return offers;
}

std::size_t Catalog::offer_count() const {
    std::size_t count = 0;
    for (const InstanceType& instance : m_instances) {
        count += instance.regions.size();
    }
    return count;
}

const Gpu* Catalog::find_gpu(std::string_view id) const {
    const auto it = std::lower_bound(
        m_gpus.begin(), m_gpus.end(), id, [](const Gpu& gpu, std::string_view key) {
            return gpu.id < key;
        });
    return it != m_gpus.end() && it->id == id ? &*it : nullptr;
}

const Provider* Catalog::find_provider(std::string_view id) const {
    for (const Provider& provider : m_providers) {
        if (provider.id == id) {
            return &provider;
        }
    }
    return nullptr;
}

std::string Catalog::country_of(std::string_view provider, std::string_view region) const {
    if (const Provider* found = find_provider(provider)) {
        for (const RegionInfo& info : found->regions) {
            if (info.id == region) {
                return info.country;
            }
        }
    }
    return {};
}

std::vector<const Gpu*> Catalog::match_gpus(std::string_view name) const {
    const std::string lower = to_lower(name);
    if (const auto it = m_gpu_by_name.find(lower); it != m_gpu_by_name.end()) {
        return {&m_gpus[it->second]};
    }
    std::vector<const Gpu*> matches;
    for (const Gpu& gpu : m_gpus) {
        const std::string id = to_lower(gpu.id);
        if (!lower.empty() && id.starts_with(lower) && id.size() > lower.size() &&
            id[lower.size()] == '-') {
            matches.push_back(&gpu);
        }
    }
    return matches;
}

std::vector<const InstanceType*> Catalog::match_instances(std::string_view name) const {
    const std::string lower = to_lower(name);
    std::vector<const InstanceType*> matches;
    for (const InstanceType& instance : m_instances) {
        if (to_lower(instance.id) == lower) {
            matches.push_back(&instance);
        }
    }
    return matches;
}

std::vector<std::string> Catalog::gpu_names_near(std::string_view name) const {
    std::vector<std::string> names;
    for (const Gpu& gpu : m_gpus) {
        names.push_back(gpu.id);
        names.insert(names.end(), gpu.aliases.begin(), gpu.aliases.end());
    }
    auto near = nearest_names(name, names);
    // A misspelt family name ("A10O") suggests the family's ids ("A100-40GB", ...).
    const std::size_t limit = std::max<std::size_t>(1, name.size() / 3);
    for (const Gpu& gpu : m_gpus) {
        const std::string_view family = std::string_view(gpu.id).substr(0, gpu.id.find('-'));
        if (family != gpu.id && near.size() < 6 && edit_distance(name, family) <= limit &&
            std::find(near.begin(), near.end(), gpu.id) == near.end()) {
            near.push_back(gpu.id);
        }
    }
    return near;
}

const Cpu* Catalog::find_cpu(std::string_view name) const {
    const std::string lower = to_lower(name);
    for (const Cpu& cpu : m_cpus) {
        if (to_lower(cpu.id) == lower ||
            std::any_of(cpu.aliases.begin(), cpu.aliases.end(), [&](const std::string& alias) {
                return to_lower(alias) == lower;
            })) {
            return &cpu;
        }
    }
    return nullptr;
}

std::vector<std::string> Catalog::cpu_names_near(std::string_view name) const {
    std::vector<std::string> names;
    for (const Cpu& cpu : m_cpus) {
        names.push_back(cpu.id);
        names.insert(names.end(), cpu.aliases.begin(), cpu.aliases.end());
    }
    return nearest_names(name, names);
}

std::vector<std::string> Catalog::instance_names_near(std::string_view name) const {
    std::vector<std::string> names;
    for (const InstanceType& instance : m_instances) {
        names.push_back(instance.id);
    }
    return nearest_names(name, names);
}

} // namespace gpuadvisor
