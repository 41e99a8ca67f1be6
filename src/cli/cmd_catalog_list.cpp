// gpuadvisor catalog list gpus|instances|offers [filters]
#include "app.hpp"
#include "catalog_listing.hpp"
#include "catalog_options.hpp"
#include "exit_status.hpp"
#include "gpuadvisor/spelling.hpp"
#include "output.hpp"
#include "render_table.hpp"
#include "stage_clock.hpp"
#include "text.hpp"

#include <fmt/format.h>

#include <deque>
#include <memory>
#include <set>

namespace gpuadvisor::cli {

namespace {

struct Options {
    std::string what;
    std::vector<std::string> providers;
    std::vector<std::string> gpus;
    std::vector<std::string> regions;
    double min_gpu_memory_gb = 0;
    double min_gpus = 0;
};

struct Filter {
    std::set<std::string> providers;
    std::set<std::string> gpus;
    std::set<std::string> regions;
    double min_gpu_memory_gb = 0;
    double min_gpus = 0;
};

bool sold_in(const InstanceType& instance, const std::set<std::string>& regions) {
    return regions.empty() ||
           std::any_of(instance.regions.begin(), instance.regions.end(), [&](const PriceRow& row) {
               return regions.contains(row.region);
           });
}

bool keep(const InstanceType& instance, const Gpu& gpu, const Filter& filter) {
    return (filter.providers.empty() || filter.providers.contains(instance.provider)) &&
           (filter.gpus.empty() || filter.gpus.contains(instance.gpu)) &&
           gpu.memory_gb >= filter.min_gpu_memory_gb && instance.gpu_count >= filter.min_gpus &&
           sold_in(instance, filter.regions);
}

bool narrows_instances(const Filter& filter) {
    return !filter.providers.empty() || !filter.regions.empty() || filter.min_gpus > 0;
}

// Validates --provider against the catalog; nullopt after printing a usage error.

int run(const Options& options, const GlobalOptions& global, Io& io) {
    const std::string command = "catalog list " + options.what; // as the JSON document names it
    if (!check_currency(global.currency, command, io)) {
        return k_exit_usage;
    }
    const auto catalog = load_active_catalog(global, command, io);
    if (!catalog) {
        return k_exit_input;
    }
    Filter filter;
    const auto providers = check_providers(*catalog, split_list(options.providers), command, io);
    const auto gpus = resolve_gpu_names(*catalog, split_list(options.gpus), command, io);
    if (!providers || !gpus) {
        return k_exit_usage;
    }
    filter.providers = *providers;
    filter.gpus = {gpus->begin(), gpus->end()};
    const auto regions = split_list(options.regions);
    filter.regions = {regions.begin(), regions.end()};
    filter.min_gpu_memory_gb = options.min_gpu_memory_gb;
    filter.min_gpus = options.min_gpus;

    std::vector<const InstanceType*> instances;
    std::set<std::string> gpus_sold;
    for (const InstanceType& instance : catalog->instances()) {
        if (keep(instance, *catalog->find_gpu(instance.gpu), filter)) {
            instances.push_back(&instance);
            gpus_sold.insert(instance.gpu);
        }
    }
    const TimedStage output(io.clock, "output"); // (the rows picked, and written)
    if (options.what == "gpus") {
        std::vector<const Gpu*> selected;
        for (const Gpu& gpu : catalog->gpus()) {
            const bool named = filter.gpus.empty() || filter.gpus.contains(gpu.id);
            const bool sold = !narrows_instances(filter) || gpus_sold.contains(gpu.id);
            if (named && sold && gpu.memory_gb >= filter.min_gpu_memory_gb) {
                selected.push_back(&gpu);
            }
        }
        print_gpus(selected, io);
    } else if (options.what == "instances") {
        print_instances(instances, *catalog, global.currency, io);
    } else {
        std::vector<Offer> offers;
        for (const InstanceType* instance : instances) {
            for (const PriceRow& row : instance->regions) {
                if (filter.regions.empty() || filter.regions.contains(row.region)) {
                    offers.push_back({instance, &row});
                }
            }
        }
        std::vector<const PriceRow*> rows;
        for (const Offer& offer : offers) {
            rows.push_back(offer.prices);
        }
        std::deque<PriceRow> converted;
        const OffersNotes notes = convert_rows(rows, global.currency, converted);
        for (std::size_t i = 0; i < offers.size(); ++i) {
            offers[i].prices = rows[i];
        }
        print_offers(offers, notes, io);
    }
    return k_exit_ok;
}

} // namespace

void register_catalog_list(CLI::App& catalog, Registry registry) {
    auto options = std::make_shared<Options>();
    CLI::App* list = catalog.add_subcommand("list", "List GPUs, instance types or offers");
    list->add_option("what", options->what, "What to list")
        ->required()
        ->check(one_of({"gpus", "instances", "offers"}))
        ->type_name("gpus|instances|offers");
    list->add_option("--provider", options->providers, "Only these providers (aws,gcp,...)");
    list->add_option(
        "--gpu", options->gpus, "Only these GPUs; a family name (A100) means all its variants");
    list->add_option("--region", options->regions, "Only instance types sold in these regions");
    list->add_option("--min-gpu-memory-gb",
                     options->min_gpu_memory_gb,
                     "Only GPUs with at least this much memory per GPU")
        ->check(finite_range(0, 1e6));
    list->add_option("--min-gpus", options->min_gpus, "Only instance types with at least N GPUs")
        ->check(finite_range(0, 1e6));
    list->footer("Examples:\n  gpuadvisor catalog list gpus --min-gpu-memory-gb 80\n"
                 "  gpuadvisor catalog list instances --provider aws --gpu A100\n"
                 "  gpuadvisor catalog list offers --gpu H100 --region us-east-1 -o csv\n"
                 "  gpuadvisor catalog list offers --provider alibaba --currency USD\n"
                 "With --currency, offers' prices are converted at the dated rates named under "
                 "the table.");
    registry.runners.push_back({list, [options, &global = registry.global](Io& io) {
                                    return run(*options, global, io);
                                }});
}

} // namespace gpuadvisor::cli
