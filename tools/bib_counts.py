#!/usr/bin/env python3
"""Count the entries of every file in the BibTeX corpus with bibtexparser 1.4.3.

The counts are an independent reference for the Rust parser's corpus test
(core/tests/bib_corpus.rs). Each file is read as bytes and decoded as UTF-8
with invalid bytes replaced, exactly as the Rust test decodes it, so both
parsers see the same text.

Usage: python3 tools/bib_counts.py core/tests/fixtures/bib-corpus \
           > core/tests/fixtures/bib-corpus-counts.tsv

Output: a header line, then `path<TAB>count` per file (path relative to the
corpus folder, sorted). A file bibtexparser cannot read at all gets `error`.
"""

import logging
import os
import sys

import bibtexparser
from bibtexparser.bparser import BibTexParser

assert bibtexparser.__version__ == "1.4.3", bibtexparser.__version__


def count(path):
    with open(path, "rb") as f:
        text = f.read().decode("utf-8", errors="replace")
    parser = BibTexParser(common_strings=True, ignore_nonstandard_types=False,
                          interpolate_strings=True)
    try:
        db = bibtexparser.loads(text, parser=parser)
    except Exception:  # a file the reference cannot parse at all
        return "error"
    return str(len(db.entries))


def main():
    logging.disable(logging.CRITICAL)
    root = sys.argv[1]
    paths = []
    for dirpath, _, files in os.walk(root):
        for name in files:
            full = os.path.join(dirpath, name)
            rel = os.path.relpath(full, root)
            if rel == "PROVENANCE.md":
                continue
            paths.append(rel)
    print("# file\tentries (bibtexparser 1.4.3, tools/bib_counts.py)")
    for rel in sorted(paths):
        print(f"{rel}\t{count(os.path.join(root, rel))}")


if __name__ == "__main__":
    main()
