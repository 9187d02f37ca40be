#!/usr/bin/env python3
"""Title-score throughput of the reference on title_pairs.tsv, for
bench/whole_process.sh (run beside citegate's core/examples/bench_title.rs):

- score: levenshtein_match.ratio(a, b), the seed's function (its
  normalize() on both titles, then Levenshtein.ratio, rounded);
- ratio: Levenshtein.ratio alone on titles normalized beforehand.

Usage: title_reference.py REFERENCE_DIR FILE [ROUNDS], where REFERENCE_DIR
holds levenshtein_match.py as bench/reference/extract.py writes it; prints
the sum of each chunk's best round. Needs the Levenshtein package.
"""
import sys
import time

sys.path.insert(0, sys.argv[1])

import Levenshtein  # noqa: E402
import levenshtein_match  # noqa: E402


def main():
    path = sys.argv[2]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    with open(path, encoding="utf-8") as f:
        pairs = [tuple(l.rstrip("\n").split("\t", 1)) for l in f if "\t" in l]
    normalize = levenshtein_match.normalize
    norm = [(normalize(a), normalize(b)) for a, b in pairs]
    ratio = Levenshtein.ratio
    score_one = levenshtein_match.ratio

    # Timed in chunks of 500 pairs, each chunk's best round kept and the
    # best times summed, as core/examples/bench_title.rs does.
    def timed(items, fn):
        total = 0.0
        for c in range(0, len(items), 500):
            chunk = items[c:c + 500]
            best = float("inf")
            for _ in range(rounds):
                t = time.perf_counter()
                for a, b in chunk:
                    fn(a, b)
                best = min(best, time.perf_counter() - t)
            total += best
        return total

    out = [timed(pairs, score_one), timed(norm, ratio)]
    n = len(pairs)
    print(f"python score {n / out[0]:.0f} pairs/s ({out[0] * 1e3:.2f} ms) "
          f"ratio {n / out[1]:.0f} pairs/s ({out[1] * 1e3:.2f} ms) [{n} pairs]")


if __name__ == "__main__":
    main()
