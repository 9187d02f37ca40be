#!/usr/bin/env bash
# Runs the verification engine on a .bib against the e2e mock paced at the
# real services' published rates, the way a page would (CORS emulated).
#   bench/resolve-mock/run.sh [file.bib]   (default: the astropy paper's)
# KEY=anything: as a user with a Semantic Scholar key (its batch passes the
# preflight); OA_KEY=anything: with an OpenAlex key (its $1 daily budget);
# SEQ=1: one request at a time; VERBOSE=1: each request on stderr; PACE=0: the
# mock answers at once; S2_MS=0: no Semantic Scholar spacing.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$here/../.."
bib="${1:-$root/e2e/fixtures/astropy/bibliography.bib}"
CARGO_TARGET_DIR="$root/target" cargo build --release -q --manifest-path "$here/Cargo.toml"
out="$(mktemp)"
node "$here/serve.mjs" > "$out" &
server=$!
trap 'kill $server' EXIT
for _ in $(seq 50); do [ -s "$out" ] && break; sleep 0.1; done
"$root/target/release/resolve-mock-bench" "$(head -1 "$out")api" "$bib"
