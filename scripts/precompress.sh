#!/usr/bin/env bash
# Trunk post-build hook (after csp-hashes.sh): writes `NAME.br` (Brotli,
# quality 11) and `NAME.gz` (gzip -9) beside every text and wasm file of the
# staged dist/, so a static server that serves precompressed files (nginx
# `brotli_static`/`gzip_static`, Caddy `precompressed`, `serve`, Netlify,
# Cloudflare Pages) sends the small one without compressing per request.
# The originals stay for servers that do not. Without the `brotli` command
# only the .gz files are written, with a note.
set -euo pipefail
dir="${TRUNK_STAGING_DIR:-${1:?usage: precompress.sh DIST_DIR (or run by trunk as a post_build hook)}}"
have_brotli=1
command -v brotli >/dev/null 2>&1 || { have_brotli=0; echo "precompress: no brotli command; writing .gz only" >&2; }
find "$dir" -type f \( -name '*.html' -o -name '*.js' -o -name '*.css' -o -name '*.wasm' -o -name '*.svg' -o -name '*.json' \) -print0 |
  while IFS= read -r -d '' f; do
    gzip -9 -n -k -f "$f"
    if [ "$have_brotli" = 1 ]; then brotli -q 11 -f -o "$f.br" "$f"; fi
  done
