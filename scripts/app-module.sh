#!/usr/bin/env bash
# Trunk post-build hook (before csp-hashes.sh and precompress.sh): Trunk
# builds the whole app (bin citegate-web, `data-type="worker"`) under fixed
# names, citegate-web.js and citegate-web_bg.wasm, since it does not load it.
# A fixed name would let a browser or proxy keep an old copy after a new
# deploy beside a new start module; so both files are renamed with a hash of
# their content, and the page's <meta name="citegate-app"> (read by
# web/src/split.rs) is pointed at the new names.
set -euo pipefail
dir="${TRUNK_STAGING_DIR:-${1:?usage: app-module.sh DIST_DIR (or run by trunk as a post_build hook)}}"
js="$dir/citegate-web.js" wasm="$dir/citegate-web_bg.wasm"
[ -f "$js" ] && [ -f "$wasm" ] || { echo "app-module: $js or $wasm is missing" >&2; exit 1; }
hash="$(cat "$js" "$wasm" | sha256sum | cut -c1-16)"
mv "$js" "$dir/citegate-web-$hash.js"
mv "$wasm" "$dir/citegate-web-${hash}_bg.wasm"
perl -0777 -i -pe "s/(<meta name=\"citegate-app\" content=\")citegate-web\.js citegate-web_bg\.wasm(\")/\${1}citegate-web-$hash.js citegate-web-${hash}_bg.wasm\${2}/ or die \"app-module: no citegate-app meta in index.html\\n\"" "$dir/index.html"
