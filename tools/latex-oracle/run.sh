#!/usr/bin/env bash
# Compiles the test documents under core/tests/fixtures/latex-oracle/ with TeX Live
# and stores the keys LaTeX itself recorded as each document's `expected.txt`;
# with `counts`, asks BibTeX how many entries each .bib of the corpus holds.
#
#   tools/latex-oracle/run.sh          # every document
#   tools/latex-oracle/run.sh 05-wrapper-newcommand ...
#   tools/latex-oracle/run.sh counts   # core/tests/fixtures/bib-corpus-bibtex-counts.tsv
#
# Needs Debian's TeX Live: apt-get install texlive-latex-extra texlive-bibtex-extra biber
# texlive-publishers. The tests read only the stored files, so CI needs no TeX.
#
# A document that loads biblatex is compiled with pdflatex then biber, and its keys are
# read from the .bcf (`<bcf:citekey>`; `nocite="1"` marks \nocite); any other document
# is compiled with pdflatex then bibtex, and its keys are read from every .aux
# (`\citation{…}`, which \cite and \nocite both write, so those lines say `any`).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
docs="$root/core/tests/fixtures/latex-oracle"
texver=$(pdflatex --version | head -1)

extract() { # dir → expected.txt on stdout
  local dir=$1
  if [ -f "$dir/main.bcf" ] && grep -q '<bcf:citekey' "$dir/main.bcf"; then
    python3 - "$dir/main.bcf" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
out = set()
for attrs, key in re.findall(r'<bcf:citekey([^>]*)>([^<]*)</bcf:citekey>', text):
    out.add(("nocite" if 'nocite="1"' in attrs else "cite", key.strip()))
for kind, key in sorted(out):
    print(f"{kind}\t{key}")
PY
  else
    python3 - "$dir" <<'PY'
import pathlib, re, sys
out = set()
for aux in pathlib.Path(sys.argv[1]).rglob("*.aux"):
    for group in re.findall(r'\\citation\{([^}]*)\}', aux.read_text(encoding="utf-8", errors="replace")):
        out.update(k.strip() for k in group.split(",") if k.strip())
for key in sorted(out):
    print(f"any\t{key}")
PY
  fi
}

compile_doc() { # fixture dir
  local src=$1 name work
  name=$(basename "$src")
  work=$(mktemp -d)
  cp -r "$src"/. "$work"/
  [ -f "$work/refs.bib" ] || cp "$docs/refs.bib" "$work/refs.bib"
  rm -f "$work/expected.txt"
  (
    cd "$work"
    pdflatex -interaction=nonstopmode -halt-on-error main.tex >pdflatex.log 2>&1 || true
    if grep -q '{biblatex}' main.tex; then
      biber main >biber.log 2>&1 || true
    elif [ -f main.aux ]; then
      bibtex main >bibtex.log 2>&1 || true
    fi
  )
  if [ ! -f "$work/main.aux" ]; then
    echo "$name: pdflatex wrote no .aux; see $work/pdflatex.log" >&2
    return 1
  fi
  {
    echo "# keys LaTeX recorded for main.tex: tools/latex-oracle/run.sh, $texver"
    extract "$work"
  } >"$src/expected.txt"
  echo "$name: $(grep -vc '^#' "$src/expected.txt") keys"
  rm -rf "$work"
}

counts() {
  local out="$root/core/tests/fixtures/bib-corpus-bibtex-counts.tsv"
  local corpus="$root/core/tests/fixtures/bib-corpus"
  local work
  work=$(mktemp -d)
  {
    echo "# file	\\bibitem count in the .bbl of BibTeX (plain style, \\nocite{*}); tools/latex-oracle/run.sh counts, $(bibtex --version | head -1)"
    (cd "$corpus" && find . -type f ! -name PROVENANCE.md | sed 's|^\./||' | LC_ALL=C sort) | while read -r f; do
      rm -rf "${work:?}"/*
      cp "$corpus/$f" "$work/x.bib"
      printf '\\documentclass{article}\\begin{document}\\nocite{*}\\bibliographystyle{plain}\\bibliography{x}\\end{document}\n' >"$work/doc.tex"
      (cd "$work" && pdflatex -interaction=nonstopmode doc.tex >/dev/null 2>&1; bibtex -min-crossrefs=100 doc >/dev/null 2>&1) || true
      if [ -f "$work/doc.bbl" ]; then
        printf '%s\t%s\n' "$f" "$(grep -c '^\\bibitem' "$work/doc.bbl" || true)"
      else
        printf '%s\t-\n' "$f"
      fi
    done
  } >"$out"
  rm -rf "$work"
  echo "wrote $out"
}

if [ "${1:-}" = counts ]; then
  counts
  exit 0
fi
if [ $# -gt 0 ]; then
  for n in "$@"; do compile_doc "$docs/$n" || true; done
else
  for d in "$docs"/*/; do compile_doc "${d%/}" || true; done
fi
