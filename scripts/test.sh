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

echo "== JavaScript API (js/pkg-node, js/pkg-web, the packed tarball) under node --test"
js/build.sh
echo "== the package's TypeScript declarations under tsc --noEmit --strict (js/types-check/check.ts)"
(cd js/types-check && npm ci --no-audit --no-fund && npm run check)
echo "== packaging: the crates publish (dry run), the npm package packs"
scripts/package-check.sh
echo "== the pre-commit hooks under PyPI's pre-commit (try-repo)"
scripts/pre-commit-check.sh
echo "== the WebAssembly component (wasm32-wasip2), called from Node through jco"
rustup target add wasm32-wasip2
(cd component && npm ci --no-audit --no-fund && ./build.sh && node --test test/)
node --test js/test/

echo "== 3/3 end-to-end tests of the built app in headless Chromium"
trunk build --release --dist target/e2e-dist --public-url /
# The same app for a static host's sub-path (e2e/tests/hosting.test.mjs).
trunk build --release --dist target/e2e-dist-sub --public-url /some/sub/path/
(cd e2e && CITEGATE_DIST=../target/e2e-dist CITEGATE_DIST_SUB=../target/e2e-dist-sub node --test --test-concurrency=1 tests/)
echo "== all tests passed"
