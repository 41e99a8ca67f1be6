// `export prometheus` and `export kubernetes`: alert rules and a workload manifest for a row of
// a recommendation (docs/export.md). The shared names and words are here too.
#include "export_source.hpp"
#include "gpuadvisor/enum_names.hpp"
#include "gpuadvisor/units.hpp"
#include "gpuadvisor/workload.hpp"
#include "output.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cmath>

namespace gpuadvisor::cli {

namespace {

constexpr std::string_view k_alarm_source =
    "source document 003, section 3.3 step 4: a CloudWatch alarm scales out when GPU "
    "temperature exceeds 85 C or GPU memory use reaches 90%";
constexpr std::string_view k_release_source =
    "source document 003, section 3.2: GPU instances released after utilisation stays below 15% "
    "for 10 minutes";

std::string number(double value) {
    return fmt::format("{}", value);
}

std::string count_text(double value) {
    return value == std::floor(value) ? fmt::format("{}", static_cast<long long>(value))
                                      : fmt::format("{}", value);
}

// A Kubernetes label value: at most 63 of [A-Za-z0-9._-], alphanumeric at both ends.
bool is_label_value(std::string_view text) {
    if (text.empty() || text.size() > 63 ||
        !std::isalnum(static_cast<unsigned char>(text.front())) ||
        !std::isalnum(static_cast<unsigned char>(text.back()))) {
        return false;
    }
    for (const char c : text) {
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') {
            return false;
        }
    }
    return true;
}

void rule(std::string& out,
          const ExportSource& s,
          std::string_view alert,
          std::string_view expr,
          int minutes,
          std::string_view action,
          std::string_view summary,
          std::string_view source) {
    fmt::format_to(std::back_inserter(out),
                   "      - alert: {}\n        expr: {}\n        for: {}m\n        labels:\n"
                   "          action: {}\n          severity: warning\n        annotations:\n"
                   "          summary: {}\n          recommendation: {}\n"
                   "          provider: {}\n          instance_type: {}\n"
                   "          instance_count: {}\n          region: {}\n          source: {}\n",
                   alert,
                   expr,
                   minutes,
                   action,
                   yaml_quote(summary),
                   yaml_quote(describe(s)),
                   yaml_quote(s.provider),
                   yaml_quote(s.instance),
                   yaml_quote(std::to_string(s.instance_count)),
                   yaml_quote(s.region),
                   yaml_quote(source));
}

} // namespace

std::string yaml_quote(std::string_view text) {
    return Json(std::string(text)).dump(-1, ' ', false, Json::error_handler_t::replace);
}

bool is_service(const ExportSource& source) {
    return source.kind == "inference" || source.kind == "graphics";
}

std::string gpu_family(std::string_view gpu) {
    std::string name(gpu);
    // The first "-<digits>GB" and what follows, and a "-PCIe" suffix, name the variant.
    for (std::size_t dash = name.find('-'); dash != std::string::npos;
         dash = name.find('-', dash + 1)) {
        std::size_t i = dash + 1;
        while (i < name.size() && std::isdigit(static_cast<unsigned char>(name[i]))) {
            ++i;
        }
        if (i > dash + 1 && name.compare(i, 2, "GB") == 0) {
            return name.substr(0, dash);
        }
    }
    if (name.ends_with("-PCIe")) {
        name.resize(name.size() - 5);
    }
    return name;
}

std::string skypilot_accelerator(std::string_view gpu) {
    // SkyPilot keeps the memory in the name only where a family has two sizes it lists apart.
    const std::string family = gpu_family(gpu);
    if (gpu.starts_with("A100-80GB") || gpu.starts_with("V100-32GB")) {
        return family + "-" + std::string(gpu.substr(family.size() + 1, 4));
    }
    return family;
}

std::string describe(const ExportSource& s) {
    std::string text = fmt::format("#{}: {} x {} ({} x {} each), {} {}, {}",
                                   s.rank,
                                   s.instance_count,
                                   s.instance,
                                   count_text(s.gpus_per_instance),
                                   s.gpu,
                                   s.provider,
                                   s.region,
                                   s.pricing);
    if (s.hours) {
        text += fmt::format(", {:.1f} h", *s.hours);
    }
    if (s.per_hour_micros) {
        text += fmt::format(", {} {}/h", s.currency, format_micros(*s.per_hour_micros));
    }
    return text;
}

std::string run_image(const ExportRun& run, std::string_view gpu_vendor) {
    if (!run.image.empty()) {
        return run.image;
    }
    return gpu_vendor == "amd" ? "rocm/pytorch:latest" : "nvcr.io/nvidia/pytorch:24.05-py3";
}

std::string run_command(const ExportRun& run, std::string_view gpu_vendor) {
    if (!run.command.empty()) {
        return run.command;
    }
    return gpu_vendor == "amd" ? "rocm-smi" : "nvidia-smi";
}

std::string auto_release_text(const ExportPolicy& p) {
    return fmt::format("release an instance after {} min below {}% GPU utilisation",
                       p.idle_minutes,
                       number(p.idle_percent));
}

ExportSource
export_source(const Candidate& row, const NormalizedWorkload& workload, std::string_view currency) {
    ExportSource s;
    s.rank = row.rank;
    s.kind = std::string(name_of(k_workload_kind_names, workload.kind));
    s.model = workload.model.id;
    s.provider = row.instance->provider;
    s.instance = row.instance->id;
    s.region = std::string(row.row->region);
    s.gpu = row.gpu->id;
    s.gpus_per_instance = row.instance->gpu_count;
    s.instance_count = row.count;
    s.pricing = row.pricing;
    s.hours = row.hours;
    s.currency = std::string(currency);
    s.per_hour_micros = row.per_hour_micros;
    s.gpu_memory_gb = row.gpu->memory_gb;
    s.gpu_vendor = row.gpu->vendor;
    return s;
}

ExportText render_prometheus(const ExportSource& s, const ExportPolicy& p) {
    if (s.gpu_vendor != "nvidia") {
        return {{},
                fmt::format("prometheus: the rules read NVIDIA's dcgm-exporter; row #{} has {} "
                            "GPUs ({})",
                            s.rank,
                            s.gpu_vendor,
                            s.gpu),
                "add --gpu with an NVIDIA GPU, or choose another --rank; other vendors' "
                "exporters name their metrics otherwise"};
    }
    std::string out = fmt::format(
        "# Prometheus alert rules on NVIDIA dcgm-exporter metrics (its default counters,\n"
        "# etc/default-counters.csv: DCGM_FI_DEV_GPU_TEMP in C, DCGM_FI_DEV_FB_USED and\n"
        "# DCGM_FI_DEV_FB_FREE in MiB, DCGM_FI_DEV_GPU_UTIL in %), written by gpuadvisor export\n"
        "# for recommendation {}\n# Check: promtool check rules FILE\ngroups:\n"
        "  - name: gpuadvisor-{}\n    rules:\n",
        describe(s),
        s.kind);
    rule(out,
         s,
         "GpuTemperatureHigh",
         fmt::format("DCGM_FI_DEV_GPU_TEMP > {}", number(p.temp_c)),
         p.alert_minutes,
         "scale-out",
         fmt::format("GPU temperature above {} C: add instances (scale out)", number(p.temp_c)),
         k_alarm_source);
    rule(out,
         s,
         "GpuMemoryHigh",
         fmt::format("100 * DCGM_FI_DEV_FB_USED / (DCGM_FI_DEV_FB_USED + DCGM_FI_DEV_FB_FREE) "
                     ">= {}",
                     number(p.memory_percent)),
         p.alert_minutes,
         "scale-out",
         fmt::format("GPU memory use at {}% or more: add instances (scale out)",
                     number(p.memory_percent)),
         k_alarm_source);
    rule(out,
         s,
         "GpuIdleRelease",
         fmt::format("max by (Hostname) (DCGM_FI_DEV_GPU_UTIL) < {}", number(p.idle_percent)),
         p.idle_minutes,
         "release",
         fmt::format("every GPU of the instance below {}% for {} min: {} (auto-release)",
                     number(p.idle_percent),
                     p.idle_minutes,
                     auto_release_text(p)),
         k_release_source);
    return {out, {}, {}};
}

ExportText render_kubernetes(const ExportSource& s, const ExportPolicy& p, const ExportRun& run) {
    if (s.gpus_per_instance != std::floor(s.gpus_per_instance)) {
        return {{},
                fmt::format("kubernetes: {} has {} of a GPU; nvidia.com/gpu counts whole GPUs",
                            s.instance,
                            count_text(s.gpus_per_instance)),
                "choose a row with whole GPUs (--rank, or --gpu), or share GPUs with the NVIDIA "
                "device plugin's time-slicing"};
    }
    if (!is_label_value(s.instance)) {
        return {{},
                fmt::format("kubernetes: '{}' is not a label value for "
                            "node.kubernetes.io/instance-type",
                            s.instance),
                "label values are at most 63 letters, digits, '-', '_' or '.'"};
    }
    const bool service = is_service(s);
    // The device plugins' resource names: NVIDIA's k8s-device-plugin, AMD's k8s-device-plugin.
    const std::string resource = s.gpu_vendor == "amd" ? "amd.com/gpu" : "nvidia.com/gpu";
    const auto labels = [&](std::string_view indent) {
        return fmt::format("app.kubernetes.io/name: {1}\n{0}app.kubernetes.io/managed-by: "
                           "gpuadvisor\n{0}gpuadvisor.io/release-below-gpu-percent: \"{2}\"\n"
                           "{0}gpuadvisor.io/release-after-minutes: \"{3}\"\n",
                           indent,
                           run.name,
                           number(p.idle_percent),
                           p.idle_minutes);
    };
    std::string out = fmt::format(
        "# A Kubernetes {} for recommendation {}\n# written by gpuadvisor export; check: kubectl "
        "apply --dry-run=server -f FILE\napiVersion: {}\nkind: {}\nmetadata:\n  name: {}\n"
        "  labels:\n    {}  annotations:\n    gpuadvisor.io/recommendation: {}\n"
        "    gpuadvisor.io/auto-release: {}\n    gpuadvisor.io/auto-release-source: {}\nspec:\n",
        service ? "Deployment (a service)" : "Job (work that ends)",
        describe(s),
        service ? "apps/v1" : "batch/v1",
        service ? "Deployment" : "Job",
        run.name,
        labels("    "),
        yaml_quote(describe(s)),
        yaml_quote(auto_release_text(p)),
        yaml_quote(k_release_source));
    if (service) {
        fmt::format_to(std::back_inserter(out),
                       "  replicas: {}\n  selector:\n    matchLabels:\n"
                       "      app.kubernetes.io/name: {}\n",
                       s.instance_count,
                       run.name);
    } else {
        fmt::format_to(std::back_inserter(out),
                       "  parallelism: {0}\n  completions: {0}\n  completionMode: Indexed\n"
                       "  backoffLimit: 0\n",
                       s.instance_count);
    }
    fmt::format_to(std::back_inserter(out),
                   "  template:\n    metadata:\n      labels:\n        {}    spec:\n",
                   labels("        "));
    if (!service) {
        out += "      restartPolicy: Never\n";
    }
    fmt::format_to(std::back_inserter(out),
                   "      nodeSelector:\n        node.kubernetes.io/instance-type: {}\n"
                   "      tolerations:\n        - key: {}\n          operator: Exists\n"
                   "          effect: NoSchedule\n        - key: gpu-type\n"
                   "          operator: Equal\n          value: {}\n          effect: NoSchedule\n"
                   "      containers:\n        - name: {}\n          image: {}\n",
                   yaml_quote(s.instance),
                   resource,
                   yaml_quote(gpu_family(s.gpu)),
                   service ? "server" : "worker",
                   yaml_quote(run_image(run, s.gpu_vendor)));
    if (!run.command.empty()) {
        fmt::format_to(std::back_inserter(out),
                       "          command: [\"/bin/sh\", \"-c\", {}]\n",
                       yaml_quote(run.command));
    }
    if (service) {
        fmt::format_to(std::back_inserter(out),
                       "          ports:\n            - containerPort: {}\n",
                       run.port);
    }
    fmt::format_to(std::back_inserter(out),
                   "          resources:\n            limits:\n              {}: {}\n",
                   resource,
                   count_text(s.gpus_per_instance));
    return {out, {}, {}};
}

} // namespace gpuadvisor::cli
