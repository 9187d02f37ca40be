#!/usr/bin/env bash
# Times the seed's reference Python scripts on the bench inputs, from a folder
# outside the repository. Usage: bench/reference/run.sh SEEDS_DIR WORK_DIR [workloads...]
#   workloads: title coverage bib (default), predup (one run, minutes)
# Inputs: /tmp/citegate-bench (or BENCH_DIR), written by
#   cargo run -p citegate-core --example bench_inputs -- /tmp/citegate-bench
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
seeds="$1" work="$2"
shift 2
python3 "$here/extract.py" "$seeds" "$work"
if [ ! -x "$work/venv/bin/python" ]; then
  python3 -m venv "$work/venv"
  "$work/venv/bin/pip" install --quiet Levenshtein bibtexparser==1.4.3
fi
cd "$work"
exec venv/bin/python driver.py "$@"
