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
# The BibTeX styles typeset, each in the class its publisher gives (two
# columns for IEEEtran), and the PDF's text in reading order (pdftotext):
# the strings the plain-text reader is measured on.
mkdir -p "$out/text"
for style in plain abbrv unsrt alpha ieeetr IEEEtran ACM-Reference-Format plainnat abbrvnat unsrtnat apalike splncs04 elsarticle-num elsarticle-harv; do
  case $style in
    IEEEtran) head='\documentclass{IEEEtran}\usepackage{url}' ;;
    ACM-Reference-Format) head='\documentclass[sigconf,nonacm]{acmart}' ;;
    splncs04) head='\documentclass{llncs}\usepackage{url}\usepackage{hyperref}' ;;
    elsarticle-*) head='\documentclass{elsarticle}\usepackage{url}\usepackage{hyperref}' ;;
    *nat|apalike) head='\documentclass{article}\usepackage{natbib}\usepackage{url}\usepackage{hyperref}' ;;
    *) head='\documentclass{article}\usepackage{url}\usepackage{hyperref}' ;;
  esac
  printf '%s\n\\usepackage[T1]{fontenc}\\usepackage{lmodern}\n\\begin{document}\n\\nocite{*}\n\\bibliographystyle{%s}\n\\bibliography{truth}\n\\end{document}\n' "$head" "$style" > "doc-$style.tex"
  cp "$style.bbl" "doc-$style.bbl"
  for _ in 1 2; do pdflatex -interaction=batchmode "doc-$style" >/dev/null 2>&1 || true; done
  pdftotext "doc-$style.pdf" "$out/text/$style.txt"
done
