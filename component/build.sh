#!/usr/bin/env bash
# Builds citegate's WebAssembly component (WIT world `citegate`, wit/citegate.wit):
#   component/target/wasm32-wasip2/release/citegate_component.wasm
# then, for the Node test, transpiles it with jco into component/dist/.
# Needs the wasm32-wasip2 target (`rustup target add wasm32-wasip2`) and, for
# the transpile, `npm install` in component/ (@bytecodealliance/jco).
set -euo pipefail
cd "$(dirname "$0")"
cargo build --release --target wasm32-wasip2
wasm=target/wasm32-wasip2/release/citegate_component.wasm
echo "built $wasm ($(wc -c <"$wasm") bytes)"
if [ "${1:-}" != --no-transpile ]; then
  rm -rf dist
  npx jco transpile "$wasm" --name citegate -o dist --quiet
  echo "transpiled to component/dist/"
fi
