// `export skypilot` and `export dstack`: a task (or service) file that launches a row of a
// recommendation on the cloud it names (docs/export.md, with the fields' sources).
#include "export_source.hpp"
#include "gpuadvisor/units.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>

namespace gpuadvisor::cli {

namespace {

// The clouds of gpuadvisor's catalog that both SkyPilot and dstack launch on; neither supports
// Alibaba Cloud, Tencent Cloud or Huawei Cloud (their docs' lists of clouds and backends).
constexpr std::array<std::string_view, 3> k_launch_clouds{"aws", "azure", "gcp"};

std::optional<ExportText> unsupported(const ExportSource& s, std::string_view tool) {
    for (const std::string_view cloud : k_launch_clouds) {
        if (s.provider == cloud) {
            return std::nullopt;
        }
    }
    return ExportText{
        {},
        fmt::format("{}: {} does not launch on '{}' (row #{} is {} in {})",
                    tool,
                    tool,
                    s.provider,
                    s.rank,
                    s.instance,
                    s.region),
        fmt::format("add --provider aws,azure,gcp so the row exported is on a cloud {} supports, "
                    "or choose another --rank; 'export kubernetes' and 'export prometheus' work "
                    "on every cloud",
                    tool)};
}

std::string spot_note(const ExportSource& s) {
    if (s.pricing == "on-demand" || s.pricing == "spot") {
        return {};
    }
    return fmt::format("# The row is priced as '{}': buy that commitment with the cloud; this file "
                       "launches on-demand.\n",
                       s.pricing);
}

} // namespace

ExportText render_skypilot(const ExportSource& s, const ExportPolicy& p, const ExportRun& run) {
    if (auto error = unsupported(s, "skypilot")) {
        return *error;
    }
    std::string out = fmt::format(
        "# A SkyPilot {} for recommendation {}\n# written by gpuadvisor export; fields as in "
        "https://docs.skypilot.co/en/latest/reference/yaml-spec.html\n"
        "# autostop stops a cluster idle (no job running) for idle_minutes: the nearest SkyPilot\n"
        "# has to the auto-release policy ({}).\n{}name: {}\n",
        is_service(s) ? "service" : "task",
        describe(s),
        auto_release_text(p),
        spot_note(s),
        run.name);
    if (!is_service(s)) {
        fmt::format_to(std::back_inserter(out), "num_nodes: {}\n", s.instance_count);
    }
    fmt::format_to(
        std::back_inserter(out),
        "resources:\n  infra: {}\n  instance_type: {}\n  accelerators: {}\n"
        "  use_spot: {}\n",
        yaml_quote(s.provider + "/" + s.region),
        yaml_quote(s.instance),
        yaml_quote(fmt::format("{}:{}", skypilot_accelerator(s.gpu), s.gpus_per_instance)),
        s.pricing == "spot" ? "true" : "false");
    if (is_service(s)) {
        fmt::format_to(std::back_inserter(out), "  ports: {}\n", run.port);
    }
    if (is_service(s)) {
        // SkyServe starts and stops a service's replicas itself: no autostop there.
        out += "  # a service's replicas are SkyServe's to stop: no autostop\n";
    } else {
        fmt::format_to(
            std::back_inserter(out), "  autostop:\n    idle_minutes: {}\n", p.idle_minutes);
    }
    if (is_service(s)) {
        fmt::format_to(std::back_inserter(out),
                       "service:\n  readiness_probe: /\n  replicas: {}\n",
                       s.instance_count);
    }
    fmt::format_to(
        std::back_inserter(out), "run: {}\n", yaml_quote(run_command(run, s.gpu_vendor)));
    return {out, {}, {}};
}

ExportText render_dstack(const ExportSource& s, const ExportPolicy& p, const ExportRun& run) {
    if (auto error = unsupported(s, "dstack")) {
        return *error;
    }
    if (s.gpus_per_instance != std::floor(s.gpus_per_instance)) {
        return {{},
                fmt::format("dstack: {} has {} of a GPU; dstack counts whole GPUs",
                            s.instance,
                            s.gpus_per_instance),
                "choose a row with whole GPUs (--rank, or --gpu)"};
    }
    std::string gpu = gpu_family(s.gpu);
    if (s.gpu_memory_gb) {
        gpu += fmt::format(":{}GB", *s.gpu_memory_gb);
    }
    gpu += fmt::format(":{}", s.gpus_per_instance);
    std::string out = fmt::format(
        "# A dstack {} for recommendation {}\n# written by gpuadvisor export; fields as in "
        "https://dstack.ai/docs/reference/dstack.yml/{}/\n"
        "# utilization_policy ends the run when a GPU stays below min_gpu_utilization for the\n"
        "# whole time_window: the auto-release policy ({}).\n{}type: {}\nname: {}\n",
        is_service(s) ? "service" : "task",
        describe(s),
        is_service(s) ? "service" : "task",
        auto_release_text(p),
        spot_note(s),
        is_service(s) ? "service" : "task",
        run.name);
    if (is_service(s)) {
        fmt::format_to(
            std::back_inserter(out), "port: {}\nreplicas: {}\n", run.port, s.instance_count);
    } else {
        fmt::format_to(std::back_inserter(out), "nodes: {}\n", s.instance_count);
    }
    fmt::format_to(
        std::back_inserter(out), "image: {}\n", yaml_quote(run_image(run, s.gpu_vendor)));
    fmt::format_to(std::back_inserter(out),
                   "commands:\n  - {}\nresources:\n  gpu: {}\nbackends: [{}]\nregions: [{}]\n"
                   "instance_types: [{}]\nspot_policy: {}\n",
                   yaml_quote(run_command(run, s.gpu_vendor)),
                   yaml_quote(gpu),
                   s.provider,
                   yaml_quote(s.region),
                   yaml_quote(s.instance),
                   s.pricing == "spot" ? "spot" : "on-demand");
    if (s.per_hour_micros && s.currency != "USD") {
        fmt::format_to(std::back_inserter(out),
                       "# max_price left out: dstack's is in US dollars, the row's price in {}\n",
                       s.currency);
    } else if (s.per_hour_micros) {
        // dstack's max_price is per instance and hour, in US dollars: a cent above the row's.
        const std::int64_t cent = 10'000;
        const std::int64_t per_instance = *s.per_hour_micros / s.instance_count;
        fmt::format_to(std::back_inserter(out),
                       "max_price: {}\n",
                       format_micros((per_instance / cent + 1) * cent));
    }
    fmt::format_to(std::back_inserter(out),
                   "utilization_policy:\n  min_gpu_utilization: {}\n  time_window: {}m\n",
                   p.idle_percent,
                   p.idle_minutes);
    return {out, {}, {}};
}

} // namespace gpuadvisor::cli
