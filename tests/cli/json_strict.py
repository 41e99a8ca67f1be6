#!/usr/bin/python3
"""Every command's JSON, on success and on failure, is one strict JSON object: no NaN or
Infinity, valid UTF-8, `schema_version` 2 and `command`; a success has `"ok": true`, a
failure `"ok": false` and its diagnostics, under the same `command` as the success; and a closed pipe or a full disk behaves for every command. Out of memory
(under `ulimit -v`) is exit 4 with a failure object too, whenever the memory runs out. Every
document is valid against its schema in SCHEMA_DIR (docs/schema/validate.py picks it).

usage: json_strict.py BINARY FIXTURES SCHEMA_DIR
"""
import json
import pathlib
import subprocess
import sys
import tempfile

FAILURES = []
SCHEMAS = []  # the validate.Schemas of SCHEMA_DIR


def refuse_constant(name):
    raise ValueError(f"non-standard JSON constant {name}")


def strict(text):
    return json.loads(text, parse_constant=refuse_constant)


SUCCESS = [
    ["catalog", "list", "gpus"],
    ["catalog", "list", "instances"],
    ["catalog", "list", "offers"],
    ["catalog", "list", "models"],
    ["catalog", "list", "regions"],
    ["catalog", "list", "currencies"],
    ["catalog", "list", "servers", "--currency", "EUR"],
    ["catalog", "show", "A100-40GB"],
    ["catalog", "show", "big.8x"],
    ["catalog", "validate"],
    ["size", "training", "--model", "llama-2-7b", "--tokens", "1T", "--gpu", "A100-40GB",
     "--gpus", "64"],
    ["size", "inference", "--model", "bert-base", "--qps", "100"],
    ["scaling", "--gpu-counts", "1,2,4", "--throughput", "100,190,300"],
    ["price", "big.8x", "--mix", "auto", "--interruptible-share", "0.5"],
    ["price", "yun.t4", "--pricing", "subscription", "--currency", "USD"],
    ["compare", "big.8x", "small.1x"],
    ["tco", "--instance", "big.8x", "--utilization", "0.5"],
    ["recommend", "training", "--model", "llama-2-7b", "--tokens", "10B", "--explain"],
    ["recommend", "graphics", "--sessions", "4", "--memory-per-session-gb", "4"],
]
# (args, exit code, the command the failure names: the same as its success's)
FAILURE = [
    (["catalog", "show", "nope.1x"], 2, "catalog show"),
    (["price", "big.8x", "--pricing", "subscription"], 1, "price"),
    (["price", "nope.1x"], 2, "price"),
    (["compare", "nope"], 2, "compare"),
    (["tco", "--instance", "yun.t4", "--pricing", "spot"], 1, "tco"),
    (["size", "training", "--model", "llama-2-7b"], 2, "size"),
    (["recommend", "training", "--model", "llama-2-7b", "--tokens", "1T", "--deadline", "1h"],
     1, "recommend"),
    (["recommend", "inference", "--model", "bert-base", "--rules", "/nonexistent.yaml"], 3,
     "recommend"),
    (["size", "--profile", "{fixtures}/profiles/broken.yaml"], 3, "size"),
    (["recomend", "training"], 2, "gpuadvisor"),
    (["catalog", "lst", "gpus"], 2, "catalog"),
    (["catalog", "list", "gpu"], 2, "catalog list"),
    (["catalog", "list", "gpus", "--bogus"], 2, "catalog list gpus"),
    (["catalog", "list", "servers", "--bogus"], 2, "catalog list servers"),
    (["catalog", "list", "models", "--provider", "aws"], 2, "catalog list models"),
    (["catalog", "list", "offers", "--provider", "nope"], 2, "catalog list offers"),
    (["scaling", "--gpu-counts", "1,2", "--throughput", "1"], 2, "scaling"),
    ([], 2, "gpuadvisor"),
]
# Address-space limits (KiB) for the out-of-memory runs: from too little to start up to
# enough to read a 32 MB profile, so that memory runs out at one point or another, reading
# the profile among them (a window some 32 MB wide).
MEMORY_LIMITS = range(16_000, 208_000, 12_000)
PROFILE_HEAD = "schema_version: 1\nworkload: inference\nmodel: bert-base\nqps: 100\n"


def run(binary, catalog, args, stdout=subprocess.PIPE):
    return subprocess.run([binary, *catalog, *args], stdout=stdout, stderr=subprocess.PIPE,
                          timeout=30, check=False)


def check_document(args, done, ok):
    name = " ".join(args)
    try:
        doc = strict(done.stdout.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as error:
        FAILURES.append(f"{name}: not strict JSON: {error}: {done.stdout[:200]!r}")
        return
    if not isinstance(doc, dict) or doc.get("schema_version") != 2 or "command" not in doc:
        FAILURES.append(f"{name}: not a versioned document")
        return
    if ok and doc.get("ok") is not True:
        FAILURES.append(f"{name}: a success without ok: true")
    if not ok and (doc.get("ok") is not False or not doc.get("diagnostics")):
        FAILURES.append(f"{name}: a failure without ok: false and diagnostics")
    schema, errors = SCHEMAS[0].errors(doc)
    if errors:
        FAILURES.append(f"{name}: {schema or 'no schema'}: {errors[:3]}")


def check_out_of_memory(binary):
    """`size --profile` of a 32 MB profile under each limit ends 0 with its document, or 4
    with a failure object naming the lack of memory; memory runs out at least once while
    the command runs. 127 is the loader's, before gpuadvisor runs."""
    if b"__asan_init" in pathlib.Path(binary).read_bytes():
        print("out of memory: skipped (AddressSanitizer maps terabytes of shadow memory, which "
              "no ulimit -v allows)")
        return
    with tempfile.TemporaryDirectory() as folder:
        profile = pathlib.Path(folder, "big.yaml")
        profile.write_text(PROFILE_HEAD + ("#" + " " * 78 + "\n") * ((32 << 20) // 80))
        runs = [(limit, out_of_memory_run(binary, limit, profile)) for limit in MEMORY_LIMITS]
    in_command = False
    for limit, done in runs:
        name = f"ulimit -v {limit} size --profile"
        if done.returncode not in (0, 4, 127):
            FAILURES.append(f"{name}: exit {done.returncode}: {done.stderr[:200]!r}")
        if done.returncode not in (0, 4):
            continue
        check_document([name], done, done.returncode == 0)
        if done.returncode == 4:
            in_command |= b'"command": "size"' in done.stdout
            if b"out of memory" not in done.stdout:
                FAILURES.append(f"{name}: exit 4, not for memory: {done.stdout[:300]!r}")
    exits = sorted({done.returncode for _, done in runs})
    if not in_command or 0 not in exits:
        FAILURES.append(f"ulimit -v {MEMORY_LIMITS.start}-{MEMORY_LIMITS.stop} KiB: exits "
                        f"{exits}; expected 0, and 4 while 'size' ran")


def out_of_memory_run(binary, limit, profile):
    return subprocess.run(["/bin/sh", "-c", f'ulimit -v {limit} && exec "$0" "$@"', binary,
                           "size", "--profile", str(profile), "-o", "json"],
                          capture_output=True, timeout=60, check=False)


def main():
    binary, fixtures, schema_dir = sys.argv[1], sys.argv[2], sys.argv[3]
    sys.path.insert(0, schema_dir)
    import validate  # pylint: disable=import-outside-toplevel
    SCHEMAS.append(validate.Schemas(schema_dir))
    catalog = ["--no-default-catalog", "--catalog", f"{fixtures}/catalog"]
    for args in SUCCESS:
        done = run(binary, catalog, [*args, "-o", "json"])
        if done.returncode != 0:
            FAILURES.append(f"{' '.join(args)}: exit {done.returncode}: {done.stderr[:200]!r}")
        check_document(args, done, True)
    for args, code, command in FAILURE:
        args = [a.replace("{fixtures}", fixtures) for a in args]
        done = run(binary, catalog, [*args, "-o", "json"])
        if done.returncode != code:
            FAILURES.append(f"{' '.join(args)}: exit {done.returncode}, expected {code}")
        check_document(args, done, False)
        if f'"command": "{command}"'.encode() not in done.stdout:
            FAILURES.append(f"{' '.join(args)}: not named '{command}': {done.stdout[:120]!r}")
    check_out_of_memory(binary)
    # A closed pipe ends quietly; a full disk fails loudly; for every command.
    for args in SUCCESS:
        with subprocess.Popen([binary, *catalog, *args], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE) as p:
            p.stdout.readline()
            p.stdout.close()
            err = p.stderr.read()
            p.wait(timeout=30)
        if err:
            FAILURES.append(f"{' '.join(args)} | head -1: wrote {err[:200]!r}")
        with open("/dev/full", "wb") as full:
            done = run(binary, catalog, args, stdout=full)
        if done.returncode == 0 or b"cannot write the output" not in done.stderr:
            FAILURES.append(f"{' '.join(args)} > /dev/full: exit {done.returncode}")
    for failure in FAILURES:
        print("FAIL:", failure)
    checks = len(SUCCESS) * 3 + len(FAILURE) + len(MEMORY_LIMITS)
    print(f"{checks} checks, {len(FAILURES)} failure(s)")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
