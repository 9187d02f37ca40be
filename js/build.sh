#!/usr/bin/env bash
# Builds citegate-core's JavaScript packages from one wasm32 build:
#   js/pkg-web/   ES module for browsers (`wasm-bindgen --target web`)
#   js/pkg-node/  CommonJS module for Node (`wasm-bindgen --target nodejs`)
# Both are generated (gitignored). wasm-opt (binaryen) shrinks the .wasm when
# it is installed; without it the packages work the same, only larger.
set -euo pipefail
cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-target}"

cargo build -p citegate-core --features js --target wasm32-unknown-unknown --release
wasm="$target/wasm32-unknown-unknown/release/citegate_core.wasm"

for kind in web node; do
  out="js/pkg-$kind"
  rm -rf "$out"
  case $kind in
    web) wasm-bindgen --target web --out-dir "$out" --out-name citegate "$wasm" ;;
    node) wasm-bindgen --target nodejs --out-dir "$out" --out-name citegate "$wasm" ;;
  esac
  if command -v wasm-opt >/dev/null; then
    # The features rustc enables by default for wasm32 must be allowed explicitly
    # for binaryen releases that predate them.
    wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int \
      --enable-sign-ext --enable-mutable-globals --enable-reference-types --enable-multivalue \
      -o "$out/citegate_bg.wasm" "$out/citegate_bg.wasm"
  fi
  # The module system of each folder, whatever the parent package says.
  if [ $kind = web ]; then
    echo '{ "type": "module" }' >"$out/package.json"
  else
    echo '{ "type": "commonjs" }' >"$out/package.json"
  fi
done
echo "built js/pkg-web and js/pkg-node"
