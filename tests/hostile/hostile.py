#!/usr/bin/python3
"""The hostile corpus: every class of bad input, for each kind of file gpuadvisor reads
(catalog files, workload profiles, rule files), through the built binary.

usage: hostile.py BINARY [--list] [--keep DIR]

Each case is written to a temporary folder (large ones are generated, not stored), then
read by the command that reads that kind of file:
  catalog  gpuadvisor catalog validate FILE          (errors: exit 1; unreadable: exit 3)
  profile  gpuadvisor size --profile FILE            (errors: exit 3)
  rules    gpuadvisor catalog validate --rules FILE  (errors: exit 1; unreadable: exit 3)
and must give the expected exit code, the expected diagnostic code at FILE:LINE:COL, within
10 s, and never a crash (a signal, exit 4) or text on stdout that is not the command's own.
Accepted inputs (a UTF-8 BOM, CRLF line ends) must give exit 0 and no error. A catalog
folder and a rules folder holding odd entries (a dangling symlink, a loop, a FIFO, a folder,
each named *.yaml) must warn about each (skipped-file), and fail under --strict.
"""
import argparse
import os
import pathlib
import re
import subprocess
import sys
import tempfile

# A valid skeleton per kind, to which a case appends or in which it substitutes.
CATALOG = """schema_version: 1
provider: {id: hostile, name: Hostile, currency: USD, source: "test", as_of: 2025-01-01}
instances:
  - id: h.1
    family: h
    gpu: T4
    gpu_count: 1
    vcpus: 4
    memory_gb: 16
    network_gbps: 10
    rdma: false
    nvlink: false
    regions:
      - {region: r1, on_demand: 1.5, spot: 0.5}
"""
PROFILE = "schema_version: 1\nworkload: inference\nmodel: bert-base\nqps: 100\nlatency_ms: 50\n"
RULES = """schema_version: 1
rules:
  - id: r
    require: {total_gpus: {at_most: 8}}
    reason: "quota"
    source: "test"
    as_of: 2025-01-01
"""
SKELETON = {"catalog": CATALOG, "profile": PROFILE, "rules": RULES}


def deep_flow(n):
    return "x: " + "[" * n + "]" * n + "\n"


def deep_block(n):
    return "x:\n" + "- " * n + "x\n"  # block sequences nested n deep on one line


def alias_bomb():
    text = "a: &a [x, x, x, x, x, x, x, x, x]\n"
    for c in "bcdefghi":
        p = chr(ord(c) - 1)
        text += f"{c}: &{c} [*{p}, *{p}]\n"
    return text


def unknown_keys(n):
    return "".join(f"k{i}: 1\n" for i in range(n))


# Byte-level and YAML-level cases: the same for every kind. (name, bytes, exit by kind
# ('error' = the kind's error exit), code, "line:col" or None)
def generic_cases():
    return [
        ("nesting-100k-flow", deep_flow(100_000).encode(), "error", "limit", "1:"),
        ("nesting-100k-block", deep_block(100_000).encode(), "error", "limit", None),
        ("alias-bomb", alias_bomb().encode(), "error", "yaml-feature", "1:4"),
        ("alias-cycle", b"a: &a [*a]\n", "error", "yaml-feature", "1:4"),
        ("merge-key", b"base: {x: 1}\nother:\n  <<: {x: 2}\n", "error", "yaml-feature", "3:3"),
        ("tag", b"a: !!str 1\n", "error", "yaml-feature", "1:4"),
        ("two-documents", b"a: 1\n---\nb: 2\n", "error", "yaml-feature", "2:1"),
        ("end-marker", b"a: 1\n...\nb: 2\n", "error", None, None),
        ("lone-comma", b",", "error", "syntax", "1:1"),
        ("empty", b"", "error", None, None),
        ("comment-only", b"# nothing here\n", "error", None, None),
        ("binary-garbage", bytes(range(256)) * 4, "error", "encoding", "1:1"),
        ("latin-1", "name: caf\xe9\n".encode("latin-1"), "error", "encoding", "1:10"),
        ("utf-16", "a: 1\n".encode("utf-16"), "error", "encoding", "1:1"),
        ("bare-cr", b"a: 1\rb: 2\r", "error", "encoding", "1:5"),
        ("tab-indent", b"a:\n\tb: 1\n", "error", "syntax", "2:"),
        ("unterminated-quote", b'a: "open\nb: 2\n', "error", "syntax", "1:4"),
        ("string-1mb", b"a: " + b"x" * (1 << 20) + b"\n", "error", "limit", "1:4"),
        ("unknown-keys-5000", unknown_keys(5000).encode(), "error", "unknown-field", "1:1"),
        ("duplicate-key", b"a: 1\nb: 2\na: 3\n", "error", "duplicate-key", "3:1"),
        ("top-level-list", b"- a\n- b\n", "error", "wrong-type", "1:1"),
    ]


def substitute(text, old, new):
    assert old in text, old
    return text.replace(old, new, 1)


# Cases that need the kind's own fields.
def kind_cases(kind):
    s = SKELETON[kind]
    bom = b"\xef\xbb\xbf" + s.encode()
    crlf = s.replace("\n", "\r\n").encode()
    cases = [("utf-8-bom", bom, 0, None, None), ("crlf", crlf, 0, None, None)]
    if kind == "catalog":
        for name, old, new, code, pos in [
            ("quoted-number", "vcpus: 4", 'vcpus: "4"', "bad-number", "8:12"),
            ("number-with-unit", "memory_gb: 16", "memory_gb: 16GB", "bad-number", "9:16"),
            ("octal", "vcpus: 4", "vcpus: 010", "bad-number", "8:12"),
            ("hex", "vcpus: 4", "vcpus: 0x10", "bad-number", "8:12"),
            ("overflow-1e999", "memory_gb: 16", "memory_gb: 1e999", "bad-number", "9:16"),
            ("overflow-2-64", "vcpus: 4", "vcpus: 18446744073709551616", "out-of-range",
             "8:12"),
            ("nan", "memory_gb: 16", "memory_gb: .nan", "bad-number", "9:16"),
            ("inf", "memory_gb: 16", "memory_gb: .inf", "bad-number", "9:16"),
            ("negative", "memory_gb: 16", "memory_gb: -16", "out-of-range", "9:16"),
            ("zero", "gpu_count: 1", "gpu_count: 0", "out-of-range", "7:16"),
            ("absurd-count", "gpu_count: 1", "gpu_count: 100000", "out-of-range", "7:16"),
            ("spot-above-on-demand", "spot: 0.5", "spot: 5.5", "warning:price-above-on-demand",
             "14:9"),
            ("dangling-gpu", "gpu: T4", "gpu: T5", "unknown-gpu", "6:10"),
            ("schema-version-2", "schema_version: 1", "schema_version: 2", "schema-version",
             "1:17"),
            ("wrong-container", "regions:\n      - {region: r1, on_demand: 1.5, spot: 0.5}",
             "regions: {region: r1}", "wrong-type", "13:14"),
            ("control-char", 'name: Hostile', 'name: "Hos\\x07tile"', "bad-value", "2:"),
            ("bidi-char", 'name: Hostile', 'name: "Hos\u202etile"', "bad-value", "2:"),
            ("c1-control", 'name: Hostile', 'name: "Hos\\x85tile"', "bad-value", "2:"),
            ("duplicate-entry", "instances:\n", "instances:\n" + s.split("instances:\n")[1],
             "duplicate-id", "15:5"),
            ("mixed-currency", "{region: r1, on_demand: 1.5, spot: 0.5}",
             "{region: r1, on_demand: 1.5, spot: 0.5, currency: usd}", "bad-value", "14:"),
        ]:
            text = substitute(s, old, new) if name != "duplicate-entry" else s + \
                s.split("instances:\n")[1]
            if code.startswith("warning:"):
                cases.append((name, text.encode(), 0, code[len("warning:"):], pos))
            else:
                cases.append((name, text.encode(), "error", code, pos))
    elif kind == "profile":
        for name, old, new, code, pos in [
            ("quoted-number", "qps: 100", 'qps: "100"', "bad-number", "4:6"),
            ("number-with-unit", "qps: 100", "qps: 100rps", "bad-number", "4:6"),
            ("hex", "qps: 100", "qps: 0x64", "bad-number", "4:6"),
            ("overflow-1e999", "qps: 100", "qps: 1e999", "bad-number", "4:6"),
            ("nan", "qps: 100", "qps: .nan", "bad-number", "4:6"),
            ("negative", "qps: 100", "qps: -100", None, None),
            ("zero", "qps: 100", "qps: 0", None, None),
            ("absurd", "qps: 100", "qps: 1e300", None, None),
            ("unknown-model", "model: bert-base", "model: bert-bsae", None, None),
            ("unknown-kind", "workload: inference", "workload: inferense", "bad-value", "2:11"),
            ("typo-key", "latency_ms: 50", "latency: 50", "unknown-field", "5:1"),
            ("wrong-container", "qps: 100", "qps: [100]", "wrong-type", "4:6"),
        ]:
            cases.append((name, substitute(s, old, new).encode(), "error", code, pos))
    else:
        for name, old, new, code, pos in [
            ("quoted-number", "at_most: 8", 'at_most: "8"', "bad-number", "4:37"),
            ("number-with-unit", "at_most: 8", "at_most: 8gpus", "bad-number", "4:37"),
            ("nan", "at_most: 8", "at_most: .nan", "bad-number", "4:37"),
            ("overflow-1e999", "at_most: 8", "at_most: 1e999", "bad-number", "4:37"),
            ("unknown-field", "total_gpus", "total_gpu", "unknown-field", "4:15"),
            ("unknown-operator", "at_most", "atmost", "unknown-field", "4:28"),
            ("schema-version-2", "schema_version: 1", "schema_version: 2", "schema-version",
             "1:17"),
            ("wrong-container", "require: {total_gpus: {at_most: 8}}", "require: [8]",
             "wrong-type", "4:14"),
            ("no-reason", '    reason: "quota"\n', "", "missing-field", "3:5"),
            ("duplicate-entry", "rules:\n", "rules:\n" + s.split("rules:\n")[1],
             "duplicate-id", "8:5"),
        ]:
            text = substitute(s, old, new) if name != "duplicate-entry" else s + \
                s.split("rules:\n")[1]
            cases.append((name, text.encode(), "error", code, pos))
    return cases


def command(binary, kind, path):
    if kind == "catalog":
        return [binary, "--no-default-catalog", "--catalog", GPUS_FILE, "catalog", "validate",
                str(path)]
    if kind == "profile":
        return [binary, "size", "--profile", str(path)]
    return [binary, "catalog", "validate", "--rules", str(path)]


ERROR_EXIT = {"catalog": 1, "profile": 3, "rules": 1}
GPUS_FILE = ""


def run_case(binary, kind, directory, case):
    name, data, expect, code, pos = case
    path = directory / f"{kind}-{name}.yaml"
    path.write_bytes(data)
    try:
        done = subprocess.run(command(binary, kind, path), capture_output=True, timeout=10,
                              env={"PATH": "/usr/bin:/bin", "LC_ALL": "C"}, check=False)
    except subprocess.TimeoutExpired:
        return "timed out"
    err = done.stderr.decode("utf-8", "replace")
    exit_expected = 0 if expect == 0 else ERROR_EXIT[kind]
    if done.returncode < 0 or done.returncode == 4:
        return f"crashed (exit {done.returncode}): {err[:200]}"
    if kind != "profile" and done.returncode == 3 and expect != 0:
        exit_expected = 3  # unreadable counts as an input error for validate too
    if done.returncode != exit_expected:
        return f"exit {done.returncode}, expected {exit_expected}: {err[:300]}"
    if expect == 0:
        if "error[" in err:
            return f"accepted input gave: {err[:300]}"
        if code is not None and f"warning[{code}]" not in err:
            return f"no warning[{code}]: {err[:300]}"
        return None
    if "error[" not in err:
        return f"no error diagnostic: {err[:300]}"
    if code is not None:
        where = re.escape(str(path)) + (":" + re.escape(pos) if pos else r":\d+:\d+")
        if not re.search(where + r".*error\[" + re.escape(code) + r"\]", err):
            return f"no error[{code}] at {pos}: {err[:400]}"
    return None


# What a catalog or rules folder holds beside its one good file, each a warning
# (skipped-file) and, with --strict, an error: entries with a YAML name that are not files.
def odd_entries(folder):
    (folder / "dangling.yaml").symlink_to("nowhere.yaml")
    (folder / "loop.yaml").symlink_to("loop.yaml")
    os.mkfifo(folder / "fifo.yaml")
    (folder / "sub.yaml").mkdir()
    return ["dangling.yaml", "loop.yaml", "fifo.yaml", "sub.yaml"]


def folder_cases(binary, directory):
    """A folder's odd entries are reported, never skipped silently, for catalogs and rules."""
    problems = []
    for kind, file in (("catalog", "hostile.yaml"), ("rules", "rules.yaml")):
        folder = directory / f"{kind}-folder"
        folder.mkdir()
        (folder / file).write_text(SKELETON[kind])
        odd = odd_entries(folder)
        for strict in ([], ["--strict"]):
            args = command(binary, kind, folder) + strict
            done = subprocess.run(args, capture_output=True, text=True, timeout=10,
                                  env={"PATH": "/usr/bin:/bin", "LC_ALL": "C"}, check=False)
            expected = 1 if strict else 0
            if done.returncode != expected:
                problems.append(f"{kind} folder {strict}: exit {done.returncode}, expected "
                                f"{expected}: {done.stderr[:300]}")
            for name in odd:
                if f"{folder / name}: warning[skipped-file]" not in done.stderr:
                    problems.append(f"{kind} folder: no warning for {name}: "
                                    f"{done.stderr[:300]}")
    return problems


# Every field a profile can hold, each with a value its own reading takes but the workload's
# check refuses (out of range, not whole): reported at the field's file:line:column under its
# key, never blamed on a flag that was not given, exit 3. (base profile, field, value)
PROFILE_BASES = {
    "training": "workload: training\nparams: 7B\ntokens: 1T\n",
    "samples": "workload: training\nmodel: resnet-50\nsamples: 1M\n",
    "inference": "workload: inference\nmodel: bert-base\n",
    "hpc": "workload: hpc\nfp64_tflops: 10\n",
    "graphics": "workload: graphics\nsessions: 4\nmemory_per_session_gb: 4\n",
}
PROFILE_FIELDS = [
    ("training", "params", "0"), ("training", "tokens", "0"), ("training", "seq_len", "0"),
    ("training", "batch", "2.5"), ("training", "deadline", "0"), ("training", "budget", "0"),
    ("training", "hours_per_month", "800"), ("samples", "samples", "0"),
    ("samples", "tokens", "0"), ("inference", "qps", "0"), ("inference", "latency_ms", "0"),
    ("inference", "input_tokens", "0"), ("inference", "output_tokens", "1.5"),
    ("inference", "batch", "0"), ("inference", "hours_per_month", "745"),
    ("hpc", "fp64_tflops", "0"), ("hpc", "memory_gb", "0"), ("hpc", "bandwidth_gb_per_s", "0"),
    ("graphics", "sessions", "0"), ("graphics", "memory_per_session_gb", "0"),
    ("inference", "model", "bert-bsae"),
]


def profile_field_cases(binary, directory):
    problems = []
    for base, field, value in PROFILE_FIELDS:
        # (samples, when there, left out: a CNN's `tokens` are read as samples only then)
        lines = [line for line in PROFILE_BASES[base].splitlines()
                 if not line.startswith((field + ":", "samples:"))]
        text = "schema_version: 1\n" + "\n".join(lines) + f"\n{field}: {value}\n"
        path = directory / f"profile-field-{base}-{field}.yaml"
        path.write_text(text)
        done = subprocess.run(command(binary, "profile", path), capture_output=True, text=True,
                              timeout=10, env={"PATH": "/usr/bin:/bin", "LC_ALL": "C"},
                              check=False)
        line = text.count("\n")
        where = f"{path}:{line}:{len(field) + 3}: error[bad-workload]: {field}: "
        if done.returncode != 3 or where not in done.stderr or "error[bad-workload]: --" in \
                done.stderr:
            problems.append(f"{base} profile, {field}: {value}: exit {done.returncode}, "
                            f"expected 3 and '{where}': {done.stderr[:300]}")
    return problems


def main():
    global GPUS_FILE
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("fixtures")
    parser.add_argument("--keep", type=pathlib.Path)
    args = parser.parse_args()
    GPUS_FILE = str(pathlib.Path(args.fixtures) / "catalog" / "gpus.yaml")
    with tempfile.TemporaryDirectory() as tmp:
        directory = args.keep or pathlib.Path(tmp)
        directory.mkdir(parents=True, exist_ok=True)
        total = failed = 0
        for kind in ("catalog", "profile", "rules"):
            for case in generic_cases() + kind_cases(kind):
                total += 1
                problem = run_case(args.binary, kind, directory, case)
                if problem:
                    failed += 1
                    print(f"FAIL {kind}/{case[0]}: {problem}")
        total += len(PROFILE_FIELDS)
        for problem in profile_field_cases(args.binary, directory):
            failed += 1
            print(f"FAIL profile field: {problem}")
        total += 1
        for problem in folder_cases(args.binary, directory):
            failed += 1
            print(f"FAIL folder: {problem}")
    print(f"{total} hostile cases, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
