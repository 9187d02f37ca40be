#!/usr/bin/env python3
"""Times `citegate coverage` of one draft for several builds taking turns.

    bench/coverage_turns.py [--idle MS] ROUNDS TEX POOL CITEGATE [CITEGATE ...]

Each run is spawned with its output to /dev/null; per build it prints the
wall-time deciles (10 % to 90 %), the median wall time and the median CPU
time (user + system). Deciles show what a median hides: a build whose
runs fall into two groups (as a scan split over two threads does when the
second thread starts late).

With --idle MS the bench sleeps MS milliseconds before each run, so the
run starts on a processor that has been idle, as in the issue's harness
(bench/whole_process.py), where each citegate run follows a program that
ran for 50-90 ms. On this VM that costs a coverage run of the 5 MB draft
1.1-1.6 ms against runs that follow one another at once (BENCHMARKS.md,
"Seventh pass").
"""
import os
import statistics
import sys
import time

from coverage_parts import timed_run


def main():
    args = sys.argv[1:]
    idle = 0.0
    if args[:1] == ["--idle"]:
        idle, args = float(args[1]) / 1e3, args[2:]
    rounds, tex, pool = int(args[0]), args[1], args[2]
    builds = args[3:]
    null = os.open(os.devnull, os.O_WRONLY)
    runs = {b: [] for b in builds}
    for _ in range(rounds):
        for b in builds:
            if idle:
                time.sleep(idle)
            runs[b].append(timed_run(b, tex, pool, null))
    for b, rs in runs.items():
        wall = sorted(w for w, _ in rs)
        cpu = [c for _, c in rs]
        deciles = " ".join(f"{wall[len(wall) * q // 10] * 1e3:5.2f}" for q in range(1, 10))
        print(f"{b:40} deciles {deciles} | median {statistics.median(wall) * 1e3:5.2f} ms"
              f" cpu {statistics.median(cpu) * 1e3:5.2f} ms")


if __name__ == "__main__":
    main()
