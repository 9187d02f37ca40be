#!/usr/bin/env bash
# Checks that what citegate publishes can be published:
#  - citegate-core, citegate-index and citegate-cli as crates: `cargo publish
#    --dry-run` packs them (citegate-cli against the packed others, not the paths) and
#    builds each from its packed sources alone;
#  - the JavaScript package: `npm pack --dry-run` in js/ lists what the tarball
#    would hold (js/test/pack.test.mjs installs the real tarball and imports it).
# No upload happens. Pass --no-verify to skip the builds of the packed crates.
set -euo pipefail
cd "$(dirname "$0")/.."
verify=()
[ "${1:-}" = --no-verify ] && verify=(--no-verify)

# Cargo unpacks the packed citegate-core into its registry cache to build
# citegate-cli against it, and treats that copy, and what it built from it,
# as unchanging for one version, even after core changed. So: drop the
# unpacked copies from earlier runs (only ours, only the local overlay
# registries, whose folder names start with "-"), and build in a target
# folder of its own whose citegate artifacts are removed first (the other
# dependencies stay built, which keeps reruns fast).
cargo_home="${CARGO_HOME:-$HOME/.cargo}"
rm -rf "$cargo_home"/registry/src/-*/citegate-* "$cargo_home"/registry/cache/-*/citegate-*
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target}/package-check"
rm -rf "$CARGO_TARGET_DIR"/debug/.fingerprint/citegate-* "$CARGO_TARGET_DIR"/debug/deps/*citegate* \
  "$CARGO_TARGET_DIR"/debug/build/citegate-* "$CARGO_TARGET_DIR"/package

echo "== cargo package -p citegate-core: the file list"
cargo package -p citegate-core --list --allow-dirty
echo "== cargo publish --dry-run: citegate-core, citegate-index, citegate-cli"
cargo publish --dry-run --allow-dirty "${verify[@]}" -p citegate-core -p citegate-index -p citegate-cli
echo "== npm pack --dry-run (js/)"
(cd js && npm pack --dry-run --ignore-scripts 2>&1 | sed -n '/Tarball Contents/,/Tarball Details/p')
echo "== package checks passed"
