#!/usr/bin/env bash
# Tests .pre-commit-hooks.yaml with PyPI's pre-commit (`pre-commit try-repo`):
# in a scratch git repository, a broken .bib fails the hook with its finding
# and file:line, a .bib with only a warning passes `citegate-bibcheck` and
# fails `citegate-bibcheck-strict`. Installs pre-commit in a venv under
# target/ the first time; builds the CLI and puts it on PATH.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
venv=target/pre-commit-venv
[ -x "$venv/bin/pre-commit" ] || { python3 -m venv "$venv" && "$venv/bin/pip" install -q pre-commit; }
cargo build -q -p citegate-cli
export PATH="$root/${CARGO_TARGET_DIR:-target}/debug:$PATH"
# try-repo reads the hooks from a commit: the working tree's file goes into a
# throwaway clone so uncommitted changes to it are tested too.
hooks=$(mktemp -d); work=$(mktemp -d)
trap 'rm -rf "$hooks" "$work"' EXIT
git init -q "$hooks" && cp .pre-commit-hooks.yaml "$hooks/"
git -C "$hooks" add . && git -C "$hooks" -c user.name=t -c user.email=t@t commit -qm hooks
cd "$work" && git init -q
printf '@article{a, author={A}, title={T}, year={2020}}\n' >broken.bib
printf '@misc{b, title={U}, doi={doi:10.1/x}}\n' >warning.bib
git add .
run() { "$root/$venv/bin/pre-commit" try-repo "$hooks" "$1" --files "$2" 2>&1; }
fail() { echo "FAIL: $*"; exit 1; }
out=$(run citegate-bibcheck broken.bib) && fail "broken.bib passed: $out"
grep -q 'broken.bib:1: error: `@article` entry `a` needs `journal`' <<<"$out" || fail "no finding: $out"
out=$(run citegate-bibcheck warning.bib) || fail "a warning failed citegate-bibcheck: $out"
out=$(run citegate-bibcheck-strict warning.bib) && fail "a warning passed the strict hook: $out"
grep -q 'write the DOI bare' <<<"$out" || fail "no warning shown: $out"
echo "pre-commit hooks: ok"
