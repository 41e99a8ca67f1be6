#include "catalog/catalog_checks.hpp"

#include "catalog/catalog_overlay.hpp"
#include "catalog/discount_decode.hpp"
#include "catalog/transfer_decode.hpp"
#include "gpuadvisor/spelling.hpp"
#include "gpuadvisor/units.hpp"
#include "util/helper_thread.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <deque>
#include <iterator>
#include <map>
#include <set>

namespace gpuadvisor {

namespace {

struct ProviderState {
    Provider provider;
    ProvenanceInput provenance;
    bool has_currency = false;
    bool flawed = false; // a block of it has an error of its own: not checked for completeness
};

// The lower-case names (ids and aliases) of GPUs with an error of their own: not in the
// catalog, but what names them is not reported for it.
using NameSet = std::set<std::string, std::less<>>;

Provenance resolve(const ProvenanceInput& own,
                   std::initializer_list<const ProvenanceInput*> outer) {
    Provenance result;
    result.notes = own.notes;
    // The innermost level that gives each, pointed to: no text copied on the way (a large
    // catalog resolves a row's provenance per row).
    const std::optional<std::string>* source = &own.source;
    const std::optional<Date>* as_of = &own.as_of;
    const std::optional<Confidence>* confidence = &own.confidence;
    for (const ProvenanceInput* level : outer) {
        source = *source ? source : &level->source;
        as_of = *as_of ? as_of : &level->as_of;
        confidence = *confidence ? confidence : &level->confidence;
    }
    result.source = source->has_value() ? std::string_view(**source) : std::string_view();
    result.as_of = as_of->value_or(Date{});
    result.confidence = confidence->value_or(Confidence::high);
    return result;
}

void merge_provider(std::map<std::string, ProviderState>& providers, const ProviderInput& input) {
    auto [it, inserted] = providers.try_emplace(input.id);
    ProviderState& state = it->second;
    Provider& provider = state.provider;
    if (inserted) {
        provider.id = input.id;
        provider.origin = input.origin;
    }
    state.flawed = state.flawed || input.flawed;
    if (input.name) {
        provider.name = *input.name;
    }
    if (input.currency) {
        provider.currency = *input.currency;
        state.has_currency = true;
    }
    const ProvenanceInput& p = input.provenance;
    state.provenance.source = p.source ? p.source : state.provenance.source;
    state.provenance.as_of = p.as_of ? p.as_of : state.provenance.as_of;
    state.provenance.confidence = p.confidence ? p.confidence : state.provenance.confidence;
    for (const RegionInfo& region : input.regions) {
        auto existing = std::find_if(provider.regions.begin(),
                                     provider.regions.end(),
                                     [&](const RegionInfo& r) { return r.id == region.id; });
        if (existing != provider.regions.end()) {
            *existing = region;
        } else {
            provider.regions.push_back(region);
        }
    }
}

// Every provider needs these once all overlays are merged.
void check_provider_complete(ProviderState& state, Diagnostics& diagnostics) {
    Provider& provider = state.provider;
    if (state.flawed) { // a field given with an error would read as missing
        provider.provenance = resolve(state.provenance, {});
        return;
    }
    const auto missing = [&](std::string_view field) {
        diagnostics.error(provider.origin,
                          "missing-field",
                          fmt::format("provider: '{}' has no '{}' in any file", provider.id, field),
                          "a provider's first definition gives name, currency, source and as_of");
    };
    if (provider.name.empty()) {
        missing("name");
    }
    if (!state.has_currency) {
        missing("currency");
    }
    if (!state.provenance.source) {
        missing("source");
    }
    if (!state.provenance.as_of) {
        missing("as_of");
    }
    provider.provenance = resolve(state.provenance, {});
}

// Ids and aliases name one GPU each. Walked in load order, so the error lands on the entry
// that came later (an overlay's, not the built-in one it collides with); the later name is
// dropped.
void check_names(std::vector<Gpu>& gpus, Diagnostics& diagnostics) {
    std::map<std::string, std::string> owner; // lower-case name -> GPU id
    for (Gpu& gpu : gpus) {
        const auto [it, inserted] = owner.emplace(to_lower(gpu.id), gpu.id);
        if (!inserted) {
            diagnostics.error(gpu.origin,
                              "alias-conflict",
                              fmt::format("gpus[{}].id: '{}' is already an alias of GPU '{}'",
                                          gpu.id,
                                          gpu.id,
                                          it->second),
                              "choose another id, or replace that GPU under its own id");
        }
        std::erase_if(gpu.aliases, [&](const std::string& alias) {
            const auto [at, fresh] = owner.emplace(to_lower(alias), gpu.id);
            if (fresh || at->second == gpu.id) {
                return false;
            }
            diagnostics.error(
                gpu.origin,
                "alias-conflict",
                fmt::format(
                    "gpus[{}].aliases: '{}' already names GPU '{}'", gpu.id, alias, at->second),
                "remove the alias from one of the two GPUs");
            return true;
        });
    }
}

std::string hint_or(std::string hint, std::string fallback) {
    return hint.empty() ? std::move(fallback) : std::move(hint);
}

// Resolves `gpu:` to a canonical id; false (with an error) if it does not name exactly one GPU
// (without one when it names a GPU with an error of its own).
bool resolve_gpu(const Catalog& gpus,
                 const NameSet& flawed_gpus,
                 InstanceType& instance,
                 Diagnostics& diagnostics) {
    const std::string path = fmt::format("instances[{}].gpu", instance.id);
    const auto matches = gpus.match_gpus(instance.gpu);
    const Gpu* exact = gpus.find_gpu(instance.gpu);
    if (exact == nullptr && matches.size() == 1 &&
        (to_lower(matches[0]->id) == to_lower(instance.gpu) ||
         std::any_of(
             matches[0]->aliases.begin(), matches[0]->aliases.end(), [&](const std::string& a) {
                 return to_lower(a) == to_lower(instance.gpu);
             }))) {
        exact = matches[0];
    }
    if (exact != nullptr) {
        instance.gpu = exact->id;
        return true;
    }
    if (flawed_gpus.contains(to_lower(instance.gpu))) {
        return false; // its own error says it all
    }
    std::vector<std::string> ids;
    for (const Gpu* gpu : matches) {
        ids.push_back(gpu->id);
    }
    if (matches.size() > 1) {
        diagnostics.error(instance.gpu_pos,
                          "ambiguous-gpu",
                          fmt::format("{}: '{}' matches {} GPUs: {}",
                                      path,
                                      instance.gpu,
                                      matches.size(),
                                      fmt::join(ids, ", ")),
                          "name one GPU by its id");
    } else if (matches.size() == 1) {
        diagnostics.error(instance.gpu_pos,
                          "unknown-gpu",
                          fmt::format("{}: '{}' is not a GPU id or alias", path, instance.gpu),
                          fmt::format("did you mean '{}'?", ids[0]));
    } else {
        diagnostics.error(instance.gpu_pos,
                          "unknown-gpu",
                          fmt::format("{}: no GPU is called '{}'", path, instance.gpu),
                          hint_or(did_you_mean(gpus.gpu_names_near(instance.gpu)),
                                  "see 'gpuadvisor catalog list gpus'"));
    }
    return false;
}

void check_prices(const InstanceType& instance,
                  const Provider& provider,
                  const PriceRow& row,
                  Diagnostics& diagnostics) {
    // Formatted only for a warning: most rows have none, and there may be a million rows.
    const auto path = [&] {
        return fmt::format("instances[{}].regions[{}]", instance.id, row.region);
    };
    if (!provider.regions.empty() &&
        std::none_of(provider.regions.begin(), provider.regions.end(), [&](const RegionInfo& r) {
            return r.id == row.region;
        })) {
        std::vector<std::string> known;
        for (const RegionInfo& region : provider.regions) {
            known.push_back(region.id);
        }
        std::string hint = did_you_mean(nearest_names(row.region, known));
        diagnostics.warning(
            row.origin,
            "unknown-region",
            fmt::format("{}: '{}' is not one of {}'s regions", path(), row.region, provider.id),
            hint.empty() ? "add it to the provider's 'regions' list" : hint);
    }
    if (row.on_demand) {
        const auto above = [&](Plan plan, std::int64_t price, std::string_view what) {
            if (price > *row.on_demand) {
                diagnostics.warning(
                    row.origin,
                    "price-above-on-demand",
                    fmt::format("{}: {} {} is above on-demand {}",
                                path(),
                                what,
                                format_micros(price),
                                format_micros(*row.on_demand)),
                    fmt::format("check the {} price and its unit", to_string(plan)));
            }
        };
        for (const Plan plan : {Plan::spot, Plan::reserved_1y, Plan::reserved_3y}) {
            if (const auto& price = row.price(plan)) {
                above(plan, *price, to_string(plan));
            }
        }
        if (row.subscription_monthly) {
            // A month is 730 hours (8760 / 12).
            above(Plan::subscription_monthly,
                  *row.subscription_monthly / 730,
                  "subscription_monthly / 730 h");
        }
    }
    if (row.reserved_1y && row.reserved_3y && *row.reserved_3y > *row.reserved_1y) {
        diagnostics.warning(row.origin,
                            "reserved-order",
                            fmt::format("{}: reserved_3y {} is above reserved_1y {}",
                                        path(),
                                        format_micros(*row.reserved_3y),
                                        format_micros(*row.reserved_1y)),
                            "a longer commitment is normally cheaper: check the two figures");
    }
}

void check_dates(const SourcePos& pos,
                 std::string_view path,
                 Date as_of,
                 const CheckOptions& options,
                 Diagnostics& diagnostics) {
    if (as_of > options.today) {
        diagnostics.warning(pos,
                            "future-date",
                            fmt::format("{}: as_of {} is in the future", path, format_date(as_of)),
                            "give the date the figure was published or checked");
    }
}

void check_gpu_memory(const InstanceType& instance, const Gpu& gpu, Diagnostics& diagnostics) {
    if (instance.gpu_memory_gb) {
        const double expected = instance.gpu_count * gpu.memory_gb;
        if (std::abs(*instance.gpu_memory_gb - expected) > 0.1 * expected) {
            diagnostics.warning(instance.origin,
                                "gpu-memory-mismatch",
                                fmt::format("instances[{}]: gpu_memory_gb {} disagrees with {} x "
                                            "{} ({} GB each) = {} GB",
                                            instance.id,
                                            format_number(*instance.gpu_memory_gb),
                                            format_number(instance.gpu_count),
                                            gpu.id,
                                            format_number(gpu.memory_gb),
                                            format_number(expected)),
                                "check the GPU model (SXM/PCIe, memory size) and the count");
        }
    }
}

void check_instance(const InstanceType& instance,
                    const Provider& provider,
                    const Gpu& gpu,
                    const CheckOptions& options,
                    Diagnostics& diagnostics) {
    const std::string path = fmt::format("instances[{}]", instance.id);
    check_gpu_memory(instance, gpu, diagnostics);
    check_dates(instance.origin, path, instance.provenance.as_of, options, diagnostics);
    std::size_t stale = 0;
    Date oldest = options.today;
    for (const PriceRow& row : instance.regions) {
        check_prices(instance, provider, row, diagnostics);
        if (row.provenance.as_of > options.today) { // the path is formatted only for a warning
            check_dates(row.origin,
                        fmt::format("{}.regions[{}]", path, row.region),
                        row.provenance.as_of,
                        options,
                        diagnostics);
        }
        if (options.max_age_days &&
            options.today.days - row.provenance.as_of.days > *options.max_age_days) {
            ++stale;
            oldest = std::min(oldest, row.provenance.as_of);
        }
    }
    if (stale > 0) {
        diagnostics.warning(instance.origin,
                            "stale-price",
                            fmt::format("{}: {} of {} price rows are older than {} days (oldest "
                                        "as_of {})",
                                        path,
                                        stale,
                                        instance.regions.size(),
                                        *options.max_age_days,
                                        format_date(oldest)),
                            "refresh the prices from the provider's price list");
    }
}

void seed_from_base(const Catalog& base,
                    std::map<std::string, Gpu>& gpus,
                    std::map<std::string, ProviderState>& providers,
                    std::map<std::pair<std::string, std::string>, PendingInstance>& instances) {
    for (const Gpu& gpu : base.gpus()) {
        gpus.emplace(to_lower(gpu.id), gpu);
    }
    for (const Provider& provider : base.providers()) {
        providers.emplace(provider.id,
                          ProviderState{provider, as_input(provider.provenance), true});
    }
    for (const InstanceType& instance : base.instances()) {
        PendingInstance pending;
        pending.input.instance = instance; // rows already resolved, in instance.regions
        pending.input.provenance = as_input(instance.provenance);
        instances.emplace(std::pair{instance.provider, to_lower(instance.id)}, std::move(pending));
    }
}

// One instance type with its rows' currency and provenance resolved, its GPU named by its id
// and checked; nullopt, reported, when its GPU is not known.
std::optional<InstanceType> merge_instance(PendingInstance& pending,
                                           const ProviderState& state,
                                           const Catalog& gpu_index,
                                           const NameSet& flawed_gpus,
                                           const CheckOptions& options,
                                           Diagnostics& diagnostics) {
    InstanceType instance = std::move(pending.input.instance);
    // The provider as merged up to the definition's file first, then as merged in the end (for
    // what no file up to it gave: a provider completed by a later file).
    const ProviderLevel none;
    const ProviderLevel& then = pending.provider != nullptr ? *pending.provider : none;
    instance.provenance = resolve(pending.input.provenance,
                                  {&pending.file_provenance, &then.provenance, &state.provenance});
    instance.regions.reserve(instance.regions.size() + pending.input.rows.size());
    for (PriceRowInput& row_input : pending.input.rows) {
        PriceRow row = std::move(row_input.row);
        if (row_input.settled) { // kept from an earlier file: its own levels are applied
            row.currency = row_input.currency.value_or(state.provider.currency);
            row.provenance = resolve(row_input.provenance, {&state.provenance});
        } else {
            row.currency = row_input.currency.value_or(
                pending.file_currency.value_or(then.currency.value_or(state.provider.currency)));
            row.provenance = resolve(row_input.provenance,
                                     {&pending.input.provenance,
                                      &pending.file_provenance,
                                      &then.provenance,
                                      &state.provenance});
        }
        instance.regions.push_back(std::move(row));
    }
    std::vector<PriceRowInput>().swap(pending.input.rows); // peak memory: one copy of rows
    if (!resolve_gpu(gpu_index, flawed_gpus, instance, diagnostics)) {
        return std::nullopt;
    }
    check_instance(
        instance, state.provider, *gpu_index.find_gpu(instance.gpu), options, diagnostics);
    return instance;
}

// Below this many instance types, they are merged on the calling thread alone.
constexpr std::size_t k_instances_for_threads = 2048;

// Every instance type with a provider merged (merge_instance), in key order: on `threads`
// threads (0: by size), each merging a contiguous share with diagnostics of its own, appended
// in share order, so the result and the diagnostics are what one thread gives.
std::vector<InstanceType>
merge_instances(std::map<std::pair<std::string, std::string>, PendingInstance>& instances,
                const std::map<std::string, ProviderState>& providers,
                const Catalog& gpu_index,
                const NameSet& flawed_gpus,
                const CheckOptions& options,
                Diagnostics& diagnostics,
                std::size_t threads) {
    std::vector<std::pair<PendingInstance*, const ProviderState*>> pending;
    pending.reserve(instances.size());
    for (auto& [key, instance] : instances) {
        if (!key.first.empty()) { // else reported: a file with instances but no provider
            pending.emplace_back(&instance, &providers.at(key.first));
        }
    }
    if (threads == 0) {
        threads = pending.size() < k_instances_for_threads ? 1 : threads_for_shares(pending.size());
    }
    std::vector<std::vector<InstanceType>> shares(threads);
    std::vector<Diagnostics> share_diagnostics(threads);
    parallel_for(threads, threads, [&](std::size_t share, std::size_t /*thread*/) {
        const std::size_t first = pending.size() * share / threads;
        const std::size_t last = pending.size() * (share + 1) / threads;
        shares[share].reserve(last - first);
        for (std::size_t i = first; i < last; ++i) {
            auto& [instance, state] = pending[i];
            if (auto merged = merge_instance(
                    *instance, *state, gpu_index, flawed_gpus, options, share_diagnostics[share])) {
                shares[share].push_back(std::move(*merged));
            }
        }
    });
    std::vector<InstanceType> merged;
    merged.reserve(pending.size());
    for (std::size_t t = 0; t < threads; ++t) {
        diagnostics.append(share_diagnostics[t]);
        std::move(shares[t].begin(), shares[t].end(), std::back_inserter(merged));
    }
    return merged;
}

// An instance type left out of the merge: with an error of its own or in a row, or in a file
// whose provider block has an error or is missing. `provider`: the file's provider id, if any.
struct Unmerged {
    InstanceInput input;
    std::string provider;
};

using InstanceKey = std::pair<std::string, std::string>; // provider, lower-case id

// Moves the fragment's instance types that cannot be merged to `unmerged`, their keys to
// `keys` (a later definition of one is not told it has nothing earlier to remove from).
void set_aside(CatalogFragment& fragment,
               std::vector<Unmerged>& unmerged,
               std::set<InstanceKey>& keys) {
    const std::string provider = fragment.provider ? fragment.provider->id : std::string();
    const auto add = [&](InstanceInput& input) {
        keys.emplace(provider, to_lower(input.instance.id));
        unmerged.push_back({std::move(input), provider});
    };
    if (!fragment.provider || fragment.provider->flawed) {
        std::for_each(fragment.instances.begin(), fragment.instances.end(), add);
        fragment.instances.clear();
    }
    std::for_each(fragment.flawed_instances.begin(), fragment.flawed_instances.end(), add);
}

// An instance type left out of the merge, checked for what decoded clean so that one run of
// `catalog validate` reports every problem: its rows' prices (a price that did not decode is
// nullopt) and regions, its own dates where they decoded, its GPU reference, and the GPU
// memory when its own fields decoded. Returned (nullopt without a valid id) so that a
// discount naming it is not reported as naming nothing.
std::optional<InstanceType> check_unmerged(Unmerged& unmerged,
                                           const std::map<std::string, ProviderState>& providers,
                                           const Catalog& gpu_index,
                                           const NameSet& flawed_gpus,
                                           const CheckOptions& options,
                                           Diagnostics& diagnostics) {
    InstanceInput& input = unmerged.input;
    InstanceType instance = std::move(input.instance);
    if (instance.id.empty()) {
        return std::nullopt;
    }
    instance.provider = unmerged.provider;
    const auto state = providers.find(unmerged.provider);
    const Provider provider = state != providers.end() ? state->second.provider : Provider{};
    const std::string path = fmt::format("instances[{}]", instance.id);
    if (!input.fields_flawed && input.provenance.as_of) {
        check_dates(instance.origin, path, *input.provenance.as_of, options, diagnostics);
    }
    for (PriceRowInput& row_input : input.rows) {
        PriceRow row = std::move(row_input.row);
        if (row.region.empty() || row_input.remove) { // (a removal has no prices to check)
            continue;
        }
        check_prices(instance, provider, row, diagnostics);
        if (!row_input.flawed && row_input.provenance.as_of) {
            check_dates(row.origin,
                        fmt::format("{}.regions[{}]", path, row.region),
                        *row_input.provenance.as_of,
                        options,
                        diagnostics);
        }
        instance.regions.push_back(std::move(row));
    }
    if (!instance.gpu.empty() && resolve_gpu(gpu_index, flawed_gpus, instance, diagnostics) &&
        !input.fields_flawed) {
        check_gpu_memory(instance, *gpu_index.find_gpu(instance.gpu), diagnostics);
    }
    return instance;
}

// Every discount, later files replacing earlier ones of the same id.
std::vector<Discount> merge_discounts(const Catalog* base,
                                      std::vector<CatalogFragment>& fragments) {
    std::vector<Discount> merged;
    const auto add = [&](Discount discount) {
        std::erase_if(merged,
                      [&](const Discount& d) { return to_lower(d.id) == to_lower(discount.id); });
        merged.push_back(std::move(discount));
    };
    if (base != nullptr) {
        for (const Discount& discount : base->discounts()) {
            add(discount);
        }
    }
    for (CatalogFragment& fragment : fragments) {
        for (Discount& discount : fragment.discounts) {
            add(std::move(discount));
        }
    }
    return merged;
}

// Every CPU, later files replacing earlier ones of the same id; dates checked as a GPU's.
std::vector<Cpu> merge_cpus(const Catalog* base,
                            std::vector<CatalogFragment>& fragments,
                            const CheckOptions& options,
                            Diagnostics& diagnostics) {
    std::vector<Cpu> merged;
    const auto add = [&](Cpu cpu) {
        std::erase_if(merged, [&](const Cpu& c) { return to_lower(c.id) == to_lower(cpu.id); });
        merged.push_back(std::move(cpu));
    };
    if (base != nullptr) {
        for (const Cpu& cpu : base->cpus()) {
            add(cpu);
        }
    }
    for (CatalogFragment& fragment : fragments) {
        for (Cpu& cpu : fragment.cpus) {
            check_dates(cpu.origin,
                        fmt::format("cpus[{}]", cpu.id),
                        cpu.provenance.as_of,
                        options,
                        diagnostics);
            add(std::move(cpu));
        }
    }
    return merged;
}

} // namespace

Catalog merge_fragments(const Catalog* base,
                        std::vector<CatalogFragment> fragments,
                        const CheckOptions& options,
                        Diagnostics& diagnostics,
                        std::size_t threads) {
    std::map<std::string, Gpu> gpus_by_id;
    std::map<std::string, ProviderState> providers;
    std::map<std::pair<std::string, std::string>, PendingInstance> instances;
    std::vector<std::string> gpu_order;
    NameSet flawed_gpus;
    std::vector<Unmerged> unmerged;
    std::set<InstanceKey> unmerged_keys;
    std::deque<ProviderLevel> levels; // each file's provider as merged up to it
    if (base != nullptr) {
        seed_from_base(*base, gpus_by_id, providers, instances);
        for (const Gpu& gpu : base->gpus()) {
            gpu_order.push_back(to_lower(gpu.id));
        }
    }
    for (CatalogFragment& fragment : fragments) {
        for (GpuInput& input : fragment.gpus) {
            const std::string id = to_lower(input.gpu.id);
            std::erase(gpu_order, id);
            gpu_order.push_back(id);
            gpus_by_id.insert_or_assign(id, std::move(input.gpu));
        }
        flawed_gpus.insert(fragment.flawed_gpus.begin(), fragment.flawed_gpus.end());
        if (fragment.provider && !fragment.provider->id.empty()) {
            merge_provider(providers, *fragment.provider);
        }
        set_aside(fragment, unmerged, unmerged_keys);
        const ProviderLevel* level = nullptr;
        const auto state = fragment.instances.empty() ? providers.end() // (set_aside leaves
                                                      : providers.find(fragment.provider->id);
        if (state != providers.end()) { // none without a provider block free of errors)
            level = &levels.emplace_back(ProviderLevel{
                state->second.provenance,
                state->second.has_currency ? std::optional(state->second.provider.currency)
                                           : std::nullopt});
        }
        for (InstanceInput& input : fragment.instances) {
            input.instance.provider = fragment.provider->id;
            const auto key = InstanceKey{input.instance.provider, to_lower(input.instance.id)};
            PendingInstance later{std::move(input),
                                  fragment.provider->provenance,
                                  fragment.provider->currency,
                                  level};
            const auto [it, fresh] = instances.try_emplace(key);
            const auto& rows = later.input.rows;
            if (fresh && std::none_of(rows.begin(), rows.end(), [](const PriceRowInput& row) {
                    return row.remove;
                })) {
                it->second = std::move(later); // (the common case, and a large catalog's)
            } else { // a later file's definition: fields replaced, rows merged by region
                overlay_instance(it->second,
                                 std::move(later),
                                 fresh && unmerged_keys.contains(key),
                                 diagnostics);
            }
        }
    }
    std::vector<Gpu> gpus; // in load order: a replaced GPU counts as loaded where it was replaced
    for (const std::string& id : gpu_order) {
        Gpu& gpu = gpus_by_id.at(id);
        check_dates(gpu.origin,
                    fmt::format("gpus[{}]", gpu.id),
                    gpu.provenance.as_of,
                    options,
                    diagnostics);
        gpus.push_back(std::move(gpu));
    }
    check_names(gpus, diagnostics);
    const Catalog gpu_index(gpus, {}, {});
    std::vector<Provider> provider_list;
    for (auto& [id, state] : providers) {
        check_provider_complete(state, diagnostics);
    }
    std::vector<InstanceType> instance_list = merge_instances(
        instances, providers, gpu_index, flawed_gpus, options, diagnostics, threads);
    std::vector<InstanceType> referable; // what discounts may name: the unmerged ones too
    for (Unmerged& entry : unmerged) {
        if (auto checked =
                check_unmerged(entry, providers, gpu_index, flawed_gpus, options, diagnostics)) {
            referable.push_back(std::move(*checked));
        }
    }
    if (!referable.empty()) {
        referable.insert(referable.begin(), instance_list.begin(), instance_list.end());
    }
    for (auto& [id, state] : providers) {
        provider_list.push_back(std::move(state.provider));
    }
    std::vector<Discount> discounts = check_discounts(merge_discounts(base, fragments),
                                                      provider_list,
                                                      referable.empty() ? instance_list : referable,
                                                      options.today,
                                                      diagnostics);
    TransferData transfer = merge_transfer(base, fragments, provider_list, diagnostics);
    return Catalog(std::move(gpus),
                   std::move(provider_list),
                   std::move(instance_list),
                   std::move(discounts),
                   merge_cpus(base, fragments, options, diagnostics),
                   std::move(transfer));
}

namespace {

// The least plausible memory bandwidth for a memory type, GB/s: below it, the figure is in
// TB/s (2.039 for the A100-80GB's 2,039 GB/s).
// - HBM: one stack has a 1024-bit interface, so HBM1 at 1 Gb/s per pin already gives 128 GB/s
//   per stack (JEDEC JESD235); the slowest HBM GPU shipped, the Radeon Pro Vega 16 (one HBM2
//   stack at 1.2 Gb/s), has 154 GB/s; data-centre parts run from 484 GB/s (MI25) to
//   8,000 GB/s (B200). A TB/s slip gives 0.1-8.
// - GDDR, LPDDR, DDR and the rest: the slowest boards sold have 40-80 GB/s (GT 1030 with
//   64-bit GDDR5 at 6 Gb/s: 48 GB/s; T400 with GDDR6: 80 GB/s); data-centre parts run from
//   192 GB/s (P4) to 960 GB/s. A TB/s slip gives below 2.
double least_bandwidth(std::string_view memory_type) {
    return to_lower(memory_type).starts_with("hbm") ? 100 : 10;
}

void check_bandwidth(const GpuFigures& gpu, Diagnostics& diagnostics) {
    const Figure& bandwidth = gpu.memory_bandwidth_gb_per_s;
    const std::string type = gpu.memory_type.value_or("");
    const double least = least_bandwidth(type);
    if (!bandwidth.value || *bandwidth.value >= least) {
        return;
    }
    diagnostics.warning(
        bandwidth.pos,
        "implausible-bandwidth",
        fmt::format("{}.memory_bandwidth_gb_per_s: {} GB/s is below any {}GPU's ({} GB/s or more)",
                    gpu.path,
                    format_number(*bandwidth.value),
                    type.empty() ? "" : type + " ",
                    format_number(least)),
        fmt::format("the field is in GB/s: a datasheet's {} TB/s is {} GB/s",
                    format_number(*bandwidth.value),
                    format_number(std::round(*bandwidth.value * 1e6) / 1e3)));
}

void check_fp64(const GpuFigures& gpu, Diagnostics& diagnostics) {
    const Figure& fp64 = gpu.fp64_tflops;
    const Figure& fp32 = gpu.fp32_tflops;
    if (!fp64.value || !fp32.value || !(*fp64.value > *fp32.value)) {
        return;
    }
    // FP64 vector runs at most at the FP32 rate: 1:2 on NVIDIA's data-centre GPUs, 1:1 on
    // the MI250X, far less on the rest. An FP64 tensor (matrix) figure can be above it.
    diagnostics.warning(
        fp64.pos,
        "fp64-above-fp32",
        fmt::format("{}.fp64_tflops: {} is above fp32_tflops {}: no GPU runs FP64 vector "
                    "faster than FP32",
                    gpu.path,
                    format_number(*fp64.value),
                    format_number(*fp32.value)),
        "fp64_tflops is the FP64 vector peak; an FP64 tensor (matrix) figure, such as the "
        "H100's 67, goes in fp64_tensor_tflops");
}

// A dense FP16 or BF16 figure that is the with-sparsity one. Two ratios give it away:
// - Dense FP16/BF16 with FP32 accumulate (what mixed-precision training runs at) is 2 x dense
//   TF32 on every GPU with TF32 (A100 312 / 156, H100 SXM 989.4 / 494.7, L40S 362 / 183,
//   MI300X 1307.4 / 653.7, RTX 4090 165.2 / 82.6), so a figure at 4x is the with-sparsity one,
//   or (GeForce datasheets give both) the one with FP16 accumulate: 330.3 on the RTX 4090.
//   Either way half of it is the figure sizing needs.
// - Dense FP8 is 2 x dense FP16 on NVIDIA's and AMD's GPUs (H100 1978.9 / 989.4, L4 242.5 /
//   121, MI300X 2614.9 / 1307.4), so a sparse FP16 figure equals dense FP8. Not on Intel's
//   Gaudi 3, whose BF16 and FP8 peaks are both 1835: the test is for NVIDIA and AMD only.
// The tests take the midpoints, 3x TF32 and 2/3 of FP8, so a rounded datasheet figure stays
// clear. A ratio to FP32 vector would not do: dense FP16 is 16x FP32 on the A100 and 30x on the
// B200, above the H100's sparse 29.5x. Before Ampere (no TF32, no FP8) there is no sparsity to
// mistake.
void check_sparse(const GpuFigures& gpu,
                  const Figure& figure,
                  std::string_view field,
                  Diagnostics& diagnostics) {
    if (!figure.value) {
        return;
    }
    const double value = *figure.value;
    // `also`: what else the figure may be (the TF32 ratio: a GeForce FP16-accumulate figure).
    const auto warn = [&](std::string why, std::string_view also) {
        diagnostics.warning(
            figure.pos,
            "sparse-figure",
            fmt::format("{}.{}: {} {}: it looks like the with-sparsity figure{}",
                        gpu.path,
                        field,
                        format_number(value),
                        why,
                        also),
            fmt::format("give the dense figure with FP32 accumulate, half this one ({}); "
                        "datasheets mark sparse figures with an asterisk",
                        format_number(value / 2)));
    };
    const auto& tf32 = gpu.tf32_tflops.value;
    const auto& fp8 = gpu.fp8_tflops.value;
    if (tf32 && value >= 3 * *tf32) {
        warn(fmt::format("is {}x tf32_tflops {} (dense, it is 2x)",
                         format_number(std::round(value / *tf32 * 10) / 10),
                         format_number(*tf32)),
             " (or, on a GeForce card, the one with FP16 accumulate)");
    } else if (fp8 && value * 1.5 > *fp8 && (gpu.vendor == "nvidia" || gpu.vendor == "amd")) {
        warn(fmt::format("is {}x fp8_tflops {} (dense, it is 0.5x)",
                         format_number(std::round(value / *fp8 * 10) / 10),
                         format_number(*fp8)),
             "");
    }
}

} // namespace

void check_gpu_figures(const GpuFigures& gpu, Diagnostics& diagnostics) {
    check_bandwidth(gpu, diagnostics);
    check_fp64(gpu, diagnostics);
    check_sparse(gpu, gpu.fp16_tflops, "fp16_tflops", diagnostics);
    check_sparse(gpu, gpu.bf16_tflops, "bf16_tflops", diagnostics);
}

void check_interruption_band(std::string_view band,
                             const SourcePos& pos,
                             std::string_view path,
                             Diagnostics& diagnostics) {
    // The numbers of the band a '%' ends: "<5%", "5-10%", ">20%" (AWS's Spot Instance
    // Advisor), "0-5%" (Azure's eviction rate). Other numbers ("us-east-1") are not rates.
    double highest = 0;
    for (std::size_t percent = band.find('%'); percent != std::string_view::npos;
         percent = band.find('%', percent + 1)) {
        std::size_t start = percent;
        while (start > 0 && (std::isdigit(static_cast<unsigned char>(band[start - 1])) != 0 ||
                             band[start - 1] == '.' || band[start - 1] == '-')) {
            --start;
        }
        // "5-10": each number of the range; a leading '-' is a dash, not a sign.
        for (std::string_view run = band.substr(start, percent - start); !run.empty();) {
            const std::size_t dash = run.find('-');
            if (const auto rate = parse_strict_number(run.substr(0, dash))) {
                highest = std::max(highest, *rate);
            }
            run = dash == std::string_view::npos ? std::string_view() : run.substr(dash + 1);
        }
    }
    if (highest > 100) {
        diagnostics.warning(pos,
                            "implausible-interruption",
                            fmt::format("{}.spot_interruption: '{}' names a rate of {}%, above "
                                        "100%",
                                        path,
                                        band,
                                        format_number(highest)),
                            "a band is a share of instances interrupted a month, such as <5%, "
                            "5-10%, >20%");
    }
}

} // namespace gpuadvisor
