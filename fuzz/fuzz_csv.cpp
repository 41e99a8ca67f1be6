// Fuzzes the CSV reader of `catalog import` and the SkyPilot rows read from it. The first byte
// picks what reads the records: 0 only checks the reader's promises (positions from 1, lines
// in order, no field longer than the input), 1-3 give them to the SkyPilot importer as a
// vms.csv of aws, gcp or azure over the built-in catalog, which then prices what it kept.
// Diagnostics are fine; a crash, a hang, a broken promise or a sanitizer report is not.
#include "catalog_import.hpp"
#include "csv_reader.hpp"
#include "gpuadvisor/catalog_io.hpp"
#include "skypilot_feed.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

using namespace gpuadvisor;
using namespace gpuadvisor::cli;

namespace {

bool keeps_promises(const CsvRecord& record, std::size_t size, std::uint32_t& last_line) {
    if (record.line < last_line || record.line == 0) {
        return false;
    }
    last_line = record.line;
    for (const CsvField& field : record.fields) {
        if (field.line < record.line || field.column == 0 || field.text.size() > size) {
            return false;
        }
    }
    return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) {
        return 0;
    }
    const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
    const unsigned kind = data[0] % 4U;
    Diagnostics diagnostics;
    if (kind == 0) {
        std::uint32_t last_line = 0;
        read_csv("fuzz.csv", text, diagnostics, [&](const CsvRecord& record) {
            if (!keeps_promises(record, text.size(), last_line)) {
                std::abort();
            }
            return true;
        });
        return 0;
    }
    static const std::array<const char*, 3> clouds{"aws", "gcp", "azure"};
    const std::string cloud = clouds[kind - 1];
    const ImportContext context{builtin_catalog(), Date{20'789}, builtin_fx(), std::nullopt};
    ImportResult result;
    SkypilotFeed feed("catalogs/v7/" + cloud + "/vms.csv", cloud, Date{20'780}, context, result);
    read_csv(
        "fuzz.csv", text, result.diagnostics, [&](const CsvRecord& r) { return feed.take(r); });
    feed.finish();
    if (!result.diagnostics.has_errors()) {
        Diagnostics written;
        (void)write_overlays(result, builtin_catalog(), written);
    }
    return 0;
}
