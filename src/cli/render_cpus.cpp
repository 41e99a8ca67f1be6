// `catalog list cpus`: the catalog's server CPUs, per socket, in every output format.
#include "catalog_listing.hpp"
#include "data_table.hpp"
#include "render_table.hpp"
#include "row_fields.hpp"

#include <fmt/format.h>

namespace gpuadvisor::cli {

namespace {

Json cpu_json(const Cpu& cpu) {
    Json json;
    json["id"] = cpu.id;
    json["aliases"] = cpu.aliases;
    json["vendor"] = cpu.vendor;
    json["cores"] = cpu.cores;
    json["base_clock_ghz"] = cpu.base_clock_ghz;
    json["avx_clock_ghz"] = cpu.avx_clock_ghz ? Json(*cpu.avx_clock_ghz) : Json(nullptr);
    json["fp64_flops_per_cycle"] = cpu.fp64_flops_per_cycle;
    json["fp32_flops_per_cycle"] = cpu.fp32_flops_per_cycle;
    json["fp64_tflops"] = cpu.fp64_tflops;
    json["fp32_tflops"] = cpu.fp32_tflops;
    json["peak_basis"] = cpu.peak_basis;
    json["memory_channels"] = cpu.memory_channels;
    json["memory_mt_per_s"] = cpu.memory_mt_per_s;
    json["memory_type"] = cpu.memory_type.empty() ? Json(nullptr) : Json(cpu.memory_type);
    json["memory_bandwidth_gb_per_s"] = cpu.memory_bandwidth_gb_per_s;
    json["max_memory_gb"] = cpu.max_memory_gb ? Json(*cpu.max_memory_gb) : Json(nullptr);
    json["tdp_w"] = cpu.tdp_w;
    JsonFields fields{json};
    provenance_fields(cpu.provenance, fields);
    return json;
}

} // namespace

void print_cpus(const Catalog& catalog, Io& io) {
    Json objects = Json::array();
    for (const Cpu& cpu : catalog.cpus()) {
        objects.push_back(cpu_json(cpu));
    }
    if (print_listing("catalog list cpus", "cpus", objects, key_columns(objects), io)) {
        return;
    }
    Table table{{{"CPU"},
                 {"VENDOR"},
                 {"CORES", Align::right},
                 {"BASE GHZ", Align::right},
                 {"FP64 TF", Align::right},
                 {"FP32 TF", Align::right},
                 {"PEAK AT"},
                 {"MEM GB/S", Align::right},
                 {"TDP W", Align::right},
                 {"AS OF"},
                 {"SOURCE", Align::left, true}},
                {}};
    for (const Cpu& cpu : catalog.cpus()) {
        table.rows.push_back({cpu.id,
                              cpu.vendor,
                              std::to_string(cpu.cores),
                              format_number(cpu.base_clock_ghz),
                              format_number(cpu.fp64_tflops),
                              format_number(cpu.fp32_tflops),
                              cpu.peak_basis,
                              format_number(cpu.memory_bandwidth_gb_per_s),
                              format_number(cpu.tdp_w),
                              format_date(cpu.provenance.as_of),
                              std::string(cpu.provenance.source)});
    }
    render_table(table, io);
    io.out << "\nFigures per socket; peaks are cores x clock (PEAK AT) x FLOPs per cycle.\n";
}

} // namespace gpuadvisor::cli
