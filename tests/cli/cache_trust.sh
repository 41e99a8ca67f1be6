#!/usr/bin/env bash
# The cache folder as a trust boundary (docs/reliability.md), attacked in a temporary folder:
# a link planted at an entry's temporary name, a header laid on another entry's body, a
# folder or entry others may write (or, as root, another user's), a FIFO or a link to
# /dev/stdin at an entry's name, modes under a permissive umask, stale temporaries, the
# bound, two spellings of a path, a home folder that does not exist. Every run must answer
# exactly as --no-cache does, and never hang (each run has 20 s).
# Usage: cache_trust.sh BINARY SOURCE_DIR
set -u
bin=$1 src=$2
work=$(mktemp -d)
trap 'chmod -R u+rwx "$work" 2>/dev/null; rm -rf "$work"' EXIT
python3 "$src/bench/gen_catalog.py" "$work/catalog" --offers 1000 >/dev/null || exit 1
python3 "$src/bench/gen_catalog.py" "$work/other" --offers 1000 --seed 2 >/dev/null || exit 1
args=(--no-default-catalog --catalog "$src/data/catalog/gpus.yaml" --catalog "$work/catalog"
      recommend training --model llama-2-7b --tokens 1T --deadline 30d -o json)
source "$(dirname "$0")/checks.sh"
# A run with its cache in $1 (more VAR=value may follow): stdout to $work/out, stderr to
# $work/err, its exit status in $work/status (124: it hung).
run() {
  local dir=$1; shift
  env -u XDG_CACHE_HOME GPUADVISOR_CACHE_DIR="$dir" "$@" timeout 20 "$bin" "${args[@]}" \
    >"$work/out" 2>"$work/err" </dev/null
  echo $? >"$work/status"
}
reference=$(GPUADVISOR_CACHE_DIR= "$bin" --no-cache "${args[@]}")
answers() { [ "$(cat "$work/status")" == 0 ] && [ "$(cat "$work/out")" == "$reference" ]; }
noted() { grep -q "^gpuadvisor: note: .*$1" "$work/err"; }
quiet() { [ ! -s "$work/err" ]; }
entries() { (cd "$1" && ls | grep -E '^(set-)?[0-9a-f]{16}\.bin$'); }
mode() { stat -c %a "$1"; }
fill() { mkdir -m 700 "$1" && run "$1" && [ "$(entries "$1" | wc -l)" -ge 2 ]; }
check "the answer names offers" grep -q '"recommendations"' <<<"$reference"

# 7. A link at the temporary's name (<entry>.<pid>.tmp: the pid is the shell's that execs
# the run) must not make the run write through it.
fill "$work/names" || exit 1
printf 'the victim file\n' >"$work/victim"
mkdir -m 700 "$work/planted"
GPUADVISOR_CACHE_DIR="$work/planted" names="$(entries "$work/names")" dir="$work/planted" \
  timeout 20 bash -c 'for n in $names; do ln -s "$0" "$dir/$n.$$.tmp"; done; exec "$@"' \
  "$work/victim" "$bin" "${args[@]}" >"$work/out" 2>/dev/null </dev/null
echo $? >"$work/status"
check "a link at the temporary's name: the same answer" answers
check "a link at the temporary's name: its target untouched" \
  [ "$(tr -d '\0' <"$work/victim")" == "the victim file" ]
check "a link at the temporary's name: left, not followed" \
  [ "$(find "$work/planted" -name '*.tmp' -type l | wc -l)" -ge 2 ]

# 9. Modes, whatever the umask.
(umask 000 && run "$work/modes")
check "a permissive umask: the same answer" answers
check "the folder is made 0700" [ "$(mode "$work/modes")" == 700 ]
check "entries are made 0600" \
  [ "$(cd "$work/modes" && stat -c %a $(entries .) | sort -u)" == 600 ]

# 8. A folder or an entry others may write is not used, with one note (none with -q).
fill "$work/shared" || exit 1
chmod 770 "$work/shared"
before=$(ls -l --time-style=+%s.%N "$work/shared")
run "$work/shared"
check "a group-writable folder: the same answer" answers
check "a group-writable folder: one note" \
  [ "$(grep -c 'not used: writable by group or others (mode 0770)' "$work/err")" == 1 ]
check "a group-writable folder: nothing written" \
  [ "$(ls -l --time-style=+%s.%N "$work/shared")" == "$before" ]
env -u XDG_CACHE_HOME GPUADVISOR_CACHE_DIR="$work/shared" timeout 20 "$bin" -q "${args[@]}" \
  >"$work/out" 2>"$work/err" </dev/null
echo $? >"$work/status"
check "a group-writable folder with -q: the same answer, no note" answers
check "a group-writable folder with -q: nothing on stderr" quiet
escape=$'\e'
mkdir -m 770 "$work/sh${escape}[31mared"
run "$work/sh${escape}[31mared"
check "a folder named with ESC: the note escapes it" \
  bash -c 'grep -qF "sh\\u{001B}[31mared" "$0" && ! grep -q "$1" "$0"' "$work/err" "$escape"
chmod 700 "$work/shared"
entry=$(entries "$work/shared" | grep '^set-') # (read first: a file's is read only if it is refused)
chmod 666 "$work/shared/$entry"
run "$work/shared"
check "a world-writable entry: the same answer" answers
check "a world-writable entry: a note" noted "writable by group or others (mode 0666)"
check "a world-writable entry: replaced by a private one" [ "$(mode "$work/shared/$entry")" == 600 ]
if [ "$(id -u)" == 0 ]; then
  chown -R nobody "$work/shared"
  run "$work/shared"
  check "another user's folder (root's run): the same answer" answers
  check "another user's folder (root's run): a note" noted "not used: owned by another user"
  chown -R root "$work/shared"
else
  echo "not root: another user's folder is not tried"
fi

# 8. A header laid on another entry's body (the other catalog's, at the same path).
fill "$work/forged" || exit 1
mv "$work/catalog" "$work/first" && mv "$work/other" "$work/catalog"
fill "$work/second" || exit 1
check "the other catalog answers otherwise" [ "$(cat "$work/out")" != "$reference" ]
mv "$work/catalog" "$work/other" && mv "$work/first" "$work/catalog"
python3 - "$work/forged" "$work/second" <<'EOF' || exit 1
# Each entry of the first catalog gets the other's body under its own header: the set entry
# (the same name: the same paths) and the entries of the files that differ.
import pathlib, re, sys
forged, second = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
names = lambda folder: {e.name for e in folder.iterdir() if re.fullmatch(r"(set-)?[0-9a-f]{16}\.bin", e.name)}
mine, theirs = names(forged), names(second)
differ = lambda a, b: (forged / a).read_bytes() != (second / b).read_bytes()
pairs = [(n, n) for n in mine & theirs if differ(n, n)]  # the set's (and a file's named by path)
pairs += [(m, t) for m in mine - theirs for t in theirs - mine
          if m.startswith("set-") == t.startswith("set-")]
assert len(pairs) == 2, pairs
for name, other in pairs:
    magic = b"GPUADVC4" if name.startswith("set-") else b"GPUADVF1"
    header = (forged / name).read_bytes().split(magic, 1)[0]
    body = (second / other).read_bytes().split(magic, 1)[1]
    (forged / name).write_bytes(header + magic + body)
EOF
run "$work/forged"
check "a header laid on another catalog's body: the same answer" answers

# 11. A FIFO, or a link to /dev/stdin (a pipe that never ends), at every entry's name.
fill "$work/fifo" || exit 1
for name in $(entries "$work/fifo"); do rm "$work/fifo/$name" && mkfifo -m 600 "$work/fifo/$name"; done
run "$work/fifo"
check "FIFOs at the entries' names: no hang, the same answer" answers
check "FIFOs at the entries' names: a note" noted "not a regular file"
fill "$work/stdin" || exit 1
for name in $(entries "$work/stdin"); do ln -sf /dev/stdin "$work/stdin/$name"; done
mkfifo "$work/pipe"
exec 3<>"$work/pipe" # open for reading and writing: a read waits for ever
env -u XDG_CACHE_HOME GPUADVISOR_CACHE_DIR="$work/stdin" timeout 20 "$bin" "${args[@]}" \
  >"$work/out" 2>"$work/err" <&3
echo $? >"$work/status"
exec 3>&-
check "links to /dev/stdin at the entries' names: no hang, the same answer" answers

# 12. Stale temporaries go with the next run that writes; the bound; two spellings.
fill "$work/tidy" || exit 1
entry=$(entries "$work/tidy" | grep -v '^set-' | head -1)
printf 'half' >"$work/tidy/$entry.99999.tmp" && touch -d '20 minutes ago' "$work/tidy/$entry.99999.tmp"
printf 'half' >"$work/tidy/$entry.99998.tmp"
rm "$work/tidy/$entry" "$work/tidy"/set-*.bin # so that the run writes
run "$work/tidy"
check "stale temporaries: the same answer" answers
check "a temporary 20 minutes old is removed" [ ! -e "$work/tidy/$entry.99999.tmp" ]
check "a fresh temporary is kept (its writer may be alive)" [ -e "$work/tidy/$entry.99998.tmp" ]
fill "$work/bound" || exit 1
for i in $(seq 1 1100); do printf -v name '%016x.bin' "$i"; : >"$work/bound/$name"; done
chmod 600 "$work/bound"/*.bin && touch -d '2 days ago' "$work/bound"/000000*.bin
rm "$work/bound/$entry" "$work/bound"/set-*.bin
run "$work/bound"
check "the bound: the same answer" answers
check "the bound: at most 1024 entries" [ "$(entries "$work/bound" | wc -l)" -le 1024 ]
check "the bound: the entries of the run kept" [ -e "$work/bound/$entry" ]
instance=$(grep -m1 -oE '^  - id: [^ ]+' "$work/catalog/synth0.yaml" | cut -d' ' -f5)
show() { # spelling of the catalog folder, cache folder: the instance's JSON (defined_at names the file)
  env -u XDG_CACHE_HOME GPUADVISOR_CACHE_DIR="$2" timeout 20 "$bin" --no-default-catalog \
    --catalog "$src/data/catalog/gpus.yaml" --catalog "$1" catalog show "$instance" -o json
}
mkdir -m 700 "$work/spell" && mkdir "$work/x"
show "$work/catalog" "$work/spell" >/dev/null
fragments=$(entries "$work/spell" | grep -vc '^set-')
for spelling in "$work/catalog" "$work/x/../catalog" "$work/catalog/"; do
  check "spelled $spelling: the same JSON as without the cache" \
    [ "$(show "$spelling" "$work/spell")" == "$(show "$spelling" "")" ]
done
check "the file's path as given is in defined_at" \
  grep -q "\"defined_at\": \"$work/x/../catalog/synth0.yaml:" <<<"$(show "$work/x/../catalog" "$work/spell")"
check "two spellings share a file's entry" \
  [ "$(entries "$work/spell" | grep -vc '^set-')" == "$fragments" ]

# 13. A home folder that does not exist: not created, no cache, one note (none with -q).
home() { env -u GPUADVISOR_CACHE_DIR -u XDG_CACHE_HOME HOME="$work/nohome" timeout 20 "$bin" "$@" \
  >"$work/out" 2>"$work/err" </dev/null; echo $? >"$work/status"; }
home "${args[@]}"
check "no home folder: the same answer" answers
check "no home folder: not created" [ ! -e "$work/nohome" ]
one_note() { [ "$(grep -c . "$work/err")" == 1 ] && noted "$1"; }
check "no home folder: one note, and nothing else on stderr" \
  one_note "no cache of large catalog files: the home folder $work/nohome does not exist"
home -q "${args[@]}"
check "no home folder with -q: the same answer" answers
check "no home folder with -q: nothing on stderr" quiet

checks_done
