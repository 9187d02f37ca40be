#!/usr/bin/env bash
# Builds citegate's app (release, as it is hosted) and serves it at
# http://127.0.0.1:8080, rebuilding on change. Trunk's live-reload script is
# left out: the page's Content-Security-Policy admits only the loader script
# it was built with, so an injected script would be refused (a console error);
# reload the tab by hand after a rebuild.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
port="${CITEGATE_PORT:-8080}"
echo "citegate: serving at http://127.0.0.1:$port/"
exec trunk serve --release --no-autoreload --address 127.0.0.1 --port "$port" "$@"
