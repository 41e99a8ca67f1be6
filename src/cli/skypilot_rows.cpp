// SkypilotFeed's rows: GPU offers, GCP's machine-type and accelerator halves, and the summary.
#include "gpuadvisor/spelling.hpp"
#include "skypilot_feed.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace gpuadvisor::cli {

namespace {

// An accelerator name as reported: TPUs (hundreds of slice names) as one.
std::string tally_name(const std::string& accelerator) {
    return accelerator.starts_with("tpu-") ? "tpu-*" : accelerator;
}

} // namespace

void SkypilotFeed::row(const CsvRecord& record) {
    m_record = &record;
    m_row_ok = true;
    if (!has_header_width(record,
                          m_width,
                          m_file,
                          "a truncated file, or a comma inside a value without quotes",
                          m_result.diagnostics)) {
        m_row_ok = false;
        return;
    }
    const std::string& instance = field(c_instance).text;
    const std::string& accelerator = field(c_accelerator).text;
    const auto count_in = [&](Tally& tally) {
        tally.first = tally.rows++ == 0 ? SourcePos{m_file, record.line, 1} : tally.first;
    };
    if (accelerator.empty() && !m_machines_wanted.contains(instance)) {
        count_in(m_no_gpu);
        return;
    }
    if (field(c_price).text.empty()) { // not offered there (Azure's file has such rows)
        count_in(m_unpriced);
        return;
    }
    if (accelerator.empty()) {
        const auto quote = this->quote();
        const auto where = region();
        if (quote && where && first_time(instance, *where, quote->zone)) {
            m_machines[instance][{*where, quote->zone}] = *quote;
        }
        return;
    }
    const auto mib = m_index[c_gpu_info] ? gpu_memory_mib(field(c_gpu_info).text) : std::nullopt;
    GpuMatch gpu = resolve_gpu(m_context.catalog, accelerator, mib);
    if (gpu.ambiguous && !instance.empty()) { // "V100" without memory: the catalog type says
        for (const InstanceType* type : m_context.catalog.match_instances(instance)) {
            const auto& maybe = gpu.candidates;
            if (type->provider == m_provider->id && type->id == instance &&
                std::find(maybe.begin(), maybe.end(), type->gpu) != maybe.end()) {
                gpu.id = type->gpu;
            }
        }
    }
    if (gpu.id.empty()) {
        Tally& tally = m_unknown[tally_name(accelerator)];
        if (tally.rows++ == 0) {
            tally.first = pos(field(c_accelerator));
            tally.candidates = gpu.candidates;
            tally.ambiguous = gpu.ambiguous;
        }
        return;
    }
    if (instance.empty()) { // GCP: the accelerators' half of a VM's price
        const auto count = number(c_count, 1024);
        const auto quote = this->quote();
        const auto where = region();
        const std::string key = fmt::format("{} x{}", accelerator, count.value_or(0));
        if (count && quote && where && first_time(key, *where, quote->zone)) {
            m_accelerators[{accelerator, *count}][{*where, quote->zone}] = *quote;
        }
        return;
    }
    gpu_row(instance, gpu.id, mib);
}

void SkypilotFeed::gpu_row(const std::string& instance,
                           const std::string& gpu,
                           std::optional<double> mib) {
    const auto count = number(c_count, 1024);
    const auto vcpus = number(c_vcpus, 100000);
    const auto memory = number(c_memory, 1e7);
    const auto quote = this->quote();
    const auto where = region();
    if (!count || !vcpus || !memory || !quote || !where) {
        return;
    }
    const auto matches = m_context.catalog.match_instances(instance);
    const bool known = std::any_of(matches.begin(), matches.end(), [&](const InstanceType* t) {
        return t->provider == m_provider->id && t->id == instance;
    });
    if (!known) {
        new_instance(instance, gpu, *count, mib, *vcpus, *memory);
    }
    if (!first_time(instance, *where, quote->zone)) {
        return;
    }
    ZoneOffer& offer = m_offers[{instance, *where}];
    offer.provider = m_provider->id;
    offer.instance = instance;
    offer.region = *where;
    offer.zoned = m_index[c_zone].has_value();
    offer.zones.push_back(*quote);
}

void SkypilotFeed::new_instance(const std::string& id,
                                const std::string& gpu,
                                double count,
                                std::optional<double> mib,
                                double vcpus,
                                double memory) {
    auto& instances = m_result.instances;
    if (std::any_of(instances.begin(), instances.end(), [&](const InstanceType& t) {
            return t.provider == m_provider->id && t.id == id;
        })) {
        return;
    }
    InstanceType type;
    type.provider = m_provider->id;
    type.id = id;
    type.family = id.substr(0, id.find('.'));
    type.gpu = gpu;
    type.gpu_count = count;
    if (mib) {
        type.gpu_memory_gb = std::round(count * *mib / 1024 * 100) / 100;
    }
    type.vcpus = static_cast<int>(std::lround(vcpus));
    type.memory_gb = memory;
    type.network_gbps = 1; // the format's floor: the feed gives no network figure
    type.provenance.source = InternedText(m_source);
    type.provenance.as_of = m_as_of;
    type.provenance.confidence = Confidence::low;
    type.provenance.notes = InternedText(
        "From the SkyPilot catalog: vCPUs, memory, GPU, GPU count and GPU memory. Not in the "
        "feed: network_gbps (1, a placeholder floor), rdma, nvlink (false) and local_storage_gb "
        "(0).");
    type.origin = {m_file, m_record->line, 1};
    m_result.diagnostics.info(
        type.origin,
        "new-instance",
        fmt::format("{} {} is not in the catalog: the overlay defines it from the feed's specs",
                    m_provider->id,
                    id),
        "its network, RDMA, NVLink and local storage are not in the feed (confidence low); "
        "correct them in the overlay if you know them");
    instances.push_back(std::move(type));
}

void SkypilotFeed::gcp_pairs() {
    std::set<std::pair<std::string, double>> used;
    std::set<std::string> paired;
    for (const InstanceType& type : m_context.catalog.instances()) {
        const GcpParts parts = gcp_parts(type);
        if (type.provider != "gcp" || parts.machine.empty()) {
            continue;
        }
        const std::pair<std::string, double> key{parts.accelerator, type.gpu_count};
        const auto machine = m_machines.find(parts.machine);
        const auto gpus = m_accelerators.find(key);
        if (machine == m_machines.end() || gpus == m_accelerators.end()) {
            continue;
        }
        used.insert(key);
        paired.insert(parts.machine);
        for (const auto& [place, host] : machine->second) {
            const auto gpu = gpus->second.find(place);
            if (gpu == gpus->second.end()) {
                continue;
            }
            ZoneQuote sum = gpu->second;
            sum.on_demand += host.on_demand;
            sum.spot = host.spot && sum.spot ? std::optional(*host.spot + *sum.spot) : std::nullopt;
            ZoneOffer& offer = m_offers[{type.id, place.first}];
            offer.provider = "gcp";
            offer.instance = type.id;
            offer.region = place.first;
            offer.confidence = Confidence::low;
            offer.derivation = fmt::format("GCP bills the machine type and its GPUs apart: "
                                           "{} + {} x {}, summed zone by zone",
                                           parts.machine,
                                           type.gpu_count,
                                           parts.accelerator);
            offer.zones.push_back(sum);
        }
    }
    for (const auto& [machine, quotes] : m_machines) { // no accelerator row to pair with
        if (!paired.contains(machine)) {
            m_no_gpu.first = m_no_gpu.rows == 0 ? quotes.begin()->second.pos : m_no_gpu.first;
            m_no_gpu.rows += quotes.size();
        }
    }
    for (const auto& [key, quotes] : m_accelerators) {
        if (!used.contains(key)) {
            Tally& tally = m_unpaired;
            tally.first = tally.rows == 0 ? quotes.begin()->second.pos : tally.first;
            tally.rows += quotes.size();
            tally.candidates.push_back(fmt::format("{} x{}", key.first, key.second));
        }
    }
}

void SkypilotFeed::finish() {
    if (m_width == 0) {
        if (m_result.diagnostics.error_count() == m_errors_before) {
            error({m_file, 1, 1},
                  "missing-field",
                  "the file has no header row",
                  fmt::format("a SkyPilot vms.csv starts with its header: {}",
                              fmt::join(k_skypilot_columns, ",")));
        }
        return;
    }
    if (m_provider == nullptr) {
        m_result.diagnostics.warning(
            {m_file, 0, 0},
            "unknown-reference",
            fmt::format("cloud '{}': {} row(s) not imported", m_cloud, m_rows),
            "the catalog's providers SkyPilot prices are aws, gcp and azure (the folder name "
            "is the cloud)");
        return;
    }
    gcp_pairs();
    for (auto& [key, offer] : m_offers) {
        offer.source = m_source;
        offer.as_of = m_as_of;
        add_offer_prices(offer, m_result);
        add_region(offer.region, offer.zones.front().pos);
    }
    report();
}

} // namespace gpuadvisor::cli
