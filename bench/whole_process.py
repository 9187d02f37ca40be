#!/usr/bin/env python3
"""Whole-process comparison for issue 20, every program in ONE run, taking
turns round by round (the machine is shared, so only figures from the same
run compare). See bench/whole_process.sh for the set-up; usage:

    whole_process.py CITEGATE REFERENCE_DIR BENCH_DIR [ROUNDS] [BEFORE]

- coverage: `citegate coverage --tex single_5mb.tex --pool pool.json`
  against the seed's `python3 citation_coverage.py` with the same arguments
  (5 MB, 100,000 cite commands; both exit 1 on this draft);
- pre-dedup: `citegate pre-dedup --in candidates_10000.json --out …`
  (the reference is quadratic in pure Python: minutes, not run here);
- title: in-process throughput, `bench_title` (citegate) against
  bench/title_reference.py (the seed's function and the C Levenshtein).

BEFORE (optional) is an older citegate binary timed in the same turns.
Each figure is wall time of the whole process: min and median of ROUNDS.
"""
import os
import statistics
import subprocess
import sys
import time


def timed(cmd):
    t = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - t


def main():
    citegate, ref, bench = sys.argv[1], sys.argv[2], sys.argv[3]
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 7
    before = sys.argv[5] if len(sys.argv) > 5 and sys.argv[5] else None
    tex = os.path.join(bench, "single_5mb.tex")
    pool = os.path.join(bench, "pool.json")
    cands = os.path.join(bench, "candidates_10000.json")
    out = os.path.join(bench, "whole_process_deduped.json")
    programs = [
        ("coverage citegate", [citegate, "coverage", "--tex", tex, "--pool", pool]),
        ("coverage python", [sys.executable, os.path.join(ref, "citation_coverage.py"),
                             "--tex", tex, "--pool", pool]),
        ("pre-dedup 10k citegate", [citegate, "pre-dedup", "--in", cands, "--out", out]),
    ]
    if before:
        programs.insert(1, ("coverage before", [before, "coverage", "--tex", tex, "--pool", pool]))
        programs.append(("pre-dedup 10k before", [before, "pre-dedup", "--in", cands, "--out", out]))
    times = {name: [] for name, _ in programs}
    for _ in range(rounds):
        for name, cmd in programs:
            times[name].append(timed(cmd))
    print(f"# {os.uname().nodename}: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}")
    print(f"# {rounds} rounds, programs in turn; wall time of the whole process")
    for name, ts in times.items():
        print(f"{name:26} min {min(ts) * 1e3:8.1f} ms   median {statistics.median(ts) * 1e3:8.1f} ms")
    cov = statistics.median(times["coverage python"]) / statistics.median(times["coverage citegate"])
    cov_min = min(times["coverage python"]) / min(times["coverage citegate"])
    print(f"coverage: citegate {cov:.1f}x faster than the seed script (median), {cov_min:.1f}x (min)")


if __name__ == "__main__":
    main()
