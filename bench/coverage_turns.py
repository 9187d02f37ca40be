#!/usr/bin/env python3
"""Times `citegate coverage` of one draft for several builds taking turns.

    bench/coverage_turns.py ROUNDS TEX POOL CITEGATE [CITEGATE ...]

Each run is spawned with its output to /dev/null; per build it prints the
wall-time deciles (10 % to 90 %), the median wall time and the median CPU
time (user + system). Deciles show what a median hides: a build whose
runs fall into two groups (as a scan split over two threads does when the
second thread starts late).
"""
import os
import statistics
import sys

from coverage_parts import timed_run


def main():
    rounds, tex, pool = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    builds = sys.argv[4:]
    null = os.open(os.devnull, os.O_WRONLY)
    runs = {b: [] for b in builds}
    for _ in range(rounds):
        for b in builds:
            runs[b].append(timed_run(b, tex, pool, null))
    for b, rs in runs.items():
        wall = sorted(w for w, _ in rs)
        cpu = [c for _, c in rs]
        deciles = " ".join(f"{wall[len(wall) * q // 10] * 1e3:5.2f}" for q in range(1, 10))
        print(f"{b:40} deciles {deciles} | median {statistics.median(wall) * 1e3:5.2f} ms"
              f" cpu {statistics.median(cpu) * 1e3:5.2f} ms")


if __name__ == "__main__":
    main()
