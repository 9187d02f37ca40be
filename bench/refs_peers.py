"""Reference extraction by the peers, offline: run with the Python of a venv holding
hallucinator, academic-refchecker and refextract (see BENCHMARKS.md), called by
bench/refs_extract.py. Prints one JSON line per PDF:
{"file", "tool", "seconds", "references": [{"raw", "title", "authors", "year", "doi",
"arxiv"}], "error"}. "authors" are the peer's strings as it gives them.

What each peer does here, and why:
- hallucinator: PdfExtractor().extract(path), its own PDF-to-references pipeline (MuPDF
  text, section finding, segmentation, field parsing); no network is involved.
- refchecker: the steps its CLI takes for a local PDF (ArxivReferenceChecker's
  extract_bibliography): its PDF text, find_bibliography_section, the pdftotext retry it
  makes when no section is found, then parse_references; the LLM is disabled
  (llm_config={"disabled": True}) and the GROBID fallback it would try next is not called.
- refextract: extract_references_from_file(path), its rule-based extraction over
  pdftotext; it reads its local knowledge bases, no network.
"""

import io
import json
import logging
import os
import subprocess
import sys
import time

logging.disable(logging.CRITICAL)


def _first(v):
    if isinstance(v, list):
        return v[0] if v else None
    return v


def hallucinator_extractor():
    import hallucinator

    ex = hallucinator.PdfExtractor()

    def run(path):
        res = ex.extract(path)
        return [
            {
                "raw": r.raw_citation,
                "title": r.title,
                "authors": list(r.authors),
                "year": None,
                "doi": r.doi,
                "arxiv": r.arxiv_id,
            }
            for r in res.references
        ]

    return run


def refextract_extractor():
    from refextract import extract_references_from_file

    def run(path):
        out = []
        for r in extract_references_from_file(path):
            doi = _first(r.get("doi"))
            if doi and doi.lower().startswith("doi:"):
                doi = doi[4:]
            arxiv = _first(r.get("reportnumber"))
            if arxiv and not arxiv.lower().startswith("arxiv:"):
                arxiv = None
            out.append(
                {
                    "raw": _first(r.get("raw_ref")),
                    "title": _first(r.get("title")),
                    "authors": [a for a in (r.get("author") or [])],
                    "year": _first(r.get("year")),
                    "doi": doi,
                    "arxiv": arxiv[6:] if arxiv else None,
                }
            )
        return out

    return run


def refchecker_extractor():
    from refchecker.core.refchecker import ArxivReferenceChecker

    checker = ArxivReferenceChecker(llm_config={"disabled": True})

    def run(path):
        with open(path, "rb") as fh:
            content = io.BytesIO(fh.read())
        checker.fatal_error = False
        text = checker.extract_text_from_pdf(content)
        bib = checker.find_bibliography_section(text) if text else None
        if not bib:
            p = subprocess.run(["pdftotext", path, "-"], capture_output=True, text=True, timeout=60)
            if p.returncode == 0 and p.stdout.strip():
                bib = checker.find_bibliography_section(p.stdout)
        if not bib:
            return []
        # its regex path prints a hint to stdout, which carries our JSON lines
        saved = sys.stdout
        sys.stdout = io.StringIO()
        try:
            refs = checker.parse_references(bib) or []
        finally:
            sys.stdout = saved
        out = []
        for r in refs:
            authors = r.get("authors") or []
            out.append(
                {
                    "raw": r.get("raw_text") or r.get("raw") or "",
                    "title": r.get("title"),
                    "authors": [a if isinstance(a, str) else a.get("name", "") for a in authors],
                    "year": str(r["year"]) if r.get("year") else None,
                    "doi": r.get("doi"),
                    "arxiv": r.get("arxiv_id"),
                }
            )
        return out

    return run


TOOLS = {
    "hallucinator": hallucinator_extractor,
    "refchecker": refchecker_extractor,
    "refextract": refextract_extractor,
}


def main():
    tool = sys.argv[1]
    paths = sys.argv[2:]
    real_stdout = sys.stdout
    sys.stdout = sys.stderr  # library chatter must not mix with our lines
    try:
        run = TOOLS[tool]()
    except Exception as e:
        for p in paths:
            real_stdout.write(json.dumps({"file": p, "tool": tool, "seconds": 0, "references": [], "error": "import: {}".format(e)}) + "\n")
        return
    if paths:
        # one untimed run first: knowledge bases and models load lazily on first use
        try:
            run(os.path.abspath(paths[0]))
        except Exception:
            pass
    for p in paths:
        t0 = time.perf_counter()
        err = None
        refs = []
        try:
            refs = run(os.path.abspath(p))
        except Exception as e:  # a peer failing on one PDF is a result, not a stop
            err = "{}: {}".format(type(e).__name__, e)
        secs = time.perf_counter() - t0
        real_stdout.write(json.dumps({"file": p, "tool": tool, "seconds": secs, "references": refs, "error": err}, ensure_ascii=False) + "\n")
        real_stdout.flush()


if __name__ == "__main__":
    main()
