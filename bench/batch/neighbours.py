#!/usr/bin/env python3
"""Near neighbours of a DBLP XML's works, for the `citegate batch` benchmark.

    neighbours.py DBLP_XML OUT_XML [--count 200000] [--seed 11]

Writes OUT_XML: every record of DBLP_XML unchanged, then `--count` new
records, each a near neighbour of one of its works, the cases where an
index that answers by title can pick the wrong record:

- preprint: the same title and authors on CoRR, a year earlier (the
  arXiv version of a published paper);
- version: the same title and authors in a journal, one or two years later
  (the journal version of a conference paper);
- namesake: the same title by other authors, in another venue and year
  (two works that share a title);
- sibling: the same authors and venue, one title word changed, a year
  later (a follow-up paper).

No neighbour lies three years after its work: `papers.py gen` miscites a
work by moving its year by three, and a neighbour there would make that
citation true. Each neighbour has its own key and DOI; the authors are
copied as written (DBLP's entities included). A preprint carries no arXiv
id: the papers cite DOIs and titles, never arXiv ids.
"""

import random
import re
import sys
from pathlib import Path

RECORD = re.compile(r"<(article|inproceedings)\b([^>]*)>(.*?)</\1>", re.S)
AUTHOR = re.compile(r"<author>(.*?)</author>", re.S)
FIELD = re.compile(r"<(title|year|journal|booktitle)>(.*?)</\1>", re.S)
JOURNALS = ["Journal of Neighbouring Results", "Transactions on Close Calls",
            "Letters in Near Misses"]
WORDS = ["robust", "scalable", "sparse", "adaptive", "efficient", "federated",
         "causal", "private", "streaming", "distributed"]


def works(xml):
    for m in RECORD.finditer(xml):
        body = m.group(3)
        if 'publtype="informal"' in m.group(2):
            continue
        f = dict(FIELD.findall(body))
        authors = AUTHOR.findall(body)
        if f.get("title") and f.get("year") and authors:
            yield {"authors": authors, **f}


def record(kind, w, n, rng, others):
    year = int(w["year"])
    title, authors = w["title"], w["authors"]
    if kind == "preprint":
        key = f"journals/corr/abs-nb-{n}"
        return (f'<article mdate="2026-01-01" key="{key}" publtype="informal">\n'
                + "".join(f"<author>{a}</author>\n" for a in authors)
                + f"<title>{title}</title>\n<year>{year - 1}</year>\n"
                "<journal>CoRR</journal>\n</article>\n")
    if kind == "version":
        year += rng.choice([1, 2])
        venue = f"<journal>{rng.choice(JOURNALS)}</journal>\n<volume>{year - 1980}</volume>\n"
        tag = "article"
        key = f"journals/nb/V{n}"
    elif kind == "namesake":
        authors = rng.choice(others)
        year = rng.choice([y for y in range(1990, 2026) if abs(y - year) > 3])
        venue = f"<journal>{rng.choice(JOURNALS)}</journal>\n<volume>{year - 1980}</volume>\n"
        tag = "article"
        key = f"journals/nb/N{n}"
    else:  # sibling
        words = title.split()
        i = rng.randrange(len(words))
        words[i] = rng.choice([x for x in WORDS if x != words[i].lower()])
        title = " ".join(words)
        year += 1
        if "booktitle" in w:
            venue, tag = f"<booktitle>{w['booktitle']}</booktitle>\n", "inproceedings"
        else:
            venue, tag = f"<journal>{w.get('journal', 'CoRR')}</journal>\n", "article"
        key = f"conf/nb/S{n}"
    return (f'<{tag} mdate="2026-01-01" key="{key}">\n'
            + "".join(f"<author>{a}</author>\n" for a in authors)
            + f"<title>{title}</title>\n<year>{year}</year>\n{venue}"
            f"<ee>https://doi.org/10.5555/nb.{n}</ee>\n</{tag}>\n")


def main(src, out, count, seed):
    rng = random.Random(seed)
    xml = Path(src).read_text(encoding="latin-1")
    pool = list(works(xml))
    others = [w["authors"] for w in pool[:20000]]
    end = xml.rindex("</dblp>")
    kinds = ["preprint", "version", "namesake", "sibling"]
    tally = dict.fromkeys(kinds, 0)
    with open(out, "w", encoding="latin-1") as f:
        f.write(xml[:end])
        for n in range(count):
            kind = kinds[n % 4]
            tally[kind] += 1
            f.write(record(kind, rng.choice(pool), n, rng, others))
        f.write("</dblp>\n")
    print(f"{len(pool)} works, {count} neighbours: {tally}", file=sys.stderr)


if __name__ == "__main__":
    a = sys.argv[1:]
    if len(a) < 2:
        print(__doc__)
        sys.exit(2)
    opts = {"--count": 200000, "--seed": 11}
    for k, v in zip(a[2::2], a[3::2]):
        opts[k] = int(v)
    main(a[0], a[1], opts["--count"], opts["--seed"])
