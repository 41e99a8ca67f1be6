// gpuadvisor catalog fetch aws|azure [--region R...] [--output-file PATH] [--download-only]:
// the provider's public price feed downloaded (price_feeds.hpp), then imported as `catalog
// import aws|azure` would import the files (catalog_import.hpp).
#include "app.hpp"
#include "catalog_import.hpp"
#include "catalog_options.hpp"
#include "exit_status.hpp"
#include "output.hpp"
#include "price_feeds.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <ostream>
#include <unistd.h>

namespace gpuadvisor::cli {

namespace {

constexpr std::string_view k_command = "catalog fetch";

struct Options {
    std::string provider;
    std::vector<std::string> regions;
    std::string output_file;
    std::string cache_dir;
    std::string endpoint;
    long timeout = 900;
    int retries = 3;
    bool refresh = false;
    bool download_only = false;
};

// --cache-dir, else GPUADVISOR_CACHE_DIR/fetch, $XDG_CACHE_HOME/gpuadvisor/fetch or
// $HOME/.cache/gpuadvisor/fetch (the catalog cache's folder; its own files are never touched).
std::string cache_dir(const Options& options) {
    if (!options.cache_dir.empty()) {
        return options.cache_dir;
    }
    const char* own = std::getenv("GPUADVISOR_CACHE_DIR");
    if (own != nullptr && own[0] != '\0') {
        return std::string(own) + "/fetch";
    }
    const char* xdg = std::getenv("XDG_CACHE_HOME");
    if (xdg != nullptr && xdg[0] == '/') {
        return std::string(xdg) + "/gpuadvisor/fetch";
    }
    const char* home = std::getenv("HOME"); // (a home folder that is not there is not made)
    std::error_code failed;
    return home != nullptr && home[0] == '/' && std::filesystem::is_directory(home, failed)
               ? std::string(home) + "/.cache/gpuadvisor/fetch"
               : std::string();
}

// GPUADVISOR_FETCH_BACKOFF_MS: the first retry's wait (tests make it tiny), 0 to 60000.
std::chrono::milliseconds backoff() {
    const char* text = std::getenv("GPUADVISOR_FETCH_BACKOFF_MS");
    if (text == nullptr || text[0] == '\0' || std::string_view(text).size() > 5 ||
        !std::all_of(text, text + std::string_view(text).size(), [](char c) {
            return c >= '0' && c <= '9';
        })) {
        return std::chrono::milliseconds(1000);
    }
    return std::chrono::milliseconds(std::min(std::atol(text), 60'000L));
}

bool plain_id(const std::string& id) {
    return !id.empty() && std::all_of(id.begin(), id.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '-' || c == '_';
    });
}

// What to ask the feed for: --region, else the provider's regions in the active catalog; Azure's
// SKUs are the catalog's instance types of azure.
FeedRequest feed_request(const Options& options, const Catalog& catalog) {
    FeedRequest request;
    request.endpoint =
        options.endpoint.empty()
            ? std::string(options.provider == "aws" ? k_aws_endpoint : k_azure_endpoint)
            : options.endpoint;
    while (request.endpoint.ends_with('/')) {
        request.endpoint.pop_back();
    }
    for (const std::string& region : options.regions) { // each once, in the order given
        if (std::find(request.regions.begin(), request.regions.end(), region) ==
            request.regions.end()) {
            request.regions.push_back(region);
        }
    }
    if (const Provider* provider = catalog.find_provider(options.provider);
        request.regions.empty() && provider != nullptr) {
        for (const RegionInfo& region : provider->regions) {
            request.regions.push_back(region.id);
        }
    }
    for (const InstanceType& instance : catalog.instances()) {
        if (instance.provider == options.provider && plain_id(instance.id)) {
            request.skus.push_back(instance.id);
        }
    }
    return request;
}

int check_request(const Options& options, const FeedRequest& request, Io& io) {
    if (!request.endpoint.starts_with("http://") && !request.endpoint.starts_with("https://")) {
        return fail(
            k_command,
            "usage",
            fmt::format("--endpoint: '{}' is not an http:// or https:// URL", options.endpoint),
            "give the feed's base URL, such as https://mirror.example/aws",
            k_exit_usage,
            io);
    }
    for (const std::string& region : request.regions) {
        if (!plain_id(region)) {
            return fail(k_command,
                        "usage",
                        fmt::format("--region: '{}' is not a region id", region),
                        "region ids are letters, digits, '-' and '_': us-east-1, eastus",
                        k_exit_usage,
                        io);
        }
    }
    if (request.regions.empty()) {
        return fail(k_command,
                    "usage",
                    fmt::format("the active catalog lists no region of {}", options.provider),
                    "name the regions: --region us-east-1 --region eu-west-1",
                    k_exit_usage,
                    io);
    }
    if (options.provider == "azure" && request.skus.empty()) {
        return fail(k_command,
                    "usage",
                    "the active catalog has no azure instance type to ask prices of",
                    "leave out --no-default-catalog, or add azure instance types with --catalog",
                    k_exit_usage,
                    io);
    }
    return k_exit_ok;
}

FetchSettings fetch_settings(const Options& options, const std::string& dir, Io& io) {
    FetchSettings settings;
    settings.cache_dir = dir;
    settings.refresh = options.refresh;
    settings.notes = io.quiet ? nullptr : &io.err;
    settings.http.timeout_seconds = options.timeout;
    settings.http.retries = options.retries;
    settings.http.backoff = backoff();
    settings.http.progress = !io.quiet && ::isatty(STDERR_FILENO) == 1 ? &io.err : nullptr;
    return settings;
}

int run(const Options& options, const GlobalOptions& global, Io& io) {
    if (io.format != OutputFormat::table) {
        return refuse_output_format(k_command, io);
    }
    if (!options.download_only && !has_import_format(options.provider)) {
        return fail(k_command,
                    "usage",
                    fmt::format("this build has no '{}' import format: catalog fetch {} can only "
                                "download the feed",
                                options.provider,
                                options.provider),
                    "add --download-only to keep the raw files (their paths are printed)",
                    k_exit_usage,
                    io);
    }
    const std::string dir = cache_dir(options);
    if (dir.empty()) {
        return fail(k_command,
                    "usage",
                    "no folder to download into: no --cache-dir, GPUADVISOR_CACHE_DIR, "
                    "XDG_CACHE_HOME or HOME",
                    "add --cache-dir DIR",
                    k_exit_usage,
                    io);
    }
    const Catalog* catalog = load_active_catalog(global, k_command, io);
    if (catalog == nullptr) {
        return k_exit_input;
    }
    const FeedRequest request = feed_request(options, *catalog);
    if (const int status = check_request(options, request, io); status != k_exit_ok) {
        return status;
    }
    const FetchSettings settings = fetch_settings(options, dir, io);
    const FolderLock lock(dir, settings.notes);
    if (!lock.error().empty()) {
        return fail(k_command,
                    "io",
                    lock.error(),
                    "name a writable folder with --cache-dir DIR",
                    k_exit_input,
                    io);
    }
    FeedFiles feed =
        options.provider == "aws" ? fetch_aws(request, settings) : fetch_azure(request, settings);
    if (feed.diagnostics.has_errors()) {
        return fail(k_command, feed.diagnostics, k_exit_input, io);
    }
    print_diagnostics(feed.diagnostics, io);
    if (options.download_only || feed.files.empty()) {
        for (const std::string& file : feed.files) {
            io.out << file << '\n';
        }
        return k_exit_ok;
    }
    return import_and_write(
        k_command, options.provider, feed.files, {options.output_file, {}}, *catalog, io);
}

} // namespace

void register_catalog_fetch(CLI::App& catalog, Registry registry) {
    auto options = std::make_shared<Options>();
    CLI::App* fetch = catalog.add_subcommand(
        "fetch", "Download a provider's public price feed and import it as an overlay (YAML)");
    const std::vector<std::string> providers{"aws", "azure"};
    fetch->add_option("provider", options->provider, "The feed: aws or azure")
        ->required()
        ->check(one_of(providers))
        ->type_name(choices_type(providers));
    fetch
        ->add_option("--region",
                     options->regions,
                     "A region to fetch (repeatable; default: the provider's regions in the "
                     "active catalog)")
        ->type_name("R");
    auto* output = fetch
                       ->add_option("--output-file",
                                    options->output_file,
                                    "Write the overlay to this file (default: stdout)")
                       ->type_name("PATH");
    fetch
        ->add_option("--cache-dir",
                     options->cache_dir,
                     "Where the feed's files are kept (default: $XDG_CACHE_HOME/gpuadvisor/fetch)")
        ->type_name("DIR");
    fetch->add_option("--timeout", options->timeout, "A request's time limit in seconds (900)")
        ->check(whole_range(1, 86400))
        ->type_name("SECONDS");
    fetch
        ->add_option(
            "--retries", options->retries, "Tries after the first on a failure that may pass (3)")
        ->check(whole_range(0, 10))
        ->type_name("N");
    fetch->add_flag("--refresh", options->refresh, "Ask the feed again for files already kept");
    fetch
        ->add_flag("--download-only",
                   options->download_only,
                   "Download only, and print the files' paths (no import)")
        ->excludes(output);
    fetch
        ->add_option(
            "--endpoint", options->endpoint, "The feed's base URL, for a mirror or a proxy of it")
        ->type_name("URL");
    fetch->footer(
        "Examples:\n  gpuadvisor catalog fetch aws --region us-east-1 --output-file aws.yaml\n"
        "  gpuadvisor catalog fetch azure --region eastus --download-only\n"
        "  gpuadvisor --catalog aws.yaml catalog show p4d.24xlarge\n"
        "The feeds are large (AWS: hundreds of MB a region); what was downloaded whole is kept\n"
        "and used again for 24 hours, then revalidated (--refresh: at once) (docs/cli.md,\n"
        "'catalog fetch').");
    registry.runners.push_back({fetch, [options, &global = registry.global](Io& io) {
                                    return run(*options, global, io);
                                }});
}

} // namespace gpuadvisor::cli
