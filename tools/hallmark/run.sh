#!/usr/bin/env bash
# HALLMARK, live: a split as a .bib, checked by `citegate bibcheck --online` against a world
# served on loopback, scored as HALLMARK scores it.
#
#   tools/hallmark/run.sh --split FILE --world FILE[,FILE…] [--unkind] [--out DIR]
#
# Writes DIR/split.bib, DIR/bibcheck.json and DIR/predictions.jsonl (HALLMARK's prediction
# format; uncertain is written as VALID), prints DR, FPR, F1, tier-weighted F1 and the detection
# rate of each type, and ends with `hallmark: DR=0.xxx FPR=0.xxx F1=0.xxx n=N`.
# `--unkind` serves a world that answers as real indexes do (missing works, neighbours, separate
# preprints, name variants, Crossref markup, regional DOIs, unindexed kinds; seed 1).
# Default DIR: target/hallmark. The world server listens on 127.0.0.1 only and is stopped on exit.
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
split="" world="" out="$root/target/hallmark" unkind=""
while [ $# -gt 0 ]; do
  case "$1" in
    --split) split="$2"; shift 2 ;;
    --world) world="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --unkind) unkind="--unkind"; shift ;;
    *) echo "usage: $0 --split FILE --world FILE[,FILE…] [--unkind] [--out DIR]" >&2; exit 2 ;;
  esac
done
if [ -z "$split" ] || [ -z "$world" ]; then
  echo "usage: $0 --split FILE --world FILE[,FILE…] [--unkind] [--out DIR]" >&2
  exit 2
fi
split="$(cd "$(dirname "$split")" && pwd)/$(basename "$split")"
worlds=""
IFS=',' read -ra parts <<< "$world"
for w in "${parts[@]}"; do
  worlds="${worlds:+$worlds,}$(cd "$(dirname "$w")" && pwd)/$(basename "$w")"
done
mkdir -p "$out"

cargo build --release --quiet --manifest-path "$root/Cargo.toml" \
  -p citegate-cli -p citegate-world -p citegate-hallmark
bin="$root/target/release"

"$bin/hallmark-bib" --split "$split" > "$out/split.bib"

"$bin/citegate-world" --world "$worlds" --port 0 $unkind > "$out/world.port" 2> "$out/world.log" &
world_pid=$!
trap 'kill "$world_pid" 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
  [ -s "$out/world.port" ] && break
  sleep 0.1
done
port="$(head -n1 "$out/world.port")"
if [ -z "$port" ]; then
  echo "the world server did not start:" >&2
  cat "$out/world.log" >&2
  exit 1
fi
base="http://127.0.0.1:$port"

started=$(date +%s)
# bibcheck exits 1 when an entry fails; that is the expected outcome here.
set +e
"$bin/citegate" bibcheck --bib "$out/split.bib" --online --json \
  --s2-base "$base/s2" --crossref-base "$base/crossref" --openalex-base "$base/openalex" \
  --datacite-base "$base/datacite" --dblp-base "$base/dblp" --arxiv-base "$base/arxiv" \
  --interval-ms s2=0,crossref=0,openalex=0,datacite=0,dblp=0,arxiv=0 \
  > "$out/bibcheck.json" 2> "$out/bibcheck.log"
status=$?
set -e
if [ "$status" -gt 1 ]; then
  echo "citegate bibcheck failed (exit $status):" >&2
  tail -n 20 "$out/bibcheck.log" >&2
  exit 1
fi
echo "bibcheck: $(( $(date +%s) - started )) s against the world on $base" >&2

"$bin/hallmark-score" --split "$split" --bibcheck "$out/bibcheck.json" --out "$out/predictions.jsonl"
