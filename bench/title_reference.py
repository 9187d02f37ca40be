#!/usr/bin/env python3
"""Title-score throughput of the reference on title_pairs.tsv, for
bench/whole_process.sh (run beside citegate's core/examples/bench_title.rs):

- score: levenshtein_match.ratio(a, b), the seed's function (its
  normalize() on both titles, then Levenshtein.ratio, rounded);
- ratio: Levenshtein.ratio alone on titles normalized beforehand.

Usage: title_reference.py REFERENCE_DIR FILE [ROUNDS], where REFERENCE_DIR
holds levenshtein_match.py as bench/reference/extract.py writes it; prints
the best round of each. Needs the Levenshtein package.
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

    def score():
        return sum(score_one(a, b) for a, b in pairs)

    def bare():
        return sum(ratio(a, b) for a, b in norm)

    out = []
    for fn in (score, bare):
        best = float("inf")
        for _ in range(rounds):
            t = time.perf_counter()
            fn()
            best = min(best, time.perf_counter() - t)
        out.append(best)
    n = len(pairs)
    print(f"python score {n / out[0]:.0f} pairs/s ({out[0] * 1e3:.2f} ms) "
          f"ratio {n / out[1]:.0f} pairs/s ({out[1] * 1e3:.2f} ms) [{n} pairs]")


if __name__ == "__main__":
    main()
