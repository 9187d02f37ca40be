#!/usr/bin/env bash
# Full-size hostile files through the CLI, with wall time and peak memory
# (GNU time's "Maximum resident set size"). The unit tests in
# core/tests/hostile.rs use smaller sizes so they stay fast in debug builds.
# Usage: fuzz/huge.sh [path/to/citegate]   (default: a release build)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="${1:-}"
if [ -z "$bin" ]; then
  (cd "$here/.." && cargo build --release -p citegate-cli >/dev/null)
  bin="${CARGO_TARGET_DIR:-$here/../target}/release/citegate"
fi
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT

python3 - "$dir" <<'PY'
import json, sys, os
d = sys.argv[1]
with open(os.path.join(d, "big.bib"), "w") as f:
    i, size = 0, 0
    while size < 50_000_000:
        e = ("@article{key%d,\n  author = {Doe, Jane and Roe, Richard},\n"
             "  title = {A study of {GPU} kernels number %d},\n  journal = {Journal of Tests},\n"
             "  year = {2020},\n  doi = {10.1234/test.%d}\n}\n\n") % (i, i, i)
        f.write(e); size += len(e); i += 1
with open(os.path.join(d, "oneline.bib"), "w") as f:
    f.write("@misc{big, title = {" + "a" * 10_000_000 + "}}")
with open(os.path.join(d, "deep.bib"), "w") as f:
    f.write("@misc{k, title = {" + "{" * 10000 + "x" + "}" * 10000 + "}}")
with open(os.path.join(d, "lines.tex"), "w") as f:
    for i in range(100_000):
        f.write("Line %d, see \\citep[p.~%d]{family%d2020paper} %% note {\n" % (i, i, i % 20000))
with open(os.path.join(d, "oneline.tex"), "w") as f:
    f.write("word \\cite{a,b} " * (10_000_000 // 16))
papers = [{"paperId": "p%d" % i, "title": "Paper number %d on %d things" % (i, i % 97),
           "abstract": "An abstract.", "year": 2000 + i % 24,
           "authors": [{"name": "Author%d Family%d" % (i, i % 301)}],
           "externalIds": {"DOI": "10.1/%d" % i}, "match_score": 100,
           "discovered_for": ["intro"], "bibtex_key": "family%d2020paper" % i}
          for i in range(20_000)]
with open(os.path.join(d, "pool.json"), "w") as f:
    json.dump({"papers": papers}, f)
PY

printf '| input | command | exit | wall s | peak RSS MB |\n|---|---|---|---|---|\n'
run() { # run <label> <args...>
  local label="$1"
  shift
  local code=0
  /usr/bin/time -v -o "$dir/time.txt" "$bin" "$@" >"$dir/out.txt" 2>"$dir/err.txt" || code=$?
  local rss wall
  rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2/1024}' "$dir/time.txt")
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$dir/time.txt")
  if grep -q panicked "$dir/err.txt"; then
    echo "PANIC in $label" >&2
    cat "$dir/err.txt" >&2
    exit 1
  fi
  printf '| %s | `%s` | %s | %s | %s |\n' "$label" "${1} …" "$code" "$wall" "$rss"
}
cd "$dir"
run "50 MB .bib ($(du -m big.bib | cut -f1) MB)" bibcheck --bib big.bib --json
run "10 MB one-line .bib field" bibcheck --bib oneline.bib
run "10,000 nested braces .bib" bibcheck --bib deep.bib
run "100,000-line .tex" cites --tex lines.tex --json
run "10 MB one-line .tex" cites --tex oneline.tex --json
run "pool of 20,000 papers + 100,000-line .tex" coverage --tex lines.tex --pool pool.json --json
run "pool of 20,000 papers" validate-pool --pool pool.json
