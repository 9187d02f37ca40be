#!/usr/bin/env bash
# Runs every fuzz target for N seconds each (default 30), seeded from the
# project's fixtures. Usage: fuzz/run.sh [seconds] [target...]
#
# Needs cargo-fuzz. Only a stable toolchain is assumed: RUSTC_BOOTSTRAP=1 lets
# stable rustc accept the `-Z sanitizer` flags cargo-fuzz passes. Exits 0 with
# a note when cargo-fuzz is missing, so CI can call it unconditionally.
# Corpora and artifacts live under $FUZZ_WORK (default: fuzz/work, ignored by
# git); a crash leaves its input in $FUZZ_WORK/artifacts/<target>/ and makes
# this script fail.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
fixtures="$here/../core/tests/fixtures"
secs="${1:-30}"
shift || true
all=(tex_scan bib_parse pool_json candidates_json outline_json refs_jsonl works_response s2_body
  bibliography zip_archive write_stream resolve_replies verify_replies)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${all[@]}")
work="${FUZZ_WORK:-$here/work}"
sanitizer="${FUZZ_SANITIZER:-address}"

if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "note: cargo-fuzz is not installed; skipping the fuzz runs (cargo install cargo-fuzz)"
  exit 0
fi
export RUSTC_BOOTSTRAP=1

# seed <target> <prefix-bytes-as-printf-format> <file>...: copies each file
# into the target's corpus, named by its checksum, with an optional prefix.
seed() {
  local t="$1" prefix="$2"
  shift 2
  mkdir -p "$work/corpus/$t"
  local f
  for f in "$@"; do
    [ -f "$f" ] || continue
    local out
    out="$work/corpus/$t/seed-$(cksum <"$f" | cut -d' ' -f1)-$(printf '%s' "$prefix" | cksum | cut -d' ' -f1)"
    { printf "$prefix"; cat "$f"; } >"$out"
  done
}
seed_text() { # seed_text <target> <name> <text>
  mkdir -p "$work/corpus/$1"
  printf '%s' "$3" >"$work/corpus/$1/seed-$2"
}

seed tex_scan '' $(find "$fixtures/papers" "$fixtures/golden" -name '*.tex')
seed bib_parse '' $(find "$fixtures/bib-corpus" "$fixtures/papers" -name '*.bib')
seed pool_json '' $(find "$fixtures/golden" -name '*pool*.json' -o -name 'validate_*.json' -o -name 'dedupe.json')
seed candidates_json '' "$fixtures/golden/inputs/predup_small.json"
seed_text outline_json basic '{"introduction_strategy":{"search_directions":["graph neural networks","message passing"]},"related_work_strategy":{"subsections":[{"sota_investigation_mission":"transformers for proteins","limitation_search_queries":["data leakage","benchmark bias"]},{"sota_investigation_mission":null}]}}'
seed_text outline_json bad-shape '{"introduction_strategy":{"search_directions":[1,{"a":2}]},"related_work_strategy":[]}'
seed_text refs_jsonl basic '{"id":"Vaswani2017-s2","doi":"10.48550/arXiv.1706.03762","title":"Attention Is All You Need","authors":[{"family":"Vaswani","given":"Ashish"}],"published":{"date-parts":[[2017,6,12]]},"source":{"name":"s2"},"arxiv_id":"1706.03762","pdf_path":"x.pdf"}
{"id":"Doe2020","title":"A {\\LaTeX} title","authors":["Jane Doe"],"abstract":"<b>x</b>","tags":["a"]}
not json
{"id":7,"title":null}'
for s in semanticscholar:'\000' openalex:'\001' crossref:'\002' arxiv:'\003'; do
  dir="${s%%:*}" pre="${s#*:}"
  seed works_response "$pre\\000" $(find "$fixtures/api/$dir" -type f ! -name '*.md')
done
seed s2_body '\001' $(find "$fixtures/api/semanticscholar" -type f ! -name '*.md')
# bibliography: the first byte picks the name (0 .bib, 1 .json, 2 .ris, 3 .txt)
seed bibliography '\000' $(find "$fixtures/formats" -name '*.bib') $(find "$fixtures/bib-corpus" -name '*.bib' | head -20)
seed bibliography '\001' $(find "$fixtures/formats" -name '*.json')
seed bibliography '\002' $(find "$fixtures/formats" -name '*.ris')
# zip_archive: a small project archive made here (zip is in the base image; skipped if not)
if command -v zip >/dev/null 2>&1; then
  tmp="$(mktemp -d)"
  mkdir -p "$tmp/p/sections"
  printf '\\input{sections/intro}\n\\cite{a}\n' >"$tmp/p/main.tex"
  printf 'Intro \\citep{b,c}.\n' >"$tmp/p/sections/intro.tex"
  (cd "$tmp/p" && zip -qr ../project.zip .)
  seed zip_archive '' "$tmp/project.zip"
  rm -rf "$tmp"
fi
seed_text write_stream openai $'\000data: {"choices":[{"delta":{"content":"\\\\section{Intro}"}}]}\n\n\xffdata: [DONE]\n\n'
seed_text write_stream anthropic $'\001event: content_block_delta\ndata: {"type":"content_block_delta","delta":{"type":"text_delta","text":"```latex\\n\\\\section{Related}"}}\n\n\xffevent: message_stop\ndata: {"type":"message_stop"}\n\n'
# verify_replies: raw_candidates.json, 0xFF, then replies split on 0xFE (first byte: status)
if [ -f "$fixtures/golden/inputs/predup_small.json" ]; then
  mkdir -p "$work/corpus/verify_replies"
  { cat "$fixtures/golden/inputs/predup_small.json"; printf '\377\000'
    find "$fixtures/api/semanticscholar" -type f -name '*.json' ! -name '*.request.json' | head -1 | xargs cat
    printf '\376\006\376\002{"error":"not found"}'; } >"$work/corpus/verify_replies/seed-predup"
fi
# resolve_replies: a .bib, 0xFF, then replies split on 0xFE (first byte: status)
for f in "$fixtures/api/datacite/doi_zenodo_48440.json" "$fixtures/api/dblp/search_publ_test.json"; do
  [ -f "$f" ] || continue
  mkdir -p "$work/corpus/resolve_replies"
  { printf '@misc{z, title={Astropy}, doi={10.5281/zenodo.48440}}\n@inproceedings{t, title={Attention is all you need}, year={2017}}\n\377\000'
    cat "$f"; printf '\376\003{}\376\006'; } >"$work/corpus/resolve_replies/seed-$(basename "$f")"
done

cd "$here"
if ! cargo fuzz build --sanitizer "$sanitizer"; then
  # Without a working AddressSanitizer runtime, still fuzz: the code is
  # memory-safe Rust, so panics, hangs and out-of-memory are what we look for.
  echo "note: build with --sanitizer $sanitizer failed; retrying with --sanitizer none"
  sanitizer=none
  cargo fuzz build --sanitizer none
fi
failed=()
for t in "${targets[@]}"; do
  mkdir -p "$work/artifacts/$t" "$work/logs"
  echo "== fuzz $t for ${secs}s"
  if cargo fuzz run --sanitizer "$sanitizer" "$t" "$work/corpus/$t" -- \
      -max_total_time="$secs" -max_len="${FUZZ_MAX_LEN:-16384}" -rss_limit_mb=2048 -timeout=10 \
      -artifact_prefix="$work/artifacts/$t/" -print_final_stats=1 \
      >"$work/logs/$t.log" 2>&1; then
    grep -E '^#[0-9]+[[:space:]]+DONE' "$work/logs/$t.log" | tail -1 || true
  else
    failed+=("$t")
    tail -40 "$work/logs/$t.log"
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: crashes in ${failed[*]} (inputs under $work/artifacts)"
  exit 1
fi
