#include "catalog/catalog_decode.hpp"

#include "catalog/catalog_checks.hpp"
#include "catalog/cpu_decode.hpp"
#include "catalog/discount_decode.hpp"
#include "catalog/transfer_decode.hpp"
#include "util/currency_codes.hpp"
#include "yaml/schema.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <iterator>
#include <set>

namespace gpuadvisor {

namespace {

constexpr std::array<std::string_view, 7> k_top_fields{
    "schema_version", "gpus", "provider", "instances", "discounts", "cpus", "transfer"};
constexpr std::array<std::string_view, 26> k_gpu_fields{"id",
                                                        "aliases",
                                                        "vendor",
                                                        "architecture",
                                                        "form_factor",
                                                        "memory_gb",
                                                        "memory_type",
                                                        "memory_bandwidth_gb_per_s",
                                                        "fp64_tflops",
                                                        "fp64_tensor_tflops",
                                                        "fp32_tflops",
                                                        "tf32_tflops",
                                                        "fp16_tflops",
                                                        "bf16_tflops",
                                                        "fp8_tflops",
                                                        "int8_tops",
                                                        "tdp_w",
                                                        "nvlink_gb_per_s",
                                                        "pcie_gen",
                                                        "mig_max_instances",
                                                        "logical_devices",
                                                        "vgpu_profiles_gb",
                                                        "source",
                                                        "as_of",
                                                        "confidence",
                                                        "notes"};
constexpr std::array<std::string_view, 8> k_provider_fields{
    "id", "name", "currency", "source", "as_of", "confidence", "notes", "regions"};
constexpr std::array<std::string_view, 3> k_region_fields{"id", "name", "country"};
constexpr std::array<std::string_view, 19> k_instance_fields{"id",
                                                             "family",
                                                             "gpu",
                                                             "gpu_count",
                                                             "gpu_memory_gb",
                                                             "vcpus",
                                                             "memory_gb",
                                                             "network_gbps",
                                                             "rdma",
                                                             "nvlink",
                                                             "fabric",
                                                             "fabric_gbps",
                                                             "vgpu_series",
                                                             "local_storage_gb",
                                                             "source",
                                                             "as_of",
                                                             "confidence",
                                                             "notes",
                                                             "regions"};
constexpr std::array<std::string_view, 13> k_row_fields{"region",
                                                        "on_demand",
                                                        "spot",
                                                        "reserved_1y",
                                                        "reserved_3y",
                                                        "subscription_monthly",
                                                        "spot_interruption",
                                                        "currency",
                                                        "source",
                                                        "as_of",
                                                        "confidence",
                                                        "notes",
                                                        "remove"};

constexpr std::array<std::string_view, 3> k_vendors{"nvidia", "amd", "intel"};
constexpr std::array<std::string_view, 4> k_form_factors{"sxm", "pcie", "oam", "nvl"};
constexpr auto k_confidences = names_only(k_confidence_names);
constexpr std::array<std::string_view, 4> k_fabrics{"infiniband", "efa", "roce", "tcpx"};
constexpr std::array<std::string_view, 4> k_vgpu_series{"Q", "B", "A", "C"};

constexpr Range k_tflops{0.001, true, 100000}; // below a GFLOPS is a unit slip
constexpr Range k_positive_tflops{0.001, true, 100000};

// Names an entry in paths by its id where it has a valid one, else by its index.
std::string entry_path(std::string_view list,
                       std::size_t index,
                       const YamlNode& entry,
                       std::string_view id_key) {
    // Appended, not formatted: a large catalog names every row this way, error or not.
    std::array<char, 24> digits{};
    const char* end = std::to_chars(digits.data(), digits.data() + digits.size(), index).ptr;
    std::string_view inside(digits.data(), static_cast<std::size_t>(end - digits.data()));
    if (entry.kind == YamlNode::Kind::mapping) {
        const YamlNode* id = entry.find(id_key);
        if (id != nullptr && id->is_scalar() && !id->text.empty() && id->text.size() <= 64 &&
            id->text.find_first_of(" \t[]") == std::string::npos) {
            inside = id->text;
        }
    }
    std::string path;
    path.reserve(list.size() + inside.size() + 2);
    path.append(list).append(1, '[').append(inside).append(1, ']');
    return path;
}

class Decoder {
  public:
    Decoder(const std::string& file, Diagnostics& diagnostics) : m_read(file, diagnostics) {}

    // The top level, GPUs and provider; false when the file stops there. `instances` is set
    // to the instance list, if any.
    bool begin(const YamlNode& root,
               CatalogFragment& fragment,
               const std::span<const YamlNode>*& instances);
    // Instance types [first, last) of the list, appended to `out`.
    void instances(std::span<const YamlNode> list,
                   std::size_t first,
                   std::size_t last,
                   std::vector<InstanceInput>& out);
    // After every instance type: their ids checked unique, then the discounts.
    void end(const YamlNode& root, CatalogFragment& fragment);

  private:
    std::size_t errors() { return m_read.diagnostics().error_count(); }
    bool schema_version(const YamlNode& root);
    ProvenanceInput provenance(const YamlNode& map, std::string_view path, bool required);
    std::optional<GpuInput> gpu(const YamlNode& node, const std::string& path);
    // The GPU's memory type, bandwidth and peak figures, each nullopt where absent or bad.
    GpuFigures figures(const YamlNode& node, const std::string& path);
    std::optional<ProviderInput> provider(const YamlNode& node);
    std::optional<InstanceInput> instance(const YamlNode& node, const std::string& path);
    // `fabric` and `fabric_gbps`: either both or neither.
    void fabric(const YamlNode& node, const std::string& path, InstanceType& instance);
    std::optional<PriceRowInput> price_row(const YamlNode& node, const std::string& path);
    std::optional<std::string> currency(const YamlNode& map, std::string_view path);
    // The ids (under `key`) of a list's entries that give a valid one, with each entry's
    // position: what check_unique checks, whether the entry decoded or not.
    std::vector<std::pair<std::string, SourcePos>> listed_ids(const std::span<const YamlNode>* list,
                                                              std::string_view key);
    void check_unique(const std::vector<std::pair<std::string, SourcePos>>& ids,
                      std::string_view what);

    FieldReader m_read;
};

bool Decoder::schema_version(const YamlNode& root) {
    const YamlNode* version = root.find("schema_version");
    if (version == nullptr) {
        m_read.diagnostics().error(m_read.pos(root),
                                   "schema-version",
                                   "the file has no 'schema_version'",
                                   "start the file with 'schema_version: 1'");
        return false;
    }
    if (version->is_scalar() && !version->plain) {
        m_read.diagnostics().error(m_read.pos(*version),
                                   "schema-version",
                                   "schema_version is quoted: it is the number 1",
                                   "write 'schema_version: 1' without quotes");
        return false;
    }
    if (!version->is_scalar() || version->text != "1") {
        m_read.diagnostics().error(
            m_read.pos(*version),
            "schema-version",
            fmt::format("schema_version {} is not supported",
                        version->is_scalar() ? fmt::format("'{}'", version->text)
                                             : std::string("(not a number)")),
            "this gpuadvisor reads schema_version 1; a newer file needs a newer gpuadvisor");
        return false;
    }
    return true;
}

ProvenanceInput Decoder::provenance(const YamlNode& map, std::string_view path, bool required) {
    const Need need = required ? Need::required : Need::optional;
    ProvenanceInput result;
    result.source = m_read.text(map, "source", path, need);
    result.as_of = m_read.date(map, "as_of", path, need);
    if (const YamlNode* as_of = map.find("as_of")) {
        result.as_of_pos = m_read.pos(*as_of);
    }
    if (const auto confidence =
            m_read.one_of(map, "confidence", path, Need::optional, k_confidences)) {
        result.confidence = parse_confidence(*confidence);
    }
    result.notes = m_read.text(map, "notes", path, Need::optional).value_or("");
    if (result.source && result.source->empty()) {
        m_read.diagnostics().error(
            m_read.pos(*map.find("source")),
            "bad-value",
            fmt::format("{}: the source is empty", join_path(path, "source")),
            "name the datasheet or price list, with its URL");
    }
    return result;
}

std::optional<std::string> Decoder::currency(const YamlNode& map, std::string_view path) {
    return read_currency(m_read, map, path, Need::optional);
}

std::optional<GpuInput> Decoder::gpu(const YamlNode& node, const std::string& path) {
    const std::size_t before = errors();
    if (!m_read.mapping(node, path, "a GPU", k_gpu_fields)) {
        return std::nullopt;
    }
    GpuInput input;
    Gpu& gpu = input.gpu;
    gpu.origin = m_read.pos(node);
    gpu.id = m_read.id(node, "id", path, Need::required).value_or("");
    if (const auto* aliases = m_read.list(node, "aliases", path, Need::optional)) {
        for (const YamlNode& alias : *aliases) {
            if (alias.is_scalar() && m_read.is_valid_id(alias.text)) {
                gpu.aliases.emplace_back(alias.text);
            } else {
                m_read.diagnostics().error(m_read.pos(alias),
                                           "bad-value",
                                           fmt::format("{}.aliases: not a valid name", path),
                                           "names are 1-128 characters from A-Z a-z 0-9 . _ - + /");
            }
        }
    }
    gpu.vendor = m_read.one_of(node, "vendor", path, Need::required, k_vendors).value_or("");
    gpu.architecture = m_read.text(node, "architecture", path, Need::required).value_or("");
    gpu.form_factor =
        m_read.one_of(node, "form_factor", path, Need::required, k_form_factors).value_or("");
    gpu.memory_gb =
        m_read.number(node, "memory_gb", path, Need::required, {0.1, true, 2000}).value_or(0);
    GpuFigures figures = this->figures(node, path);
    figures.vendor = gpu.vendor;
    gpu.memory_type = figures.memory_type.value_or("");
    gpu.memory_bandwidth_gb_per_s = figures.memory_bandwidth_gb_per_s.value.value_or(0);
    gpu.fp64_tflops = figures.fp64_tflops.value.value_or(0);
    gpu.fp64_tensor_tflops =
        m_read.number(node, "fp64_tensor_tflops", path, Need::optional, k_positive_tflops);
    gpu.fp32_tflops = figures.fp32_tflops.value.value_or(0);
    gpu.tf32_tflops = figures.tf32_tflops.value;
    gpu.fp16_tflops = figures.fp16_tflops.value;
    gpu.bf16_tflops = figures.bf16_tflops.value;
    gpu.fp8_tflops = figures.fp8_tflops.value;
    check_gpu_figures(figures, m_read.diagnostics()); // on what decoded, errors elsewhere or not
    gpu.int8_tops = m_read.number(node, "int8_tops", path, Need::optional, k_positive_tflops);
    gpu.tdp_w = m_read.number(node, "tdp_w", path, Need::optional, {0, false, 5000});
    gpu.nvlink_gb_per_s =
        m_read.number(node, "nvlink_gb_per_s", path, Need::optional, {0, true, 100000}).value_or(0);
    gpu.pcie_gen = m_read.whole(node, "pcie_gen", path, Need::optional, {1, true, 7});
    gpu.mig_max_instances =
        m_read.whole(node, "mig_max_instances", path, Need::optional, {0, true, 64}).value_or(0);
    gpu.logical_devices =
        m_read.whole(node, "logical_devices", path, Need::optional, {1, true, 16}).value_or(1);
    if (const auto* profiles = m_read.list(node, "vgpu_profiles_gb", path, Need::optional)) {
        const Range profile_range{0.25, true, gpu.memory_gb > 0 ? gpu.memory_gb : 2000};
        for (const YamlNode& profile : *profiles) {
            if (const auto size =
                    m_read.number_node(profile, path + ".vgpu_profiles_gb", profile_range)) {
                gpu.vgpu_profiles_gb.push_back(*size);
            }
        }
    }
    input.provenance = provenance(node, path, true);
    input.flawed = errors() != before;
    if (input.flawed) {
        return input;
    }
    gpu.provenance = {*input.provenance.source,
                      *input.provenance.as_of,
                      input.provenance.confidence.value_or(Confidence::high),
                      input.provenance.notes};
    return input;
}

GpuFigures Decoder::figures(const YamlNode& node, const std::string& path) {
    const auto figure = [&](std::string_view key, Need need, Range range) {
        const YamlNode* at = node.find(key);
        return Figure{m_read.number(node, key, path, need, range),
                      m_read.pos(at != nullptr ? *at : node)};
    };
    GpuFigures figures;
    figures.path = path;
    figures.memory_type = m_read.text(node, "memory_type", path, Need::optional);
    figures.memory_bandwidth_gb_per_s =
        figure("memory_bandwidth_gb_per_s", Need::required, {1, true, 100000});
    figures.fp64_tflops = figure("fp64_tflops", Need::required, k_tflops);
    figures.fp32_tflops = figure("fp32_tflops", Need::required, k_positive_tflops);
    figures.tf32_tflops = figure("tf32_tflops", Need::optional, k_positive_tflops);
    figures.fp16_tflops = figure("fp16_tflops", Need::optional, k_positive_tflops);
    figures.bf16_tflops = figure("bf16_tflops", Need::optional, k_positive_tflops);
    figures.fp8_tflops = figure("fp8_tflops", Need::optional, k_positive_tflops);
    return figures;
}

std::optional<ProviderInput> Decoder::provider(const YamlNode& node) {
    const std::size_t before = errors();
    const std::string path = "provider";
    if (!m_read.mapping(node, path, "the provider", k_provider_fields)) {
        return std::nullopt;
    }
    ProviderInput input;
    input.origin = m_read.pos(node);
    input.id = m_read.id(node, "id", path, Need::required).value_or("");
    input.name = m_read.text(node, "name", path, Need::optional);
    input.currency = currency(node, path);
    input.provenance = provenance(node, path, false);
    const auto* regions = m_read.list(node, "regions", path, Need::optional);
    if (regions != nullptr) {
        for (std::size_t i = 0; i < regions->size(); ++i) {
            const YamlNode& region = (*regions)[i];
            const std::string region_path = entry_path("provider.regions", i, region, "id");
            if (!m_read.mapping(region, region_path, "a region", k_region_fields)) {
                continue;
            }
            RegionInfo info;
            info.id = m_read.id(region, "id", region_path, Need::required).value_or("");
            info.name = m_read.text(region, "name", region_path, Need::optional).value_or("");
            info.country = m_read.text(region, "country", region_path, Need::optional).value_or("");
            if (!info.country.empty() && (info.country.size() != 2 ||
                                          info.country.find_first_not_of(
                                              "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != std::string::npos)) {
                m_read.diagnostics().error(m_read.pos(*region.find("country")),
                                           "bad-value",
                                           fmt::format("{}.country: '{}' is not a country code",
                                                       region_path,
                                                       info.country),
                                           "write an ISO 3166 alpha-2 code such as US, CN, SG");
            }
            input.regions.push_back(std::move(info));
        }
    }
    check_unique(listed_ids(regions, "id"), "region");
    input.flawed = errors() != before;
    return input;
}

std::optional<PriceRowInput> Decoder::price_row(const YamlNode& node, const std::string& path) {
    const std::size_t before = errors();
    const auto given = m_read.fields_given(node, path, "a price row", k_row_fields);
    if (!given) {
        return std::nullopt;
    }
    // Only the fields given are read: a row gives three or four of its twelve.
    const auto gives = [fields = *given](std::uint64_t bits) {
        return (fields & bits) != 0;
    };
    const auto money = [&](std::string_view key, std::uint64_t bit) {
        return gives(bit) ? m_read.money(node, key, path) : std::nullopt;
    };
    constexpr auto bit = [](std::string_view key) consteval {
        return bit_of(k_row_fields, key);
    };
    PriceRowInput input;
    PriceRow& row = input.row;
    row.origin = m_read.pos(node);
    row.region = m_read.id(node, "region", path, Need::required).value_or("");
    row.on_demand = money("on_demand", bit("on_demand"));
    row.spot = money("spot", bit("spot"));
    row.reserved_1y = money("reserved_1y", bit("reserved_1y"));
    row.reserved_3y = money("reserved_3y", bit("reserved_3y"));
    row.subscription_monthly = money("subscription_monthly", bit("subscription_monthly"));
    if (gives(bit("spot_interruption"))) {
        if (auto band = m_read.text(node, "spot_interruption", path, Need::optional)) {
            check_interruption_band(
                *band, m_read.pos(*node.find("spot_interruption")), path, m_read.diagnostics());
            row.spot_interruption = std::move(*band);
        }
    }
    if (gives(bit("currency"))) {
        input.currency = currency(node, path);
    }
    if (gives(bit("source") | bit("as_of") | bit("confidence") | bit("notes"))) {
        input.provenance = provenance(node, path, false);
    }
    if (gives(bit("remove"))) {
        input.remove = m_read.boolean(node, "remove", path, Need::optional).value_or(false);
        if (input.remove && *given != (bit("region") | bit("remove"))) {
            m_read.diagnostics().error(
                row.origin,
                "bad-value",
                fmt::format("{}: a row that removes its region gives nothing else", path),
                "keep only 'region' and 'remove: true', or drop 'remove' to replace the row");
        }
    }
    input.flawed = errors() != before;
    if (input.remove) {
        return input;
    }
    const bool any_price = std::any_of(std::begin(k_all_plans),
                                       std::end(k_all_plans),
                                       [&](Plan plan) { return row.price(plan).has_value(); });
    if (!input.flawed && !any_price) { // (a price that did not decode has its own error)
        m_read.diagnostics().error(row.origin,
                                   "no-price",
                                   fmt::format("{}: no price given", path),
                                   "give at least one of on_demand, spot, reserved_1y, "
                                   "reserved_3y, subscription_monthly");
        input.flawed = true;
    }
    return input;
}

void Decoder::fabric(const YamlNode& node, const std::string& path, InstanceType& instance) {
    if (auto kind = m_read.one_of(node, "fabric", path, Need::required, k_fabrics)) {
        instance.fabric = std::move(*kind);
    }
    instance.fabric_gbps =
        m_read.number(node, "fabric_gbps", path, Need::required, {0, false, 100000}).value_or(0);
}

std::optional<InstanceInput> Decoder::instance(const YamlNode& node, const std::string& path) {
    const std::size_t before = errors();
    const auto given = m_read.fields_given(node, path, "an instance type", k_instance_fields);
    if (!given) {
        return std::nullopt;
    }
    const auto gives = [fields = *given](std::uint64_t bits) {
        return (fields & bits) != 0;
    };
    constexpr auto bit = [](std::string_view key) consteval {
        return bit_of(k_instance_fields, key);
    };
    InstanceInput input;
    InstanceType& instance = input.instance;
    instance.origin = m_read.pos(node);
    instance.id = m_read.id(node, "id", path, Need::required).value_or("");
    instance.family = m_read.text(node, "family", path, Need::required).value_or("");
    instance.gpu = m_read.id(node, "gpu", path, Need::required).value_or("");
    if (const YamlNode* gpu = node.find("gpu")) {
        instance.gpu_pos = m_read.pos(*gpu);
    }
    instance.gpu_count =
        m_read.number(node, "gpu_count", path, Need::required, {0, false, 64}).value_or(0);
    if (instance.gpu_count > 1 && instance.gpu_count != static_cast<int>(instance.gpu_count)) {
        m_read.diagnostics().error(m_read.pos(*node.find("gpu_count")),
                                   "out-of-range",
                                   fmt::format("{}.gpu_count: {} is not a whole number of GPUs",
                                               path,
                                               format_number(instance.gpu_count)),
                                   "only a vGPU slice (below 1) may be fractional");
    }
    if (gives(bit("gpu_memory_gb"))) {
        instance.gpu_memory_gb =
            m_read.number(node, "gpu_memory_gb", path, Need::optional, {0, false, 100000});
    }
    instance.vcpus = m_read.whole(node, "vcpus", path, Need::required, {1, true, 4096}).value_or(0);
    instance.memory_gb =
        m_read.number(node, "memory_gb", path, Need::required, {0, false, 100000}).value_or(0);
    instance.network_gbps =
        m_read.number(node, "network_gbps", path, Need::required, {0, false, 100000}).value_or(0);
    instance.rdma = m_read.boolean(node, "rdma", path, Need::required).value_or(false);
    instance.nvlink = m_read.boolean(node, "nvlink", path, Need::required).value_or(false);
    if (gives(bit("fabric") | bit("fabric_gbps"))) {
        fabric(node, path, instance);
    }
    if (gives(bit("vgpu_series"))) {
        instance.vgpu_series =
            m_read.one_of(node, "vgpu_series", path, Need::optional, k_vgpu_series).value_or("");
    }
    if (gives(bit("local_storage_gb"))) {
        instance.local_storage_gb =
            m_read.number(node, "local_storage_gb", path, Need::optional, {0, true, 10000000})
                .value_or(0);
    }
    if (gives(bit("source") | bit("as_of") | bit("confidence") | bit("notes"))) {
        input.provenance = provenance(node, path, false);
    }
    const auto* rows = m_read.list(node, "regions", path, Need::required);
    input.fields_flawed = errors() != before;
    if (rows != nullptr) {
        input.rows.reserve(rows->size());
        const std::string rows_path = path + ".regions";
        for (std::size_t i = 0; i < rows->size(); ++i) {
            const std::string row_path = entry_path(rows_path, i, (*rows)[i], "region");
            if (auto row = price_row((*rows)[i], row_path)) {
                input.rows.push_back(std::move(*row));
            }
        }
        check_unique(listed_ids(rows, "region"), "price row for region");
    }
    input.flawed = errors() != before;
    return input;
}

std::vector<std::pair<std::string, SourcePos>>
Decoder::listed_ids(const std::span<const YamlNode>* list, std::string_view key) {
    std::vector<std::pair<std::string, SourcePos>> ids;
    if (list == nullptr) {
        return ids;
    }
    ids.reserve(list->size());
    for (const YamlNode& entry : *list) {
        const YamlNode* id = entry.kind == YamlNode::Kind::mapping ? entry.find(key) : nullptr;
        if (id != nullptr && id->is_scalar() && m_read.is_valid_id(id->text)) {
            ids.emplace_back(id->text, m_read.pos(entry));
        }
    }
    return ids;
}

void Decoder::check_unique(const std::vector<std::pair<std::string, SourcePos>>& ids,
                           std::string_view what) {
    // Sorted, not kept in a map: a map allocates per id, and a catalog checks ten or so rows
    // per instance type. Equal ids stay in file order (stable), so the first of each run is the
    // first met; the others are reported in file order.
    std::vector<std::pair<std::string, std::size_t>> lowered;
    lowered.reserve(ids.size());
    for (std::size_t i = 0; i < ids.size(); ++i) {
        lowered.emplace_back(to_lower(ids[i].first), i);
    }
    std::stable_sort(lowered.begin(), lowered.end(), [](const auto& a, const auto& b) {
        return a.first < b.first;
    });
    std::vector<std::pair<std::size_t, std::size_t>> seconds; // (index, index of the first)
    for (std::size_t k = 1, first = 0; k < lowered.size(); ++k) {
        if (lowered[k].first != lowered[first].first) {
            first = k;
        } else if (!ids[lowered[k].second].first.empty()) {
            seconds.emplace_back(lowered[k].second, lowered[first].second);
        }
    }
    std::sort(seconds.begin(), seconds.end());
    for (const auto& [second, first] : seconds) {
        const auto& [id, pos] = ids[second];
        m_read.diagnostics().error(pos,
                                   "duplicate-id",
                                   fmt::format("a second {} '{}' in this file (the first is at "
                                               "line {})",
                                               what,
                                               id,
                                               ids[first].second.line),
                                   "keep one; ids are compared ignoring case");
    }
}

bool Decoder::begin(const YamlNode& root,
                    CatalogFragment& fragment,
                    const std::span<const YamlNode>*& instances) {
    if (root.kind == YamlNode::Kind::null) {
        m_read.diagnostics().error(m_read.pos(root),
                                   "schema-version",
                                   "the file is empty",
                                   "a catalog file starts with 'schema_version: 1'");
        return false;
    }
    if (!m_read.mapping(root, "", "a catalog file", k_top_fields) || !schema_version(root)) {
        return false;
    }
    const auto* gpus = m_read.list(root, "gpus", "", Need::optional);
    for (std::size_t i = 0; gpus != nullptr && i < gpus->size(); ++i) {
        auto gpu = this->gpu((*gpus)[i], entry_path("gpus", i, (*gpus)[i], "id"));
        if (gpu && gpu->flawed) { // not merged; its names are known all the same
            for (const std::string& name : gpu->gpu.aliases) {
                fragment.flawed_gpus.push_back(to_lower(name));
            }
            if (!gpu->gpu.id.empty()) {
                fragment.flawed_gpus.push_back(to_lower(gpu->gpu.id));
            }
        } else if (gpu) {
            fragment.gpus.push_back(std::move(*gpu));
        }
    }
    check_unique(listed_ids(gpus, "id"), "GPU");
    if (const YamlNode* provider = m_read.value(root, "provider", "", Need::optional)) {
        fragment.provider = this->provider(*provider);
    }
    instances = m_read.list(root, "instances", "", Need::optional);
    if (instances != nullptr && !instances->empty() && root.find("provider") == nullptr) {
        m_read.diagnostics().error(m_read.pos(root),
                                   "missing-field",
                                   "the file has instances but no 'provider'",
                                   "add 'provider: {id: aws}' (or the provider they belong to)");
    }
    return true;
}

void Decoder::instances(std::span<const YamlNode> list,
                        std::size_t first,
                        std::size_t last,
                        std::vector<InstanceInput>& out) {
    for (std::size_t i = first; i < last; ++i) {
        if (auto instance = this->instance(list[i], entry_path("instances", i, list[i], "id"))) {
            out.push_back(std::move(*instance));
        }
    }
}

void Decoder::end(const YamlNode& root, CatalogFragment& fragment) {
    const YamlNode* instances = root.find("instances");
    if (instances != nullptr && instances->kind == YamlNode::Kind::sequence) {
        check_unique(listed_ids(&instances->items, "id"), "instance type");
    }
    const auto* discounts = m_read.list(root, "discounts", "", Need::optional);
    for (std::size_t i = 0; discounts != nullptr && i < discounts->size(); ++i) {
        const std::string path = entry_path("discounts", i, (*discounts)[i], "id");
        if (auto discount = decode_discount(m_read, (*discounts)[i], path)) {
            fragment.discounts.push_back(std::move(*discount));
        }
    }
    check_unique(listed_ids(discounts, "id"), "discount");
    const auto* cpus = m_read.list(root, "cpus", "", Need::optional);
    for (std::size_t i = 0; cpus != nullptr && i < cpus->size(); ++i) {
        const std::string path = entry_path("cpus", i, (*cpus)[i], "id");
        if (auto cpu = decode_cpu(m_read, (*cpus)[i], path)) {
            fragment.cpus.push_back(std::move(*cpu));
        }
    }
    check_unique(listed_ids(cpus, "id"), "CPU");
    const auto* transfer = m_read.list(root, "transfer", "", Need::optional);
    for (std::size_t i = 0; transfer != nullptr && i < transfer->size(); ++i) {
        const std::string path = entry_path("transfer", i, (*transfer)[i], "provider");
        if (auto entry = decode_transfer(m_read, (*transfer)[i], path)) {
            fragment.transfer.push_back(std::move(*entry));
        }
    }
    check_unique(listed_ids(transfer, "provider"), "transfer entry of provider");
}

} // namespace

CatalogDecode::CatalogDecode(const YamlDocument& document, Diagnostics& diagnostics)
    : m_document(document) {
    m_fragment.file = document.file;
    if (document.root) {
        Decoder decoder(document.file, diagnostics);
        m_began = decoder.begin(*document.root, m_fragment, m_instances);
    }
}

std::size_t CatalogDecode::instance_count() const {
    return m_began && m_instances != nullptr ? m_instances->size() : 0;
}

std::vector<InstanceInput>
CatalogDecode::instances(std::size_t first, std::size_t last, Diagnostics& diagnostics) const {
    std::vector<InstanceInput> run;
    if (first < last && last <= instance_count()) {
        run.reserve(last - first);
        Decoder decoder(m_document.file, diagnostics);
        decoder.instances(*m_instances, first, last, run);
    }
    return run;
}

CatalogFragment CatalogDecode::finish(std::vector<std::vector<InstanceInput>> runs,
                                      Diagnostics& diagnostics) {
    if (!m_began) {
        return std::move(m_fragment);
    }
    // The first run taken whole (a file decoded in one piece has no other), the others moved
    // in after it.
    std::size_t count = 0;
    for (const auto& run : runs) {
        count += run.size();
    }
    if (!runs.empty()) {
        m_fragment.instances = std::move(runs.front());
    }
    m_fragment.instances.reserve(count);
    for (std::size_t r = 1; r < runs.size(); ++r) {
        std::move(runs[r].begin(), runs[r].end(), std::back_inserter(m_fragment.instances));
    }
    auto& instances = m_fragment.instances;
    if (std::any_of(instances.begin(), instances.end(), [](const auto& i) { return i.flawed; })) {
        std::vector<InstanceInput> clean; // in file order, as the flawed ones
        for (InstanceInput& input : instances) {
            (input.flawed ? m_fragment.flawed_instances : clean).push_back(std::move(input));
        }
        instances = std::move(clean);
    }
    Decoder decoder(m_document.file, diagnostics);
    decoder.end(*m_document.root, m_fragment);
    return std::move(m_fragment);
}

CatalogFragment decode_catalog(const YamlDocument& document, Diagnostics& diagnostics) {
    CatalogDecode decode(document, diagnostics);
    std::vector<std::vector<InstanceInput>> runs;
    runs.push_back(decode.instances(0, decode.instance_count(), diagnostics));
    return decode.finish(std::move(runs), diagnostics);
}

std::optional<std::string>
read_currency(FieldReader& read, const YamlNode& map, std::string_view path, Need need) {
    auto code = read.text(map, "currency", path, need);
    if (code && !is_iso4217_code(*code)) {
        const std::string_view meant = iso4217_code_meant(*code);
        read.diagnostics().error(
            read.pos(*map.find("currency")),
            "bad-value",
            fmt::format(
                "{}: '{}' is not an ISO 4217 currency code", join_path(path, "currency"), *code),
            meant.empty() ? std::string("write an ISO 4217 code such as USD or CNY")
                          : fmt::format("did you mean '{}'?", meant));
        return std::nullopt;
    }
    return code;
}

} // namespace gpuadvisor
