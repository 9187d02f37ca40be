#!/usr/bin/env python3
"""Issue 29, checked against a world: each corpus PDF (tools/refcorpus, made with
--fabricate N) through `citegate check PDF --online --json`, every service pointed at a
citegate-world server (tools/world) that holds the true records of the corpus and nothing
else, scored per set: real references called hallucinated or uncertain, fabricated ones
caught. Simulated: the world is made of the very records the documents were typeset from.
Standard library only. See BENCHMARKS.md, issue 29, "Checked against the world".

  python3 bench/refs_world.py --corpus /work/refcorpus-fab [--unkind] [--save DIR]
"""

import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tools", "refcorpus"))
sys.path.insert(0, HERE)
import bibsrc  # noqa: E402  (the generator's BibTeX reader, standard library)
from refs_extract import similarity  # noqa: E402  (the same truth matching as refs_extract)

SERVICES = ["s2", "crossref", "openalex", "datacite", "dblp", "arxiv"]


def default_shared():
    d = ROOT
    while d != os.path.dirname(d):
        c = os.path.join(os.path.dirname(d), "shared")
        if os.path.isdir(os.path.join(c, "fixtures")):
            return c
        d = os.path.dirname(d)
    return None


def hallmark_sources(shared):
    """{(file, bibtex_key): fields} of HALLMARK's valid records, as the source holds them."""
    out = {}
    if not shared:
        return out
    for name in ("dev_public.jsonl", "raw_crossdomain_valid.jsonl", "journal_articles.jsonl"):
        path = os.path.join(shared, "fixtures", "hallmark", name)
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                r = json.loads(line)
                if r.get("label") != "VALID":
                    continue
                f = r.get("fields")
                if f is None and r.get("bibtex"):
                    f = next((f for _, _, f in bibsrc.parse_bib(r["bibtex"])), None)
                if f:
                    out[(name, r["bibtex_key"])] = (r.get("bibtex_type") or "misc", f)
    return out


def world_record(ref, hm):
    """The world's record of a true reference: HALLMARK's own record where the truth points
    at one, else the truth's fields (the BibTeX corpus's LaTeX decoded to Unicode)."""
    src = ref.get("source") or {}
    if src.get("corpus") == "hallmark" and (src.get("file"), src.get("id")) in hm:
        kind, f = hm[(src["file"], src["id"])]
        keep = ("title", "author", "year", "doi", "url", "journal", "booktitle", "eprint", "volume", "pmid", "note")
        fields = {k.lower(): v for k, v in f.items() if k.lower() in keep and isinstance(v, str)}
        return {"type": kind, "fields": fields}, "hallmark"
    fields = {
        "title": ref["title"],
        "author": " and ".join((a["given"] + " " + a["family"]).strip() for a in ref["authors"]),
        "year": ref["year"],
    }
    if ref.get("doi"):
        fields["doi"] = ref["doi"]
    if ref.get("arxiv"):
        fields["eprint"] = ref["arxiv"]
    kind = ref.get("type") or "misc"
    if ref.get("venue"):
        if kind == "article":
            fields["journal"] = ref["venue"]
        elif kind in ("inproceedings", "incollection"):
            fields["booktitle"] = ref["venue"]
        # books, theses, reports: the world reads no publisher, school or institution
    return {"type": kind, "fields": fields}, "truth"


def start_world(binary, world_file, unkind, logdir):
    cmd = [binary, "--world", world_file, "--port", "0"] + (["--unkind"] if unkind else [])
    port_file = os.path.join(logdir, "world.port")
    log = open(os.path.join(logdir, "world.log"), "w")
    proc = subprocess.Popen(cmd, stdout=open(port_file, "w"), stderr=log)
    for _ in range(200):
        if os.path.getsize(port_file) > 0:
            break
        time.sleep(0.05)
    port = open(port_file).read().split()
    if not port:
        proc.kill()
        sys.exit("the world server did not start; see " + log.name)
    return proc, "http://127.0.0.1:" + port[0]


def check(binary, pdf, base):
    cmd = [binary, "check", pdf, "--online", "--json"]
    for s in SERVICES:
        cmd += ["--{}-base".format(s), "{}/{}".format(base, s)]
    cmd += ["--interval-ms", ",".join("{}=0".format(s) for s in SERVICES)]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    secs = time.perf_counter() - t0
    try:
        return json.loads(proc.stdout.decode("utf-8")), secs, None
    except ValueError:
        return None, secs, "exit {}: {}".format(proc.returncode, proc.stderr.decode("utf-8", "replace")[:300])


def entries_of(report):
    """The checked entries of a `check --json` report, whatever its nesting."""
    if isinstance(report, list):
        out = []
        for r in report:
            out += entries_of(r)
        return out
    if isinstance(report, dict):
        if isinstance(report.get("online"), dict) and isinstance(report["online"].get("entries"), list):
            return report["online"]["entries"]
        for k in ("results", "references"):
            if isinstance(report.get(k), list):
                return report[k]
        for k in ("files", "reports", "documents"):
            if isinstance(report.get(k), list):
                return entries_of(report[k])
    return []


def match(entries, truth):
    """Greedy one-to-one by refs_extract's similarity (title, or the raw text holding it)."""
    pairs = []
    for i, e in enumerate(entries):
        ex = {"raw": e.get("raw"), "title": (e.get("fields") or {}).get("title") or e.get("title")}
        for j, tr in enumerate(truth):
            s = similarity(ex, tr)
            if s >= 0.6:
                pairs.append((s, i, j))
    pairs.sort(reverse=True)
    used, out = set(), {}
    for s, i, j in pairs:
        if i in used or j in out:
            continue
        used.add(i)
        out[j] = i
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", default="/work/refcorpus-fab", help="refcorpus --out folder (its */*.json and .pdf)")
    ap.add_argument("--citegate", default=os.path.join(ROOT, "target", "release", "citegate"))
    ap.add_argument("--world-bin", default=os.path.join(ROOT, "target", "release", "citegate-world"))
    ap.add_argument("--shared", default=default_shared())
    ap.add_argument("--unkind", action="store_true", help="passed to citegate-world")
    ap.add_argument("--only", default=None, help="substring of document names")
    ap.add_argument("--save", default=None, help="folder for the world file, the reports and accused.json")
    ap.add_argument("--show", type=int, default=15, help="accused real references to print")
    args = ap.parse_args()

    docs = []
    for tj in sorted(glob.glob(os.path.join(args.corpus, "*", "*.json"))):
        t = json.load(open(tj, encoding="utf-8"))
        pdf = tj[:-5] + ".pdf"
        if "references" not in t or not os.path.exists(pdf):
            continue
        if args.only and args.only not in t["document"]:
            continue
        docs.append((t, pdf))
    if not docs:
        sys.exit("no documents under " + args.corpus)

    save = args.save or tempfile.mkdtemp(prefix="refs-world-")
    os.makedirs(save, exist_ok=True)
    hm = hallmark_sources(args.shared)
    world_file = os.path.join(save, "world.jsonl")
    seen, origin = set(), {"hallmark": 0, "truth": 0}
    with open(world_file, "w", encoding="utf-8") as fh:
        for t, _ in docs:
            for r in t["references"]:
                if r.get("fabricated"):
                    continue
                rec, o = world_record(r, hm)
                k = json.dumps(rec, sort_keys=True)
                if k in seen:
                    continue
                seen.add(k)
                origin[o] += 1
                fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
    print("world: {} records ({} HALLMARK's own, {} from the truth){}".format(
        len(seen), origin["hallmark"], origin["truth"], ", unkind" if args.unkind else ""), file=sys.stderr)

    proc, base = start_world(args.world_bin, world_file, args.unkind, save)
    sets, accused, errors = {}, [], []
    try:
        for n, (t, pdf) in enumerate(docs):
            report, secs, err = check(args.citegate, pdf, base)
            name = t["document"]
            with open(os.path.join(save, name + ".check.json"), "w", encoding="utf-8") as fh:
                json.dump(report, fh, ensure_ascii=False, indent=1)
            c = sets.setdefault(t["set"], {k: 0 for k in (
                "docs", "real", "real_valid", "real_hall", "real_unc", "real_missing",
                "fab", "fab_hall", "fab_unc", "fab_valid", "fab_missing", "entries", "unmatched", "seconds")})
            c["docs"] += 1
            c["seconds"] += secs
            if err:
                errors.append((name, err))
            entries = entries_of(report) if report is not None else []
            c["entries"] += len(entries)
            refs = t["references"]
            m = match(entries, refs)
            c["unmatched"] += len(entries) - len(m)
            for j, tr in enumerate(refs):
                fab = bool(tr.get("fabricated"))
                p = "fab" if fab else "real"
                c[p] += 1
                if j not in m:
                    c[p + "_missing"] += 1
                    continue
                e = entries[m[j]]
                v = e.get("verdict")
                if v == "hallucinated":
                    c[p + "_hall"] += 1
                    if not fab:
                        accused.append({"document": name, "set": t["set"], "title": tr["title"],
                                        "source": tr.get("source"), "entry": e})
                elif v == "valid":
                    c[p + "_valid"] += 1
                else:
                    c[p + "_unc"] += 1
            print("{:3d}/{} {:40s} {:5.1f}s".format(n + 1, len(docs), name, secs), file=sys.stderr)
    finally:
        proc.terminate()
        proc.wait()

    with open(os.path.join(save, "accused.json"), "w", encoding="utf-8") as fh:
        json.dump(accused, fh, ensure_ascii=False, indent=1)

    def pct(a, b):
        return "–" if not b else "{:.1f}".format(100.0 * a / b)

    print("| set | docs | real refs | real called hallucinated | real uncertain | real valid | "
          "fabricated | caught (hallucinated) | fabricated uncertain | fabricated passed as valid | s/doc |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    tot = {}
    for s in sorted(sets) + ["all"]:
        if s == "all":
            if len(sets) < 2:
                break
            c = tot
        else:
            c = sets[s]
            for k, v in c.items():
                tot[k] = tot.get(k, 0) + v
        print("| {} | {} | {} | {} ({} %) | {} ({} %) | {} ({} %) | {} | {} ({} %) | {} ({} %) | {} ({} %) | {:.2f} |".format(
            s, c["docs"], c["real"], c["real_hall"], pct(c["real_hall"], c["real"]),
            c["real_unc"], pct(c["real_unc"], c["real"]), c["real_valid"], pct(c["real_valid"], c["real"]),
            c["fab"], c["fab_hall"], pct(c["fab_hall"], c["fab"]), c["fab_unc"], pct(c["fab_unc"], c["fab"]),
            c["fab_valid"], pct(c["fab_valid"], c["fab"]), c["seconds"] / max(c["docs"], 1)))
    for s in sorted(sets):
        c = sets[s]
        if c["real_missing"] or c["fab_missing"] or c["unmatched"]:
            print("{}: not matched to a checked entry: {} real, {} fabricated; checked entries matching no truth: {}".format(
                s, c["real_missing"], c["fab_missing"], c["unmatched"]))
    for name, err in errors:
        print("error: {}: {}".format(name, err))
    for a in accused[: args.show]:
        e = a["entry"]
        print("\n- {} [{}] {}\n  raw: {}\n  class: {}\n  reasons: {}".format(
            a["document"], a["set"], a["title"], e.get("raw"), e.get("class"),
            json.dumps({"reasons": e.get("reasons"), "outcome": e.get("outcome"), "summary": e.get("summary")}, ensure_ascii=False)[:800]))
    print("\nsaved in " + save, file=sys.stderr)


if __name__ == "__main__":
    main()
