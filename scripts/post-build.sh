#!/usr/bin/env bash
# Trunk's one post-build hook. Trunk starts the hooks of a stage all at once,
# so steps that must follow each other are run here, in order: the whole
# app's files named by their hash (the page's meta then names them), the
# CSP's hashes of the final index.html, and last the .br/.gz copies of the
# final files.
set -euo pipefail
here="$(dirname "$0")"
bash "$here/app-module.sh"
bash "$here/csp-hashes.sh"
bash "$here/precompress.sh"
