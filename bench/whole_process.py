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
import resource
import statistics
import subprocess
import sys
import time


def timed(cmd):
    """Wall time and CPU time (user + system) of one run of cmd. On a busy
    machine the CPU time moves less than the wall time: it leaves out the
    time the process waited for a core."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


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
    print(f"# {rounds} rounds, programs in turn; whole process, wall and CPU (user + sys)")
    for name, ts in times.items():
        wall = [w for w, _ in ts]
        cpu = [c for _, c in ts]
        print(f"{name:24} wall min {min(wall) * 1e3:7.1f} ms median {statistics.median(wall) * 1e3:7.1f} ms"
              f" | cpu min {min(cpu) * 1e3:7.1f} ms median {statistics.median(cpu) * 1e3:7.1f} ms")
    for i, what in [(0, "wall"), (1, "cpu")]:
        py = [t[i] for t in times["coverage python"]]
        cg = [t[i] for t in times["coverage citegate"]]
        print(f"coverage, {what}: citegate {statistics.median(py) / statistics.median(cg):.1f}x faster"
              f" than the seed script (medians), {min(py) / min(cg):.1f}x (minima)")


if __name__ == "__main__":
    main()
