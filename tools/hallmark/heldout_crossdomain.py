#!/usr/bin/env python3
"""A held-out split across fields, which the rules were never tuned on.

Reads HALLMARK's cross-domain valid entries (`raw_crossdomain_valid.jsonl`: DBLP outside ML,
bioRxiv, PubMed) and its journal articles (`journal_articles.jsonl`: JMLR, TMLR, Machine
Learning, … as DBLP's BibTeX), cites each as a valid entry (journal articles as a researcher
would: DBLP's homonym numbers and the title's trailing period dropped), and makes one perturbed
copy of a fixed share of them with the perturbations of `heldout.py` (a journal is replaced by
another journal of the split). Writes the split to SPLIT and the world records the journal
articles add (those `world_dev.jsonl` lacks) to WORLD.

    tools/hallmark/heldout_crossdomain.py tools/hallmark/data/world_dev.jsonl \
        tools/hallmark/data/heldout_crossdomain.jsonl tools/hallmark/data/heldout_world.jsonl
"""
import json
import random
import re
import sys

norm = lambda s: re.sub(r"[^a-z0-9]", "", s.lower())
DATA = __file__.rsplit("/", 1)[0] + "/data/"
WORDS = ["robust", "efficient", "scalable", "adaptive", "sparse", "hierarchical"]


def bibtex_fields(text):
    """`key = {value},` lines of a DBLP BibTeX export."""
    return {k.lower(): v for k, v in re.findall(r"^\s*(\w+)\s*=\s*\{(.*)\},?\s*$", text, re.M)}


def cite(fields):
    f = dict(fields)
    f.pop("url", None)
    f["title"] = f["title"].rstrip(".")
    f["author"] = " and ".join(
        re.sub(r" \d{4}$", "", a.strip()) for a in f["author"].split(" and ") if a.strip() != "others"
    )
    return f


def entry(i, kind, fields, htype=None, tier=None):
    return {
        "bibtex_key": f"x{i:05d}",
        "bibtex_type": kind,
        "fields": fields,
        "label": "HALLUCINATED" if htype else "VALID",
        "hallucination_type": htype,
        "difficulty_tier": tier,
    }


def perturb(rng, f, venues, journals):
    """One perturbed copy of `f` as (fields, type, tier), or None."""
    g = dict(f)
    authors = g["author"].split(" and ")
    choice = rng.choice(["partial", "swap", "title", "venue", "year", "doi"])
    if choice == "partial" and len(authors) >= 3:
        g["author"] = " and ".join(authors[:-1])
        return g, "partial_author_list", 2
    if choice == "swap" and len(authors) >= 2:
        authors[0], authors[1] = authors[1], authors[0]
        g["author"] = " and ".join(authors)
        return g, "swapped_authors", 2
    if choice == "title":
        words = g["title"].split()
        k = rng.randrange(len(words))
        words[k] = rng.choice([x for x in WORDS if x != words[k].lower()])
        g["title"] = " ".join(words)
        return g, "near_miss_title", 3
    if choice == "venue" and g.get("booktitle"):
        g["booktitle"] = rng.choice([v for v in venues if v != g["booktitle"]])
        return g, "wrong_venue", 2
    if choice == "venue" and g.get("journal") and not re.search("rxiv", g["journal"], re.I):
        g["journal"] = rng.choice([v for v in journals if v.lower() != g["journal"].lower()])
        return g, "wrong_venue", 2
    if choice == "year" and g.get("year", "").isdigit():
        g["year"] = str(int(g["year"]) - 2)
        return g, "arxiv_version_mismatch", 3
    if choice == "doi":
        g["doi"] = f"10.88{rng.randrange(100, 999)}/x.{rng.randrange(10**5, 10**6)}"
        return g, "fabricated_doi", 1
    return None


def main():
    world_file, split_out, world_out = sys.argv[1:4]
    world = {norm(json.loads(l)["fields"]["title"]) for l in open(world_file)}
    cited = []  # (type, fields)
    for l in open(DATA + "raw_crossdomain_valid.jsonl"):
        e = json.loads(l)
        if e.get("label") == "VALID" and e.get("fields", {}).get("title"):
            f = {k: v for k, v in e["fields"].items() if k != "url"}
            cited.append((e["bibtex_type"], f))
    added = []
    for l in open(DATA + "journal_articles.jsonl"):
        e = json.loads(l)
        if e.get("label") != "VALID" or "bibtex" not in e:
            continue
        fields = bibtex_fields(e["bibtex"])
        if not fields.get("title") or not fields.get("author"):
            continue
        record = dict(fields)
        record["title"] = record["title"].rstrip(".")
        if norm(record["title"]) not in world:
            world.add(norm(record["title"]))
            added.append({"type": e["bibtex_type"], "fields": record})
        cited.append((e["bibtex_type"], cite(fields)))
    rng = random.Random(11)
    venues = sorted({f["booktitle"] for _, f in cited if f.get("booktitle")})
    journals = sorted({f["journal"] for _, f in cited if f.get("journal") and "rxiv" not in f["journal"].lower()})
    out = []
    for kind, f in cited:
        out.append(entry(len(out), kind, f))
        if rng.random() > 0.35:
            continue
        p = perturb(rng, f, venues, journals)
        if p:
            out.append(entry(len(out), kind, p[0], p[1], p[2]))
    with open(split_out, "w") as fh:
        for e in out:
            fh.write(json.dumps(e, ensure_ascii=False) + "\n")
    with open(world_out, "w") as fh:
        for r in added:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    print(f"{len(out)} entries ({sum(e['label'] == 'VALID' for e in out)} valid), {len(added)} world records added", file=sys.stderr)


if __name__ == "__main__":
    main()
