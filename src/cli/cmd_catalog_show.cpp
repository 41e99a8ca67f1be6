// gpuadvisor catalog show NAME: one GPU or instance type, all its specs and prices.
#include "app.hpp"
#include "catalog_listing.hpp"
#include "catalog_options.hpp"
#include "data_table.hpp"
#include "exit_status.hpp"
#include "gpuadvisor/spelling.hpp"
#include "render_table.hpp"
#include "text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <memory>
#include <ostream>

namespace gpuadvisor::cli {

namespace {

struct Options {
    std::string name;
    std::string provider;
};

// "key: value" lines from a flat JSON object, for the terminal.
void print_fields(const Json& object, Io& io) {
    Table table{{{"FIELD"}, {"VALUE", Align::left, true}}, {}};
    for (const auto& [key, value] : object.items()) {
        std::string text = cell_text(value);
        if (value.is_array()) {
            std::vector<std::string> items;
            for (const auto& item : value) {
                items.push_back(cell_text(item));
            }
            text = fmt::format("{}", fmt::join(items, ", "));
        }
        table.rows.push_back({key, text});
    }
    render_table(table, io);
}

// CSV, Markdown: one row a region, its prices as price_row_json gives them.
void print_price_rows(const InstanceType& instance,
                      const std::vector<const PriceRow*>& rows,
                      Io& io) {
    std::vector<DataColumn> columns{{"provider", "/provider"}, {"instance", "/instance"}};
    const auto prices = price_row_columns();
    columns.insert(columns.end(), prices.begin(), prices.end());
    Json objects = Json::array();
    for (const PriceRow* row : rows) {
        Json object{{"provider", instance.provider}, {"instance", instance.id}};
        object.update(price_row_json(*row));
        objects.push_back(std::move(object));
    }
    render_table(data_table(columns, objects), io);
}

int show_gpu(const Gpu& gpu, const Catalog& catalog, const std::string& currency, Io& io) {
    std::vector<const InstanceType*> carriers;
    for (const InstanceType& instance : catalog.instances()) {
        if (instance.gpu == gpu.id) {
            carriers.push_back(&instance);
        }
    }
    if (io.format == OutputFormat::json) {
        Json document = json_document("catalog show");
        document["kind"] = "gpu";
        document["gpu"] = gpu_json(gpu);
        document["instances"] = Json::array();
        for (const InstanceType* instance : carriers) {
            document["instances"].push_back(instance_json(*instance, catalog));
        }
        write_json(document, io);
        return k_exit_ok;
    }
    if (io.format != OutputFormat::table) { // CSV, Markdown: the GPU's one row
        const Json fields = gpu_json(gpu);
        const Json objects = Json::array({fields});
        render_table(data_table(key_columns(objects), objects), io);
        return k_exit_ok;
    }
    print_fields(gpu_json(gpu), io);
    io.out << fmt::format(
        "\nInstance types with {} ({}):\n", terminal_safe(gpu.id), carriers.size());
    print_instances(carriers, catalog, currency, io);
    return k_exit_ok;
}

int show_instance(const InstanceType& instance,
                  const Catalog& catalog,
                  const std::string& currency,
                  Io& io) {
    std::vector<const PriceRow*> rows; // in --currency where they convert
    for (const PriceRow& row : instance.regions) {
        rows.push_back(&row);
    }
    std::deque<PriceRow> converted;
    const OffersNotes notes = convert_rows(rows, currency, io.rates(), converted);
    if (io.format == OutputFormat::json) {
        Json document = json_document("catalog show");
        document["kind"] = "instance";
        document["instance"] = instance_json(instance, catalog);
        document["instance"]["defined_at"] =
            fmt::format("{}:{}", instance.origin.file, instance.origin.line);
        document["prices"] = Json::array();
        for (const PriceRow* row : rows) {
            document["prices"].push_back(price_row_json(*row));
        }
        document["conversions"] =
            conversions_json(io.rates(), notes.converted_from, notes.converted_to);
        document["warnings"] = notes.warnings;
        write_json(document, io);
        return k_exit_ok;
    }
    if (io.format != OutputFormat::table) {
        print_price_rows(instance, rows, io);
        print_notes(notes, io);
        return k_exit_ok;
    }
    Json fields = instance_json(instance, catalog);
    fields["defined_at"] = fmt::format("{}:{}", instance.origin.file, instance.origin.line);
    print_fields(fields, io);
    io.out << fmt::format("\nPrices per instance-hour (monthly: per instance-month), {} "
                          "region(s):\n",
                          instance.regions.size());
    // Sources are long and mostly shared: numbered once, below the table.
    std::vector<std::string> sources;
    Table table{{{"REGION"},
                 {"CUR"},
                 {"ON-DEMAND", Align::right},
                 {"SPOT", Align::right},
                 {"RES-1Y", Align::right},
                 {"RES-3Y", Align::right},
                 {"MONTHLY", Align::right},
                 {"AS OF"},
                 {"CONF"},
                 {"SOURCE"}},
                {}};
    for (const PriceRow* each : rows) {
        const PriceRow& row = *each;
        std::vector<std::string> cells{row.region, row.currency};
        for (const Plan plan : k_all_plans) {
            const auto& price = row.price(plan);
            cells.push_back(price ? format_price(*price) : std::string());
        }
        cells.push_back(format_date(row.provenance.as_of));
        cells.push_back(std::string(to_string(row.provenance.confidence)));
        auto source = std::find(sources.begin(), sources.end(), row.provenance.source);
        if (source == sources.end()) {
            source = sources.insert(sources.end(), row.provenance.source);
        }
        cells.push_back(fmt::format("[{}]", source - sources.begin() + 1));
        table.rows.push_back(std::move(cells));
    }
    render_table(table, io);
    print_notes(notes, io);
    if (!sources.empty()) {
        io.out << "\nSources:\n";
        for (std::size_t i = 0; i < sources.size(); ++i) {
            io.out << fmt::format("  [{}] {}\n", i + 1, terminal_safe(sources[i]));
        }
    }
    return k_exit_ok;
}

int run(const Options& options, const GlobalOptions& global, Io& io) {
    if (!check_currency(global.currency, "catalog show", io)) {
        return k_exit_usage;
    }
    const auto catalog = load_active_catalog(global, "catalog show", io);
    if (!catalog) {
        return k_exit_input;
    }
    const auto gpus = catalog->match_gpus(options.name);
    auto instances = catalog->match_instances(options.name);
    if (!options.provider.empty()) {
        std::erase_if(instances,
                      [&](const InstanceType* i) { return i->provider != options.provider; });
    }
    if (gpus.size() == 1 && instances.empty()) {
        return show_gpu(*gpus[0], *catalog, global.currency, io);
    }
    if (instances.size() == 1 && gpus.empty()) {
        return show_instance(*instances[0], *catalog, global.currency, io);
    }
    std::vector<std::string> names;
    for (const Gpu* gpu : gpus) {
        names.push_back("GPU " + gpu->id);
    }
    for (const InstanceType* instance : instances) {
        names.push_back(fmt::format("{} instance {}", instance->provider, instance->id));
    }
    if (!names.empty()) {
        return fail(
            "catalog show",
            "ambiguous-name",
            fmt::format(
                "'{}' matches {} entries: {}", options.name, names.size(), fmt::join(names, ", ")),
            "name one GPU by its id, or add --provider",
            k_exit_usage,
            io);
    }
    auto near = catalog->gpu_names_near(options.name);
    const auto near_instances = catalog->instance_names_near(options.name);
    near.insert(near.end(), near_instances.begin(), near_instances.end());
    const std::string hint = did_you_mean(near);
    return fail("catalog show",
                "unknown-name",
                fmt::format("no GPU or instance type is called '{}'", options.name),
                hint.empty() ? "see 'gpuadvisor catalog list gpus' and '... instances'" : hint,
                k_exit_usage,
                io);
}

} // namespace

void register_catalog_show(CLI::App& catalog, Registry registry) {
    auto options = std::make_shared<Options>();
    CLI::App* show = catalog.add_subcommand(
        "show",
        "Show one GPU or instance type: every spec, and every region's prices with sources");
    show->add_option("name", options->name, "A GPU id or alias, or an instance type id")
        ->required();
    show->add_option("--provider",
                     options->provider,
                     "The provider, where several sell an instance type of that name");
    show->footer("Examples:\n  gpuadvisor catalog show H100-80GB\n"
                 "  gpuadvisor catalog show p4d.24xlarge -o json");
    registry.runners.push_back({show, [options, &global = registry.global](Io& io) {
                                    return run(*options, global, io);
                                }});
}

} // namespace gpuadvisor::cli
