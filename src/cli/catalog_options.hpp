// The active catalog of a command: built-in + GPUADVISOR_CATALOG + --catalog.
#pragma once

#include "gpuadvisor/catalog.hpp"
#include "gpuadvisor/catalog_io.hpp"
#include "io.hpp"

#include <initializer_list>
#include <optional>
#include <set>
#include <string_view>

namespace gpuadvisor::cli {

// GPUADVISOR_CATALOG paths first, then --catalog ones, in order.
CatalogSources catalog_sources(const GlobalOptions& global);

// load_catalog, timed as the "catalog" stage of --timings (with what was read and how); the
// cache's notes (what it refused, or that there is none) on stderr, unless -q.
CatalogLoad load_catalog_timed(const CatalogSources& sources, const CheckOptions& checks, Io& io);

// Keeps the catalog until the next call or the end of the process, and does not free it then:
// a command's output is the last thing the process does, and freeing a million offers would
// add a tenth of a second or more to it. A second call in the same process (tests, fuzzing)
// frees the first catalog kept.
const Catalog* keep_for_the_process(Catalog&& catalog);

// Loads the active catalog; on errors prints them (JSON too with -o json) and returns nullptr:
// the command then exits with k_exit_input. The catalog is kept as keep_for_the_process keeps
// it.
const Catalog* load_active_catalog(const GlobalOptions& global, std::string_view command, Io& io);

// True if data/fx.yaml has a rate for `currency` (empty: none asked for); else prints a usage
// error naming --currency and the known codes (the command exits k_exit_usage).
bool check_currency(const std::string& currency, std::string_view command, Io& io);

// The date answers are given on (prices' ages, discounts' expiry, the catalog's date checks),
// for answers that do not change with the day they are asked: --today (`flag`, YYYY-MM-DD),
// else GPUADVISOR_TODAY (YYYY-MM-DD), else SOURCE_DATE_EPOCH (seconds since 1970, as
// reproducible builds set it), else today's UTC date. nullopt after a usage error naming the
// flag or variable (the command exits k_exit_usage).
std::optional<Date> answer_date(const std::string& flag, std::string_view command, Io& io);

// What an answer should say of the prices it shows (each row's provenance, once): how many are
// older than `max_age_days` on `today` and the oldest date; how many are of low confidence.
// Nothing when every price is recent and sure.
std::vector<std::string>
price_freshness_warnings(std::vector<const Provenance*> prices, Date today, int max_age_days);

// Comma-separated values of a repeatable flag: {"aws,gcp", "azure"} -> {aws, gcp, azure}.
std::vector<std::string> split_list(const std::vector<std::string>& values);

// The providers named, each one of `catalogs`' providers; nullopt after a
// usage error naming the one that is not, with the nearest (exit k_exit_usage).
std::optional<std::set<std::string>> check_providers(std::initializer_list<const Catalog*> catalogs,
                                                     const std::vector<std::string>& names,
                                                     std::string_view command,
                                                     Io& io);

// Every GPU the names mean (aliases and prefixes expanded). On an unknown name, prints a usage
// error with did-you-mean and returns nullopt (exit k_exit_usage).
std::optional<std::vector<std::string>> resolve_gpu_names(const Catalog& catalog,
                                                          const std::vector<std::string>& names,
                                                          std::string_view command,
                                                          Io& io);

// The one instance type `name` (any case) means, of `provider` if given; nullptr after
// printing a usage error that names `flag` ("--instance") with a did-you-mean.
const InstanceType* resolve_instance(const Catalog& catalog,
                                     std::string_view name,
                                     std::string_view provider,
                                     std::string_view flag,
                                     std::string_view command,
                                     Io& io);

} // namespace gpuadvisor::cli
