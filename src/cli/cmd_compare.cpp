// gpuadvisor compare NAME NAME... : GPUs or instance types side by side, with unit prices.
#include "app.hpp"
#include "catalog_listing.hpp"
#include "catalog_options.hpp"
#include "data_table.hpp"
#include "exit_status.hpp"
#include "gpuadvisor/fx.hpp"
#include "gpuadvisor/pricing.hpp"
#include "gpuadvisor/spelling.hpp"
#include "output.hpp"
#include "render_table.hpp"
#include "text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>

namespace gpuadvisor::cli {

namespace {

struct Options {
    std::vector<std::string> names;
    std::string region;
};

// One column of the comparison: a GPU, or an instance type in one region.
struct Item {
    const Gpu* gpu = nullptr;
    const InstanceType* instance = nullptr; // null for a GPU
    const PriceRow* row = nullptr;          // the offer whose prices are shown
};

// A price of `row` in `currency`, in micro-units; none without a price or a rate.
std::optional<std::int64_t> converted_micros(const std::optional<std::int64_t>& micros,
                                             const PriceRow& row,
                                             const std::string& currency,
                                             const FxTable& fx) {
    return micros ? fx.convert(*micros, row.currency, currency) : std::nullopt;
}

std::optional<double> in_currency(const std::optional<std::int64_t>& micros,
                                  const PriceRow& row,
                                  const std::string& currency,
                                  const FxTable& fx) {
    const auto converted = converted_micros(micros, row, currency, fx);
    return converted ? std::optional<double>(static_cast<double>(*converted) /
                                             static_cast<double>(Money::k_micros_per_unit))
                     : std::nullopt;
}

// A plan's price on an item's offer as paid (after any negotiated discount).
std::optional<Rate> rate_of(const Item& item, Plan plan, const PricingContext& pricing) {
    return item.row != nullptr ? plan_rate({item.instance, item.row}, plan, pricing) : std::nullopt;
}

// The cheapest on-demand offer (in USD, as paid) among rows, or in --region.
const PriceRow* pick_row(const InstanceType& instance,
                         const std::string& region,
                         const PricingContext& pricing,
                         const FxTable& fx) {
    return cheapest_row(instance, fx, [&](const PriceRow& row) -> std::optional<std::int64_t> {
        const auto rate = plan_rate({&instance, &row}, Plan::on_demand, pricing);
        if ((!region.empty() && row.region != region) || !rate) {
            return std::nullopt;
        }
        return rate->micros;
    });
}

// For a GPU: the offer with the lowest on-demand price per GPU-hour anywhere in the catalog.
Item cheapest_for_gpu(const Gpu& gpu,
                      const Catalog& catalog,
                      const std::string& region,
                      const PricingContext& pricing,
                      const FxTable& fx) {
    Item item{&gpu, nullptr, nullptr};
    double best = 0;
    for (const InstanceType& instance : catalog.instances()) {
        if (instance.gpu != gpu.id || instance.gpu_count < 1) {
            continue;
        }
        const PriceRow* row = pick_row(instance, region, pricing, fx);
        const auto rate =
            row != nullptr ? plan_rate({&instance, row}, Plan::on_demand, pricing) : std::nullopt;
        const auto usd = rate ? in_currency(rate->micros, *row, "USD", fx) : std::nullopt;
        if (usd && (item.row == nullptr || *usd / instance.gpu_count < best)) {
            item.instance = &instance;
            item.row = row;
            best = *usd / instance.gpu_count;
        }
    }
    return item;
}

// A price for the table: a number to the micro-unit.
Json money(const std::optional<double>& value) {
    return value ? Json(std::round(*value * 1e6) / 1e6) : Json(nullptr);
}

// A price for JSON: a money object with the rate (per hour, or per month) to the micro-unit,
// or null where there is none.
Json money_object(const std::optional<std::int64_t>& micros,
                  const std::string& currency,
                  bool monthly = false) {
    return micros
               ? money_json(currency, {{monthly ? "per_month" : "per_hour", rate_amount(micros)}})
               : Json(nullptr);
}

// One measure across the items: a JSON key, a label for people, a value per item (and, for a
// price, its JSON form: a money object).
struct Measure {
    std::string key;
    std::string label;
    std::vector<Json> values;
    bool table_hides_when_null = false; // a row people need only when it says something
    std::vector<Json> json_values = {}; // empty: JSON gives `values`
};

// Each plan's price as paid; where a negotiated discount applies, its list price and the
// discounts by name.
void add_plan_prices(const std::vector<Item>& items,
                     const std::string& currency,
                     const FxTable& fx,
                     const PricingContext& pricing,
                     std::vector<Measure>& result) {
    Measure discounts{"discounts", "negotiated discounts", {}, true};
    for (const Item& item : items) {
        std::vector<std::string> ids;
        for (const Plan plan : k_all_plans) {
            const auto rate = rate_of(item, plan, pricing);
            if (rate && rate->discount != nullptr &&
                std::find(ids.begin(), ids.end(), rate->discount->id) == ids.end()) {
                ids.push_back(rate->discount->id);
            }
        }
        discounts.values.push_back(ids.empty() ? Json(nullptr)
                                               : Json(fmt::format("{}", fmt::join(ids, ", "))));
        discounts.json_values.push_back(ids.empty() ? Json(nullptr) : Json(ids));
    }
    for (const Plan plan : k_all_plans) {
        const bool monthly = plan == Plan::subscription_monthly;
        Measure paid{std::string(to_string(plan)),
                     fmt::format("{} per {}", plan_flag_name(plan), monthly ? "month" : "hour"),
                     {},
                     false};
        Measure list{std::string(to_string(plan)) + "_list", "... list price", {}, true};
        for (const Item& item : items) {
            const auto rate = rate_of(item, plan, pricing);
            const auto paid_micros =
                rate ? converted_micros(rate->micros, *item.row, currency, fx) : std::nullopt;
            const auto list_micros =
                rate && rate->discount != nullptr
                    ? converted_micros(rate->list_micros, *item.row, currency, fx)
                    : std::nullopt;
            paid.values.push_back(
                money(rate ? in_currency(rate->micros, *item.row, currency, fx) : std::nullopt));
            paid.json_values.push_back(money_object(paid_micros, currency, monthly));
            list.values.push_back(
                rate && rate->discount != nullptr
                    ? money(in_currency(rate->list_micros, *item.row, currency, fx))
                    : Json(nullptr));
            list.json_values.push_back(money_object(list_micros, currency, monthly));
        }
        result.push_back(std::move(paid));
        result.push_back(std::move(list));
    }
    result.push_back(std::move(discounts));
}

std::vector<Measure> measures(const std::vector<Item>& items,
                              const std::string& currency,
                              const FxTable& fx,
                              bool gpus_only,
                              const PricingContext& pricing) {
    std::vector<Measure> result;
    const auto add = [&](std::string key, std::string label, auto value_of) {
        Measure measure{std::move(key), std::move(label), {}, false};
        for (const Item& item : items) {
            measure.values.push_back(value_of(item));
        }
        result.push_back(std::move(measure));
    };
    const auto per_gpu_hour = [&](const Item& i) -> std::optional<double> {
        if (i.row == nullptr) {
            return std::nullopt;
        }
        const auto rate = rate_of(i, Plan::on_demand, pricing);
        const auto hourly =
            rate ? in_currency(rate->micros, *i.row, currency, fx) : std::optional<double>();
        return hourly ? std::optional<double>(*hourly / i.instance->gpu_count) : std::nullopt;
    };
    const auto per = [&](const Item& i, std::optional<double> divisor) {
        const auto value = per_gpu_hour(i);
        return money(value && divisor && *divisor > 0 ? std::optional<double>(*value / *divisor)
                                                      : std::nullopt);
    };
    // The same in JSON: the on-demand rate per GPU-hour (over `divisor` too), rounded to the
    // micro-unit, in a money object.
    const auto per_json = [&](const Item& i, std::optional<double> divisor) {
        const auto rate = i.row != nullptr ? rate_of(i, Plan::on_demand, pricing) : std::nullopt;
        const auto hourly =
            rate ? converted_micros(rate->micros, *i.row, currency, fx) : std::nullopt;
        if (!hourly || !divisor || !(*divisor > 0)) {
            return Json(nullptr);
        }
        const double micros = static_cast<double>(*hourly) / i.instance->gpu_count / *divisor;
        return micros < 9e18 ? money_object(std::llround(micros), currency) : Json(nullptr);
    };
    const auto add_price =
        [&](std::string key, std::string label, std::optional<double> (*of)(const Gpu&)) {
            Measure measure{std::move(key), std::move(label), {}, false};
            for (const Item& item : items) {
                measure.values.push_back(per(item, of(*item.gpu)));
                measure.json_values.push_back(per_json(item, of(*item.gpu)));
            }
            result.push_back(std::move(measure));
        };
    // Measures of an instance type: null in a GPU's column that found no priced instance.
    const auto add_instance = [&](std::string key, std::string label, auto value_of) {
        add(std::move(key), std::move(label), [value_of](const Item& i) {
            return i.instance != nullptr ? value_of(*i.instance) : Json(nullptr);
        });
    };
    if (!gpus_only) {
        add_instance(
            "provider", "provider", [](const InstanceType& i) { return Json(i.provider); });
        // The GPUs: a count in JSON, "8x A100-40GB" in the table (as the listings show them).
        add_instance(
            "gpu_count", "GPUs", [](const InstanceType& i) { return count_json(i.gpu_count); });
        Measure& gpus = result.back();
        gpus.json_values = gpus.values;
        for (std::size_t c = 0; c < items.size(); ++c) {
            if (items[c].instance != nullptr) {
                gpus.values[c] = gpus_text(*items[c].instance);
            }
        }
        add_instance("vcpus", "vCPUs", [](const InstanceType& i) { return Json(i.vcpus); });
        add_instance(
            "memory_gb", "RAM GB", [](const InstanceType& i) { return Json(i.memory_gb); });
        add_instance("network_gbps", "network Gbps", [](const InstanceType& i) {
            return Json(i.network_gbps);
        });
        add_instance("rdma", "RDMA", [](const InstanceType& i) { return Json(i.rdma); });
    }
    add("gpu", "GPU", [](const Item& i) { return Json(i.gpu->id); });
    add("gpu_memory_gb", "GPU memory GB (per GPU)", [](const Item& i) {
        return Json(i.gpu->memory_gb);
    });
    add("memory_bandwidth_gb_per_s", "memory bandwidth GB/s", [](const Item& i) {
        return Json(i.gpu->memory_bandwidth_gb_per_s);
    });
    add("fp16_tflops", "FP16 TFLOPS (dense)", [](const Item& i) {
        return optional_number(i.gpu->fp16_tflops);
    });
    add("fp64_tflops", "FP64 TFLOPS", [](const Item& i) { return Json(i.gpu->fp64_tflops); });
    add("offer_instance", "priced offer", [](const Item& i) {
        return i.row != nullptr ? Json(i.instance->id) : Json(nullptr);
    });
    add("offer_region", "... in region", [](const Item& i) {
        return i.row != nullptr ? Json(i.row->region) : Json(nullptr);
    });
    if (!gpus_only) {
        add_plan_prices(items, currency, fx, pricing, result);
    }
    add_price("on_demand_per_gpu_hour", "on-demand per GPU-hour", [](const Gpu&) {
        return std::optional<double>(1);
    });
    add_price("on_demand_per_gpu_memory_gb_hour", "... per GB of GPU memory", [](const Gpu& g) {
        return std::optional<double>(g.memory_gb);
    });
    add_price("on_demand_per_fp16_tflops_hour", "... per FP16 TFLOPS", [](const Gpu& g) {
        return g.fp16_tflops;
    });
    add_price("on_demand_per_fp64_tflops_hour", "... per FP64 TFLOPS", [](const Gpu& g) {
        return std::optional<double>(g.fp64_tflops);
    });
    return result;
}

// The currencies the items' prices are listed in.
std::vector<std::string> listed_currencies(const std::vector<Item>& items) {
    std::vector<std::string> currencies;
    for (const Item& item : items) {
        if (item.row != nullptr) {
            currencies.push_back(item.row->currency.str());
        }
    }
    return currencies;
}

// Why an item's prices are not shown in `currency` (no rate, or too large), one line each.
std::vector<std::string> conversion_warnings(const std::vector<Item>& items,
                                             const std::string& currency,
                                             const FxTable& fx,
                                             const PricingContext& pricing) {
    std::vector<std::string> warnings;
    for (const Item& item : items) {
        const auto rate = rate_of(item, Plan::on_demand, pricing);
        const std::string why =
            rate ? fx.conversion_error(
                       "its on-demand rate", rate->micros, item.row->currency, currency)
                 : std::string();
        if (!why.empty()) {
            warnings.push_back(fmt::format("{} in {}: {}; its prices are not shown",
                                           item.instance->id,
                                           item.row->region,
                                           why));
        }
    }
    return warnings;
}

int run(const Options& o, const GlobalOptions& global, Io& io) {
    const std::string currency = global.currency.empty() ? "USD" : global.currency;
    if (!check_currency(currency, "compare", io)) {
        return k_exit_usage;
    }
    const auto catalog = load_active_catalog(global, "compare", io);
    if (!catalog) {
        return k_exit_input;
    }
    const PricingContext pricing{{}, {}, false, catalog->discounts(), io.today};
    std::vector<Item> items;
    bool all_gpus = true;
    for (const std::string& name : o.names) {
        const auto instances = catalog->match_instances(name);
        const auto gpus = catalog->match_gpus(name);
        if (instances.size() == 1 && gpus.empty()) {
            const InstanceType* instance = instances[0];
            items.push_back({catalog->find_gpu(instance->gpu),
                             instance,
                             pick_row(*instance, o.region, pricing, io.rates())});
            all_gpus = false;
        } else if (!gpus.empty() && instances.empty()) {
            for (const Gpu* gpu : gpus) { // a family name compares all its variants
                items.push_back(cheapest_for_gpu(*gpu, *catalog, o.region, pricing, io.rates()));
            }
        } else {
            const std::string hint = did_you_mean(catalog->gpu_names_near(name));
            return fail("compare",
                        "unknown-name",
                        fmt::format("'{}' is {} GPU or instance type",
                                    name,
                                    instances.size() + gpus.size() > 1 ? "more than one" : "no"),
                        hint.empty() ? "see 'gpuadvisor catalog list gpus' and '... instances'"
                                     : hint,
                        k_exit_usage,
                        io);
        }
    }
    const std::vector<Measure> rows = measures(items, currency, io.rates(), all_gpus, pricing);
    const std::vector<std::string> warnings =
        conversion_warnings(items, currency, io.rates(), pricing);
    Json objects = Json::array();
    for (std::size_t c = 0; c < items.size(); ++c) {
        Json item{{"name", o.names.size() == items.size() ? o.names[c] : items[c].gpu->id},
                  {"kind", items[c].instance != nullptr && !all_gpus ? "instance" : "gpu"}};
        for (const Measure& measure : rows) {
            item[measure.key] =
                measure.json_values.empty() ? measure.values[c] : measure.json_values[c];
        }
        objects.push_back(std::move(item));
    }
    if (io.format == OutputFormat::json) {
        Json document = json_document("compare");
        document["currency"] = currency;
        document["items"] = std::move(objects);
        document["conversions"] = conversions_json(io.rates(), listed_currencies(items), currency);
        document["warnings"] = warnings;
        write_json(document, io);
        return k_exit_ok;
    }
    if (io.format != OutputFormat::table) { // one row an item, its prices in `currency`
        std::vector<DataColumn> columns = key_columns(objects);
        columns.insert(columns.begin() + 2, {"currency", "/currency"});
        for (Json& item : objects) {
            item["currency"] = currency;
        }
        render_table(data_table(columns, objects), io);
        print_notes({{}, warnings}, io);
        return k_exit_ok;
    }
    Table table{{{fmt::format("MEASURE ({})", currency)}}, {}};
    for (const Item& item : items) {
        table.columns.push_back(
            {item.instance != nullptr && !all_gpus ? item.instance->id : item.gpu->id,
             Align::right});
    }
    for (const Measure& measure : rows) {
        if (measure.table_hides_when_null &&
            std::all_of(measure.values.begin(), measure.values.end(), [](const Json& value) {
                return value.is_null();
            })) {
            continue;
        }
        std::vector<std::string> cells{measure.label};
        for (const Json& value : measure.values) {
            cells.push_back(cell_text(value));
        }
        table.rows.push_back(std::move(cells));
    }
    render_table(table, io);
    print_notes({conversion_lines(io.rates(), listed_currencies(items), currency), warnings}, io);
    return k_exit_ok;
}

} // namespace

void register_compare(CLI::App& app, Registry registry) {
    auto o = std::make_shared<Options>();
    CLI::App* compare = app.add_subcommand(
        "compare", "GPUs or instance types side by side, with price per GPU-hour, GB and TFLOPS");
    compare->add_option("names", o->names, "GPU ids, family names (A100) or instance type ids")
        ->required()
        ->expected(1, 20);
    compare->add_option("--region", o->region, "Prices in this region (default: the cheapest)");
    compare->footer("Examples:\n  gpuadvisor compare A100-80GB H100-80GB L40S\n"
                    "  gpuadvisor compare p4d.24xlarge a2-highgpu-8g Standard_ND96asr_v4\n"
                    "Prices are on-demand unless a row names its plan; in USD unless --currency.");
    registry.runners.push_back({compare, [o, &global = registry.global](Io& io) {
                                    return run(*o, global, io);
                                }});
}

} // namespace gpuadvisor::cli
