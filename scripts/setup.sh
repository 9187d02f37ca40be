#!/usr/bin/env bash
# Installs what citegate needs to build (and, with --test, to test), skipping
# whatever is already installed at the right version. Safe to run any number
# of times. Needs: rustup's toolchain; for --test also Debian's apt and Node.js.
set -euo pipefail
cd "$(dirname "$0")/.."

want_test=0
[ "${1:-}" = "--test" ] && want_test=1
say() { printf '[setup] %s\n' "$*"; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

TRUNK_VERSION=0.21.14
# The wasm-bindgen CLI must equal the library version that Cargo.lock pins.
WB_VERSION=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
[ -n "$WB_VERSION" ] || { say "cannot read the wasm-bindgen version from Cargo.lock"; exit 1; }
grep -q "^wasm_bindgen = \"$WB_VERSION\"" Trunk.toml || {
  say "Trunk.toml must pin wasm_bindgen = \"$WB_VERSION\" (the version in Cargo.lock)"; exit 1; }

if rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "wasm32-unknown-unknown target: present"
else
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

if command -v trunk >/dev/null 2>&1 && [ "$(trunk --version 2>/dev/null)" = "trunk $TRUNK_VERSION" ]; then
  say "trunk $TRUNK_VERSION: present"
else
  say "installing trunk $TRUNK_VERSION (takes several minutes once)"
  cargo install trunk --version "$TRUNK_VERSION" --locked
fi

if command -v wasm-bindgen >/dev/null 2>&1 && [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" = "$WB_VERSION" ]; then
  say "wasm-bindgen-cli $WB_VERSION: present"
else
  say "installing wasm-bindgen-cli $WB_VERSION"
  # Not --locked: the CLI's own lockfile pins crates that no longer build on current toolchains.
  cargo install wasm-bindgen-cli --version "$WB_VERSION" --force
fi

# The build's post-build hook writes .br files beside dist/'s files with it.
if command -v brotli >/dev/null 2>&1; then
  say "brotli: present"
elif command -v apt-get >/dev/null 2>&1; then
  say "installing brotli from Debian (precompressed .br files in dist/)"
  as_root apt-get update >/dev/null || true
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y brotli || say "brotli could not be installed; dist/ gets .gz files only"
fi

[ "$want_test" = 1 ] || exit 0

if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
  say "chromium and chromedriver: present"
else
  say "installing chromium and chromium-driver from Debian"
  as_root apt-get update
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium chromium-driver
fi

if ! command -v node >/dev/null 2>&1; then
  say "installing Node.js from Debian"
  as_root apt-get update
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y nodejs npm
fi

if [ -f e2e/node_modules/playwright-core/package.json ] && \
   [ "$(node -p "require('./e2e/node_modules/playwright-core/package.json').version")" = \
     "$(node -p "require('./e2e/package-lock.json').packages['node_modules/playwright-core'].version")" ]; then
  say "e2e node modules: present"
else
  say "installing the e2e test's node modules (playwright-core only; it downloads no browser)"
  (cd e2e && npm ci --no-audit --no-fund)
fi
