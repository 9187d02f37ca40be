#!/usr/bin/env bash
# Trunk post-build hook: puts the SHA-256 hash of every inline <script> of
# the built index.html into its Content-Security-Policy, in place of the
# placeholder source 'inline-script-hashes', and the deployer's relay origin
# (CITEGATE_RELAY_ORIGIN, e.g. https://relay.example.org) in place of
# 'relay-origin', which is dropped when none is set.
#
# Trunk loads the app with an inline module script whose text names the
# hashed .js/.wasm files (and the --public-url), so the hash changes with
# every build and cannot be written by hand; a static host serves the page
# as built, so a per-request nonce is not an option either. Perl's core
# modules are enough (no network, no extra tool).
#
# The placeholder 'llm-origins' in connect-src becomes the space-separated
# origins in $CITEGATE_LLM_ORIGINS (empty when unset): a lab that hosts its
# own writing model adds its origin at build time, since a policy cannot be
# loosened by the page at run time.
set -euo pipefail
html="${TRUNK_STAGING_DIR:?run by trunk as a post_build hook}/index.html"
relay="${CITEGATE_RELAY_ORIGIN:-}"
# An origin only: scheme, host and optional port; nothing a policy could misread.
if [[ -n "$relay" && ! "$relay" =~ ^https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?$ ]]; then
  echo "CITEGATE_RELAY_ORIGIN must be an origin such as https://relay.example.org, not: $relay" >&2
  exit 1
fi
export RELAY="$relay"
perl -0777 -i -MDigest::SHA=sha256_base64 -pe '
  my @h;
  while (/<script\b(?![^>]*\bsrc=)[^>]*>(.*?)<\/script>/gs) {
    my $d = sha256_base64($1);
    $d .= "=" x ((4 - length($d) % 4) % 4);
    push @h, "\x27sha256-$d\x27";
  }
  my $sources = join(" ", @h);
  s/\x27inline-script-hashes\x27/$sources/g;
  my $llm = $ENV{CITEGATE_LLM_ORIGINS} // "";
  $llm =~ s/[^A-Za-z0-9:\/.*\- ]//g;
  s/ ?\x27llm-origins\x27/$llm eq "" ? "" : " $llm"/ge;
  if (length $ENV{RELAY}) { s/\x27relay-origin\x27/$ENV{RELAY}/g } else { s/ \x27relay-origin\x27//g }
' "$html"
