#!/usr/bin/python3
"""catalog validate's CI formats in the golden cases (tests/cli/*): every case whose args or
env ask for one is checked against the diagnostics its stderr lists (the human form, always
printed: "path:line:col: severity[code]: ...").

- sarif: the log is valid against the SARIF 2.1.0 schema (tests/schemas), with one result per
  diagnostic (rule, level, line and column alike) and one rule per code used;
- github: each stdout line but the summary is a workflow command of GitHub's documented syntax,
  one per diagnostic, in order, the same severity, code and position;
- junit: the XML parses, a testcase per file, failures as the errors (and --strict's warnings).

python3-jsonschema is required: without it the test fails, it does not skip.

usage: ci_formats.py CASES_DIR SARIF_SCHEMA
"""
import json
import pathlib
import re
import sys
import xml.etree.ElementTree as ET

try:
    from jsonschema.validators import validator_for
except ImportError:
    print("FAIL: python3-jsonschema is missing: the SARIF logs cannot be checked "
          "(apt-get install python3-jsonschema)")
    sys.exit(1)

HUMAN = re.compile(r"^(?P<file>.+?)(?::(?P<line>\d+):(?P<col>\d+))?: "
                   r"(?P<severity>error|warning|info)\[(?P<code>[a-z0-9-]+)\]: ")
# ::error file={name},line={line},col={col},title={title}::{message}; line and col optional.
GITHUB = re.compile(r"^::(?P<command>error|warning|notice) "
                    r"(?:file=(?P<file>[^,:]*),)?(?:line=(?P<line>\d+),col=(?P<col>\d+),)?"
                    r"title=(?P<title>[^,:]*)::(?P<message>[^\r\n]*)$")
SUMMARY = re.compile(r"^(valid|invalid): \d+ file\(s\), ")
LEVEL = {"error": "error", "warning": "warning", "info": "note"}
COMMAND = {"error": "error", "warning": "warning", "info": "notice"}
FAILURES = []


def unescape_property(text):
    for escape, char in (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","),
                         ("%25", "%")):
        text = text.replace(escape, char)
    return text


def diagnostics(case):
    found = []
    for line in (case / "stderr").read_text(encoding="utf-8").splitlines():
        match = HUMAN.match(line)
        if match:
            found.append(match.groupdict())
    return found


def format_of(case):
    args = (case / "args").read_text(encoding="utf-8").split("\n")
    env = (case / "env").read_text(encoding="utf-8") if (case / "env").is_file() else ""
    if "validate" not in args:
        return None
    for i, arg in enumerate(args):
        if arg in ("-o", "--format") and i + 1 < len(args):
            return args[i + 1]
    if "GITHUB_ACTIONS=true" in env.split("\n"):
        return "github"
    return None


def position(diagnostic):
    line = diagnostic["line"]
    return (int(line), int(diagnostic["col"])) if line else None


def check_sarif(name, case, validator, found):
    log = json.loads((case / "stdout").read_text(encoding="utf-8"))
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
              for e in validator.iter_errors(log)]
    if errors:
        FAILURES.append(f"{name}: not valid SARIF 2.1.0: {errors[:3]}")
    run = log["runs"][0]
    results = run["results"]
    if len(results) != len(found):
        FAILURES.append(f"{name}: {len(results)} results for {len(found)} diagnostics")
    rules = [rule["id"] for rule in run["tool"]["driver"]["rules"]]
    if rules != sorted({d["code"] for d in found}):
        FAILURES.append(f"{name}: rules {rules}, codes {sorted({d['code'] for d in found})}")
    for result, diagnostic in zip(results, found):
        region = result["locations"][0]["physicalLocation"].get("region")
        got = (region["startLine"], region["startColumn"]) if region else None
        if (result["ruleId"], result["level"], got) != (
                diagnostic["code"], LEVEL[diagnostic["severity"]], position(diagnostic)):
            FAILURES.append(f"{name}: result {result} for {diagnostic}")
        if rules[result["ruleIndex"]] != result["ruleId"]:
            FAILURES.append(f"{name}: ruleIndex {result['ruleIndex']} of {result['ruleId']}")


def check_github(name, case, found):
    lines = (case / "stdout").read_text(encoding="utf-8").splitlines()
    if not lines or not SUMMARY.match(lines[-1]):
        FAILURES.append(f"{name}: the last line is not the summary")
    commands = lines[:-1]
    if len(commands) != len(found):
        FAILURES.append(f"{name}: {len(commands)} workflow commands for {len(found)} diagnostics")
    for line, diagnostic in zip(commands, found):
        match = GITHUB.match(line)
        if not match:
            FAILURES.append(f"{name}: not a workflow command: {line!r}")
            continue
        got = (match["command"], unescape_property(match["title"]),
               unescape_property(match["file"] or ""),
               (int(match["line"]), int(match["col"])) if match["line"] else None)
        want = (COMMAND[diagnostic["severity"]], diagnostic["code"], diagnostic["file"],
                position(diagnostic))
        if got != want:
            FAILURES.append(f"{name}: {got} for {want}")


def check_junit(name, case, found):
    root = ET.fromstring((case / "stdout").read_text(encoding="utf-8"))
    strict = "--strict" in (case / "args").read_text(encoding="utf-8").split("\n")
    failing = [d for d in found
               if d["severity"] == "error" or (strict and d["severity"] == "warning")]
    suites = root.findall("testsuite")
    if root.tag != "testsuites" or len(suites) != 1:
        FAILURES.append(f"{name}: not one <testsuite> in <testsuites>")
        return
    suite = suites[0]
    cases = suite.findall("testcase")
    failures = suite.findall("testcase/failure")
    if int(suite.get("tests")) != len(cases) or int(suite.get("failures")) != len(failures):
        FAILURES.append(f"{name}: counts tests={suite.get('tests')} "
                        f"failures={suite.get('failures')} for {len(cases)}, {len(failures)}")
    if len(failures) != len(failing):
        FAILURES.append(f"{name}: {len(failures)} failures for {len(failing)} failing "
                        f"diagnostics")
    for case_element in cases:
        file = case_element.get("name")
        want = [d["code"] for d in failing if d["file"] == file]
        got = [f.get("type") for f in case_element.findall("failure")]
        if got != want:
            FAILURES.append(f"{name}: {file}: failures {got}, diagnostics {want}")
    files = {c.get("name") for c in cases}
    missing = [d for d in found if d["file"] not in files]
    if missing:
        FAILURES.append(f"{name}: diagnostics of no testcase: {missing}")


def main():
    cases, schema_path = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    cls = validator_for(schema)
    cls.check_schema(schema)
    validator = cls(schema)
    counts = {"sarif": 0, "github": 0, "junit": 0}
    for case in sorted(p for p in cases.iterdir() if (p / "args").is_file()):
        form = format_of(case)
        if form not in counts or not (case / "stdout").is_file():
            continue
        counts[form] += 1
        found = diagnostics(case)
        {"sarif": lambda: check_sarif(case.name, case, validator, found),
         "github": lambda: check_github(case.name, case, found),
         "junit": lambda: check_junit(case.name, case, found)}[form]()
    for failure in FAILURES:
        print("FAIL:", failure)
    print(f"{counts['sarif']} SARIF, {counts['github']} GitHub, {counts['junit']} JUnit "
          f"case(s), {len(FAILURES)} failure(s)")
    return 1 if FAILURES or 0 in counts.values() else 0


if __name__ == "__main__":
    sys.exit(main())
