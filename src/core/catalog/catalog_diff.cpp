#include "gpuadvisor/catalog_diff.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace gpuadvisor {

std::string_view to_string(PriceChangeKind kind) {
    switch (kind) {
    case PriceChangeKind::changed:
        return "changed";
    case PriceChangeKind::appeared:
        return "appeared";
    case PriceChangeKind::disappeared:
        return "disappeared";
    case PriceChangeKind::currency:
        return "currency";
    }
    return "changed";
}

std::optional<std::int64_t> PriceChange::delta_micros() const {
    if (kind != PriceChangeKind::changed || !old_micros || !new_micros) {
        return std::nullopt;
    }
    return *new_micros - *old_micros;
}

std::optional<double> PriceChange::percent() const {
    const auto delta = delta_micros();
    if (!delta || *old_micros <= 0) {
        return std::nullopt;
    }
    return static_cast<double>(*delta) * 100.0 / static_cast<double>(*old_micros);
}

namespace {

std::string text(double value) {
    return fmt::format("{}", value);
}
std::string text(int value) {
    return fmt::format("{}", value);
}
std::string text(bool value) {
    return value ? "true" : "false";
}
std::string text(const std::string& value) {
    return value;
}
template <class T> std::string text(const std::optional<T>& value) {
    return value ? text(*value) : std::string();
}
std::string text(const std::vector<double>& values) {
    return fmt::format("{}", fmt::join(values, ","));
}

// Adds a SpecChange for each field that differs.
class FieldDiff {
  public:
    FieldDiff(std::string kind, DiffKey item, std::vector<SpecChange>& out)
        : m_kind(std::move(kind)), m_item(std::move(item)), m_out(out) {}
    template <class T> FieldDiff& field(const char* name, const T& a, const T& b) {
        if (!(a == b)) {
            m_out.push_back({m_kind, m_item, name, text(a), text(b)});
        }
        return *this;
    }

  private:
    std::string m_kind;
    DiffKey m_item;
    std::vector<SpecChange>& m_out;
};

void diff_gpu(const Gpu& a, const Gpu& b, std::vector<SpecChange>& out) {
    FieldDiff(std::string("gpu"), DiffKey{"", a.id, ""}, out)
        .field("vendor", a.vendor, b.vendor)
        .field("architecture", a.architecture, b.architecture)
        .field("form_factor", a.form_factor, b.form_factor)
        .field("memory_gb", a.memory_gb, b.memory_gb)
        .field("memory_type", a.memory_type, b.memory_type)
        .field(
            "memory_bandwidth_gb_per_s", a.memory_bandwidth_gb_per_s, b.memory_bandwidth_gb_per_s)
        .field("fp64_tflops", a.fp64_tflops, b.fp64_tflops)
        .field("fp64_tensor_tflops", a.fp64_tensor_tflops, b.fp64_tensor_tflops)
        .field("fp32_tflops", a.fp32_tflops, b.fp32_tflops)
        .field("tf32_tflops", a.tf32_tflops, b.tf32_tflops)
        .field("fp16_tflops", a.fp16_tflops, b.fp16_tflops)
        .field("bf16_tflops", a.bf16_tflops, b.bf16_tflops)
        .field("fp8_tflops", a.fp8_tflops, b.fp8_tflops)
        .field("int8_tops", a.int8_tops, b.int8_tops)
        .field("tdp_w", a.tdp_w, b.tdp_w)
        .field("nvlink_gb_per_s", a.nvlink_gb_per_s, b.nvlink_gb_per_s)
        .field("pcie_gen", a.pcie_gen, b.pcie_gen)
        .field("mig_max_instances", a.mig_max_instances, b.mig_max_instances)
        .field("logical_devices", a.logical_devices, b.logical_devices)
        .field("vgpu_profiles_gb", a.vgpu_profiles_gb, b.vgpu_profiles_gb);
}

void diff_instance_specs(const InstanceType& a,
                         const InstanceType& b,
                         std::vector<SpecChange>& out) {
    FieldDiff(std::string("instance"), DiffKey{a.provider, a.id, ""}, out)
        .field("family", a.family, b.family)
        .field("gpu", a.gpu, b.gpu)
        .field("gpu_count", a.gpu_count, b.gpu_count)
        .field("gpu_memory_gb", a.gpu_memory_gb, b.gpu_memory_gb)
        .field("vcpus", a.vcpus, b.vcpus)
        .field("memory_gb", a.memory_gb, b.memory_gb)
        .field("network_gbps", a.network_gbps, b.network_gbps)
        .field("rdma", a.rdma, b.rdma)
        .field("nvlink", a.nvlink, b.nvlink)
        .field("fabric", a.fabric, b.fabric)
        .field("fabric_gbps", a.fabric_gbps, b.fabric_gbps)
        .field("vgpu_series", a.vgpu_series, b.vgpu_series)
        .field("local_storage_gb", a.local_storage_gb, b.local_storage_gb);
}

void diff_row(const DiffKey& offer, const PriceRow& a, const PriceRow& b, CatalogDiff& out) {
    const bool same_currency = a.currency == b.currency;
    for (const Plan plan : k_all_plans) {
        const auto& was = a.price(plan);
        const auto& now = b.price(plan);
        if (!was && !now) {
            continue;
        }
        PriceChange change{offer, plan, PriceChangeKind::changed, "", "", was, now};
        change.old_currency = was ? a.currency.str() : "";
        change.new_currency = now ? b.currency.str() : "";
        if (!was) {
            change.kind = PriceChangeKind::appeared;
        } else if (!now) {
            change.kind = PriceChangeKind::disappeared;
        } else if (!same_currency) {
            change.kind = PriceChangeKind::currency;
        } else if (*was == *now) {
            continue;
        }
        out.price_changes.push_back(std::move(change));
    }
    const Provenance& p = a.provenance;
    const Provenance& q = b.provenance;
    if (p.source != q.source || p.as_of != q.as_of || p.confidence != q.confidence ||
        p.notes != q.notes) {
        out.provenance_changes.push_back(offer);
    }
}

void diff_instance(const InstanceType& a, const InstanceType& b, CatalogDiff& out) {
    diff_instance_specs(a, b, out.spec_changes);
    std::map<std::string_view, const PriceRow*> old_rows;
    for (const PriceRow& row : a.regions) {
        old_rows[row.region] = &row;
    }
    for (const PriceRow& row : b.regions) {
        const DiffKey offer{b.provider, b.id, row.region};
        const auto found = old_rows.find(row.region.str());
        if (found == old_rows.end()) {
            out.offers_added.push_back(offer);
            continue;
        }
        diff_row(offer, *found->second, row, out);
        old_rows.erase(found);
    }
    for (const auto& [region, row] : old_rows) {
        out.offers_removed.push_back({a.provider, a.id, std::string(region)});
    }
}

// Larger moves first; then appeared, disappeared, currency; then by offer and plan.
bool before(const PriceChange& a, const PriceChange& b) {
    const auto pa = a.percent();
    const auto pb = b.percent();
    const double ma = pa ? std::fabs(*pa) : -1;
    const double mb = pb ? std::fabs(*pb) : -1;
    return std::tuple(-ma, a.kind, a.offer, a.plan) < std::tuple(-mb, b.kind, b.offer, b.plan);
}

} // namespace

CatalogDiff diff(const Catalog& old_catalog, const Catalog& new_catalog) {
    CatalogDiff out;
    for (const Gpu& gpu : new_catalog.gpus()) {
        if (const Gpu* was = old_catalog.find_gpu(gpu.id)) {
            diff_gpu(*was, gpu, out.spec_changes);
        } else {
            out.gpus_added.push_back(gpu.id);
        }
    }
    for (const Gpu& gpu : old_catalog.gpus()) {
        if (new_catalog.find_gpu(gpu.id) == nullptr) {
            out.gpus_removed.push_back(gpu.id);
        }
    }
    std::map<DiffKey, const InstanceType*> old_instances;
    for (const InstanceType& instance : old_catalog.instances()) {
        old_instances[{instance.provider, instance.id, ""}] = &instance;
    }
    std::map<DiffKey, const InstanceType*> new_instances;
    for (const InstanceType& instance : new_catalog.instances()) {
        new_instances[{instance.provider, instance.id, ""}] = &instance;
    }
    for (const auto& [key, instance] : new_instances) {
        const auto found = old_instances.find(key);
        if (found == old_instances.end()) {
            out.instances_added.push_back(key);
        } else {
            diff_instance(*found->second, *instance, out);
        }
    }
    for (const auto& [key, instance] : old_instances) {
        if (!new_instances.contains(key)) {
            out.instances_removed.push_back(key);
        }
    }
    std::stable_sort(out.price_changes.begin(), out.price_changes.end(), before);
    std::sort(out.offers_added.begin(), out.offers_added.end());
    std::sort(out.offers_removed.begin(), out.offers_removed.end());
    std::sort(out.provenance_changes.begin(), out.provenance_changes.end());
    return out;
}

} // namespace gpuadvisor
