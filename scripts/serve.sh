#!/usr/bin/env bash
# Builds citegate's app and serves it at http://127.0.0.1:8080 (rebuilds on change).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
echo "citegate: serving at http://127.0.0.1:8080/"
exec trunk serve --address 127.0.0.1 --port 8080 "$@"
