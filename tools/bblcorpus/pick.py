"""Builds truth.bib: entries taken verbatim from the three papers' .bib files
(core/tests/fixtures/papers), every entry of the two ReScience papers and the
first twenty astropy entries whose journal is not an AAS macro (\\aap, \\apj: BibTeX would
print the macro, which only the journal's class defines)."""
import re, sys
DROP = ("keywords", "abstract", "adsurl", "adsnote", "date-added", "date-modified")


def drop_fields(chunk):
    """The entry without the fields in DROP (a braced or quoted value may
    span lines)."""
    out, i = [], 0
    pat = re.compile(r"(?im)^\s*(" + "|".join(DROP) + r")\s*=\s*")
    while True:
        m = pat.search(chunk, i)
        if not m:
            out.append(chunk[i:])
            return "".join(out)
        out.append(chunk[i:m.start()])
        j, depth = m.end(), 0
        quoted = chunk[j] == '"'
        j += 1 if quoted else 0
        while j < len(chunk):
            c = chunk[j]
            if c == "{":
                depth += 1
            elif c == "}":
                if depth == 0:
                    break
                depth -= 1
            elif depth == 0 and ((quoted and c == '"') or (not quoted and c in ",\n")):
                j += 1 if quoted else 0
                break
            j += 1
        if j < len(chunk) and chunk[j] == ",":
            j += 1
        i = j


root = sys.argv[1]
out = []
for paper, keep_all in [("rescience-broman-2020", True), ("rescience-gorder-2021", True), ("astropy-v2.0-paper", False)]:
    taken = 0
    text = open(f"{root}/{paper}/bibliography.bib", encoding="utf-8").read()
    for chunk in re.split(r"\n(?=@)", "\n" + text):
        chunk = chunk.strip()
        if not chunk.startswith("@") or chunk.lower().startswith("@comment"):
            continue
        if not keep_all and re.search(r"journal\s*=\s*[{\"]*\\", chunk, re.I):
            continue
        if not keep_all and taken >= 20:
            continue
        taken += 0 if keep_all else 1
        # Fields no style prints (keywords, abstracts, ADS links) are dropped.
        chunk = drop_fields(chunk)
        out.append(f"% from {paper}\n{chunk}\n")
open("truth.bib", "w", encoding="utf-8").write("\n".join(out))
print(len(out), "entries")
