#!/usr/bin/env python3
"""Makes index/tests/fixtures/: small dumps in the shapes of OpenAlex's works
snapshot (part_000.gz, JSON lines) and Crossref's public data file
(0.json.gz, {"items": [...]}) from the recorded API responses in
../shared/fixtures/api/ (the snapshots hold the same work objects as the
APIs' single-work answers). Gzip members carry mtime 0, so the bytes are
the same every run. Usage: tools/index_fixtures.py [API_FIXTURES_DIR]
"""
import gzip, json, os, sys

api = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "../../shared/fixtures/api")
out = os.path.join(os.path.dirname(__file__), "../index/tests/fixtures")

def gz(path, text):
    with open(path, "wb") as f:
        with gzip.GzipFile(fileobj=f, mode="wb", mtime=0, filename="") as g:
            g.write(text.encode("utf-8"))

works = []
for name in sorted(os.listdir(os.path.join(api, "openalex"))):
    if name.startswith("work_") and not name.endswith(".request.json"):
        works.append(json.load(open(os.path.join(api, "openalex", name))))
os.makedirs(os.path.join(out, "openalex"), exist_ok=True)
gz(os.path.join(out, "openalex", "part_000.gz"), "".join(json.dumps(w, ensure_ascii=False) + "\n" for w in works))

items = []
for name in sorted(os.listdir(os.path.join(api, "crossref"))):
    if name.startswith("work_by_doi_") and not name.endswith(".request.json"):
        items.append(json.load(open(os.path.join(api, "crossref", name)))["message"])
gz(os.path.join(out, "crossref-0.json.gz"), json.dumps({"items": items}, ensure_ascii=False))
print(len(works), "openalex works,", len(items), "crossref items")
