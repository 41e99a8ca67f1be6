#include "gpuadvisor/tco.hpp"

#include "yaml/schema.hpp"
#include "yaml/yaml_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <tuple>

namespace gpuadvisor {

double TcoData::get(std::string_view name) const {
    const auto it = defaults.find(name);
    if (it == defaults.end()) {
        throw std::out_of_range(fmt::format("no default '{}' in data/tco.yaml", name));
    }
    return it->second.value;
}

namespace {

constexpr std::array<std::string_view, 4> k_top{
    "schema_version", "servers", "electricity", "defaults"};
constexpr std::array<std::string_view, 11> k_server_fields{"id",
                                                           "name",
                                                           "gpu",
                                                           "gpus",
                                                           "price",
                                                           "currency",
                                                           "power_kw",
                                                           "source",
                                                           "as_of",
                                                           "confidence",
                                                           "notes"};
constexpr std::array<std::string_view, 7> k_power_fields{
    "market", "price_per_kwh", "currency", "source", "as_of", "confidence", "notes"};
constexpr std::array<std::string_view, 3> k_default_fields{"value", "unit", "source"};
constexpr std::array<std::string_view, 7> k_required_defaults{"pue",
                                                              "power_load_factor",
                                                              "colocation_per_kw_month",
                                                              "operations_per_server_year",
                                                              "network_storage_share",
                                                              "depreciation_years",
                                                              "maintenance_share_per_year"};

} // namespace

namespace {

// The file's contents past its top level.
void decode_tco(FieldReader& read, const YamlNode& root, TcoLoad& load) {
    if (const auto* servers = read.list(root, "servers", "", Need::required)) {
        for (std::size_t i = 0; i < servers->size(); ++i) {
            const YamlNode& node = (*servers)[i];
            const std::string path = fmt::format("servers[{}]", i);
            if (!read.mapping(node, path, "a server", k_server_fields)) {
                continue;
            }
            Server server;
            server.id = read.id(node, "id", path, Need::required).value_or("");
            server.name = read.text(node, "name", path, Need::required).value_or("");
            server.gpu = read.id(node, "gpu", path, Need::required).value_or("");
            server.gpus = read.whole(node, "gpus", path, Need::required, {1, true, 64}).value_or(1);
            server.price_micros = read.money(node, "price", path).value_or(0);
            server.currency = read.text(node, "currency", path, Need::required).value_or("USD");
            server.power_kw =
                read.number(node, "power_kw", path, Need::required, {0.01, true, 200}).value_or(1);
            server.provenance = read.provenance(node, path);
            load.data.servers.push_back(std::move(server));
        }
    }
    if (const auto* markets = read.list(root, "electricity", "", Need::required)) {
        for (std::size_t i = 0; i < markets->size(); ++i) {
            const YamlNode& node = (*markets)[i];
            const std::string path = fmt::format("electricity[{}]", i);
            if (!read.mapping(node, path, "an electricity price", k_power_fields)) {
                continue;
            }
            Electricity power;
            power.market = read.id(node, "market", path, Need::required).value_or("");
            power.price_per_kwh_micros = read.money(node, "price_per_kwh", path).value_or(0);
            power.currency = read.text(node, "currency", path, Need::required).value_or("USD");
            power.provenance = read.provenance(node, path);
            load.data.electricity.push_back(std::move(power));
        }
    }
    const YamlNode* defaults = read.value(root, "defaults", "", Need::required);
    if (defaults != nullptr && defaults->kind == YamlNode::Kind::mapping) {
        for (const auto& [key, node] : defaults->entries) {
            const std::string path = "defaults." + std::string(key.text);
            if (read.mapping(node, path, "a default", k_default_fields)) {
                load.data.defaults[std::string(key.text)] = {
                    read.number(node, "value", path, Need::required, {0, true, 1e9}).value_or(0),
                    read.text(node, "unit", path, Need::required).value_or(""),
                    read.text(node, "source", path, Need::required).value_or("")};
            }
        }
        for (const std::string_view name : k_required_defaults) {
            if (!load.data.defaults.contains(name)) {
                load.diagnostics.error(read.pos(*defaults),
                                       "missing-field",
                                       fmt::format("defaults: '{}' is missing", name));
            }
        }
    }
}

} // namespace

TcoLoad load_tco_text(const std::string& file, std::string_view text) {
    return load_data_file<TcoLoad>(file, text, {"a TCO data file", k_top}, decode_tco);
}

TcoResult compare_tco(const TcoInput& in, const TcoData& data, const FxTable& fx) {
    TcoResult result;
    result.currency = in.currency;
    const InstanceType& instance = *in.offer->instance;
    const double gpus = instance.gpu_count * in.usage.instances;
    result.server = in.server;
    if (result.server == nullptr) { // the cheapest purchase that holds the GPUs
        std::optional<std::int64_t> best;
        for (const Server& server : data.servers) {
            const auto unit = fx.convert(server.price_micros, server.currency, "USD");
            if (server.gpu != instance.gpu || !unit) {
                continue;
            }
            const auto cost = multiply_money(*unit, std::ceil(gpus / server.gpus - 1e-9));
            if (cost && (!best || *cost < *best)) {
                best = cost;
                result.server = &server;
            }
        }
    }
    if (result.server == nullptr) {
        result.error = fmt::format(
            "no built-in server has {} GPUs ('gpuadvisor catalog list servers'): name one with "
            "--server, or add it to a --catalog-style tco file",
            instance.gpu);
        return result;
    }
    const QuoteResult cloud = price_offer(*in.offer, in.usage, in.mix, in.pricing);
    if (!cloud.quote) {
        result.error = cloud.error;
        return result;
    }
    const auto convert = [&](std::int64_t micros, const std::string& from) {
        return fx.convert(micros, from, in.currency);
    };
    const auto cloud_total = convert(cloud.quote->total_micros, cloud.quote->currency);
    const auto cloud_list_total = convert(cloud.quote->list_total_micros, cloud.quote->currency);
    const auto unit_price = convert(result.server->price_micros, result.server->currency);
    const auto kwh = convert(in.electricity->price_per_kwh_micros, in.electricity->currency);
    const auto usd = [&](double amount) {
        return fx.convert(
            static_cast<std::int64_t>(std::llround(amount * 1e6)), "USD", in.currency);
    };
    if (!cloud_total || !cloud_list_total || !unit_price || !kwh || !usd(1)) {
        // The first figure that does not convert, named, and why: no rate, or too large.
        const std::array<std::tuple<std::string_view, std::int64_t, std::string_view>, 5> figures{
            {{"the cloud total", cloud.quote->total_micros, cloud.quote->currency},
             {"the cloud list total", cloud.quote->list_total_micros, cloud.quote->currency},
             {"the server's price", result.server->price_micros, result.server->currency},
             {"the electricity price",
              in.electricity->price_per_kwh_micros,
              in.electricity->currency},
             {"a US dollar", 1000000, "USD"}}};
        for (const auto& [what, micros, from] : figures) {
            result.error = fx.conversion_error(what, micros, from, in.currency);
            if (!result.error.empty()) {
                result.too_large = fx.find(from) != nullptr && fx.find(in.currency) != nullptr;
                break;
            }
        }
        return result;
    }
    result.cloud_total = *cloud_total;
    result.cloud_list_total = *cloud_list_total;
    for (const PricedPart& part : cloud.quote->parts) {
        if (part.rate.discount != nullptr &&
            std::find(result.discounts.begin(), result.discounts.end(), part.rate.discount) ==
                result.discounts.end()) {
            result.discounts.push_back(part.rate.discount);
        }
    }
    result.servers = static_cast<int>(std::ceil(gpus / result.server->gpus - 1e-9));
    const double servers = result.servers;
    const double years = in.usage.period_hours / k_hours_per_year;
    const double months = in.usage.period_hours / k_hours_per_month;
    const auto hardware_checked = multiply_money(*unit_price, servers);
    const auto network_checked =
        hardware_checked ? multiply_money(*hardware_checked, data.get("network_storage_share"))
                         : std::nullopt;
    if (!network_checked ||
        *hardware_checked > std::numeric_limits<std::int64_t>::max() - *network_checked) {
        result.error = "the purchase is beyond what gpuadvisor can count: lower --instances";
        result.too_large = true;
        return result;
    }
    const std::int64_t hardware = *hardware_checked;
    const std::int64_t network = *network_checked;
    result.cash_outlay = hardware + network;
    const double depreciated = std::min(1.0, years / data.get("depreciation_years"));
    const double kw = servers * result.server->power_kw;
    const double energy_kwh =
        kw * data.get("power_load_factor") * data.get("pue") * in.usage.period_hours;
    bool overflow = false;
    const auto line = [&](std::string item, std::optional<std::int64_t> micros, std::string basis) {
        if (!micros || result.own_total > std::numeric_limits<std::int64_t>::max() - *micros) {
            overflow = true;
            return;
        }
        result.own.push_back({std::move(item), *micros, std::move(basis)});
        result.own_total += *micros;
    };
    line("servers (depreciated)",
         multiply_money(hardware, depreciated),
         fmt::format("{} x {} ({} of its {} GPUs used) at {}; {} of {} years' straight-line "
                     "depreciation",
                     result.servers,
                     result.server->id,
                     format_number(gpus),
                     result.servers * result.server->gpus,
                     format_micros(*unit_price, 2),
                     format_number(years),
                     format_number(data.get("depreciation_years"))));
    line("network and storage (depreciated)",
         multiply_money(network, depreciated),
         fmt::format("{}% of the servers' price",
                     format_number(data.get("network_storage_share") * 100)));
    line("power",
         multiply_money(*kwh, energy_kwh),
         fmt::format("{} kW max x {} load x PUE {} x {} h, {} market",
                     format_number(std::round(kw * 1000) / 1000),
                     format_number(data.get("power_load_factor")),
                     format_number(data.get("pue")),
                     format_number(in.usage.period_hours),
                     in.electricity->market));
    line("space (colocation)",
         multiply_money(*usd(data.get("colocation_per_kw_month")), kw * months),
         fmt::format("{} kW contracted x {} months",
                     format_number(std::round(kw * 1000) / 1000),
                     format_number(months)));
    line("operations",
         multiply_money(*usd(data.get("operations_per_server_year")), servers * years),
         fmt::format("{} server-years", format_number(servers * years)));
    line("maintenance",
         multiply_money(hardware, data.get("maintenance_share_per_year") * years),
         fmt::format("{}% of the price a year",
                     format_number(data.get("maintenance_share_per_year") * 100)));
    if (overflow) {
        result.error = "the cost of owning is beyond what gpuadvisor can count (9.2e12 currency "
                       "units): lower --instances or --years";
        result.too_large = true;
        return result;
    }
    // Owned servers cost the same at any utilisation; on-demand and spot scale with it.
    const bool scales_with_use = std::all_of(in.mix.begin(), in.mix.end(), [](const PlanShare& p) {
        return p.plan == Plan::on_demand || p.plan == Plan::spot;
    });
    if (scales_with_use && in.usage.utilization > 0 && result.cloud_total > 0) {
        result.break_even_utilization =
            static_cast<double>(result.own_total) /
            (static_cast<double>(result.cloud_total) / in.usage.utilization);
    }
    const double depreciated_capital = static_cast<double>(hardware + network) * depreciated;
    const double running_monthly =
        (static_cast<double>(result.own_total) - depreciated_capital) / months;
    const double savings_monthly =
        static_cast<double>(result.cloud_total) / months - running_monthly;
    if (savings_monthly > 0) {
        result.payback_months = static_cast<double>(result.cash_outlay) / savings_monthly;
    }
    return result;
}

} // namespace gpuadvisor
