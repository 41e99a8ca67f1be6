#include "skypilot_offers.hpp"

#include "gpuadvisor/units.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

namespace gpuadvisor::cli {

namespace {

// GCP machine-type series whose GPUs SkyPilot names apart from the series (its accelerator rows).
constexpr std::array<std::pair<std::string_view, std::string_view>, 8> k_gcp_series{{
    {"a2-highgpu", "A100"},
    {"a2-megagpu", "A100"},
    {"a2-ultragpu", "A100-80GB"},
    {"a3-edgegpu", "H100"},
    {"a3-highgpu", "H100"},
    {"a3-megagpu", "H100-MEGA"},
    {"a3-ultragpu", "H200"},
    {"g2-standard", "L4"},
}};

std::string spread(std::int64_t low, std::int64_t high) {
    return low == high ? format_micros(low)
                       : fmt::format("{}-{}", format_micros(low), format_micros(high));
}

std::string offer_notes(const ZoneOffer& offer) {
    std::vector<std::string> parts;
    if (!offer.derivation.empty()) {
        parts.push_back(offer.derivation);
    }
    const auto by_demand = std::minmax_element(
        offer.zones.begin(), offer.zones.end(), [](const ZoneQuote& a, const ZoneQuote& b) {
            return a.on_demand < b.on_demand;
        });
    if (by_demand.first->on_demand != by_demand.second->on_demand) {
        parts.push_back(
            fmt::format("on-demand {} by zone: the lowest taken",
                        spread(by_demand.first->on_demand, by_demand.second->on_demand)));
    }
    std::vector<std::int64_t> spots;
    for (const ZoneQuote& zone : offer.zones) {
        if (zone.spot) {
            spots.push_back(*zone.spot);
        }
    }
    if (!spots.empty() && offer.zoned) {
        const auto [low, high] = std::minmax_element(spots.begin(), spots.end());
        parts.push_back(fmt::format("spot {} over {} zone{} (the cheapest taken)",
                                    spread(*low, *high),
                                    spots.size(),
                                    spots.size() == 1 ? "" : "s"));
    }
    return fmt::format("{}", fmt::join(parts, "; "));
}

} // namespace

void add_offer_prices(const ZoneOffer& offer, ImportResult& result) {
    if (offer.zones.empty()) {
        return;
    }
    ImportedPrice entry;
    entry.provider = offer.provider;
    entry.instance = offer.instance;
    entry.region = offer.region;
    entry.currency = "USD";
    entry.as_of = offer.as_of;
    entry.source = offer.source;
    entry.confidence = offer.confidence;
    entry.notes = offer_notes(offer);
    entry.pos = offer.zones.front().pos;
    std::int64_t on_demand = offer.zones.front().on_demand;
    std::optional<std::int64_t> spot;
    for (const ZoneQuote& zone : offer.zones) {
        on_demand = std::min(on_demand, zone.on_demand);
        if (zone.spot && (!spot || *zone.spot < *spot)) {
            spot = zone.spot;
        }
    }
    entry.plan = Plan::on_demand;
    entry.micros = on_demand;
    result.prices.push_back(entry);
    if (spot) {
        entry.plan = Plan::spot;
        entry.micros = *spot;
        result.prices.push_back(std::move(entry));
    }
}

GpuMatch resolve_gpu(const Catalog& catalog, std::string_view name, std::optional<double> mib) {
    std::string wanted(name);
    std::replace(wanted.begin(), wanted.end(), ' ', '-'); // "Radeon Pro V520"
    if (wanted == "H100-MEGA") { // GCP's a3-megagpu: the same H100 80GB SXM
        wanted = "H100";
    }
    std::vector<const Gpu*> matches = catalog.match_gpus(wanted);
    if (matches.empty() && wanted.starts_with("Radeon-")) { // Azure's "Radeon MI25"
        matches = catalog.match_gpus(wanted.substr(7));
    }
    GpuMatch match;
    if (matches.size() > 1 && mib) { // A100 -> 40 or 80 GB, V100 -> 16 or 32 GB
        const double gb = *mib / 1024;
        std::erase_if(matches,
                      [&](const Gpu* gpu) { return std::abs(gpu->memory_gb - gb) > 0.1 * gb; });
    }
    if (matches.size() > 1) { // the board the clouds rent unless they say PCIe or NVL
        std::vector<const Gpu*> boards = matches;
        std::erase_if(boards, [](const Gpu* gpu) {
            return gpu->id.find("PCIe") != std::string::npos ||
                   gpu->id.find("NVL") != std::string::npos;
        });
        if (boards.size() == 1) {
            matches = boards;
        }
    }
    if (matches.size() == 1) {
        match.id = matches[0]->id;
        return match;
    }
    for (const Gpu* gpu : matches) {
        match.candidates.push_back(gpu->id);
    }
    match.ambiguous = !matches.empty();
    if (match.candidates.empty()) {
        match.candidates = catalog.gpu_names_near(wanted);
    }
    return match;
}

std::optional<double> gpu_memory_mib(std::string_view gpu_info) {
    const std::size_t at = gpu_info.find("SizeInMiB");
    if (at == std::string_view::npos) {
        return std::nullopt;
    }
    std::size_t start = at + 9;
    while (start < gpu_info.size() && (gpu_info[start] == '\'' || gpu_info[start] == '"' ||
                                       gpu_info[start] == ':' || gpu_info[start] == ' ')) {
        ++start;
    }
    std::size_t end = start;
    while (end < gpu_info.size() && end - start < 9 && gpu_info[end] >= '0' &&
           gpu_info[end] <= '9') {
        ++end;
    }
    if (end < gpu_info.size() && gpu_info[end] >= '0' && gpu_info[end] <= '9') {
        return std::nullopt; // over 9 digits: no GPU has that memory
    }
    const auto number = parse_strict_number(gpu_info.substr(start, end - start));
    if (!number || *number <= 0) {
        return std::nullopt;
    }
    return number;
}

GcpParts gcp_parts(const InstanceType& type) {
    const std::size_t plus = type.id.find('+'); // n1-standard-8+1xT4: our name of an N1 pair
    if (plus != std::string::npos) {
        const std::size_t times = type.id.find('x', plus);
        if (times == std::string::npos) {
            return {};
        }
        return {type.id.substr(0, plus), type.id.substr(times + 1)};
    }
    const std::size_t dash = type.id.rfind('-');
    const std::string series = type.id.substr(0, dash == std::string::npos ? 0 : dash);
    for (const auto& [prefix, accelerator] : k_gcp_series) {
        if (series == prefix) {
            return {type.id, std::string(accelerator)};
        }
    }
    return {};
}

} // namespace gpuadvisor::cli
