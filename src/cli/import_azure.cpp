// The Azure Retail Prices API importer: saved pages ({"Items": [...], "NextPageLink"}) -> the
// Linux prices of the GPU VM sizes the active catalog has (docs/cli.md, "catalog import").
#include "azure_import.hpp"
#include "azure_page.hpp"
#include "catalog_import.hpp"

#include <algorithm>
#include <filesystem>

namespace gpuadvisor::cli {

namespace {

// The files: each FILE, or a folder's *.json files in name order.
std::vector<std::string> page_files(const std::vector<std::string>& files) {
    std::vector<std::string> out;
    for (const std::string& file : files) {
        std::error_code error;
        if (!std::filesystem::is_directory(file, error)) {
            out.push_back(file);
            continue;
        }
        std::vector<std::string> pages;
        for (const auto& entry : std::filesystem::directory_iterator(file, error)) {
            if (entry.path().extension() == ".json") {
                pages.push_back(entry.path().string());
            }
        }
        std::sort(pages.begin(), pages.end());
        out.insert(out.end(), pages.begin(), pages.end());
    }
    return out;
}

} // namespace

ImportResult import_azure(const std::vector<std::string>& files, const ImportContext& context) {
    ImportResult result;
    AzureReader reader(context, result);
    const std::vector<std::string> pages = page_files(files);
    for (const std::string& file : pages) {
        if (result.diagnostics.error_count() >= k_azure_max_errors) {
            if (!reader.stopped()) { // else the page that went over said so
                result.diagnostics.error(
                    {file, 0, 0},
                    "limit",
                    fmt::format("more than {} errors: the rest is not read", k_azure_max_errors),
                    "fix these and import again");
            }
            break;
        }
        if (const auto page = read_azure_page(file, result.diagnostics)) {
            reader.page(*page);
        }
    }
    if (pages.empty()) {
        result.diagnostics.error({files.empty() ? std::string() : files.front(), 0, 0},
                                 "io",
                                 "no page: the folder has no .json file",
                                 "save each Retail Prices API response as a .json file");
        return result;
    }
    reader.finish(pages.front());
    return result;
}

} // namespace gpuadvisor::cli
