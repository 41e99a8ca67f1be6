// The SkyPilot catalog importer: <cloud>/vms.csv files (layouts v7 and v8) of aws, gcp and
// azure -> price rows, one a region (docs/cli.md, "catalog import", "skypilot").
#include "catalog_import.hpp"
#include "csv_reader.hpp"
#include "skypilot_feed.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <sys/stat.h>

namespace gpuadvisor::cli {

namespace {

namespace fs = std::filesystem;

// The vms.csv files a path names: the file itself, a cloud's folder (aws/) or a catalog folder
// of clouds (~/.sky/catalogs/v7), each cloud's in name order.
std::vector<std::string> feed_files(const std::string& path, Diagnostics& out) {
    std::error_code failed;
    if (!fs::is_directory(path, failed)) {
        return {path}; // read_file_capped reports a missing or unreadable file
    }
    if (fs::is_regular_file(fs::path(path) / "vms.csv", failed)) {
        return {(fs::path(path) / "vms.csv").string()};
    }
    std::vector<std::string> files;
    for (const auto& entry : fs::directory_iterator(path, failed)) {
        const fs::path file = entry.path() / "vms.csv";
        if (entry.is_directory(failed) && fs::is_regular_file(file, failed)) {
            files.push_back(file.string());
        }
    }
    std::sort(files.begin(), files.end());
    if (files.empty()) {
        out.error({path, 0, 0},
                  "io",
                  "no vms.csv in the folder nor in its cloud folders",
                  "name a SkyPilot catalog folder such as ~/.sky/catalogs/v7, a cloud's folder "
                  "in it (aws/) or a vms.csv file");
    }
    return files;
}

// The file's modification day (UTC), the feed's only date.
std::optional<Date> modified_day(const std::string& file) {
    struct stat info {};
    if (::stat(file.c_str(), &info) != 0) {
        return std::nullopt;
    }
    return Date{static_cast<int>(info.st_mtime / 86400 - (info.st_mtime % 86400 < 0 ? 1 : 0))};
}

} // namespace

ImportResult import_skypilot(const std::vector<std::string>& paths, const ImportContext& context) {
    ImportResult result;
    for (const std::string& path : paths) {
        for (const std::string& file : feed_files(path, result.diagnostics)) {
            const auto text = read_file_capped(file, LoadLimits{}, result.diagnostics);
            if (!text) {
                continue;
            }
            const std::string cloud = fs::path(file).parent_path().filename().string();
            std::optional<Date> day = context.as_of ? context.as_of : modified_day(file);
            if (!day || context.today < *day) {
                result.diagnostics.error(
                    {file, 0, 0},
                    "out-of-range",
                    day ? fmt::format("the file was modified on {}, after today ({})",
                                      format_date(*day),
                                      format_date(context.today))
                        : "the file's modification date cannot be read",
                    "give the day the catalog was fetched with --as-of YYYY-MM-DD");
                continue;
            }
            SkypilotFeed feed(file, cloud, *day, context, result);
            read_csv(
                file, *text, result.diagnostics, [&](const CsvRecord& r) { return feed.take(r); });
            feed.finish();
        }
    }
    return result;
}

} // namespace gpuadvisor::cli
