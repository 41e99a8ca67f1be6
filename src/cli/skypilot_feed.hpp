// One SkyPilot vms.csv read row by row: its GPU offers as zone quotes, summed up at the end.
#pragma once

#include "catalog_import.hpp"
#include "csv_reader.hpp"
#include "skypilot_offers.hpp"

#include <array>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>

namespace gpuadvisor::cli {

// The columns read, by header name (others, such as v8's Arch, are left alone).
inline constexpr std::array<std::string_view, 10> k_skypilot_columns{"InstanceType",
                                                                     "AcceleratorName",
                                                                     "AcceleratorCount",
                                                                     "vCPUs",
                                                                     "MemoryGiB",
                                                                     "GpuInfo",
                                                                     "Price",
                                                                     "SpotPrice",
                                                                     "Region",
                                                                     "AvailabilityZone"};

class SkypilotFeed {
  public:
    // `cloud`: the folder name (aws, gcp, azure; another cloud's rows are counted, not read).
    SkypilotFeed(std::string file,
                 std::string cloud,
                 Date as_of,
                 const ImportContext& context,
                 ImportResult& result);

    // The header, then each row; false to stop reading (a bad header, too many errors).
    bool take(const CsvRecord& record);
    // After the last record: GCP's pairs, the price rows, and one line for each kind of row
    // left out (no GPU, an unknown accelerator, another cloud).
    void finish();

    enum Column : std::size_t {
        c_instance,
        c_accelerator,
        c_count,
        c_vcpus,
        c_memory,
        c_gpu_info,
        c_price,
        c_spot,
        c_region,
        c_zone
    };

  private:
    using Place = std::pair<std::string, std::string>; // region, zone
    using Quotes = std::map<Place, ZoneQuote>;
    struct Tally {
        std::size_t rows = 0;
        SourcePos first;
        std::vector<std::string> candidates;
        bool ambiguous = false;
    };

    std::string m_file;
    std::string m_cloud;
    Date m_as_of;
    const ImportContext& m_context;
    ImportResult& m_result;
    const Provider* m_provider = nullptr;
    std::string m_source;
    std::array<std::optional<std::size_t>, 10> m_index; // column -> field number
    std::size_t m_width = 0;                            // 0 before the header
    std::size_t m_errors_before;
    const CsvRecord* m_record = nullptr;
    bool m_row_ok = true;
    std::size_t m_rows = 0;
    Tally m_no_gpu;   // rows without an accelerator
    Tally m_unpriced; // GPU rows without a Price
    Tally m_unpaired; // GCP accelerator rows no catalog machine type pairs with
    std::map<std::string, Tally> m_unknown; // accelerator name -> rows
    std::map<std::tuple<std::string, std::string, std::string>, std::uint32_t> m_seen;
    std::map<std::pair<std::string, std::string>, ZoneOffer> m_offers; // (instance, region)
    std::set<std::string> m_machines_wanted;                           // GCP
    std::map<std::string, Quotes> m_machines;
    std::map<std::pair<std::string, double>, Quotes> m_accelerators;

    void error(SourcePos pos, const char* code, std::string message, std::string hint);
    bool header(const CsvRecord& record);
    const CsvField& field(std::size_t column) const;
    SourcePos pos(const CsvField& f) const { return {m_file, f.line, f.column}; }
    void row(const CsvRecord& record);
    std::optional<double> number(std::size_t column, double max);
    std::optional<ZoneQuote> quote();
    std::optional<std::string> region();
    bool first_time(const std::string& key, const std::string& region, const std::string& zone);
    void gpu_row(const std::string& instance, const std::string& gpu, std::optional<double> mib);
    void new_instance(const std::string& id,
                      const std::string& gpu,
                      double count,
                      std::optional<double> mib,
                      double vcpus,
                      double memory);
    void gcp_pairs();
    void add_region(const std::string& id, const SourcePos& at);
    void report();
};

} // namespace gpuadvisor::cli
