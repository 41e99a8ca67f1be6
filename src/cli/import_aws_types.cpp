#include "import_aws_types.hpp"

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <cmath>
#include <utility>

namespace gpuadvisor::cli {

namespace {

// AWS families whose GPU the built-in catalog may lack a type of (docs/cli.md, "catalog import
// aws"), from AWS's accelerated-computing instance pages.
constexpr std::array<std::pair<const char*, const char*>, 14> k_aws_family_gpus{{
    {"p3", "V100-16GB"},
    {"p3dn", "V100-32GB"},
    {"p4d", "A100-40GB"},
    {"p4de", "A100-80GB"},
    {"p5", "H100-80GB"},
    {"p5e", "H200-141GB"},
    {"p5en", "H200-141GB"},
    {"p6-b200", "B200"},
    {"g4dn", "T4"},
    {"g4ad", "Radeon-Pro-V520"},
    {"g5", "A10G"},
    {"g6", "L4"},
    {"gr6", "L4"},
    {"g6e", "L40S"},
}};

// ISO 3166 country by region id prefix (longest first where one is another's prefix).
constexpr std::array<std::pair<const char*, const char*>, 36> k_region_countries{{
    {"us-gov-", "US"},
    {"us-", "US"},
    {"ca-", "CA"},
    {"mx-", "MX"},
    {"sa-", "BR"},
    {"eu-west-1", "IE"},
    {"eu-west-2", "GB"},
    {"eu-west-3", "FR"},
    {"eu-central-1", "DE"},
    {"eu-central-2", "CH"},
    {"eu-north-1", "SE"},
    {"eu-south-1", "IT"},
    {"eu-south-2", "ES"},
    {"ap-northeast-1", "JP"},
    {"ap-northeast-2", "KR"},
    {"ap-northeast-3", "JP"},
    {"ap-southeast-1", "SG"},
    {"ap-southeast-2", "AU"},
    {"ap-southeast-3", "ID"},
    {"ap-southeast-4", "AU"},
    {"ap-southeast-5", "MY"},
    {"ap-southeast-7", "TH"},
    {"ap-south-1", "IN"},
    {"ap-south-2", "IN"},
    {"ap-east-1", "HK"},
    {"ap-east-2", "TW"},
    {"me-south-1", "BH"},
    {"me-central-1", "AE"},
    {"af-south-1", "ZA"},
    {"il-central-1", "IL"},
    {"cn-north-1", "CN"},
    {"cn-northwest-1", "CN"},
    {"eusc-de-east-1", "DE"},
    {"ap-southeast-6", "NZ"},
    {"eu-west-4", "NL"},
    {"ca-west-1", "CA"},
}};

// The number before the first space, thousands commas dropped: "1,152 GiB" -> 1152.
std::optional<double> leading_number(const std::string& text) {
    std::string digits;
    for (const char c : text) {
        if (c == ',') {
            continue;
        }
        if ((c < '0' || c > '9') && c != '.') {
            break;
        }
        digits += c;
    }
    double value = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size()) {
        return std::nullopt;
    }
    return value;
}

const std::string& attribute(const AwsProduct& product, const char* name) {
    static const std::string none;
    const auto found = product.attributes.find(name);
    return found == product.attributes.end() ? none : found->second;
}

// "Up to 25 Gigabit" -> 25, "3200 Gigabit" -> 3200, "100 Megabit" -> 0.1; nullopt otherwise.
std::optional<double> network(const std::string& text) {
    const std::string number = text.starts_with("Up to ") ? text.substr(6) : text;
    const auto value = leading_number(number);
    if (!value) {
        return std::nullopt;
    }
    return number.find("Megabit") != std::string::npos ? *value / 1000 : *value;
}

// "8 x 3840 NVMe SSD" -> 30720, "1 x 900 NVMe SSD" -> 900, "EBS only" -> 0.
std::optional<double> storage(const std::string& text) {
    if (text.empty() || text == "EBS only" || text == "NA") {
        return 0.0;
    }
    const auto count = leading_number(text);
    const auto times = text.find(" x ");
    if (!count || times == std::string::npos) {
        return std::nullopt;
    }
    const auto each = leading_number(text.substr(times + 3));
    return each ? std::optional<double>(*count * *each) : std::nullopt;
}

} // namespace

std::optional<long> aws_count(const std::string& text) {
    const auto value = leading_number(text);
    if (!value || text.find(' ') != std::string::npos || *value != std::floor(*value) ||
        *value > 1e9) {
        return std::nullopt;
    }
    return static_cast<long>(*value);
}

std::string aws_family(const std::string& instance) {
    return instance.substr(0, instance.find('.'));
}

std::string aws_family_gpu(const Catalog& catalog, const std::string& family) {
    for (const InstanceType& type : catalog.instances()) {
        if (type.provider == "aws" && type.family == family && !type.gpu.empty()) {
            return type.gpu;
        }
    }
    for (const auto& [name, gpu] : k_aws_family_gpus) {
        if (family == name && catalog.find_gpu(gpu) != nullptr) {
            return gpu;
        }
    }
    return {};
}

std::string aws_region_country(const std::string& region) {
    for (const auto& [prefix, country] : k_region_countries) {
        const std::string_view p(prefix);
        if (p.back() == '-' ? region.starts_with(p) : region == p) {
            return country;
        }
    }
    return {};
}

std::optional<InstanceType> aws_instance(const AwsProduct& product,
                                         const std::string& gpu,
                                         const Provenance& provenance,
                                         std::string& problem) {
    InstanceType type;
    type.provider = "aws";
    type.id = attribute(product, "instanceType");
    type.family = aws_family(type.id);
    type.gpu = gpu;
    const auto gpus = aws_count(attribute(product, "gpu"));
    const auto vcpus = aws_count(attribute(product, "vcpu"));
    const auto memory = leading_number(attribute(product, "memory"));
    const auto net = network(attribute(product, "networkPerformance"));
    const auto disk = storage(attribute(product, "storage"));
    const char* bad = !gpus     ? "gpu"
                      : !vcpus  ? "vcpu"
                      : !memory ? "memory"
                      : !net    ? "networkPerformance"
                      : !disk   ? "storage"
                                : nullptr;
    if (bad != nullptr) {
        problem = fmt::format("{}: '{}' is not a figure", bad, attribute(product, bad));
        return std::nullopt;
    }
    type.gpu_count = static_cast<double>(*gpus);
    type.vcpus = static_cast<int>(*vcpus);
    type.memory_gb = *memory;
    type.network_gbps = *net;
    type.local_storage_gb = *disk;
    if (const auto total = leading_number(attribute(product, "gpuMemory")); total && *total > 0) {
        type.gpu_memory_gb = *total;
    }
    type.provenance = provenance;
    return type;
}

} // namespace gpuadvisor::cli
