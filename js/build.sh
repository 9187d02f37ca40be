#!/usr/bin/env bash
# Builds citegate's JavaScript packages from one wasm32 build of the crate
# citegate-js (js/crate/, the core's functions for wasm-bindgen):
#   js/pkg-web/   ES module for browsers (`wasm-bindgen --target web`)
#   js/pkg-node/  CommonJS module for Node (`wasm-bindgen --target nodejs`)
# Both are generated (gitignored). No wasm-opt pass: Debian's binaryen 108
# rewrites the externref table that wasm-bindgen 0.2.130 emits into one the
# engine rejects at start-up (even at -O0; see BENCHMARKS.md).
set -euo pipefail
cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-target}"

cargo build -p citegate-js --target wasm32-unknown-unknown --profile js
wasm="$target/wasm32-unknown-unknown/js/citegate_js.wasm"

for kind in web node; do
  out="js/pkg-$kind"
  rm -rf "$out"
  case $kind in
    web) wasm-bindgen --target web --out-dir "$out" --out-name citegate "$wasm" ;;
    node) wasm-bindgen --target nodejs --out-dir "$out" --out-name citegate "$wasm" ;;
  esac
  # The module system of each folder, whatever the parent package says.
  if [ $kind = web ]; then
    echo '{ "type": "module" }' >"$out/package.json"
  else
    echo '{ "type": "commonjs" }' >"$out/package.json"
  fi
done
echo "built js/pkg-web and js/pkg-node"
