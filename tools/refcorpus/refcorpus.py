#!/usr/bin/env python3
"""Typeset real bibliography entries into PDFs in many styles and layouts, each with its
truth: the entries in the order the .bbl gives, with their fields and which of them the
style prints. See README.md beside this file."""

import argparse
import glob
import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unicodedata
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bibsrc  # noqa: E402
import filler  # noqa: E402
from layouts import DOCS, LAYOUTS, STYLES  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

KEEP = [
    "author",
    "editor",
    "title",
    "journal",
    "booktitle",
    "publisher",
    "school",
    "institution",
    "organization",
    "address",
    "edition",
    "series",
    "volume",
    "number",
    "pages",
    "year",
    "type",
    "doi",
    "eprint",
    "archiveprefix",
    "primaryclass",
    "url",
]
TYPES = {
    "article": "article",
    "inproceedings": "inproceedings",
    "conference": "inproceedings",
    "book": "book",
    "mvbook": "book",
    "phdthesis": "phdthesis",
    "mastersthesis": "mastersthesis",
    "techreport": "techreport",
    "report": "techreport",
    "incollection": "incollection",
    "inbook": "incollection",
    "misc": "misc",
    "online": "misc",
    "thesis": "thesis",
}
ARXIV_NEW = re.compile(r"^\d{4}\.\d{4,5}(v\d+)?$")
ARXIV_OLD = re.compile(r"^[a-z\-]+(\.[A-Z]{2})?/\d{7}(v\d+)?$")


def norm(s):
    """Lowercase, NFKC, everything but letters and digits dropped."""
    s = unicodedata.normalize("NFKC", s).casefold()
    return "".join(ch for ch in s if ch.isalnum())


# ---------------------------------------------------------------------------------------
# Pools of records


def _record(source, etype, fields):
    """A record the generator can use, or None. `fields` are raw LaTeX."""
    f = {k.lower(): v.strip() for k, v in fields.items() if isinstance(v, str)}
    if "date" in f and "year" not in f:
        m = re.match(r"(\d{4})", f["date"])
        if m:
            f["year"] = m.group(1)
    for a, b in (("journaltitle", "journal"), ("location", "address"), ("eprinttype", "archiveprefix")):
        if a in f and b not in f:
            f[b] = f[a]
    etype = TYPES.get(etype.lower())
    if etype is None:
        return None
    if etype == "thesis":
        kind = f.get("type", "").lower()
        etype = "phdthesis" if "phd" in kind else "mastersthesis" if "master" in kind else None
        if etype is None:
            return None
        f.pop("type", None)
    if not re.fullmatch(r"\d{4}", f.get("year", "")):
        return None
    if "author" not in f or "title" not in f or "crossref" in f or "xdata" in f:
        return None
    # DBLP's homonym numbers ("Kun Chen 0002") are no part of a name as papers print it
    f["author"] = re.sub(r"\s+\d{4}(?=\s+and\s|\s*$)", "", f["author"])
    if " and " not in f["author"] and len(bibsrc.split_top(f["author"], bibsrc.COMMA)) >= 4:
        # a list written with commas only: BibTeX would read it as one name
        f["author"] = " and ".join(bibsrc.split_top(f["author"], bibsrc.COMMA))
    if etype == "article" and "journal" not in f:
        return None
    if etype in ("inproceedings", "incollection") and "booktitle" not in f:
        return None
    f = {k: re.sub(r"\s+", " ", f[k]) for k in KEEP if f.get(k)}
    for k in f:
        if k not in ("url", "doi", "eprint"):
            # plain-text sources (HALLMARK) hold characters LaTeX reads as markup
            f[k] = re.sub(r"(?<!\\)([&%#])", r"\\\1", f[k])
            if "$" not in f[k]:
                f[k] = re.sub(r"(?<![\\])_", r"\\_", f[k])
    if re.search(r"[^\x00-\x7f\u00c0-\u017f]", "".join(f.values())):
        # raw characters beyond Latin-1 and Latin Extended-A: pdflatex's utf8 input
        # with T1 fonts does not print them
        return None
    try:
        title = bibsrc.latex_to_text(f["title"])
        names = [n for n in bibsrc.split_names(f["author"]) if n is not None]
        authors = [{"family": bibsrc.latex_to_text(fam), "given": bibsrc.latex_to_text(giv)} for giv, fam in names]
        venue_field = {
            "article": "journal",
            "inproceedings": "booktitle",
            "incollection": "booktitle",
            "book": "publisher",
            "phdthesis": "school",
            "mastersthesis": "school",
            "techreport": "institution",
            "misc": "howpublished",
        }[etype]
        venue = bibsrc.latex_to_text(f[venue_field]) if f.get(venue_field) else None
    except bibsrc.Undecodable:
        return None
    if len(title.split()) < 3 or not authors or len(authors) > 40:
        return None
    if any(not a["family"] or "{" in a["family"] or "}" in a["family"] for a in authors):
        return None
    if any(ord(ch) > 0x2FF and not ch.isalpha() for ch in title) and "$" not in f["title"]:
        # symbols pdflatex's default fonts cannot print
        if any(ch not in "–—“”‘’…&§©®™" for ch in title if ord(ch) > 0x2FF and not ch.isalpha()):
            return None
    if re.search(r"[^\x00-\u024f\u0300-\u036f–—“”‘’…§©®™]", title + "".join(a["family"] + a["given"] for a in authors)):
        # scripts beyond Latin (Cyrillic, CJK, Greek outside math) need fonts and
        # inputenc set-ups the documents do not have
        if "$" not in f["title"]:
            return None
    doi = f.get("doi", "").strip() or None
    if doi:
        doi = re.sub(r"^(https?://(dx\.)?doi\.org/|doi:)", "", doi, flags=re.I)
        if not re.match(r"^10\.\d{4,9}/\S+$", doi) or "\\" in doi or "{" in doi:
            return None
        f["doi"] = doi
    if f.get("url") and ("doi.org" in f["url"] or "\\" in f["url"] or "%" in f["url"]):
        f.pop("url")
    arxiv = None
    ep = f.get("eprint", "")
    if ep and (f.get("archiveprefix", "").lower() == "arxiv" or ARXIV_NEW.match(ep) or ARXIV_OLD.match(ep)):
        arxiv = ep
        f["archiveprefix"] = "arXiv"
    elif ep:
        f.pop("eprint")
        f.pop("archiveprefix", None)
    else:
        f.pop("archiveprefix", None)
    if doi and doi.lower().startswith("10.48550/arxiv."):
        arxiv = doi[len("10.48550/arxiv.") :]
    f.pop("primaryclass", None) if not arxiv else None
    return {
        "source": source,
        "type": etype,
        "fields": f,
        "title": title,
        "authors": authors,
        "year": f["year"],
        "venue": venue,
        "doi": doi,
        "arxiv": arxiv,
        "families_raw": [fam for _, fam in names],
        "venue_field": venue_field if venue else None,
    }


def _hallmark(path, name):
    out = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            r = json.loads(line)
            if r.get("label") != "VALID":
                continue
            fields = r.get("fields")
            if fields is None and r.get("bibtex"):
                fields = next((f for _, _, f in bibsrc.parse_bib(r["bibtex"])), None)
            if fields is None:
                continue
            rec = _record({"corpus": "hallmark", "file": name, "id": r["bibtex_key"]}, r["bibtex_type"], fields)
            if rec:
                out.append(rec)
    return out


def _bibcorpus(root):
    out = []
    for dirpath, _, files in sorted(os.walk(root)):
        for fn in sorted(files):
            if not fn.endswith(".bib"):
                continue
            path = os.path.join(dirpath, fn)
            rel = os.path.relpath(path, root)
            with open(path, encoding="utf-8", errors="replace") as fh:
                text = fh.read()
            for etype, key, fields in bibsrc.parse_bib(text):
                rec = _record({"corpus": "bib-corpus", "file": rel, "key": key}, etype, fields)
                if rec:
                    out.append(rec)
    return out


def _bucket(src):
    h = hashlib.sha256(json.dumps(src, sort_keys=True).encode()).digest()
    return h[0] % 3


def pools(shared):
    """(dev, heldout) record lists, disjoint by normalized title."""
    hm = os.path.join(shared, "fixtures", "hallmark")
    bc = os.path.join(shared, "fixtures", "bib-corpus")
    dev, held = [], []
    for r in _bibcorpus(bc):
        (held if _bucket(r["source"]) == 0 else dev).append(r)
    dev = _hallmark(os.path.join(hm, "dev_public.jsonl"), "dev_public.jsonl") + dev
    held = (
        _hallmark(os.path.join(hm, "raw_crossdomain_valid.jsonl"), "raw_crossdomain_valid.jsonl")
        + _hallmark(os.path.join(hm, "journal_articles.jsonl"), "journal_articles.jsonl")
        + held
    )

    def dedupe(rs, taken):
        out = []
        for r in rs:
            t = norm(r["title"])
            if t in taken:
                continue
            taken.add(t)
            out.append(r)
        return out

    taken = set()
    dev = dedupe(dev, taken)
    held = dedupe(held, taken)
    return dev, held


def features(r):
    out = set()
    if "$" in r["fields"]["title"]:
        out.add("math")
    raw = r["fields"]["title"] + r["fields"]["author"]
    if re.search(r"\\['`^\"~=.uvHckr]|[^\x00-\x7f]|\{\\(ss|o|O|ae|l|aa)\}", raw):
        out.add("accents")
    if len(r["authors"]) >= 10:
        out.add("many_authors")
    if r["doi"]:
        out.add("doi")
    if r["arxiv"]:
        out.add("arxiv")
    if r["type"] == "book":
        out.add("book")
    if r["type"] in ("phdthesis", "mastersthesis"):
        out.add("thesis")
    if r["type"] == "techreport":
        out.add("report")
    return out


def choose(pool, rng, n):
    """n records with each feature present when the pool has it."""
    by = {}
    for i, r in enumerate(pool):
        for f in features(r):
            by.setdefault(f, []).append(i)
    picked = []
    for f in ("math", "accents", "many_authors", "doi", "arxiv", "book", "thesis", "report"):
        cand = [i for i in by.get(f, []) if i not in picked]
        rng.shuffle(cand)
        picked += cand[:2]
    # the rest: two from HALLMARK (papers as reviewers see them cited) for each one from
    # the BibTeX corpus, so neither fills a document alone
    chosen = set(picked)
    rest = {}
    for i, r in enumerate(pool):
        if i not in chosen:
            rest.setdefault(r["source"]["corpus"], []).append(i)
    for c in rest.values():
        rng.shuffle(c)
    turns = [c for c in ("hallmark", "hallmark", "bib-corpus") if c in rest]
    k = 0
    while len(picked) < n and any(rest.values()):
        c = rest[turns[k % len(turns)]]
        if c:
            picked.append(c.pop())
        k += 1
    picked = picked[:n]
    rng.shuffle(picked)
    return [pool[i] for i in picked]


# ---------------------------------------------------------------------------------------
# Made-up references (for `check` end to end): word lists of our own

FAKE_FAMILY = "Varnholt Quesnelle Tarrow Ibsenwald Morandi Kettleby Oyelaran Szczepanik Huxtable Delacroix-Funo Brannagh Ventresca".split()
FAKE_GIVEN = "Ada Bruno Chiara Dmitri Elif Farid Greta Hiro Ines Joost Kalani Lior".split()
FAKE_A = "Adaptive Hierarchical Sparse Contrastive Recurrent Spectral Causal Federated Latent Robust".split()
FAKE_B = "Token Graph Kernel Manifold Policy Attention Diffusion Tensor Memory Gradient".split()
FAKE_C = "Routing Distillation Alignment Pruning Calibration Sampling Compression Retrieval".split()
FAKE_V = ["Proceedings of the International Conference on Learning Representations", "Advances in Neural Information Processing Systems", "Journal of Machine Learning Research", "Transactions on Pattern Analysis and Machine Intelligence"]


def fabricate(rng, i):
    title = "{} {} {} for {} {} {}".format(
        rng.choice(FAKE_A), rng.choice(FAKE_B), rng.choice(FAKE_C), rng.choice(FAKE_A).lower(), rng.choice(FAKE_B).lower(), rng.choice(FAKE_C).lower()
    )
    authors = [{"family": rng.choice(FAKE_FAMILY), "given": rng.choice(FAKE_GIVEN)} for _ in range(rng.randint(1, 5))]
    venue = rng.choice(FAKE_V)
    year = str(rng.randint(2016, 2025))
    journal = venue.startswith(("Journal", "Trans"))
    fields = {
        "author": " and ".join(a["family"] + ", " + a["given"] for a in authors),
        "title": title,
        ("journal" if journal else "booktitle"): venue,
        "year": year,
    }
    if rng.random() < 0.4:
        fields["doi"] = "10.{}/{}.{}".format(rng.randint(1000, 9999), rng.randint(100000, 999999), rng.randint(10, 99))
    return {
        "source": {"corpus": "fabricated", "id": "fake-{}".format(i)},
        "type": "article" if journal else "inproceedings",
        "fields": fields,
        "title": title,
        "authors": authors,
        "year": year,
        "venue": venue,
        "doi": fields.get("doi"),
        "arxiv": None,
        "families_raw": [a["family"] for a in authors],
        "venue_field": "journal" if journal else "booktitle",
        "fabricated": True,
    }


# ---------------------------------------------------------------------------------------
# Writing and typesetting


def key_of(r):
    s = r["source"]
    raw = s.get("id") or "{}-{}".format(s["file"], s["key"])
    h = hashlib.sha1(json.dumps(s, sort_keys=True).encode()).hexdigest()[:6]
    stem = re.sub(r"[^A-Za-z0-9]+", "", raw.rsplit("/", 1)[-1])[:14]
    return "{}{}{}".format({"hallmark": "hm", "bib-corpus": "bc", "fabricated": "fk"}[s["corpus"]], stem, h)


def write_bib(records):
    out = []
    for r in records:
        out.append("@{}{{{},".format(r["type"], r["key"]))
        for k, v in r["fields"].items():
            out.append("  {} = {{{}}},".format(k, v))
        out.append("}\n")
    return "\n".join(out)


def tex_errors(log):
    """The '!' lines of a TeX run with the two lines after each (the place)."""
    lines = log.splitlines()
    out = [" / ".join(lines[i : i + 3]) for i, line in enumerate(lines) if line.startswith("!")]
    return "\n".join(out[:3]) or log[-800:]


def run(cmd, cwd, timeout=180):
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, timeout=timeout)
    return p.returncode, p.stdout.decode("utf-8", "replace")


def typeset(doc, records, workdir):
    """Compile; returns (pdf path, bbl text, log tail) or raises."""
    style = STYLES[doc["style"]]
    layout = LAYOUTS[doc["layout"]]
    keys = [r["key"] for r in records]
    body = filler.body(keys, random.Random(doc["name"]), style["cite"], doc.get("paragraphs", 2))
    tex = layout["tex"](style, body, doc)
    with open(os.path.join(workdir, "doc.tex"), "w", encoding="utf-8") as fh:
        fh.write(tex)
    with open(os.path.join(workdir, "refs.bib"), "w", encoding="utf-8") as fh:
        fh.write(write_bib(records))
    latex = ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex"]
    rc, log = run(latex, workdir)
    if rc != 0:
        raise RuntimeError("first pdflatex failed: " + tex_errors(log))
    rc, log = run(["biber", "doc"] if style["engine"] == "biber" else ["bibtex", "doc"], workdir)
    if rc != 0 and not os.path.exists(os.path.join(workdir, "doc.bbl")):
        raise RuntimeError("bibliography failed: " + log[-800:])
    for _ in range(2):
        rc, log = run(latex, workdir)
        if rc != 0:
            raise RuntimeError("pdflatex failed: " + tex_errors(log))
    with open(os.path.join(workdir, "doc.bbl"), encoding="utf-8", errors="replace") as fh:
        bbl = fh.read()
    return os.path.join(workdir, "doc.pdf"), bbl, tex


def loose(s):
    """What is left of LaTeX for a substring test: command names and braces dropped."""
    s = re.sub(r"\\(url|href|doi|path|nolinkurl)\b", " ", s)
    s = re.sub(r"\\[A-Za-z]+\*?", " ", s)
    s = re.sub(r"\\(.)", r"\1", s)
    return norm(s)


def bbl_items(bbl, engine, in_print_order=None):
    """[(key, text of its item)] in .bbl order."""
    if engine == "biber":
        # a list per sorting scheme in use; the bibliography prints the default one, not a
        # citation-order list such as biblatex-apa's apa/apasortcite
        lists = [body for _, body in re.findall(r"\\datalist\[entry\]\{([^}]*)\}(.*?)\\enddatalist", bbl, re.S)] or [bbl]
        entries = re.compile(r"\\entry\{([^}]*)\}\{[^}]*\}\{[^}]*\}(.*?)\\endentry", re.S)
        lists = [[(m.group(1), m.group(2)) for m in entries.finditer(body)] for body in lists]
        return max(lists, key=in_print_order) if in_print_order else lists[0]
    items = []
    # TeX comments end lines inside labels and keys (apacite, ACM)
    bbl = re.sub(r"(?<!\\)%[^\n]*\n[ \t]*", "", bbl)
    parts = re.split(r"\\bibitem(?=[\[{\s])", bbl)
    for p in parts[1:]:
        m = re.match(r"\s*(\[(?:[^\[\]]|\[[^\]]*\])*\])?(?:\s|%[^\n]*\n)*\{([^}]*)\}", p, re.S)
        if m:
            items.append((m.group(2), p[m.end() :]))
    return items


def pdf_pages(pdf):
    rc, out = run(["pdfinfo", pdf], os.path.dirname(pdf))
    m = re.search(r"Pages:\s+(\d+)", out)
    return int(m.group(1)) if m else None


def pdf_text(pdf):
    # -raw: the content stream's order, which for a TeX PDF is the typesetting order; the
    # default reading order interleaves close columns (two-column articles)
    rc, out = run(["pdftotext", "-raw", "-enc", "UTF-8", pdf, "-"], os.path.dirname(pdf))
    return out


def biblatex_names_printed(style, n):
    mx, mn = style.get("maxbibnames", 3), style.get("minbibnames", 1)
    return n if n <= mx else mn


def truth(doc, records, bbl, pdftext):
    style = STYLES[doc["style"]]
    by_key = {r["key"]: r for r in records}
    # the bibliography as the PDF prints it: after its heading
    heads = [m.start() for m in re.finditer(r"^\s*(\d+\.?\s*)?(References|REFERENCES|Bibliography|BIBLIOGRAPHY)\s*$", pdftext, re.M)]
    # the first: later ones are running heads over the bibliography's pages
    bib_text = norm(pdftext[heads[0] :] if heads else pdftext)

    def in_print_order(items):
        """Consecutive entries whose titles the PDF's text has in the same order."""
        at = [bib_text.find(norm(by_key[k]["title"])) for k, _ in items if k in by_key]
        at = [a for a in at if a >= 0]
        return sum(1 for a, b in zip(at, at[1:]) if a < b)

    items = bbl_items(bbl, style["engine"], in_print_order)
    refs = []
    for key, item in items:
        r = by_key.get(key)
        if r is None:
            continue
        f = r["fields"]
        li = loose(item)
        printed = {}
        if style["engine"] == "biber":
            printed["title"] = r["type"] not in style.get("untitled", ())
            printed["year"] = True
            printed["venue"] = bool(r["venue"])
            printed["authors"] = biblatex_names_printed(style, len(r["authors"]))
        else:
            printed["title"] = loose(f["title"]) in li
            printed["year"] = r["year"] in item
            vf = r.get("venue_field")
            printed["venue"] = bool(vf and r["venue"] and loose(f[vf]) in li)
            printed["authors"] = sum(1 for fam in r["families_raw"] if loose(fam) in li)
        # identifiers: whether they reached the page (robust to LaTeX escaping)
        printed["doi"] = bool(r["doi"]) and norm(r["doi"]) in bib_text
        printed["arxiv"] = bool(r["arxiv"]) and norm(r["arxiv"]) in bib_text
        printed["title_in_text"] = norm(r["title"]) in bib_text
        refs.append(
            {
                "key": key,
                "title": r["title"],
                "authors": r["authors"],
                "year": r["year"],
                "venue": r["venue"],
                "doi": r["doi"],
                "arxiv": r["arxiv"],
                "type": r["type"],
                "fabricated": bool(r.get("fabricated")),
                "printed": printed,
                "source": r["source"],
            }
        )
    return refs


def dump_truth(meta):
    """The truth as JSON with one reference a line: small, and diffs stay readable."""
    head = {k: v for k, v in meta.items() if k != "references"}
    lines = [json.dumps(r, ensure_ascii=False) for r in meta["references"]]
    return json.dumps(head, ensure_ascii=False)[:-1] + ', "references": [\n' + ",\n".join(lines) + "\n]}\n"


def build_one(doc, pool, args, outdir):
    rng = random.Random(doc["name"])
    n = doc.get("refs") or rng.randint(25, 40)
    records = [dict(r) for r in choose(pool, rng, n)]
    fakes = [fabricate(rng, i) for i in range(args.fabricate)]
    for f in fakes:
        records.insert(rng.randint(0, len(records)), f)
    for r in records:
        r["key"] = key_of(r)
    work = tempfile.mkdtemp(prefix="refcorpus-")
    t0 = time.time()
    try:
        pdf, bbl, tex = typeset(doc, records, work)
        text = pdf_text(pdf)
        refs = truth(doc, records, bbl, text)
        pages = pdf_pages(pdf)
        name = doc["name"]
        shutil.copy(pdf, os.path.join(outdir, name + ".pdf"))
        for ext in ("bbl", "bib", "tex"):
            shutil.copy(os.path.join(work, "doc." + ext if ext != "bib" else "refs.bib"), os.path.join(outdir, name + "." + ext))
        meta = {
            "document": name,
            "set": doc["set"],
            "style": doc["style"],
            "layout": doc["layout"],
            "engine": STYLES[doc["style"]]["engine"],
            "pages": pages,
            "fabricated": args.fabricate,
            "references": refs,
        }
        with open(os.path.join(outdir, name + ".json"), "w", encoding="utf-8") as fh:
            fh.write(dump_truth(meta))
        return name, len(refs), pages, time.time() - t0, None
    except Exception as e:  # one failed document must not stop the rest
        return doc["name"], 0, 0, time.time() - t0, str(e)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def unused_by(pool, docs):
    """The records of `pool` that none of `docs` draws (the draw is seeded by the document's
    name, as in build_one, so this needs no output of an earlier run)."""
    used = set()
    for d in docs:
        rng = random.Random(d["name"])
        n = d.get("refs") or rng.randint(25, 40)
        used.update(norm(r["title"]) for r in choose(pool, rng, n))
    return [r for r in pool if norm(r["title"]) not in used]


def write_sources(root):
    """SOURCES.tsv beside the truth: where every entry of every document comes from."""
    rows = []
    for set_name in ("dev", "heldout", "fresh"):
        for p in sorted(glob.glob(os.path.join(root, set_name, "*.json"))):
            with open(p, encoding="utf-8") as fh:
                t = json.load(fh)
            for r in t["references"]:
                s = r["source"]
                rows.append("\t".join([set_name, t["document"], r["key"], s["corpus"], s.get("file", ""), s.get("id") or s.get("key", "")]))
    with open(os.path.join(root, "SOURCES.tsv"), "w", encoding="utf-8") as fh:
        fh.write("set\tdocument\tkey\tcorpus\tfile\tid or key in file\n")
        fh.write("\n".join(rows) + "\n")


def default_shared():
    d = REPO
    for _ in range(3):
        d = os.path.dirname(d)
        if os.path.isdir(os.path.join(d, "shared", "fixtures")):
            return os.path.join(d, "shared")
    return os.path.join(os.path.dirname(REPO), "shared")


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--shared", default=default_shared(), help="folder holding fixtures/bib-corpus and fixtures/hallmark (default: the nearest ../shared above the repository)")
    ap.add_argument("--out", default="/work/refcorpus-out", help="where {dev,heldout}/ are written (PDFs and all)")
    ap.add_argument("--set", choices=["dev", "heldout", "fresh", "long", "all"], default="all", help="all: dev, heldout and fresh")
    ap.add_argument("--only", help="regular expression: only documents whose name matches")
    ap.add_argument("--fabricate", type=int, default=0, metavar="N", help="mix N made-up references into each document (marked in the truth)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--copy-truth", metavar="DIR", help="also copy each document's .json and .bbl to DIR/{dev,heldout}/")
    args = ap.parse_args()

    dev, held = pools(args.shared)
    print("pools: dev {} records, heldout {} records".format(len(dev), len(held)), file=sys.stderr)
    fresh = unused_by(held, [d for d in DOCS if d["set"] == "heldout"])
    print("fresh held-out pool: {} records no held-out document uses".format(len(fresh)), file=sys.stderr)
    pool_of = {"dev": dev, "long": dev, "heldout": held, "fresh": fresh}
    wanted = ("dev", "heldout", "fresh") if args.set == "all" else (args.set,)
    docs = [d for d in DOCS if d["set"] in wanted and (not args.only or re.search(args.only, d["name"]))]
    # made-up references make other documents: they go to their own folder
    folder = "{}-fab" + str(args.fabricate) if args.fabricate else "{}"
    jobs = []
    for d in docs:
        outdir = os.path.join(args.out, folder.format(d["set"]))
        os.makedirs(outdir, exist_ok=True)
        jobs.append((d, pool_of[d["set"]], outdir))
    failed = 0
    with ThreadPoolExecutor(max_workers=args.jobs) as ex:
        for name, nrefs, pages, secs, err in ex.map(lambda j: build_one(j[0], j[1], args, j[2]), jobs):
            if err:
                failed += 1
                print("FAIL {}: {}".format(name, err[-1500:]), file=sys.stderr)
            else:
                print("{:45s} {:3d} refs {:3d} pages {:5.1f}s".format(name, nrefs, pages or 0, secs), file=sys.stderr)
    if args.copy_truth:
        for d in docs:
            src = os.path.join(args.out, folder.format(d["set"]))
            dst = os.path.join(args.copy_truth, folder.format(d["set"]))
            os.makedirs(dst, exist_ok=True)
            for ext in ("json", "bbl"):
                p = os.path.join(src, d["name"] + "." + ext)
                if os.path.exists(p):
                    shutil.copy(p, dst)
        write_sources(args.copy_truth)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
