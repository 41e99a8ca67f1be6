#include "skypilot_feed.hpp"

#include "gpuadvisor/spelling.hpp"
#include "gpuadvisor/units.hpp"
#include "sheet_values.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace gpuadvisor::cli {

namespace {

constexpr const auto& k_columns = k_skypilot_columns;
constexpr std::size_t k_max_errors = 1000;

// "layout v7" from a catalogs/v7/<cloud>/vms.csv path, else what the columns say.
std::string layout_of(const std::string& file, bool has_arch) {
    namespace fs = std::filesystem;
    const std::string name = fs::path(file).parent_path().parent_path().filename().string();
    if (name.size() >= 2 && name[0] == 'v' &&
        name.find_first_not_of("0123456789", 1) == std::string::npos) {
        return fmt::format("layout {}", name);
    }
    return has_arch ? "v8 columns, with Arch" : "v7 columns";
}

bool is_text(std::string_view text) {
    return !text.empty() && text.size() <= 128 &&
           std::none_of(text.begin(), text.end(), [](char c) {
               return static_cast<unsigned char>(c) < 0x20 || c == 0x7F;
           });
}

} // namespace

SkypilotFeed::SkypilotFeed(std::string file,
                           std::string cloud,
                           Date as_of,
                           const ImportContext& context,
                           ImportResult& result)
    : m_file(std::move(file)), m_cloud(std::move(cloud)), m_as_of(as_of), m_context(context),
      m_result(result), m_errors_before(result.diagnostics.error_count()) {
    if (m_cloud == "aws" || m_cloud == "gcp" || m_cloud == "azure") {
        m_provider = context.catalog.find_provider(m_cloud);
    }
    for (const InstanceType& type : context.catalog.instances()) {
        if (m_cloud == "gcp" && type.provider == "gcp") {
            const GcpParts parts = gcp_parts(type);
            if (!parts.machine.empty()) {
                m_machines_wanted.insert(parts.machine);
            }
        }
    }
}

void SkypilotFeed::error(SourcePos at, const char* code, std::string message, std::string hint) {
    m_result.diagnostics.error(std::move(at), code, std::move(message), std::move(hint));
    m_row_ok = false;
}

bool SkypilotFeed::take(const CsvRecord& record) {
    if (m_width == 0) {
        return header(record);
    }
    if (m_result.diagnostics.error_count() >= k_max_errors) {
        error({m_file, record.line, 1},
              "limit",
              fmt::format("more than {} errors: the rest of the file is not read", k_max_errors),
              "fix these and import again");
        return false;
    }
    ++m_rows;
    if (m_provider != nullptr) {
        row(record);
    }
    return true;
}

bool SkypilotFeed::header(const CsvRecord& record) {
    m_width = record.fields.size();
    bool has_arch = false;
    for (std::size_t i = 0; i < record.fields.size(); ++i) {
        const auto found = std::find(k_columns.begin(), k_columns.end(), record.fields[i].text);
        if (found != k_columns.end()) {
            m_index[static_cast<std::size_t>(found - k_columns.begin())] = i;
        }
        has_arch = has_arch || record.fields[i].text == "Arch";
    }
    m_source = fmt::format("SkyPilot catalog {} ({})", m_file, layout_of(m_file, has_arch));
    bool ok = true;
    for (std::size_t c = 0; c < k_columns.size() && m_provider != nullptr; ++c) {
        if (!m_index[c] && c != c_gpu_info && c != c_zone) {
            error({m_file, record.line, 1},
                  "missing-field",
                  fmt::format("header: no column '{}'", k_columns[c]),
                  fmt::format("a SkyPilot vms.csv has the columns {}", fmt::join(k_columns, ",")));
            ok = false;
        }
    }
    return ok;
}

const CsvField& SkypilotFeed::field(std::size_t column) const {
    return m_record->fields[*m_index[column]];
}

std::optional<double> SkypilotFeed::number(std::size_t column, double max) {
    const CsvField& f = field(column);
    const auto value = parse_strict_number(f.text);
    if (!value) {
        error(pos(f),
              f.text.empty() ? "missing-field" : "bad-number",
              fmt::format("{}: '{}' is not a number", k_columns[column], f.text),
              "a plain decimal such as 8.0");
        return std::nullopt;
    }
    if (*value <= 0 || *value > max) {
        error(pos(f),
              "out-of-range",
              fmt::format("{}: {} is not above 0 and at most {}", k_columns[column], f.text, max),
              "the column's unit: GPUs, vCPUs, GiB");
        return std::nullopt;
    }
    return value;
}

std::optional<ZoneQuote> SkypilotFeed::quote() {
    ZoneQuote quote;
    quote.pos = {m_file, m_record->line, 1};
    // Azure's file has no zones (SkyPilot takes the region for one): one quote a region.
    const CsvField& zone = field(m_index[c_zone] ? c_zone : c_region);
    if (!is_text(zone.text) && m_index[c_zone]) {
        error(pos(zone),
              "missing-field",
              "AvailabilityZone: empty, over 128 bytes or a control character",
              "every row names its zone");
    }
    quote.zone = zone.text;
    const auto price = [&](std::size_t column, Plan plan) -> std::optional<std::int64_t> {
        const CsvField& f = field(column);
        std::int64_t micros = 0;
        if (auto problem = check_price(f.text, plan, "USD", m_context.fx, micros)) {
            const bool spot = column == c_spot;
            error(pos(f),
                  problem->code,
                  fmt::format("{}{}", k_columns[column], problem->message.substr(5)),
                  problem->message.ends_with("not above 0")
                      ? (spot ? "leave SpotPrice empty where the zone sells no spot"
                              : "Price is the on-demand USD price of an instance-hour")
                      : std::move(problem->hint));
            return std::nullopt;
        }
        return micros;
    };
    if (field(c_price).text.empty()) {
        error(pos(field(c_price)), "missing-field", "Price: empty", "every row gives its price");
    } else if (const auto on_demand = price(c_price, Plan::on_demand)) {
        quote.on_demand = *on_demand;
    }
    if (!field(c_spot).text.empty()) {
        quote.spot = price(c_spot, Plan::spot);
    }
    return m_row_ok ? std::optional(quote) : std::nullopt;
}

std::optional<std::string> SkypilotFeed::region() {
    const CsvField& f = field(c_region);
    if (auto problem = check_region(f.text, nullptr)) {
        error(pos(f), problem->code, "Region" + problem->message.substr(6), problem->hint);
        return std::nullopt;
    }
    return f.text;
}

bool SkypilotFeed::first_time(const std::string& key,
                              const std::string& region,
                              const std::string& zone) {
    const auto [first, fresh] = m_seen.emplace(std::make_tuple(key, region, zone), m_record->line);
    if (!fresh) {
        error({m_file, m_record->line, 1},
              "duplicate-id",
              fmt::format("row: {} {} {} again", key, region, zone),
              fmt::format("the first is line {}; keep one of them", first->second));
    }
    return fresh;
}

// A region the provider's list lacks joins it, named by its id (the feed gives no name).
void SkypilotFeed::add_region(const std::string& id, const SourcePos& at) {
    const auto& known = m_provider->regions;
    const auto& added = m_result.regions;
    if (known.empty() ||
        std::any_of(known.begin(), known.end(), [&](const auto& r) { return r.id == id; }) ||
        std::any_of(added.begin(), added.end(), [&](const auto& r) {
            return r.first == m_provider->id && r.second.id == id;
        })) {
        return;
    }
    m_result.regions.push_back({m_provider->id, RegionInfo{id, id, ""}});
    m_result.diagnostics.info(
        at,
        "new-region",
        fmt::format("{} region {} is not in the catalog: the overlay adds it", m_provider->id, id),
        "named by its id, its country left out: the feed gives neither; add them in the overlay");
}

void SkypilotFeed::report() {
    auto& out = m_result.diagnostics;
    if (m_no_gpu.rows > 0) {
        out.info(m_no_gpu.first,
                 "skipped",
                 fmt::format("{} row(s) without an accelerator (CPU-only types) skipped",
                             m_no_gpu.rows));
    }
    for (const auto& [name, tally] : m_unknown) {
        const std::string hint = did_you_mean(tally.candidates);
        if (tally.ambiguous) {
            out.warning(tally.first,
                        "unknown-gpu",
                        fmt::format("AcceleratorName: '{}' fits {} catalog GPUs and GpuInfo "
                                    "gives no memory to choose: {} row(s) not imported",
                                    name,
                                    tally.candidates.size(),
                                    tally.rows),
                        fmt::format("it is one of {}: add the instance type with its GPU to "
                                    "the catalog (--catalog) to import its prices",
                                    fmt::join(tally.candidates, ", ")));
            continue;
        }
        out.warning(tally.first,
                    "unknown-gpu",
                    fmt::format("AcceleratorName: '{}' is no catalog GPU: {} row(s) not imported",
                                name,
                                tally.rows),
                    name == "tpu-*"
                        ? "gpuadvisor sizes and prices GPUs, not TPUs"
                        : (hint.empty() ? "add the GPU with --catalog (see 'gpuadvisor catalog "
                                          "list gpus')"
                                        : hint));
    }
    if (m_unpriced.rows > 0) {
        out.info(
            m_unpriced.first,
            "skipped",
            fmt::format("{} row(s) with no Price (not offered there) skipped", m_unpriced.rows));
    }
    if (m_unpaired.rows > 0) {
        out.info(m_unpaired.first,
                 "skipped",
                 fmt::format("{} accelerator row(s) pair with no catalog GCP machine type's row "
                             "in the file ({}): not imported",
                             m_unpaired.rows,
                             fmt::join(m_unpaired.candidates, ", ")),
                 "GCP prices a GPU VM as a machine-type row plus an accelerator row; add the "
                 "pair to the catalog (--catalog) to import it");
    }
}

} // namespace gpuadvisor::cli
