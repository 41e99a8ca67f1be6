#include "catalog_listing.hpp"
#include "data_table.hpp"
#include "gpuadvisor/fx.hpp"
#include "render_table.hpp"
#include "row_fields.hpp"
#include "text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <set>

namespace gpuadvisor::cli {

namespace {

// Absent values are empty cells (shown as "-" in tables, empty in CSV).
std::string number_or_empty(const std::optional<double>& value) {
    return value ? format_number(*value) : std::string();
}

std::string price_or_empty(const std::optional<std::int64_t>& micros) {
    return micros ? format_price(*micros) : std::string();
}

// A parameter count as read: "6.74B", "25.6M".
std::string parameters_text(double parameters) {
    return parameters >= 1e9 ? format_number(std::round(parameters / 1e7) / 100) + "B"
                             : format_number(std::round(parameters / 1e5) / 10) + "M";
}

// A whole figure that 0 means absent of (a CNN's layers, a model's context): null then.
Json positive_or_null(double value) {
    return value > 0 ? count_json(value) : Json(nullptr);
}

// The USD base rate is by definition, of no date.
bool dated(const Provenance& provenance) {
    return provenance.as_of != Date{};
}

} // namespace

Json gpu_json(const Gpu& gpu) {
    Json json;
    json["id"] = gpu.id;
    json["aliases"] = gpu.aliases;
    json["vendor"] = gpu.vendor;
    json["architecture"] = gpu.architecture;
    json["form_factor"] = gpu.form_factor;
    json["memory_gb"] = gpu.memory_gb;
    json["memory_type"] = gpu.memory_type;
    json["memory_bandwidth_gb_per_s"] = gpu.memory_bandwidth_gb_per_s;
    json["fp64_tflops"] = gpu.fp64_tflops;
    json["fp64_tensor_tflops"] = optional_number(gpu.fp64_tensor_tflops);
    json["fp32_tflops"] = gpu.fp32_tflops;
    json["tf32_tflops"] = optional_number(gpu.tf32_tflops);
    json["fp16_tflops"] = optional_number(gpu.fp16_tflops);
    json["bf16_tflops"] = optional_number(gpu.bf16_tflops);
    json["fp8_tflops"] = optional_number(gpu.fp8_tflops);
    json["int8_tops"] = optional_number(gpu.int8_tops);
    json["tdp_w"] = optional_number(gpu.tdp_w);
    json["interconnect"] = interconnect(gpu);
    json["nvlink_gb_per_s"] = gpu.nvlink_gb_per_s;
    json["pcie_gen"] = gpu.pcie_gen ? Json(*gpu.pcie_gen) : Json(nullptr);
    json["mig_max_instances"] = gpu.mig_max_instances;
    json["logical_devices"] = gpu.logical_devices;
    json["vgpu_profiles_gb"] = gpu.vgpu_profiles_gb;
    JsonFields fields{json};
    provenance_fields(gpu.provenance, fields);
    return json;
}

Json price_row_json(const PriceRow& row) {
    Json json;
    JsonFields fields{json};
    price_row_fields(row, fields);
    return json;
}

Json instance_json(const InstanceType& instance, const Catalog& catalog) {
    const Gpu* gpu = catalog.find_gpu(instance.gpu);
    Json json;
    json["provider"] = instance.provider;
    json["id"] = instance.id;
    json["family"] = instance.family;
    json["gpu"] = instance.gpu;
    json["gpu_count"] = count_json(instance.gpu_count);
    json["gpu_memory_per_gpu_gb"] = gpu != nullptr ? Json(gpu->memory_gb) : Json(nullptr);
    json["gpu_memory_total_gb"] =
        gpu != nullptr ? Json(gpu->memory_gb * instance.gpu_count) : Json(nullptr);
    json["gpu_memory_stated_gb"] = optional_number(instance.gpu_memory_gb);
    json["vcpus"] = instance.vcpus;
    json["memory_gb"] = instance.memory_gb;
    json["network_gbps"] = instance.network_gbps;
    json["rdma"] = instance.rdma;
    json["nvlink"] = instance.nvlink;
    json["fabric"] = instance.fabric.empty() ? Json(nullptr) : Json(instance.fabric);
    json["fabric_gbps"] = instance.fabric.empty() ? Json(nullptr) : Json(instance.fabric_gbps);
    json["vgpu_series"] = instance.vgpu_series.empty() ? Json(nullptr) : Json(instance.vgpu_series);
    json["local_storage_gb"] = instance.local_storage_gb;
    json["regions"] = instance.regions.size();
    JsonFields fields{json};
    provenance_fields(instance.provenance, fields);
    return json;
}

std::string gpus_text(const InstanceType& instance) {
    return fmt::format("{}x {}", format_number(instance.gpu_count), instance.gpu);
}

std::string gpu_memory_text(const InstanceType& instance, const Gpu& gpu) {
    const double total = std::round(instance.gpu_count * gpu.memory_gb * 10) / 10;
    return fmt::format("{}x{}={}",
                       format_number(instance.gpu_count),
                       format_number(gpu.memory_gb),
                       format_number(total));
}

const PriceRow*
cheapest_row(const InstanceType& instance,
             const FxTable& fx,
             const std::function<std::optional<std::int64_t>(const PriceRow&)>& price_of) {
    const PriceRow* best = nullptr;
    std::optional<std::int64_t> best_usd;
    for (const PriceRow& row : instance.regions) {
        const auto price = price_of(row);
        if (!price) {
            continue;
        }
        const auto usd = fx.convert(*price, row.currency, "USD");
        if (best == nullptr || (usd && (!best_usd || *usd < *best_usd))) {
            best = &row;
            best_usd = usd;
        }
    }
    return best;
}

const PriceRow* cheapest_on_demand(const InstanceType& instance, const FxTable& fx) {
    return cheapest_row(instance, fx, [](const PriceRow& row) { return row.on_demand; });
}

OffersNotes convert_rows(std::vector<const PriceRow*>& rows,
                         const std::string& currency,
                         const FxTable& fx,
                         std::deque<PriceRow>& store) {
    OffersNotes notes;
    std::map<std::string, std::pair<std::size_t, std::string>> unconverted; // count, why
    std::set<std::string> rates;
    for (const PriceRow*& row : rows) {
        const std::string& listed = row->currency;
        if (currency.empty() || listed == currency) {
            continue;
        }
        if (auto converted = convert_row(*row, fx, currency)) {
            row = &store.emplace_back(std::move(*converted));
            rates.insert(listed);
            continue;
        }
        auto& [count, why] = unconverted[listed];
        for (const Plan plan : k_all_plans) { // the first price that does not convert, and why
            const auto& price = row->price(plan);
            why = why.empty() && price ? fx.conversion_error("a price", *price, listed, currency)
                                       : why;
        }
        ++count;
    }
    for (const std::string& listed : rates) {
        notes.fx.push_back(fx.describe(listed, currency));
        notes.converted_from.push_back(listed);
        notes.converted_to = currency;
    }
    for (const auto& [listed, unconverted_rows] : unconverted) {
        const auto& [count, why] = unconverted_rows;
        notes.warnings.push_back(
            fmt::format("{} row(s) priced in {} are shown in {}: {}", count, listed, listed, why));
    }
    return notes;
}

void print_notes(const OffersNotes& notes, Io& io) {
    if (io.format == OutputFormat::table) {
        for (const std::string& rate : notes.fx) {
            write_paragraph("Converted at " + terminal_safe(rate), io);
        }
    }
    for (const std::string& warning : notes.warnings) {
        if (io.format == OutputFormat::table) {
            write_paragraph("Warning: " + terminal_safe(warning), io);
        } else if (!io.quiet) {
            io.err << "gpuadvisor: warning: " << terminal_safe(warning) << '\n';
        }
    }
}

void print_gpus(const std::vector<const Gpu*>& gpus, Io& io) {
    Json objects = Json::array();
    for (const Gpu* gpu : gpus) {
        objects.push_back(gpu_json(*gpu));
    }
    if (print_listing("catalog list gpus", "gpus", objects, key_columns(objects), io)) {
        return;
    }
    Table table{{{"GPU"},
                 {"VENDOR"},
                 {"FORM"},
                 {"MEM GB", Align::right},
                 {"BW GB/s", Align::right},
                 {"FP64", Align::right},
                 {"FP32", Align::right},
                 {"FP16", Align::right},
                 {"BF16", Align::right},
                 {"FP8", Align::right},
                 {"LINK GB/s", Align::right}},
                {}};
    for (const Gpu* gpu : gpus) {
        table.rows.push_back({gpu->id,
                              gpu->vendor,
                              gpu->form_factor,
                              format_number(gpu->memory_gb),
                              format_number(gpu->memory_bandwidth_gb_per_s),
                              format_number(gpu->fp64_tflops),
                              format_number(gpu->fp32_tflops),
                              number_or_empty(gpu->fp16_tflops),
                              number_or_empty(gpu->bf16_tflops),
                              number_or_empty(gpu->fp8_tflops),
                              gpu->nvlink_gb_per_s > 0 ? format_number(gpu->nvlink_gb_per_s) : ""});
    }
    render_table(table, io);
}

void print_instances(const std::vector<const InstanceType*>& instances,
                     const Catalog& catalog,
                     const std::string& currency,
                     Io& io) {
    Json objects = Json::array();
    for (const InstanceType* instance : instances) {
        objects.push_back(instance_json(*instance, catalog));
    }
    if (print_listing("catalog list instances", "instances", objects, key_columns(objects), io)) {
        return;
    }
    Table table{{{"PROVIDER"},
                 {"INSTANCE"},
                 {"GPUS"},
                 {"GPU GB"},
                 {"VCPU", Align::right},
                 {"RAM GB", Align::right},
                 {"NET Gbps", Align::right},
                 {"RGN", Align::right},
                 {"FROM/H", Align::right}},
                {}};
    std::vector<const PriceRow*> cheapest; // each instance type's, in --currency
    for (const InstanceType* instance : instances) {
        cheapest.push_back(cheapest_on_demand(*instance, io.rates()));
    }
    std::vector<const PriceRow*> priced;
    std::copy_if(cheapest.begin(), cheapest.end(), std::back_inserter(priced), [](auto* row) {
        return row != nullptr;
    });
    std::deque<PriceRow> converted;
    const OffersNotes notes = convert_rows(priced, currency, io.rates(), converted);
    for (std::size_t i = 0, p = 0; i < instances.size(); ++i) {
        const InstanceType* instance = instances[i];
        const Gpu& gpu = *catalog.find_gpu(instance->gpu);
        const PriceRow* from = cheapest[i] != nullptr ? priced[p++] : nullptr;
        table.rows.push_back(
            {instance->provider,
             instance->id,
             gpus_text(*instance),
             gpu_memory_text(*instance, gpu),
             std::to_string(instance->vcpus),
             format_number(instance->memory_gb),
             format_number(instance->network_gbps) + (instance->rdma ? " RDMA" : ""),
             std::to_string(instance->regions.size()),
             from != nullptr ? fmt::format("{} {}", format_price(*from->on_demand), from->currency)
                             : ""});
    }
    render_table(table, io);
    print_notes(notes, io);
}

namespace {

// CSV, Markdown: each offer as its JSON gives it (write_offers_json), one value a cell.
void print_offers_data(const std::vector<Offer>& offers, const OffersNotes& notes, Io& io) {
    std::vector<DataColumn> columns{{"provider", "/provider"},
                                    {"instance", "/instance"},
                                    {"gpu", "/gpu"},
                                    {"gpu_count", "/gpu_count", Align::right}};
    const auto prices = price_row_columns();
    columns.insert(columns.end(), prices.begin(), prices.end());
    Json objects = Json::array();
    for (const Offer& offer : offers) {
        Json object{{"provider", offer.instance->provider},
                    {"instance", offer.instance->id},
                    {"gpu", offer.instance->gpu},
                    {"gpu_count", count_json(offer.instance->gpu_count)}};
        object.update(price_row_json(*offer.prices));
        objects.push_back(std::move(object));
    }
    render_table(data_table(columns, objects), io);
    print_notes(notes, io);
}

} // namespace

void print_offers(const std::vector<Offer>& offers, const OffersNotes& notes, Io& io) {
    if (io.format == OutputFormat::json) {
        write_offers_json(offers, notes, io.rates(), io.out);
        return;
    }
    if (io.format != OutputFormat::table) {
        print_offers_data(offers, notes, io);
        return;
    }
    Table table{{{"PROVIDER"},
                 {"INSTANCE"},
                 {"REGION"},
                 {"GPUS"},
                 {"ON-DEMAND", Align::right},
                 {"SPOT", Align::right},
                 {"RES-1Y", Align::right},
                 {"RES-3Y", Align::right},
                 {"MONTHLY", Align::right},
                 {"CUR"}},
                {}};
    for (const Offer& offer : offers) {
        const PriceRow& row = *offer.prices;
        table.rows.push_back(
            {offer.instance->provider,
             offer.instance->id,
             row.region,
             gpus_text(*offer.instance),
             price_or_empty(row.on_demand),
             price_or_empty(row.spot),
             price_or_empty(row.reserved_1y),
             price_or_empty(row.reserved_3y),
             row.subscription_monthly ? format_micros(*row.subscription_monthly, 0) : "",
             row.currency});
    }
    render_table(table, io);
    print_notes(notes, io);
}

namespace {

Json model_json(const ModelSpec& model) {
    Json json;
    json["id"] = model.id;
    json["aliases"] = model.aliases;
    json["name"] = model.name;
    json["family"] = model.family;
    json["architecture"] = to_string(model.architecture);
    json["parameters"] = count_json(model.parameters);
    json["active_parameters"] = count_json(model.active_parameters);
    json["layers"] = positive_or_null(model.layers);
    json["hidden_size"] = positive_or_null(model.hidden_size);
    json["attention_heads"] = positive_or_null(model.attention_heads);
    json["kv_heads"] = positive_or_null(model.kv_heads);
    json["context_length"] = positive_or_null(model.context_length);
    json["flops_per_sample_g"] =
        model.flops_per_sample_g > 0 ? Json(model.flops_per_sample_g) : Json(nullptr);
    json["pretraining_tokens"] =
        model.pretraining_tokens ? count_json(*model.pretraining_tokens) : Json(nullptr);
    JsonFields fields{json};
    provenance_fields(model.provenance, fields);
    return json;
}

} // namespace

void print_models(const std::vector<const ModelSpec*>& models, Io& io) {
    Json objects = Json::array();
    for (const ModelSpec* model : models) {
        objects.push_back(model_json(*model));
    }
    if (print_listing("catalog list models", "models", objects, key_columns(objects), io)) {
        return;
    }
    Table table{{{"MODEL"},
                 {"ARCH"},
                 {"PARAMS", Align::right},
                 {"ACTIVE", Align::right},
                 {"CONTEXT", Align::right},
                 {"AS OF"},
                 {"SOURCE", Align::left, true}},
                {}};
    for (const ModelSpec* model : models) {
        const bool moe = model->active_parameters != model->parameters;
        table.rows.push_back(
            {model->id,
             std::string(to_string(model->architecture)),
             parameters_text(model->parameters),
             moe ? parameters_text(model->active_parameters) : "",
             model->context_length > 0 ? std::to_string(model->context_length) : "",
             format_date(model->provenance.as_of),
             model->provenance.source});
    }
    render_table(table, io);
}

void print_regions(const std::vector<RegionListing>& regions, Io& io) {
    Json objects = Json::array();
    for (const RegionListing& region : regions) {
        objects.push_back(
            {{"provider", region.provider},
             {"id", region.id},
             {"name", region.name.empty() ? Json(nullptr) : Json(region.name)},
             {"country", region.country.empty() ? Json(nullptr) : Json(region.country)},
             {"offers", region.offers}});
    }
    if (print_listing("catalog list regions", "regions", objects, key_columns(objects), io)) {
        return;
    }
    Table table{{{"PROVIDER"}, {"REGION"}, {"NAME"}, {"COUNTRY"}, {"OFFERS", Align::right}}, {}};
    for (const RegionListing& region : regions) {
        table.rows.push_back({region.provider,
                              region.id,
                              region.name,
                              region.country,
                              std::to_string(region.offers)});
    }
    render_table(table, io);
}

void print_currencies(const std::vector<const FxRate*>& rates, Io& io) {
    Json objects = Json::array();
    for (const FxRate* rate : rates) {
        Json json;
        json["currency"] = rate->currency;
        json["per_usd"] = rate->per_usd;
        JsonFields fields{json};
        provenance_fields(rate->provenance, fields);
        json["as_of"] = dated(rate->provenance) ? json["as_of"] : Json(nullptr);
        objects.push_back(std::move(json));
    }
    if (print_listing("catalog list currencies", "currencies", objects, key_columns(objects), io)) {
        return;
    }
    Table table{{{"CURRENCY"},
                 {"PER USD", Align::right},
                 {"AS OF"},
                 {"CONFIDENCE"},
                 {"SOURCE", Align::left, true}},
                {}};
    for (const FxRate* rate : rates) {
        table.rows.push_back({rate->currency,
                              format_number(rate->per_usd),
                              dated(rate->provenance) ? format_date(rate->provenance.as_of) : "",
                              std::string(to_string(rate->provenance.confidence)),
                              rate->provenance.source});
    }
    render_table(table, io);
}

void print_servers(const std::vector<Server>& servers, const OffersNotes& notes, Io& io) {
    Json objects = Json::array();
    for (const Server& server : servers) {
        Json json;
        json["id"] = server.id;
        json["name"] = server.name;
        json["gpu"] = server.gpu;
        json["gpus"] = server.gpus;
        json["price"] = total_json(server.currency, server.price_micros);
        json["power_kw"] = server.power_kw;
        JsonFields fields{json};
        provenance_fields(server.provenance, fields);
        objects.push_back(std::move(json));
    }
    if (io.format == OutputFormat::json) {
        Json document = json_document("catalog list servers");
        document["conversions"] =
            conversions_json(io.rates(), notes.converted_from, notes.converted_to);
        document["warnings"] = notes.warnings;
        document["servers"] = std::move(objects);
        write_json(document, io);
        return;
    }
    if (io.format != OutputFormat::table) { // the price's currency before its amount
        std::vector<DataColumn> columns = key_columns(objects);
        const auto price = std::find_if(
            columns.begin(), columns.end(), [](const DataColumn& c) { return c.key == "price"; });
        columns.insert(price, {"currency", "/price/currency"});
        render_table(data_table(columns, objects), io);
        print_notes(notes, io);
        return;
    }
    Table table{{{"SERVER"},
                 {"GPUS"},
                 {"PRICE", Align::right},
                 {"CUR"},
                 {"POWER kW", Align::right},
                 {"AS OF"},
                 {"CONFIDENCE"},
                 {"SOURCE", Align::left, true}},
                {}};
    for (const Server& server : servers) {
        table.rows.push_back({server.id,
                              fmt::format("{}x {}", server.gpus, server.gpu),
                              format_cents(server.price_micros),
                              server.currency,
                              format_number(server.power_kw),
                              format_date(server.provenance.as_of),
                              std::string(to_string(server.provenance.confidence)),
                              server.provenance.source});
    }
    render_table(table, io);
    print_notes(notes, io);
}

} // namespace gpuadvisor::cli
