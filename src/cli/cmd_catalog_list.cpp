// gpuadvisor catalog list gpus|instances|offers [filters]; models|regions|currencies|servers;
// providers (their coverage)
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

#include <algorithm>
#include <deque>
#include <map>
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

// The flags a kind of list takes beyond the catalog's (gpus, instances, offers take them all).
bool takes(const std::string& what, std::string_view flag) {
    if (what == "models" || what == "currencies" || what == "cpus") {
        return false;
    }
    if (what == "servers") {
        return flag == "--currency";
    }
    if (what == "regions") {
        return flag == "--provider" || flag == "--region";
    }
    if (what == "providers") {
        return flag == "--provider";
    }
    return true;
}

// A usage error for a flag given to a list it does not apply to; true when none is.
bool check_flags(const Options& options, const GlobalOptions& global, Io& io) {
    const std::string command = "catalog list " + options.what;
    const std::pair<std::string_view, bool> given[] = {
        {"--provider", !options.providers.empty()},
        {"--gpu", !options.gpus.empty()},
        {"--region", !options.regions.empty()},
        {"--min-gpu-memory-gb", options.min_gpu_memory_gb > 0},
        {"--min-gpus", options.min_gpus > 0},
        {"--currency", !global.currency.empty()},
    };
    for (const auto& [flag, is_given] : given) {
        if (is_given && !takes(options.what, flag)) {
            fail(command,
                 "usage",
                 fmt::format("{} does not apply to 'gpuadvisor {}'", flag, command),
                 "run 'gpuadvisor catalog list --help'",
                 k_exit_usage,
                 io);
            return false;
        }
    }
    return true;
}

void list_models(Io& io) {
    std::vector<const ModelSpec*> models;
    for (const ModelSpec& model : builtin_models().models()) {
        models.push_back(&model);
    }
    std::sort(models.begin(), models.end(), [](auto* a, auto* b) { return a->id < b->id; });
    print_models(models, io);
}

void list_currencies(Io& io) {
    std::vector<const FxRate*> rates;
    for (const std::string& currency : io.rates().currencies()) {
        rates.push_back(io.rates().find(currency));
    }
    std::sort(
        rates.begin(), rates.end(), [](auto* a, auto* b) { return a->currency < b->currency; });
    print_currencies(rates, io);
}

// The servers sorted by id, each price in `currency` where it converts.
void list_servers(const std::string& currency, Io& io) {
    std::vector<Server> servers = builtin_tco().servers;
    std::sort(servers.begin(), servers.end(), [](const Server& a, const Server& b) {
        return a.id < b.id;
    });
    OffersNotes notes;
    std::set<std::string> rates;
    std::map<std::string, std::pair<std::size_t, std::string>> unconverted; // count, why
    for (Server& server : servers) {
        if (currency.empty() || server.currency == currency) {
            continue;
        }
        if (const auto price = io.rates().convert(server.price_micros, server.currency, currency)) {
            rates.insert(server.currency);
            server.price_micros = *price;
            server.currency = currency;
            continue;
        }
        auto& [count, why] = unconverted[server.currency];
        why =
            io.rates().conversion_error("a price", server.price_micros, server.currency, currency);
        ++count;
    }
    for (const std::string& listed : rates) {
        notes.fx.push_back(io.rates().describe(listed, currency));
        notes.converted_from.push_back(listed);
        notes.converted_to = currency;
    }
    for (const auto& [listed, counted] : unconverted) {
        notes.warnings.push_back(fmt::format("{} server(s) priced in {} are shown in {}: {}",
                                             counted.first,
                                             listed,
                                             listed,
                                             counted.second));
    }
    print_servers(servers, notes, io);
}

// Each region of the providers kept (their region lists, and any other region they have offers
// in), with the number of offers of `instances` there; by provider, then region.
void list_regions(const Catalog& catalog,
                  const std::vector<const InstanceType*>& instances,
                  const Filter& filter,
                  Io& io) {
    std::map<std::pair<std::string, std::string>, RegionListing> regions;
    const auto wanted = [&](const std::string& provider, const std::string& region) {
        return (filter.providers.empty() || filter.providers.contains(provider)) &&
               (filter.regions.empty() || filter.regions.contains(region));
    };
    for (const Provider& provider : catalog.providers()) {
        for (const RegionInfo& region : provider.regions) {
            if (wanted(provider.id, region.id)) {
                regions[{provider.id, region.id}] = {
                    provider.id, region.id, region.name, region.country, 0};
            }
        }
    }
    for (const InstanceType* instance : instances) {
        for (const PriceRow& row : instance->regions) {
            if (!wanted(instance->provider, row.region)) {
                continue;
            }
            auto [it, added] = regions.try_emplace({instance->provider, row.region});
            if (added) {
                it->second = {instance->provider,
                              row.region,
                              "",
                              catalog.country_of(instance->provider, row.region),
                              0};
            }
            ++it->second.offers;
        }
    }
    std::vector<RegionListing> listed;
    for (auto& [key, region] : regions) {
        listed.push_back(std::move(region));
    }
    print_regions(listed, io);
}

int run(const Options& options, const GlobalOptions& global, Io& io) {
    const std::string command = "catalog list " + options.what; // as the JSON document names it
    if (!check_flags(options, global, io) || !check_currency(global.currency, command, io)) {
        return k_exit_usage;
    }
    if (options.what == "models" || options.what == "currencies" || options.what == "servers") {
        const TimedStage output(io.clock, "output"); // (built-in data: no catalog to load)
        if (options.what == "models") {
            list_models(io);
        } else if (options.what == "currencies") {
            list_currencies(io);
        } else {
            list_servers(global.currency, io);
        }
        return k_exit_ok;
    }
    const auto catalog = load_active_catalog(global, command, io);
    if (!catalog) {
        return k_exit_input;
    }
    if (options.what == "cpus") {
        const TimedStage output(io.clock, "output");
        print_cpus(*catalog, io);
        return k_exit_ok;
    }
    Filter filter;
    const auto providers = check_providers({&*catalog}, split_list(options.providers), command, io);
    const auto gpus = resolve_gpu_names(*catalog, split_list(options.gpus), command, io);
    if (!providers || !gpus) {
        return k_exit_usage;
    }
    filter.providers = *providers;
    if (options.what == "providers") {
        const TimedStage output(io.clock, "output");
        list_providers(*catalog, filter.providers, io);
        return k_exit_ok;
    }
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
    if (options.what == "regions") {
        list_regions(*catalog, instances, filter, io);
    } else if (options.what == "gpus") {
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
        const OffersNotes notes = convert_rows(rows, global.currency, io.rates(), converted);
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
    CLI::App* list = catalog.add_subcommand(
        "list",
        "List GPUs, instance types, offers, or the models, regions, currencies, servers, "
        "CPUs, or each provider's coverage");
    list->add_option("what", options->what, "What to list")
        ->required()
        ->check(one_of(
            std::vector<std::string>(k_catalog_list_kinds.begin(), k_catalog_list_kinds.end())))
        ->type_name(fmt::format("{}", fmt::join(k_catalog_list_kinds, "|")));
    list->add_option("--provider",
                     options->providers,
                     "Only these providers (aws,gcp,...); also for regions, providers");
    list->add_option(
        "--gpu", options->gpus, "Only these GPUs; a family name (A100) means all its variants");
    list->add_option("--region",
                     options->regions,
                     "Only instance types sold in these regions; also for regions");
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
                 "  gpuadvisor catalog list regions --provider aws\n"
                 "  gpuadvisor catalog list providers -o json\n"
                 "  gpuadvisor catalog list models -o json\n"
                 "What a user can name: models (--model), regions (--provider, --region),\n"
                 "currencies (--currency, with their rates), servers (tco --server, --currency).\n"
                 "providers: each provider's instance types (all, priced), regions (listed,\n"
                 "priced), offers, oldest and newest price date, plans and GPUs.\n"
                 "cpus: the server CPUs upgrade compares GPUs with (--cpu), per socket.\n"
                 "With --currency, offers' and servers' prices are converted at the dated rates "
                 "named under the table.");
    registry.runners.push_back({list, [options, &global = registry.global](Io& io) {
                                    return run(*options, global, io);
                                }});
}

} // namespace gpuadvisor::cli
