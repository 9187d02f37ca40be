#!/usr/bin/env python3
"""
driver.py — time the reference Python scripts on the citegate bench inputs.

Usage (set up by bench/reference/run.sh, in the folder it extracts to):
    python driver.py                     # default: title coverage bib
    python driver.py title bib           # chosen workloads
    python driver.py predup              # pre_dedup on candidates_1000.json, ONE run (~17 min)
    SMOKE=1 python driver.py [...]       # each workload once, first 200 items only

Environment:
    SMOKE=1        one run per workload, first SMOKE_N items (default 200)
    SMOKE_N=<n>    item count for smoke mode
    RUNS=<n>       runs per timed workload (default 5; predup is always 1)
    BENCH_DIR=...  input folder (default /tmp/citegate-bench)

Output: one line per workload:  <name> ms=<best ms> extra=<k:v,k:v,...>
Timing: time.perf_counter, best of RUNS. Input files are read before the
timer starts, except where the reference itself reads them (coverage).
"""
import contextlib
import glob
import io
import json
import os
import re
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import bibtexparser  # noqa: E402  (bibtexparser==1.4.3)

import bib_layer1  # noqa: E402
import citation_coverage  # noqa: E402
import levenshtein_match  # noqa: E402
import pre_dedup_candidates  # noqa: E402

BENCH = os.environ.get("BENCH_DIR", "/tmp/citegate-bench")
SMOKE = os.environ.get("SMOKE", "") not in ("", "0")
SMOKE_N = int(os.environ.get("SMOKE_N", "200"))
RUNS = 1 if SMOKE else int(os.environ.get("RUNS", "5"))
DEFAULT = ["title", "coverage", "bib"]


def best_of(fn, runs):
    """Run fn() `runs` times; return (best seconds, result of the last run)."""
    best = None
    res = None
    for _ in range(runs):
        t0 = time.perf_counter()
        res = fn()
        dt = time.perf_counter() - t0
        if best is None or dt < best:
            best = dt
    return best, res


def fmt_extra(d):
    return ",".join(f"{k}:{v}" for k, v in d.items())


def report(name, seconds, extra):
    print(f"{name} ms={seconds * 1000:.3f} extra={fmt_extra(extra)}", flush=True)


# ---------------------------------------------------------------- title
def wl_title():
    """levenshtein_match.ratio(candidate, found) over every pair of
    title_pairs.tsv (2 tab-separated columns: candidate, found). ratio()
    calls levenshtein_match.normalize() on both sides, then
    Levenshtein.ratio, rounded to an int percent; substring_bypass=False
    (the CLI default). PASS counted as ratio > 70 (CLI default threshold)."""
    with open(os.path.join(BENCH, "title_pairs.tsv"), encoding="utf-8") as f:
        pairs = []
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            cand, found = line.split("\t")
            pairs.append((cand, found))
    if SMOKE:
        pairs = pairs[:SMOKE_N]
    ratio = levenshtein_match.ratio

    def run():
        n_pass = 0
        total = 0
        for a, b in pairs:
            r = ratio(a, b)
            total += r
            if r > 70:
                n_pass += 1
        return n_pass, total

    secs, (n_pass, total) = best_of(run, RUNS)
    report("title", secs, {"pairs": len(pairs), "pass_gt70": n_pass,
                           "ratio_sum": total, "runs": RUNS})


# ---------------------------------------------------------------- predup
def wl_predup():
    """pre_dedup_candidates.dedup(candidates) with its default threshold
    (92.0) on candidates_1000.json["candidates"]; ONE run (quadratic pure
    Python)."""
    with open(os.path.join(BENCH, "candidates_1000.json"), encoding="utf-8") as f:
        raw = json.load(f)
    cands = raw if isinstance(raw, list) else (raw.get("candidates") or raw.get("papers") or [])
    if SMOKE:
        cands = cands[:SMOKE_N]
    t0 = time.perf_counter()
    out = pre_dedup_candidates.dedup(cands)
    secs = time.perf_counter() - t0
    report("predup1000", secs,
           {"before": len(cands), "after": len(out),
            "removed": len(cands) - len(out), "runs": 1})


# ---------------------------------------------------------------- coverage
def concat_tex(root):
    """All .tex files under root (sorted paths), concatenated. The reference
    reads one file and does not follow \\input, so main.tex + sections/*.tex
    are joined into one text."""
    paths = sorted(glob.glob(os.path.join(root, "**", "*.tex"), recursive=True))
    parts = []
    for p in paths:
        with open(p, encoding="utf-8") as f:
            parts.append(f.read())
    return "\n".join(parts), len(paths)


def wl_coverage():
    """citation_coverage.main() run as its CLI would be
    (--tex <concatenated tex> --pool pool.json, default threshold 0.90),
    with sys.argv patched and stdout/stderr captured. Timed region = the
    whole main(): reading both files, extract_cited_keys (CITE_RE), the set
    arithmetic and the report it prints."""
    tex, n_files = concat_tex(os.path.join(BENCH, "tex"))
    if SMOKE:
        tex = "\n".join(tex.split("\n")[:SMOKE_N])
    fd, tex_path = tempfile.mkstemp(prefix="pybench_cov_", suffix=".tex")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(tex)
        argv = ["citation_coverage.py", "--tex", tex_path,
                "--pool", os.path.join(BENCH, "pool.json")]

        def run():
            out, err = io.StringIO(), io.StringIO()
            saved = sys.argv
            sys.argv = argv
            try:
                with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                    rc = citation_coverage.main()
            finally:
                sys.argv = saved
            return rc, out.getvalue()

        secs, (rc, text) = best_of(run, RUNS)
    finally:
        os.unlink(tex_path)
    m = re.search(r"Coverage: (\d+)/(\d+)", text)
    fm = re.search(r"WARNING: (\d+) cited keys NOT in citation pool", text)
    mm = re.search(r"FAIL: missing (\d+) pool papers", text)
    extra = {"tex_files": n_files, "tex_bytes": len(tex.encode("utf-8")),
             "cited_in_pool": m.group(1) if m else "?",
             "pool": m.group(2) if m else "?",
             "foreign": fm.group(1) if fm else 0,
             "missing": mm.group(1) if mm else 0,
             "rc": rc, "runs": RUNS}
    report("coverage", secs, extra)


# ---------------------------------------------------------------- bib
def first_n_entries(text, n):
    """Keep @string/@preamble/@comment chunks and the first n other entries."""
    chunks = re.split(r"(?m)^(?=@)", text)
    kept, count = [], 0
    for c in chunks:
        if re.match(r"@\s*(string|preamble|comment)\b", c, re.IGNORECASE) or not c.startswith("@"):
            kept.append(c)
        elif count < n:
            kept.append(c)
            count += 1
    return "".join(kept)


def wl_bib():
    """bibtexparser.loads (1.4.3, default parser) on refs_5000.bib, then
    bib_layer1.check_bibtex_structure(entry) and
    bib_layer1.check_field_format(entry) on every entry of db.entries.
    check_field_format raises ValueError on a non-numeric year (it calls
    int(year) after flagging it); such entries are counted as crashes."""
    with open(os.path.join(BENCH, "refs_5000.bib"), encoding="utf-8") as f:
        text = f.read()
    if SMOKE:
        text = first_n_entries(text, SMOKE_N)
    n_in_file = len(re.findall(r"(?m)^@(?!\s*(?:string|preamble|comment)\b)", text, re.IGNORECASE))
    structure = bib_layer1.check_bibtex_structure
    fieldfmt = bib_layer1.check_field_format
    load_best = [None]

    def run():
        t0 = time.perf_counter()
        db = bibtexparser.loads(text)
        t1 = time.perf_counter() - t0
        if load_best[0] is None or t1 < load_best[0]:
            load_best[0] = t1
        n_struct = n_fmt = n_crash = n_bad = 0
        for e in db.entries:
            errs = structure(e)
            n_struct += len(errs)
            try:
                ferrs = fieldfmt(e)
            except ValueError:
                n_crash += 1
                ferrs = None
            if ferrs:
                n_fmt += len(ferrs)
            if errs or ferrs or ferrs is None:
                n_bad += 1
        return len(db.entries), len(db.entries_dict), n_struct, n_fmt, n_crash, n_bad

    secs, (n_read, n_unique, n_struct, n_fmt, n_crash, n_bad) = best_of(run, RUNS)
    report("bib", secs, {"entries_in_file": n_in_file, "entries_read": n_read,
                         "unique_ids": n_unique, "structure_errors": n_struct,
                         "format_errors": n_fmt, "format_valueerror": n_crash,
                         "entries_flagged": n_bad,
                         "load_ms": f"{load_best[0] * 1000:.3f}", "runs": RUNS})


WORKLOADS = {"title": wl_title, "predup": wl_predup,
             "coverage": wl_coverage, "bib": wl_bib}


def main(argv):
    names = argv or DEFAULT
    bad = [n for n in names if n not in WORKLOADS]
    if bad:
        print(f"unknown workload(s): {' '.join(bad)}; choose from {' '.join(WORKLOADS)}",
              file=sys.stderr)
        return 2
    if SMOKE:
        print(f"# SMOKE mode: 1 run, first {SMOKE_N} items", flush=True)
    for n in names:
        WORKLOADS[n]()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
