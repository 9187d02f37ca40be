#!/usr/bin/env python3
"""Papers for the `citegate batch` benchmark, and their scoring.

    papers.py gen DBLP_XML OUT_DIR [--papers 1000] [--refs 40] [--seed 7]
    papers.py score OUT_DIR/truth.jsonl REPORT_DIR/report.json

`gen` reads the works of a DBLP XML (e.g. one written by `dblpgen`) and writes
OUT_DIR/papers/pNNNN.bib, each of `--refs` entries: 80 % real records cited as
the record says (half with their DOI, half by title only), 10 % miscited (a
real record with its year moved by three) and 10 % fabricated (a title made
of the file's own title words in an order no record has, invented authors).
The label of every entry goes to OUT_DIR/truth.jsonl. `score` compares a
batch's report.json with the labels: real entries valid, miscited ones
flagged miscited, fabricated ones flagged or unverified (an offline index
alone cannot say more).
"""

import html
import json
import random
import re
import sys
from pathlib import Path

RECORD = re.compile(
    r"<(article|inproceedings)\b[^>]*>(.*?)</\1>", re.S)
FIELD = re.compile(r"<(author|title|year|journal|booktitle|ee)>(.*?)</\1>", re.S)
TAG = re.compile(r"</?(i|sub|sup|tt)>")


def text(raw):
    return html.unescape(TAG.sub("", raw)).strip()


def works(xml):
    for m in RECORD.finditer(xml):
        w = {"authors": []}
        for f, v in FIELD.findall(m.group(2)):
            if f == "author":
                w["authors"].append(re.sub(r" \d{4}$", "", text(v)))
            elif f == "ee":
                if "doi.org/" in v and "doi" not in w:
                    w["doi"] = v.split("doi.org/", 1)[1].strip()
            else:
                w[f] = text(v)
        if w.get("title") and w.get("year") and w["authors"]:
            w["title"] = w["title"].rstrip(".")
            yield w


def bib_escape(s):
    return s.replace("{", "").replace("}", "").replace("&", r"\&").replace("%", r"\%")


def entry(key, w, year=None, doi=True):
    kind = "inproceedings" if "booktitle" in w else "article"
    venue = ("booktitle", w["booktitle"]) if "booktitle" in w else ("journal", w.get("journal", "CoRR"))
    fields = [
        ("author", " and ".join(w["authors"])),
        ("title", "{" + w["title"] + "}"),
        venue,
        ("year", str(year or w["year"])),
    ]
    if doi and w.get("doi"):
        fields.append(("doi", w["doi"]))
    body = ",\n".join(f"  {k} = {{{bib_escape(v) if k != 'title' else '{' + bib_escape(w['title']) + '}'}}}" for k, v in fields)
    return f"@{kind}{{{key},\n{body}\n}}\n"


def gen(xml_path, out, papers, refs, seed):
    rng = random.Random(seed)
    xml = Path(xml_path).read_text(encoding="latin-1")
    pool = list(works(xml))
    words = sorted({w for p in pool[:5000] for w in p["title"].lower().split() if w.isalpha()})
    titles = {p["title"].lower() for p in pool}
    out = Path(out)
    (out / "papers").mkdir(parents=True, exist_ok=True)
    n_mis = max(1, refs // 10)
    n_fab = max(1, refs // 10)
    with open(out / "truth.jsonl", "w") as truth:
        for i in range(papers):
            name = f"p{i:04d}.bib"
            kinds = ["real"] * (refs - n_mis - n_fab) + ["miscited"] * n_mis + ["fabricated"] * n_fab
            rng.shuffle(kinds)
            text_out = []
            for j, kind in enumerate(kinds):
                key = f"r{j}"
                if kind == "fabricated":
                    while True:
                        t = " ".join(rng.sample(words, 7)).capitalize()
                        if t.lower() not in titles:
                            break
                    w = {"title": t, "authors": ["Imaginary Author", "Nobody Real"],
                         "year": str(rng.randint(2015, 2024)), "journal": "Journal of Invented Results"}
                    text_out.append(entry(key, w))
                else:
                    w = rng.choice(pool)
                    if kind == "miscited":
                        text_out.append(entry(key, w, year=int(w["year"]) + 3, doi=False))
                    else:
                        text_out.append(entry(key, w, doi=rng.random() < 0.5))
                truth.write(json.dumps({"file": name, "key": key, "kind": kind}) + "\n")
            (out / "papers" / name).write_text("\n".join(text_out), encoding="utf-8")


def score(truth_path, report_path):
    got = {}
    report = json.loads(Path(report_path).read_text())
    for p in report["papers"]:
        for e in p["entries"]:
            got[(p["file"], e["key"])] = e["class"]
    tally = {}
    wrong = []
    for line in open(truth_path):
        t = json.loads(line)
        c = got.get((t["file"], t["key"]), "missing")
        ok = {
            "real": c == "valid",
            "miscited": c == "miscited",
            "fabricated": c in ("fabricated", "unverified"),
        }[t["kind"]]
        k = tally.setdefault(t["kind"], {})
        k[c] = k.get(c, 0) + 1
        if not ok:
            wrong.append((t, c))
    print(json.dumps({"classes_by_label": tally, "wrong": len(wrong), "failed_papers": report["failed"]}, indent=1))
    for t, c in wrong[:10]:
        print("wrong:", t, c)
    return 1 if wrong else 0


if __name__ == "__main__":
    a = sys.argv[1:]
    if a[:1] == ["gen"]:
        opts = {"--papers": 1000, "--refs": 40, "--seed": 7}
        rest = a[3:]
        for k, v in zip(rest[::2], rest[1::2]):
            opts[k] = int(v)
        gen(a[1], a[2], opts["--papers"], opts["--refs"], opts["--seed"])
    elif a[:1] == ["score"]:
        sys.exit(score(a[1], a[2]))
    else:
        print(__doc__)
        sys.exit(2)
