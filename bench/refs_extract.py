#!/usr/bin/env python3
"""References read from the generated corpus's PDFs, scored against each document's truth:
citegate (`citegate refs FILE --json`) beside hallucinator, RefChecker and refextract, on
the same PDFs in one run. Standard library only; the peers run in their own venv through
bench/refs_peers.py. See BENCHMARKS.md for the question and the figures."""

import argparse
import glob
import json
import os
import platform
import re
import subprocess
import sys
import time
import unicodedata
from difflib import SequenceMatcher

HERE = os.path.dirname(os.path.abspath(__file__))
PEERS = ["hallucinator", "refchecker", "refextract"]


def fold(s):
    """Title normalization: lowercase, NFKC, punctuation and spaces folded to one space."""
    s = unicodedata.normalize("NFKC", s or "").casefold()
    s = "".join(ch if ch.isalnum() else " " for ch in s)
    return " ".join(s.split())


def squash(s):
    return fold(s).replace(" ", "")


# ---------------------------------------------------------------------------------------
# Running the tools


def run_citegate(binary, pdfs):
    out = {}
    for p in pdfs:
        t0 = time.perf_counter()
        proc = subprocess.run([binary, "refs", p, "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        secs = time.perf_counter() - t0
        refs, err = [], None
        try:
            doc = json.loads(proc.stdout.decode("utf-8"))
            if isinstance(doc, list):
                doc = doc[0] if doc else {}
            refs = doc.get("references", [])
        except (ValueError, AttributeError) as e:
            err = "exit {}: {}".format(proc.returncode, proc.stderr.decode("utf-8", "replace")[:300] or e)
        out[p] = {"seconds": secs, "references": refs, "error": err}
    return out


def run_peer(python, tool, pdfs):
    proc = subprocess.run(
        [python, os.path.join(HERE, "refs_peers.py"), tool] + pdfs,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    out = {}
    for line in proc.stdout.decode("utf-8", "replace").splitlines():
        line = line.strip()
        if not line.startswith("{"):
            continue
        rec = json.loads(line)
        out[rec["file"]] = rec
    for p in pdfs:
        out.setdefault(p, {"seconds": 0, "references": [], "error": "no result (exit {})".format(proc.returncode)})
    return out


# ---------------------------------------------------------------------------------------
# Scoring


def first_family(ref):
    """The first author as the tool gives it: the family name when it is structured, else
    the first name of its string up to a comma ('Family, G.' or 'Given Family, ...')."""
    authors = ref.get("authors") or []
    if not authors:
        return None
    a = authors[0]
    if isinstance(a, dict):
        return a.get("family") or None
    a = re.split(r"\s+and\s+|;", a.strip())[0]
    return a.split(",")[0].strip() or None


def family_ok(got, want):
    """The same rule for every tool: equal once folded, or one ends with the other (given
    names left before the family name, or a particle dropped from it)."""
    g, w = squash(got or ""), squash(want)
    return bool(g) and (g == w or g.endswith(w) or (len(g) >= 3 and w.endswith(g)))


def norm_doi(d):
    d = (d or "").strip().lower()
    d = re.sub(r"^(https?://(dx\.)?doi\.org/|doi:\s*)", "", d)
    return d.rstrip(".")


def untitled_similarity(ex, tr, raw):
    """For a reference whose style prints no title (APS, MNRAS, ACS and Science print none
    for articles): the first author's family name and the year in the raw text, then the
    share of the other printed names, then the DOI, decide."""
    fams = [squash(a["family"]) for a in tr["authors"][: max(1, tr["printed"].get("authors") or 1)]]
    if not fams or not fams[0] or fams[0] not in raw:
        return 0.0
    share = sum(1 for f in fams if f and f in raw) / len(fams)
    doi = squash(tr.get("doi") or "")
    bonus = 0.05 if doi and doi in raw else 0.0
    if tr["year"] and tr["year"] in raw:
        return 0.6 + 0.3 * share + bonus
    # Science prints neither title nor year for a conference paper: every name then
    if len(fams) >= 2 and share == 1.0:
        return 0.6 + bonus
    return 0.0


def similarity(ex, tr):
    """How well an extracted reference stands for a truth entry (0..1)."""
    tt = squash(tr["title"])
    raw = squash(ex.get("raw") or "")
    if not tr["printed"].get("title"):
        return untitled_similarity(ex, tr, raw)
    best = 0.0
    if ex.get("title"):
        best = SequenceMatcher(None, squash(ex["title"]), tt, autojunk=False).ratio()
    if tt and raw and tt in raw:
        best = max(best, 0.95)
    elif tt and raw and len(tt) >= 12:
        # title cut or hyphenation left in: its longest run inside the raw text
        m = SequenceMatcher(None, raw, tt, autojunk=False).find_longest_match(0, len(raw), 0, len(tt))
        best = max(best, 0.9 * m.size / len(tt))
    return best


def match(extracted, truth):
    """Greedy one-to-one matching by similarity; returns {truth index: extracted index}."""
    pairs = []
    for i, ex in enumerate(extracted):
        for j, tr in enumerate(truth):
            s = similarity(ex, tr)
            if s >= 0.6:
                pairs.append((s, i, j))
    pairs.sort(reverse=True)
    used_i, out = set(), {}
    for s, i, j in pairs:
        if i in used_i or j in out:
            continue
        used_i.add(i)
        out[j] = i
    return out


def score_doc(truth, extracted):
    refs = truth["references"]
    m = match(extracted, refs)
    c = {
        "truth": len(refs),
        "found": len(m),
        "title_n": 0,
        "title_ok": 0,
        "author_ok": 0,
        "year_n": 0,
        "year_ok": 0,
        "doi_n": 0,
        "doi_ok": 0,
        "extracted": len(extracted),
        "spurious": len(extracted) - len(m),
        "untitled_n": 0,
        "untitled_given": 0,
    }
    for j, tr in enumerate(refs):
        ex = extracted[m[j]] if j in m else None
        pr = tr["printed"]
        if pr.get("title"):
            c["title_n"] += 1
            c["title_ok"] += bool(ex and ex.get("title") and fold(ex["title"]) == fold(tr["title"]))
        elif ex:
            # the style printed no title: one read anyway is made of other text (a venue,
            # a year), and a search for it would find nothing
            c["untitled_n"] += 1
            c["untitled_given"] += bool(ex.get("title"))
        c["author_ok"] += bool(ex and family_ok(first_family(ex), tr["authors"][0]["family"]))
        if pr.get("year"):
            c["year_n"] += 1
            c["year_ok"] += bool(ex and str(ex.get("year") or "")[:4] == tr["year"])
        if pr.get("doi"):
            c["doi_n"] += 1
            c["doi_ok"] += bool(ex and norm_doi(ex.get("doi")) == norm_doi(tr["doi"]))
    return c


def add(a, b):
    for k, v in b.items():
        a[k] = a.get(k, 0) + v


def pct(n, d):
    return "–" if not d else "{:.1f}".format(100.0 * n / d)


def table(rows, title):
    head = "| {} | tool | refs | found % | titles exact % | first author % | year % | DOI % (printed) | spurious % | title where none printed % | s/page |".format(title)
    lines = [head, "|" + " --- |" * 11]
    for group, tool, c in rows:
        lines.append(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |".format(
                group,
                tool,
                c["truth"],
                pct(c["found"], c["truth"]),
                pct(c["title_ok"], c["title_n"]),
                pct(c["author_ok"], c["truth"]),
                pct(c["year_ok"], c["year_n"]) if c.get("has_year", 1) else "n/a",
                pct(c["doi_ok"], c["doi_n"]),
                pct(c["spurious"], c["extracted"]),
                pct(c.get("untitled_given", 0), c.get("untitled_n", 0)),
                "{:.3f}".format(c["seconds"] / c["pages"]) if c["pages"] else "–",
            )
        )
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("corpus", nargs="*", default=["/work/refcorpus-out/dev"], help="folders of <doc>.pdf with <doc>.json truth")
    ap.add_argument("--citegate", metavar="PATH", help="the citegate binary (its `refs FILE --json`); left out when not given")
    ap.add_argument("--peers-python", default="/work/peers-venv/bin/python", metavar="PATH", help="python of the venv holding the peers")
    ap.add_argument("--tools", default="citegate," + ",".join(PEERS), help="comma-separated subset of citegate,hallucinator,refchecker,refextract")
    ap.add_argument("--only", metavar="REGEX", help="only documents whose name matches")
    ap.add_argument("--input", choices=["pdf", "bbl"], default="pdf", help="read each document's PDF (default) or its .bbl (citegate only)")
    ap.add_argument("--save", metavar="FILE", help="write every tool's extracted references and per-document scores as JSON")
    args = ap.parse_args()

    docs = []
    for d in args.corpus:
        for j in sorted(glob.glob(os.path.join(d, "*.json"))):
            pdf = j[:-5] + "." + args.input
            if not os.path.exists(pdf):
                continue
            with open(j, encoding="utf-8") as fh:
                t = json.load(fh)
            if args.only and not re.search(args.only, t["document"]):
                continue
            docs.append((pdf, t))
    if not docs:
        sys.exit("no documents with a .{} and a .json truth in {}".format(args.input, ", ".join(args.corpus)))
    pdfs = [p for p, _ in docs]

    tools = [t for t in args.tools.split(",") if t]
    if args.input == "bbl":
        tools = [t for t in tools if t == "citegate"]
    results = {}
    for tool in tools:
        if tool == "citegate":
            if not args.citegate:
                print("citegate: no --citegate binary given, its column is left out", file=sys.stderr)
                continue
            results[tool] = run_citegate(args.citegate, pdfs)
        elif tool in PEERS:
            if not os.path.exists(args.peers_python):
                print("{}: no peers venv at {}, left out".format(tool, args.peers_python), file=sys.stderr)
                continue
            results[tool] = run_peer(args.peers_python, tool, pdfs)
        else:
            sys.exit("unknown tool " + tool)

    by_style, by_layout, total, per_doc = {}, {}, {}, []
    for tool, res in results.items():
        for pdf, t in docs:
            r = res[pdf]
            c = score_doc(t, r["references"])
            c["seconds"] = r["seconds"]
            c["pages"] = t["pages"] or 0
            c["errors"] = 1 if r.get("error") else 0
            per_doc.append({"tool": tool, "document": t["document"], "set": t["set"], "scores": c, "error": r.get("error")})
            for agg, key in ((by_style, t["style"]), (by_layout, t["layout"]), (total, t["set"])):
                add(agg.setdefault((key, tool), {}), c)
    for agg in (by_style, by_layout, total):
        for (key, tool), c in agg.items():
            c["has_year"] = 0 if tool == "hallucinator" else 1

    def rows(agg):
        keys = sorted({k for k, _ in agg})
        return [(k, tool, agg[(k, tool)]) for k in keys for tool in results if (k, tool) in agg]

    print("Input: {}; documents: {}, references: {}, pages: {}; {} on {} ({} cores), Python {}".format(
        args.input,
        len(docs),
        sum(len(t["references"]) for _, t in docs),
        sum(t["pages"] or 0 for _, t in docs),
        time.strftime("%Y-%m-%d"),
        platform.machine(),
        os.cpu_count(),
        platform.python_version(),
    ))
    print()
    print(table(rows(total), "set"))
    print()
    print(table(rows(by_style), "style"))
    print()
    print(table(rows(by_layout), "layout"))
    errs = [d for d in per_doc if d["error"]]
    if errs:
        print()
        for d in errs:
            print("error: {} on {}: {}".format(d["tool"], d["document"], d["error"][:200]))
    if args.save:
        with open(args.save, "w", encoding="utf-8") as fh:
            json.dump({"documents": per_doc, "extracted": results}, fh, ensure_ascii=False, indent=1)


if __name__ == "__main__":
    main()
