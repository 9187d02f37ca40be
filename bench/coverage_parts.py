#!/usr/bin/env python3
"""Where `citegate coverage`'s time goes on a 5 MB draft (issue 20): the
same command, whole process, on drafts that differ by one feature at a
time, the programs taking turns round by round; then what reading 5 MB
costs a process by itself, four ways.

    coverage_parts.py CITEGATE POOL [ROUNDS] [OTHER_CITEGATE ...]

POOL is the bench's `pool.json` (keys key0..key499; see
`core/examples/bench_inputs.rs`). The drafts are written to
$BENCH_DIR/parts (default /tmp/citegate-bench/parts), seeded, about 5 MB
each, 100,000 cite commands after `\\begin{document}`:

- `all_keys`: the 500 keys cited once (the fixed part: start-up, the pool,
  the report);
- `plain`: 5 MB of prose, no command and no `\\begin{document}` (a chapter:
  reading the file and the search for commands);
- `regular`: `\\citep{keyNNN}` and five words, every line alike;
- `keys`: the keys drawn at random from the pool;
- `lengths`: and three to seven words a line;
- `notes`: and a quarter of the commands `\\citet[p.~N]{a, b}`;
- `foreign`: and a tenth of the keys outside the pool (50 of them);
- `comments`: and a tenth of the lines ending in `% see \\cite{commented}`.

Each figure is the median wall time of ROUNDS runs (default 100), with
the first and third quartiles.
"""
import mmap
import os
import random
import statistics
import sys
import time

WORDS = ("ef ter ve sursca trainro bust prevaltion diftionten texttenspar "
         "tionten inneu rosi lawsbustnet").split()


def draft(path, keys, lengths, notes, foreign, comments):
    rnd = random.Random(7)
    lines = ["\\documentclass{article}", "\\begin{document}"]
    for i in range(100_000):
        key = f"key{rnd.randrange(500)}" if keys else f"key{100 + i % 400}"
        if foreign and rnd.random() < 0.1:
            key = f"ghost{rnd.randrange(50)}"
        if notes and rnd.random() < 0.25:
            cmd = f"\\citet[p.~{rnd.randrange(200)}]{{{key}, key{rnd.randrange(500)}}}"
        else:
            cmd = f"\\citep{{{key}}}"
        n = rnd.randrange(3, 8) if lengths else 5
        tail = " ".join(rnd.choice(WORDS) for _ in range(n))
        if comments and rnd.random() < 0.1:
            tail += " % see \\cite{commented}"
        lines.append(f"{cmd} {tail}.")
    lines.append("\\end{document}")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def write_drafts(out):
    os.makedirs(out, exist_ok=True)
    paths = {}
    path = os.path.join(out, "all_keys.tex")
    with open(path, "w") as f:
        f.write("".join(f"\\citep{{key{k}}}\n" for k in range(500)))
    paths["all_keys"] = path
    path = os.path.join(out, "plain.tex")
    line = "plain words of text here and there in a line of prose.\n"
    with open(path, "w") as f:
        f.write(line * (5_082_763 // len(line)))
    paths["plain"] = path
    features = ["keys", "lengths", "notes", "foreign", "comments"]
    for n, name in enumerate(["regular"] + features):
        path = os.path.join(out, f"{name}.tex")
        draft(path, *[k < n for k in range(len(features))])
        paths[name] = path
    return paths


def run(binary, tex, pool, null):
    return timed_run(binary, tex, pool, null)[0]


def timed_run(binary, tex, pool, null):
    """Wall time and CPU time (user + system) of one `coverage` run, its
    output to `null` (bench/coverage_turns.py uses it too)."""
    t = time.perf_counter()
    pid = os.posix_spawn(binary, [binary, "coverage", "--tex", tex, "--pool", pool],
                         os.environ, file_actions=[(os.POSIX_SPAWN_DUP2, null, 1),
                                                   (os.POSIX_SPAWN_DUP2, null, 2)])
    _, _, usage = os.wait4(pid, 0)
    return time.perf_counter() - t, usage.ru_utime + usage.ru_stime


def quartiles(xs):
    xs = sorted(xs)
    return xs[len(xs) // 4], statistics.median(xs), xs[3 * len(xs) // 4]


def read_costs(path, rounds):
    """Reading the file four ways in this process, each a median of
    `rounds`: into memory mapped fresh for the read (as a new process
    must), with and without huge pages, into a buffer already in use, and
    through a 256 KB buffer reused piece after piece."""
    n = os.path.getsize(path)
    size = -(-n // (2 << 20)) * (2 << 20)
    reused = bytearray(n)
    piece = bytearray(256 << 10)

    def fresh(huge):
        m = mmap.mmap(-1, size)
        if huge:
            m.madvise(mmap.MADV_HUGEPAGE)
        with open(path, "rb", buffering=0) as f:
            f.readinto(memoryview(m)[:n])
        m.close()

    def into_reused():
        with open(path, "rb", buffering=0) as f:
            f.readinto(reused)

    def streamed():
        with open(path, "rb", buffering=0) as f:
            while f.readinto(piece):
                pass

    ways = [("fresh memory, 4 KB pages", lambda: fresh(False)),
            ("fresh memory, huge pages", lambda: fresh(True)),
            ("a buffer already in use", into_reused),
            ("256 KB pieces, one buffer", streamed)]
    for name, way in ways:
        way()
        times = []
        for _ in range(rounds):
            t = time.perf_counter()
            way()
            times.append(time.perf_counter() - t)
        print(f"  read {os.path.basename(path)} into {name:28} {statistics.median(times) * 1e3:6.2f} ms")


def main():
    binaries, pool = [sys.argv[1]], sys.argv[2]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 100
    binaries += sys.argv[4:]
    out = os.path.join(os.environ.get("BENCH_DIR", "/tmp/citegate-bench"), "parts")
    paths = write_drafts(out)
    null = os.open(os.devnull, os.O_WRONLY)
    times = {(b, d): [] for b in binaries for d in paths}
    for _ in range(rounds):
        for d, path in paths.items():
            for b in binaries:
                times[(b, d)].append(run(b, path, pool, null))
    print(f"# {os.uname().nodename}, load {os.getloadavg()[0]:.2f}; {rounds} rounds in turns;"
          " wall ms, quartiles q1 / median / q3")
    for d, path in paths.items():
        cells = []
        for b in binaries:
            q1, med, q3 = quartiles(times[(b, d)])
            cells.append(f"{q1 * 1e3:6.2f} / {med * 1e3:6.2f} / {q3 * 1e3:6.2f}")
        print(f"{d:9} {os.path.getsize(path):>9,} B  " + "  |  ".join(cells))
    read_costs(paths["regular"], rounds)


if __name__ == "__main__":
    main()
