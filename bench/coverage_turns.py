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
import time


def main():
    rounds, tex, pool = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    builds = sys.argv[4:]
    null = os.open(os.devnull, os.O_WRONLY)
    runs = {b: [] for b in builds}
    for _ in range(rounds):
        for b in builds:
            t = time.perf_counter()
            pid = os.posix_spawn(
                b, [b, "coverage", "--tex", tex, "--pool", pool], os.environ,
                file_actions=[(os.POSIX_SPAWN_DUP2, null, 1), (os.POSIX_SPAWN_DUP2, null, 2)],
            )
            _, _, usage = os.wait4(pid, 0)
            runs[b].append((time.perf_counter() - t, usage.ru_utime + usage.ru_stime))
    for b, rs in runs.items():
        wall = sorted(w for w, _ in rs)
        cpu = [c for _, c in rs]
        deciles = " ".join(f"{wall[len(wall) * q // 10] * 1e3:5.2f}" for q in range(1, 10))
        print(f"{b:40} deciles {deciles} | median {statistics.median(wall) * 1e3:5.2f} ms"
              f" cpu {statistics.median(cpu) * 1e3:5.2f} ms")


if __name__ == "__main__":
    main()
