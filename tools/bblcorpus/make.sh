#!/bin/sh
# Typesets truth.bib's entries with Debian's TeX Live in each bibliography
# style and keeps the .bbl files as fixtures (core/tests/fixtures/bbl/).
# BibTeX styles need no LaTeX run: the .aux is written here. biblatex styles
# go through one pdflatex run (for the .bcf) and biber.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../../core/tests/fixtures/bbl}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
cp "$here/truth.bib" "$work/truth.bib"
cd "$work"
for style in plain abbrv unsrt alpha ieeetr IEEEtran ACM-Reference-Format plainnat abbrvnat unsrtnat apalike splncs04 elsarticle-num elsarticle-harv; do
  printf '\\relax\n\\citation{*}\n\\bibstyle{%s}\n\\bibdata{truth}\n' "$style" > "$style.aux"
  bibtex -terse "$style" >/dev/null || true
  cp "$style.bbl" "$out/$style.bbl"
done
for style in numeric authoryear apa; do
  cat > "biblatex-$style.tex" <<TEX
\\documentclass{article}
\\usepackage[style=$style,backend=biber]{biblatex}
\\addbibresource{truth.bib}
\\begin{document}
\\nocite{*}
\\printbibliography
\\end{document}
TEX
  pdflatex -interaction=batchmode "biblatex-$style.tex" >/dev/null 2>&1 || true
  biber --quiet "biblatex-$style" >/dev/null 2>&1 || true
  cp "biblatex-$style.bbl" "$out/biblatex-$style.bbl"
done
cp "$here/truth.bib" "$out/truth.bib"
