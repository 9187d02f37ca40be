#!/usr/bin/env bash
# Issue 20's comparison in one run: coverage (citegate vs the seed's
# citation_coverage.py) and pre-dedup of 10,000 candidates, whole process,
# programs taking turns; then title throughput, citegate and the reference
# taking turns. Usage, from the repository root:
#   bench/whole_process.sh SEEDS_DIR [ROUNDS]        (e.g. ../shared/seeds 7)
# Env: BENCH_DIR (inputs, default /tmp/citegate-bench), REF_DIR (extracted
# reference scripts and venv, default /tmp/citegate-reference), BEFORE (an
# older citegate binary to time beside the new one).
set -euo pipefail
seeds="$1" rounds="${2:-7}"
bench="${BENCH_DIR:-/tmp/citegate-bench}" ref="${REF_DIR:-/tmp/citegate-reference}"
# The CLI as installed (`[profile.cli]`: every crate at opt-level 3, fat LTO).
# The examples build in their own profile: built with the core's dev
# dependencies, the core would otherwise be rebuilt for each of the two.
cargo build --profile cli -p citegate-cli
cargo build --profile bench -p citegate-core --example bench_inputs --example bench_title
[ -f "$bench/single_5mb.tex" ] || target/release/examples/bench_inputs "$bench"
python3 bench/reference/extract.py "$seeds" "$ref" >/dev/null
if [ ! -x "$ref/venv/bin/python" ]; then
  python3 -m venv "$ref/venv"
  "$ref/venv/bin/pip" install --quiet Levenshtein
fi
uptime
python3 bench/whole_process.py target/cli/citegate "$ref" "$bench" "$rounds" "${BEFORE:-}"
echo "# title throughput (in-process; chunks of 500 pairs, best of 20 rounds each, summed), 3 turns each"
for _ in 1 2 3; do
  target/release/examples/bench_title "$bench/title_pairs.tsv" 20
  "$ref/venv/bin/python" bench/title_reference.py "$ref" "$bench/title_pairs.tsv" 20
done
uptime
