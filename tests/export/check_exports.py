#!/usr/bin/env python3
"""Checks `gpuadvisor export` output with the tools that read it (see checkers.sh)."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kube_discovery  # noqa: E402

BINARY, FIXTURES = sys.argv[1], sys.argv[2]
TEST = ["--no-default-catalog", "--catalog", f"{FIXTURES}/catalog"]
AWS = ["--no-default-catalog", "--catalog", f"{FIXTURES}/catalog/gpus.yaml",
       "--catalog", f"{FIXTURES}/export/aws.yaml"]
TRAINING = ["--workload", "training", "--model", "llama-2-7b", "--tokens", "10B"]
SERVING = ["--workload", "inference", "--model", "llama-2-7b", "--qps", "20"]
ENV = {"PATH": "/usr/bin:/bin", "LC_ALL": "C", "NO_COLOR": "1", "GPUADVISOR_TODAY": "2026-12-02"}
WORK = tempfile.mkdtemp(prefix="gpuadvisor-export-")
failures = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)


def gpuadvisor(*args):
    result = subprocess.run([BINARY, *args], capture_output=True, text=True, env=ENV, timeout=60)
    if result.returncode != 0:
        raise SystemExit(f"gpuadvisor {' '.join(args)} exited {result.returncode}: {result.stderr}")
    return result.stdout


def write(name, text):
    path = os.path.join(WORK, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def run(command, **kwargs):
    return subprocess.run(command, capture_output=True, text=True, timeout=120, **kwargs)


# --- prometheus: promtool check rules, and promtool test rules on series around each threshold
def promtool_test(rules_path, rules, idle_minutes, alert_minutes):
    annotations = {r["alert"]: r["annotations"] for r in rules["groups"][0]["rules"]}
    labels = {r["alert"]: r["labels"] for r in rules["groups"][0]["rules"]}
    minutes = idle_minutes + alert_minutes + 5

    def alert(name, **extra):
        return {"exp_labels": {**labels[name], **extra}, "exp_annotations": annotations[name]}

    series = [
        ('DCGM_FI_DEV_GPU_UTIL{Hostname="idle", gpu="0"}', f"10x{minutes}"),
        ('DCGM_FI_DEV_GPU_UTIL{Hostname="idle", gpu="1"}', f"14x{minutes}"),
        ('DCGM_FI_DEV_GPU_UTIL{Hostname="busy", gpu="0"}', f"10x{minutes}"),
        ('DCGM_FI_DEV_GPU_UTIL{Hostname="busy", gpu="1"}', f"15x{minutes}"),  # 15 is not below
        ('DCGM_FI_DEV_GPU_TEMP{Hostname="hot", gpu="0"}', f"86x{minutes}"),
        ('DCGM_FI_DEV_GPU_TEMP{Hostname="warm", gpu="0"}', f"85x{minutes}"),
        ('DCGM_FI_DEV_FB_USED{Hostname="full", gpu="0"}', f"72000x{minutes}"),
        ('DCGM_FI_DEV_FB_FREE{Hostname="full", gpu="0"}', f"8000x{minutes}"),  # 90%
        ('DCGM_FI_DEV_FB_USED{Hostname="roomy", gpu="0"}', f"71000x{minutes}"),
        ('DCGM_FI_DEV_FB_FREE{Hostname="roomy", gpu="0"}', f"9000x{minutes}"),  # 88.75%
    ]
    cases = [
        {"eval_time": f"{idle_minutes - 1}m", "alertname": "GpuIdleRelease", "exp_alerts": []},
        {"eval_time": f"{idle_minutes}m", "alertname": "GpuIdleRelease",
         "exp_alerts": [alert("GpuIdleRelease", Hostname="idle")]},
        {"eval_time": f"{alert_minutes}m", "alertname": "GpuTemperatureHigh",
         "exp_alerts": [alert("GpuTemperatureHigh", Hostname="hot", gpu="0")]},
        {"eval_time": f"{alert_minutes}m", "alertname": "GpuMemoryHigh",
         "exp_alerts": [alert("GpuMemoryHigh", Hostname="full", gpu="0")]},
    ]
    if alert_minutes > 0:
        cases.append({"eval_time": f"{alert_minutes - 1}m", "alertname": "GpuTemperatureHigh",
                      "exp_alerts": []})
    test = {"rule_files": [rules_path], "evaluation_interval": "1m",
            "tests": [{"interval": "1m",
                       "input_series": [{"series": s, "values": v} for s, v in series],
                       "alert_rule_test": cases}]}
    return run(["promtool", "test", "rules", write("rules-test.yaml", yaml.safe_dump(test))])


for name, extra, idle, alert_for in [("default", [], 10, 5),
                                     ("flags", ["--idle-minutes", "30", "--alert-minutes", "2"],
                                      30, 2)]:
    text = gpuadvisor(*TEST, "export", "prometheus", *TRAINING, *extra)
    path = write(f"rules-{name}.yaml", text)
    result = run(["promtool", "check", "rules", path])
    check(result.returncode == 0, f"promtool check rules accepts the {name} rules "
          f"{result.stdout.strip()} {result.stderr.strip()}")
    result = promtool_test(path, yaml.safe_load(text), idle, alert_for)
    check(result.returncode == 0,
          f"promtool test rules ({name}): idle fires after {idle} min below 15% on every GPU "
          f"of a host, not at {idle - 1} min nor with one GPU at 15%; temperature above 85 and "
          f"memory at 90% fire after {alert_for} min, 85 C and 88.75% do not "
          f"{result.stdout.strip()} {result.stderr.strip()}")
result = promtool_test(write("rules-default.yaml", gpuadvisor(*TEST, "export", "prometheus",
                                                             *TRAINING)),
                       yaml.safe_load(gpuadvisor(*TEST, "export", "prometheus", *TRAINING)), 11, 5)
check(result.returncode != 0,
      "promtool test rules fails when the idle alert is expected a minute later (the test can fail)")
broken = write("rules-broken.yaml", text.replace("DCGM_FI_DEV_GPU_TEMP > 85", "DCGM_FI_DEV_GPU_TEMP >"))
check(run(["promtool", "check", "rules", broken]).returncode != 0,
      "promtool check rules refuses a broken expression (the checker can fail)")

# --- kubernetes: kubectl decodes and maps the manifest (client dry run, local discovery)
server, kubeconfig = kube_discovery.start()
kube_env = {**ENV, "KUBECONFIG": write("kubeconfig", kubeconfig), "HOME": WORK}


def kubectl_create(text):
    return run(["kubectl", "create", "--dry-run=client", "--validate=false", "-o", "json",
                "-f", "-"], input=text, env=kube_env)


# Fields of the objects written, from the Kubernetes API reference (v1.32: Job, Deployment,
# PodSpec, Container, Toleration): a misspelt key that kubectl's client dry run lets through
# fails here.
FIELDS = {
    "Job.spec": {"parallelism", "completions", "completionMode", "backoffLimit", "template",
                 "activeDeadlineSeconds", "ttlSecondsAfterFinished", "suspend"},
    "Deployment.spec": {"replicas", "selector", "template", "strategy", "minReadySeconds"},
    "PodSpec": {"restartPolicy", "nodeSelector", "tolerations", "containers"},
    "Container": {"name", "image", "command", "args", "ports", "resources"},
    "Toleration": {"key", "operator", "value", "effect"},
}
for label, args, kind, count_key in [
        ("job", [*TEST, "export", "kubernetes", *TRAINING, "--rank", "2", "--command", "nvidia-smi"],
         "Job", "parallelism"),
        ("deployment", [*AWS, "export", "kubernetes", *SERVING], "Deployment", "replicas")]:
    result = kubectl_create(gpuadvisor(*args))
    check(result.returncode == 0, f"kubectl create --dry-run=client reads the {label} "
          f"{result.stderr.strip()}")
    if result.returncode != 0:
        continue
    obj = json.loads(result.stdout)
    spec, pod = obj["spec"], obj["spec"]["template"]["spec"]
    container = pod["containers"][0]
    check(obj["kind"] == kind, f"{label}: kind {kind}")
    check(set(spec) <= FIELDS[f"{kind}.spec"] and set(pod) <= FIELDS["PodSpec"] and
          set(container) <= FIELDS["Container"] and
          all(set(t) <= FIELDS["Toleration"] for t in pod["tolerations"]),
          f"{label}: only the API's fields")
    check(spec[count_key] >= 1 and container["resources"]["limits"]["nvidia.com/gpu"] >= 1,
          f"{label}: {count_key} and nvidia.com/gpu limits from the sizing")
    check("node.kubernetes.io/instance-type" in pod["nodeSelector"] and
          {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}
          in pod["tolerations"], f"{label}: instance-type selector and nvidia.com/gpu toleration")
    check(obj["metadata"]["labels"]["gpuadvisor.io/release-after-minutes"] == "10",
          f"{label}: carries the auto-release policy")
for label, text in [("an unknown apiVersion", "apiVersion: batch/v9\nkind: Job\nmetadata: {name: x}\n"),
                    ("a number as a label", "apiVersion: batch/v1\nkind: Job\n"
                     "metadata: {name: x, labels: {a: 1}}\n")]:
    check(kubectl_create(text).returncode != 0, f"kubectl refuses {label} (the checker can fail)")
server.shutdown()

# AMD GPUs (built-in catalog): AMD's device plugin resource; no DCGM rules for them.
AMD = ["export", "kubernetes", *TRAINING, "--gpu", "MI300X"]
amd = yaml.safe_load(gpuadvisor(*AMD))
amd_pod = amd["spec"]["template"]["spec"]
check("amd.com/gpu" in amd_pod["containers"][0]["resources"]["limits"] and
      amd_pod["tolerations"][0]["key"] == "amd.com/gpu", "kubernetes: an MI300X row asks for amd.com/gpu")
check(amd_pod["containers"][0]["image"].startswith("rocm/"),
      "kubernetes: an MI300X row runs ROCm's image by default, not NGC's CUDA one")
result = subprocess.run([BINARY, "export", "prometheus", *TRAINING, "--gpu", "MI300X"],
                        capture_output=True, text=True, env=ENV, timeout=60)
check(result.returncode == 1 and "dcgm-exporter" in result.stderr,
      "prometheus: an MI300X row is refused (DCGM is NVIDIA's)")

# --- skypilot and dstack: YAML with only the documented fields
# SkyPilot: https://docs.skypilot.co/en/latest/reference/yaml-spec.html (task fields, resources,
# autostop, service).
SKYPILOT = {
    "": {"name", "workdir", "num_nodes", "resources", "envs", "secrets", "file_mounts", "setup",
         "run", "service", "config", "volumes"},
    "resources": {"infra", "cloud", "region", "zone", "accelerators", "accelerator_args", "cpus",
                  "memory", "instance_type", "use_spot", "disk_size", "disk_tier",
                  "network_tier", "max_hourly_cost", "image_id", "ports", "labels", "autostop",
                  "any_of", "ordered", "job_recovery"},
    "resources.autostop": {"idle_minutes", "wait_for", "hook", "hook_timeout", "down"},
    "service": {"readiness_probe", "replicas", "replica_policy", "ports"},
}
# dstack: https://dstack.ai/docs/reference/dstack.yml/task/ and .../service/ (root reference,
# resources, utilization_policy).
DSTACK_COMMON = {"type", "name", "ports", "commands", "image", "user", "privileged", "entrypoint",
                 "working_dir", "registry_auth", "python", "nvcc", "single_branch", "env",
                 "shell", "resources", "priority", "volumes", "docker", "repos", "files",
                 "backends", "regions", "availability_zones", "instance_types", "reservation",
                 "spot_policy", "retry", "max_duration", "stop_duration", "max_price",
                 "creation_policy", "idle_duration", "utilization_policy", "fleets", "tags"}
DSTACK = {
    "task": DSTACK_COMMON | {"nodes"},
    "service": DSTACK_COMMON | {"port", "replicas", "model", "https", "auth", "scaling",
                                "rate_limits", "probes", "gateway", "strip_prefix"},
    "resources": {"cpu", "memory", "shm_size", "gpu", "disk"},
    "utilization_policy": {"min_gpu_utilization", "time_window"},
}
for label, args in [("task", TRAINING), ("service", SERVING)]:
    sky = yaml.safe_load(gpuadvisor(*AWS, "export", "skypilot", *args))
    resources = sky["resources"]
    check(set(sky) <= SKYPILOT[""] and set(resources) <= SKYPILOT["resources"] and
          set(resources.get("autostop", {})) <= SKYPILOT["resources.autostop"] and
          set(sky.get("service", {})) <= SKYPILOT["service"],
          f"skypilot {label}: only documented fields")
    check(re.fullmatch(r"[A-Za-z0-9-]+:[0-9.]+", resources["accelerators"]) is not None and
          resources["infra"] == "aws/us-east-1" and isinstance(resources["use_spot"], bool),
          f"skypilot {label}: accelerators NAME:COUNT, infra cloud/region, use_spot")
    check(label == "service" or resources["autostop"]["idle_minutes"] == 10,
          f"skypilot {label}: autostop carries the idle minutes")
    dstack = yaml.safe_load(gpuadvisor(*AWS, "export", "dstack", *args))
    check(dstack["type"] == label and set(dstack) <= DSTACK[label] and
          set(dstack["resources"]) <= DSTACK["resources"] and
          set(dstack["utilization_policy"]) <= DSTACK["utilization_policy"],
          f"dstack {label}: only documented fields")
    check(re.fullmatch(r"[A-Za-z0-9]+:[0-9]+GB:[0-9]+", dstack["resources"]["gpu"]) is not None and
          dstack["spot_policy"] in ("spot", "on-demand", "auto") and
          dstack["utilization_policy"] == {"min_gpu_utilization": 15, "time_window": "10m"},
          f"dstack {label}: gpu NAME:MEMORY:COUNT, spot_policy, utilization_policy 15% / 10m")

# --- the same row from the flags and from `recommend -o json --from`: the same files
for catalog, kinds in [(TEST, ["prometheus", "kubernetes"]), (AWS, ["skypilot", "dstack"])]:
    answer = write("answer.json", gpuadvisor(*catalog, "recommend", *TRAINING, "-o", "json"))
    for kind in kinds:
        for rank in ("1", "2"):
            direct = gpuadvisor(*catalog, "export", kind, *TRAINING, "--rank", rank)
            from_file = gpuadvisor(*catalog, "export", kind, "--from", answer, "--rank", rank)
            check(direct == from_file, f"{kind} --rank {rank}: flags and --from give the same file")

# --- --output-file: the same file, nothing on stdout
out_path = os.path.join(WORK, "out.yaml")
result = subprocess.run([BINARY, *TEST, "export", "kubernetes", *TRAINING, "--output-file",
                         out_path], capture_output=True, text=True, env=ENV, timeout=60)
with open(out_path, encoding="utf-8") as f:
    written = f.read()
check(result.returncode == 0 and result.stdout == "" and
      written == gpuadvisor(*TEST, "export", "kubernetes", *TRAINING),
      "--output-file writes the file stdout would show, and stdout stays empty")
result = subprocess.run([BINARY, *TEST, "export", "kubernetes", *TRAINING, "--output-file",
                         os.path.join(WORK, "no-such-folder", "out.yaml")],
                        capture_output=True, text=True, env=ENV, timeout=60)
check(result.returncode == 3 and "cannot write the file" in result.stderr,
      "--output-file in a missing folder: exit 3, 'cannot write the file'")

shutil.rmtree(WORK)
print(f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
