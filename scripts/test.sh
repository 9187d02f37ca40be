#!/usr/bin/env bash
# Runs every citegate test: native, core in wasm32 inside headless Chromium,
# and end-to-end tests of the built app in headless Chromium.
# Installs what it needs first (skipping what is there).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --test

export CHROMEDRIVER=/usr/bin/chromedriver
export CHROMIUM=/usr/bin/chromium

echo "== 1/3 native tests (cargo test)"
cargo test --workspace

echo "== 2/3 wasm32 tests in headless Chromium (wasm-bindgen-test-runner + ChromeDriver)"
# wasm-bindgen-test-runner reads wasm-tests/webdriver.json for Chromium's flags.
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
WASM_BINDGEN_TEST_TIMEOUT=120 \
  cargo test -p citegate-wasm-tests --target wasm32-unknown-unknown

echo "== 3/3 end-to-end tests of the built app in headless Chromium"
trunk build --release --dist target/e2e-dist --public-url /
(cd e2e && CITEGATE_DIST=../target/e2e-dist node --test --test-concurrency=1 tests/)
echo "== all tests passed"
