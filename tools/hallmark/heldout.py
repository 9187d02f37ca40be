#!/usr/bin/env python3
"""A held-out check the rules were never tuned on.

Cites every world record that dev_public does not cite (as a researcher would: DBLP's BibTeX
with the homonym numbers dropped) as a VALID entry, and makes one perturbed copy of a fixed
share of them with perturbations of our own (not HALLMARK's generator): a dropped last author,
two authors swapped, one title word replaced, another venue of the world, the year moved by
two, a DOI under an unregistered prefix. Writes a split in HALLMARK's format to stdout.

    tools/hallmark/heldout.py tools/hallmark/data/dev_public.jsonl \
        tools/hallmark/data/world_dev.jsonl > /tmp/heldout.jsonl
"""
import json
import random
import re
import sys

norm = lambda s: re.sub(r"[^a-z0-9]", "", s.lower())
dev = [json.loads(l) for l in open(sys.argv[1])]
world = [json.loads(l) for l in open(sys.argv[2])]
seen = {norm(d["fields"]["title"]) for d in dev}
rng = random.Random(7)
venues = sorted({w["fields"].get("booktitle") for w in world if w["fields"].get("booktitle")})
WORDS = ["robust", "efficient", "scalable", "adaptive", "sparse", "hierarchical"]


def cite(w):
    f = dict(w["fields"])
    f.pop("url", None)
    f["author"] = " and ".join(
        re.sub(r" \d{4}$", "", a.strip()) for a in f["author"].split(" and ") if a.strip() != "others"
    )
    return f


def entry(i, kind, fields, htype=None, tier=None):
    return {
        "bibtex_key": f"h{i:05d}",
        "bibtex_type": kind,
        "fields": fields,
        "label": "HALLUCINATED" if htype else "VALID",
        "hallucination_type": htype,
        "difficulty_tier": tier,
    }


out = []
for w in world:
    if norm(w["fields"]["title"]) in seen:
        continue
    f = cite(w)
    out.append(entry(len(out), w["type"], f))
    if rng.random() > 0.35:
        continue
    g = dict(f)
    authors = g["author"].split(" and ")
    choice = rng.choice(["partial", "swap", "title", "venue", "year", "doi"])
    if choice == "partial" and len(authors) >= 3:
        g["author"] = " and ".join(authors[:-1])
        out.append(entry(len(out), w["type"], g, "partial_author_list", 2))
    elif choice == "swap" and len(authors) >= 2:
        authors[0], authors[1] = authors[1], authors[0]
        g["author"] = " and ".join(authors)
        out.append(entry(len(out), w["type"], g, "swapped_authors", 2))
    elif choice == "title":
        words = g["title"].split()
        k = rng.randrange(len(words))
        words[k] = rng.choice([x for x in WORDS if x != words[k].lower()])
        g["title"] = " ".join(words)
        out.append(entry(len(out), w["type"], g, "near_miss_title", 3))
    elif choice == "venue" and g.get("booktitle"):
        g["booktitle"] = rng.choice([v for v in venues if v != g["booktitle"]])
        out.append(entry(len(out), w["type"], g, "wrong_venue", 2))
    elif choice == "year" and g.get("year", "").isdigit():
        g["year"] = str(int(g["year"]) - 2)
        out.append(entry(len(out), w["type"], g, "arxiv_version_mismatch", 3))
    elif choice == "doi":
        g["doi"] = f"10.88{rng.randrange(100, 999)}/x.{rng.randrange(10**5, 10**6)}"
        out.append(entry(len(out), w["type"], g, "fabricated_doi", 1))

for e in out:
    print(json.dumps(e, ensure_ascii=False))
