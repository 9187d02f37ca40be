#!/usr/bin/env python3
"""Times the index's fallback title queries, three ways, from Python's SQLite.

    fallback_queries.py INDEX_DIR PAPERS_DIR TRUTH_JSONL [--titles 150]

For the first `--titles` titles of each label (real, miscited, fabricated)
of a `papers.py gen` set: the all-words FTS5 query, then, when it finds
nothing, the fallback as (a) any of the four longest words, (b) any of the
four rarest words the index holds, (c) any two of those rarest words (what
`index::store::fallback_match` asks). Prints milliseconds a title. The
normalization is a rough copy of the core's (lowercase, letters and digits),
so more titles fall back here than in `citegate`; the comparison between the
three queries is what it measures.
"""

import itertools
import json
import re
import sqlite3
import sys
import time
from pathlib import Path

STOP = {"the", "a", "of", "and", "for", "in", "on", "with", "to", "via", "by", "an", "using"}
SQL = ("SELECT w.* FROM titles JOIN works w ON w.id = titles.rowid "
       "WHERE titles MATCH ?1 ORDER BY rank LIMIT 20")


def words(title):
    return re.sub(r"[^a-z0-9 ]", "", title.lower()).split()


def main(ix, papers, truth, n):
    db = sqlite3.connect(Path(ix) / "index.sqlite")
    db.execute("CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, titles, 'row')")
    labels = {(t["file"], t["key"]): t["kind"] for t in map(json.loads, open(truth))}
    titles = {"real": [], "miscited": [], "fabricated": []}
    for f in sorted(Path(papers).glob("*.bib")):
        for m in re.finditer(r"@\w+\{(r\d+),.*?title = \{\{(.*?)\}\}", f.read_text(), re.S):
            titles[labels[(f.name, m.group(1))]].append(m.group(2))
        if all(len(v) >= n for v in titles.values()):
            break

    def held(ws):
        counted = []
        for w in {w for w in ws if w not in STOP}:
            row = db.execute("SELECT doc FROM temp.v WHERE term = ?", (w,)).fetchone()
            if row and row[0] > 0:
                counted.append((row[0], w))
        return [w for _, w in sorted(counted)[:4]]

    def longest(ws):
        return " OR ".join(f'"{w}"' for w in sorted({w for w in ws if w not in STOP}, key=len, reverse=True)[:4])

    def rarest(ws):
        return " OR ".join(f'"{w}"' for w in held(ws))

    def pairs(ws):
        r = held(ws)
        if len(r) < 3:
            return " OR ".join(f'"{w}"' for w in r)
        return " OR ".join(f'("{a}" AND "{b}")' for a, b in itertools.combinations(r, 2))

    for kind, ts in titles.items():
        ts = ts[:n]
        for name, fallback in (("longest", longest), ("rarest", rarest), ("rarest pairs", pairs)):
            start, fell = time.time(), 0
            for t in ts:
                ws = words(t)
                if not db.execute(SQL, (" ".join(f'"{w}"' for w in ws),)).fetchall():
                    fell += 1
                    q = fallback(ws)
                    if q:
                        db.execute(SQL, (q,)).fetchall()
            ms = (time.time() - start) * 1000 / max(1, len(ts))
            print(f"{kind:10} {name:13} {len(ts)} titles, {fell} fell back: {ms:.1f} ms a title")


if __name__ == "__main__":
    a = sys.argv[1:]
    if len(a) < 3:
        print(__doc__)
        sys.exit(2)
    main(a[0], a[1], a[2], int(a[4]) if a[3:4] == ["--titles"] else 150)
