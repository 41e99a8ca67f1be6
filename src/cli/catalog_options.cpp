#include "catalog_options.hpp"

#include "exit_status.hpp"
#include "gpuadvisor/fx.hpp"
#include "gpuadvisor/spelling.hpp"
#include "output.hpp"
#include "stage_clock.hpp"
#include "text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <ostream>
#include <set>

namespace gpuadvisor::cli {

namespace {

// GPUADVISOR_CACHE_DIR (set but empty: no cache), else $XDG_CACHE_HOME/gpuadvisor, else
// $HOME/.cache/gpuadvisor; a home folder that does not exist is never created (the core then
// says there is no cache, once, if it would have used one).
FileCache cache_settings(const GlobalOptions& global) {
    FileCache cache;
    if (global.no_cache) {
        return cache;
    }
    if (const char* dir = std::getenv("GPUADVISOR_CACHE_DIR")) {
        cache.dir = dir;
        return cache;
    }
    const char* xdg = std::getenv("XDG_CACHE_HOME");
    if (xdg != nullptr && xdg[0] == '/') {
        cache.dir = std::string(xdg) + "/gpuadvisor";
        return cache;
    }
    const char* home = std::getenv("HOME");
    if (home != nullptr && home[0] == '/') {
        cache.dir = std::string(home) + "/.cache/gpuadvisor";
        cache.must_exist = home;
    }
    return cache;
}

} // namespace

CatalogSources catalog_sources(const GlobalOptions& global) {
    CatalogSources sources;
    sources.cache = cache_settings(global);
    sources.include_builtin = !global.no_default_catalog;
    if (const char* env = std::getenv("GPUADVISOR_CATALOG")) {
        std::string_view rest = env;
        while (!rest.empty()) {
            const std::size_t colon = rest.find(':');
            const std::string_view path = rest.substr(0, colon);
            if (!path.empty()) {
                sources.paths.emplace_back(path);
            }
            rest = colon == std::string_view::npos ? std::string_view{} : rest.substr(colon + 1);
        }
    }
    sources.paths.insert(sources.paths.end(), global.catalogs.begin(), global.catalogs.end());
    return sources;
}

namespace {

// What a load read, and how, in a few words: "100620 offers, 5 file(s) from the cache".
std::string load_note(const CatalogLoad& load) {
    const auto files = static_cast<std::size_t>(
        std::count_if(load.files.begin(), load.files.end(), [](const std::string& file) {
            return !file.starts_with("builtin:"); // the built-in catalog, compiled in
        }));
    std::string how;
    if (files == 0) {
        how = "built-in only";
    } else if (load.files_parsed == files || load.files_cached == files) {
        how = fmt::format(
            "{} file(s) {}", files, load.files_parsed == files ? "parsed" : "from the cache");
    } else {
        const std::size_t unread = files - load.files_parsed - load.files_cached;
        how = fmt::format("{} file(s): {} parsed, {} from the cache{}",
                          files,
                          load.files_parsed,
                          load.files_cached,
                          unread > 0 ? fmt::format(", {} not read", unread) : "");
    }
    return fmt::format("{} offers, {}", load.catalog.offer_count(), how);
}

} // namespace

CatalogLoad load_catalog_timed(const CatalogSources& sources, const CheckOptions& checks, Io& io) {
    TimedStage stage(io.clock, "catalog");
    CatalogLoad load = load_catalog(sources, checks);
    const std::size_t before = load.diagnostics.items().size();
    check_currency_rates(load.catalog, io.rates(), load.diagnostics);
    if (load.diagnostics.items().size() != before) {
        load.diagnostics.sort();
    }
    if (io.clock != nullptr) {
        stage.note(load_note(load));
    }
    for (const std::string& note : load.cache_notes) {
        if (!io.quiet) {
            io.err << "gpuadvisor: note: " << terminal_safe(note) << '\n';
        }
    }
    return load;
}

const Catalog* keep_for_the_process(Catalog&& catalog) {
    static Catalog* kept = nullptr;
    delete kept;
    kept = new Catalog(std::move(catalog));
    return kept;
}

const Catalog* load_active_catalog(const GlobalOptions& global, std::string_view command, Io& io) {
    CheckOptions checks;
    checks.today = io.today;
    CatalogLoad load = load_catalog_timed(catalog_sources(global), checks, io);
    if (load.diagnostics.has_errors()) {
        fail(command, load.diagnostics, k_exit_input, io);
        return nullptr;
    }
    if (load.diagnostics.warning_count() > 0 && !io.quiet) {
        io.err << fmt::format("gpuadvisor: note: {} warning(s) in the catalog files; "
                              "'gpuadvisor catalog validate' shows them\n",
                              load.diagnostics.warning_count());
    }
    return keep_for_the_process(std::move(load.catalog));
}

std::vector<std::string> split_list(const std::vector<std::string>& values) {
    std::vector<std::string> items;
    for (const std::string& value : values) {
        std::string_view rest = value;
        while (true) {
            const std::size_t comma = rest.find(',');
            const std::string_view item = rest.substr(0, comma);
            if (!item.empty()) {
                items.emplace_back(item);
            }
            if (comma == std::string_view::npos) {
                break;
            }
            rest.remove_prefix(comma + 1);
        }
    }
    return items;
}

std::optional<std::vector<std::string>> resolve_gpu_names(const Catalog& catalog,
                                                          const std::vector<std::string>& names,
                                                          std::string_view command,
                                                          Io& io) {
    std::vector<std::string> ids;
    for (const std::string& name : names) {
        const auto matches = catalog.match_gpus(name);
        if (matches.empty()) {
            std::string hint = did_you_mean(catalog.gpu_names_near(name));
            fail(command,
                 "unknown-gpu",
                 fmt::format("--gpu: no GPU is called '{}'", name),
                 hint.empty() ? "see 'gpuadvisor catalog list gpus'" : hint,
                 k_exit_usage,
                 io);
            return std::nullopt;
        }
        for (const Gpu* gpu : matches) {
            ids.push_back(gpu->id);
        }
    }
    return ids;
}

const InstanceType* resolve_instance(const Catalog& catalog,
                                     std::string_view name,
                                     std::string_view provider,
                                     std::string_view flag,
                                     std::string_view command,
                                     Io& io) {
    auto found = catalog.match_instances(name);
    std::erase_if(
        found, [&](const InstanceType* i) { return !provider.empty() && i->provider != provider; });
    if (found.size() == 1) {
        return found[0];
    }
    const std::string hint = did_you_mean(catalog.instance_names_near(name));
    fail(
        command,
        found.empty() ? "unknown-name" : "ambiguous-name",
        fmt::format(
            "{}: {} instance type called '{}'", flag, found.empty() ? "no" : "more than one", name),
        found.empty() ? (hint.empty() ? "see 'gpuadvisor catalog list instances'" : hint)
                      : "add --provider",
        k_exit_usage,
        io);
    return nullptr;
}

std::optional<std::set<std::string>> check_providers(std::initializer_list<const Catalog*> catalogs,
                                                     const std::vector<std::string>& names,
                                                     std::string_view command,
                                                     Io& io) {
    std::vector<std::string> known;
    for (const Catalog* catalog : catalogs) {
        for (const Provider& provider : catalog->providers()) {
            known.push_back(provider.id);
        }
    }
    std::sort(known.begin(), known.end());
    known.erase(std::unique(known.begin(), known.end()), known.end());
    std::set<std::string> result;
    for (const std::string& name : names) {
        if (std::find(known.begin(), known.end(), name) == known.end()) {
            std::string hint = did_you_mean(nearest_names(name, known));
            fail(command,
                 "unknown-provider",
                 fmt::format("--provider: no provider is called '{}'", name),
                 hint.empty() ? fmt::format("providers: {}", fmt::join(known, ", ")) : hint,
                 k_exit_usage,
                 io);
            return std::nullopt;
        }
        result.insert(name);
    }
    return result;
}

bool check_currency(const std::string& currency, std::string_view command, Io& io) {
    if (currency.empty() || io.rates().find(currency) != nullptr) {
        return true;
    }
    fail(command,
         "usage",
         fmt::format("--currency: no rate for '{}'", currency),
         fmt::format("known: {}; rates: 'gpuadvisor catalog list currencies'",
                     fmt::join(io.rates().currencies(), ", ")),
         k_exit_usage,
         io);
    return false;
}

std::optional<Date> answer_date(const std::string& flag, std::string_view command, Io& io) {
    const auto bad = [&](std::string_view source, std::string_view text, const char* hint) {
        fail(command,
             "usage",
             fmt::format("{}: '{}' is not a date", source, terminal_safe(text)),
             hint,
             k_exit_usage,
             io);
        return std::nullopt;
    };
    if (!flag.empty()) {
        const auto date = parse_date(flag);
        return date ? date : bad("--today", flag, "write it as YYYY-MM-DD");
    }
    if (const char* text = std::getenv("GPUADVISOR_TODAY")) {
        const auto date = parse_date(text);
        return date ? date
                    : bad("GPUADVISOR_TODAY",
                          text,
                          "write it as YYYY-MM-DD, or unset it to use today's date");
    }
    if (const char* text = std::getenv("SOURCE_DATE_EPOCH")) {
        const std::string_view digits(text);
        std::int64_t seconds = -1;
        const auto [end, error] =
            std::from_chars(digits.data(), digits.data() + digits.size(), seconds);
        constexpr std::int64_t k_seconds_per_day = 86'400;
        if (error != std::errc() || end != digits.data() + digits.size() || seconds < 0 ||
            seconds / k_seconds_per_day > 2'932'896) { // (9999-12-31)
            return bad("SOURCE_DATE_EPOCH",
                       text,
                       "write it as whole seconds since 1970-01-01 UTC, or unset it");
        }
        return Date{static_cast<int>(seconds / k_seconds_per_day)};
    }
    return today_utc();
}

std::vector<std::string>
price_freshness_warnings(std::vector<const Provenance*> prices, Date today, int max_age_days) {
    std::sort(prices.begin(), prices.end());
    prices.erase(std::unique(prices.begin(), prices.end()), prices.end());
    std::size_t old = 0;
    std::size_t unsure = 0;
    std::optional<Date> oldest;
    for (const Provenance* p : prices) {
        if (today.days - p->as_of.days > max_age_days) {
            ++old;
            oldest = oldest ? std::min(*oldest, p->as_of) : p->as_of;
        }
        unsure += p->confidence == Confidence::low ? 1 : 0;
    }
    std::vector<std::string> warnings;
    if (old > 0) {
        warnings.push_back(fmt::format(
            "{} of {} price(s) shown are over {} days old (the oldest from {}): confirm them "
            "with the provider before buying ('catalog show INSTANCE' gives each price's "
            "source; --max-price-age sets the limit)",
            old,
            prices.size(),
            max_age_days,
            format_date(*oldest)));
    }
    if (unsure > 0) {
        warnings.push_back(fmt::format("{} of {} price(s) shown are of low confidence in the "
                                       "catalog: confirm them with the provider before buying",
                                       unsure,
                                       prices.size()));
    }
    return warnings;
}

} // namespace gpuadvisor::cli
