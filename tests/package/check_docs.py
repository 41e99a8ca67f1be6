#!/usr/bin/python3
"""Package test: the man pages and completions the build generated match the command tree.

usage: check_docs.py BINARY GENERATED_DIR SOURCE_ROOT

The tree is read from the binary's --help (each command's Subcommands and options):
- every command has its page (gpuadvisor-catalog-list.1), which groff renders without a warning
  and which names every option its --help lists; no page names the hidden __generate;
- bash: the script passes `bash -n`; sourced, `gpuadvisor rec<TAB>` completes to recommend, a
  command's options complete at its level (each of them, for every command), `--sort <TAB>`
  offers cost and time, and `catalog list <TAB>` the kinds to list;
- zsh and fish (not run here): each file names every command and every long option;
- docs/library.md's example is tests/package/consumer/main.cpp, to the byte.
"""
import pathlib
import re
import subprocess
import sys

ENV = {"PATH": "/usr/bin:/bin", "LC_ALL": "C", "NO_COLOR": "1"}


def help_of(binary, path):
    done = subprocess.run([binary, *path, "--help"], capture_output=True, text=True, env=ENV,
                          check=True)
    return done.stdout


def sections(text):
    """The lines under each 'Title:' heading of a --help text."""
    found, current = {}, None
    for line in text.splitlines():
        if re.match(r"^[A-Z][A-Za-z ]*:$", line):
            current = found.setdefault(line[:-1], [])
        elif current is not None and line.startswith("  "):
            current.append(line)
        elif not line:
            current = None
    return found


def command_tree(binary, path=()):
    """(path, long options) of every command under `path`, depth first."""
    text = help_of(binary, list(path))
    found = sections(text)
    options = sorted(set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", "\n".join(
        line for title, lines in found.items() if title not in ("Subcommands", "Examples", "Example")
        for line in lines))))
    tree = [(path, options)]
    for line in found.get("Subcommands", []):
        name = line.split()[0]
        tree += command_tree(binary, (*path, name))
    return tree


def check_man(tree, man_dir, failures):
    pages = sorted(p.name for p in man_dir.glob("*.1"))
    wanted = sorted("-".join(("gpuadvisor", *path)) + ".1" for path, _ in tree)
    if pages != wanted:
        failures.append(f"man pages {pages}, expected one per command: {wanted}")
    for path, options in tree:
        page = man_dir / ("-".join(("gpuadvisor", *path)) + ".1")
        if not page.exists():
            continue
        done = subprocess.run(["groff", "-man", "-Tutf8", "-ww", str(page)], capture_output=True,
                              text=True, env=ENV, check=False)
        if done.returncode != 0 or done.stderr:
            failures.append(f"{page.name}: groff: {done.stderr.strip()}")
        text = re.sub(r".\x08", "", done.stdout).replace("\u2010", "-").replace("\u2212", "-")
        for option in options:
            if option not in text:
                failures.append(f"{page.name}: {option} (in --help) is not on the page")
        if "__generate" in page.read_text():
            failures.append(f"{page.name}: names the hidden __generate")


def bash_complete(script, line):
    """COMPREPLY for the command line `line` (completed at its end), as bash gives it."""
    words = line.split(" ")
    program = (f"source {script}\nCOMP_WORDS=({' '.join(repr(w) for w in words)})\n"
               f"COMP_CWORD={len(words) - 1}\n_gpuadvisor\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"\n")
    done = subprocess.run(["bash", "--norc", "--noprofile"], input=program, capture_output=True,
                          text=True, env=ENV, check=True)
    return [w for w in done.stdout.splitlines() if w]


def check_bash(tree, script, failures):
    if subprocess.run(["bash", "-n", str(script)], check=False).returncode != 0:
        failures.append("bash completion: bash -n fails")
    cases = [("gpuadvisor rec", ["recommend"]), ("gpuadvisor catalog li", ["list"]),
             ("gpuadvisor recommend training --sort ", ["cost", "time"]),
             ("gpuadvisor recommend --expl", ["--explain"]),
             ("gpuadvisor --catalog x.yaml recommend --max-price", ["--max-price-age"])]
    for line, expected in cases:
        got = bash_complete(script, line)
        if got != expected:
            failures.append(f"bash: '{line}<TAB>' gives {got}, expected {expected}")
    kinds = bash_complete(script, "gpuadvisor catalog list ")
    for kind in ("gpus", "instances", "offers"):
        if kind not in kinds:
            failures.append(f"bash: 'catalog list <TAB>' does not offer {kind}: {kinds}")
    for path, options in tree:
        got = bash_complete(script, " ".join(("gpuadvisor", *path, "--")))
        for option in options:
            if option not in got:
                failures.append(f"bash: '{' '.join(path)} --<TAB>' does not offer {option}")
        if "__generate" in bash_complete(script, " ".join(("gpuadvisor", *path, "_"))):
            failures.append("bash: offers the hidden __generate")


def check_names(tree, script, option_form, failures):
    """Every command's name and every long option (written as option_form gives it)."""
    text = script.read_text()
    for path, options in tree:
        for word in (*path, *(option_form(o[2:]) for o in options)):
            if not re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text):
                failures.append(f"{script.name}: does not name '{word}'")
    if "__generate" in text:
        failures.append(f"{script.name}: names the hidden __generate")


def check_library_doc(root, failures):
    doc = (root / "docs/library.md").read_text()
    blocks = re.findall(r"```cpp\n(.*?)```", doc, re.S)
    code = (root / "tests/package/consumer/main.cpp").read_text()
    if code not in blocks:
        failures.append("docs/library.md: its example is not tests/package/consumer/main.cpp")


def main():
    binary, generated, root = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
    tree = command_tree(binary)
    failures = []
    check_man(tree, generated / "man", failures)
    check_bash(tree, generated / "completions/gpuadvisor.bash", failures)
    check_names(tree, generated / "completions/_gpuadvisor", lambda o: "--" + o, failures)
    check_names(tree, generated / "completions/gpuadvisor.fish", lambda o: "-l " + o, failures)
    check_library_doc(root, failures)
    for failure in failures:
        print(failure)
    print(f"{len(tree)} commands checked; {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
