#!/usr/bin/env python3
"""Cuts the reference scripts out of the seed documents into a folder.

    python3 extract.py SEEDS_DIR OUT_DIR

Writes levenshtein_match.py, pre_dedup_candidates.py and citation_coverage.py
(seed 000: each from its "#!/usr/bin/env python3" line to its
"sys.exit(main())" line, found by the script's name in its docstring) and
bib_layer1.py (seed 003's check_bibtex_structure and check_field_format, from
their fenced code blocks, plus required_fields.py). The scripts are the
seeds' code, so OUT_DIR belongs outside the repository.
"""
import glob
import os
import re
import sys


def seed(seeds, prefix):
    (path,) = glob.glob(os.path.join(seeds, prefix + "_*.txt"))
    with open(path, encoding="utf-8") as f:
        return f.read()


def scripts(text):
    """Every '#!/usr/bin/env python3 ... sys.exit(main())' block."""
    return re.findall(r"^#!/usr/bin/env python3\n.*?^    sys\.exit\(main\(\)\)\n", text, re.S | re.M)


def fenced_function(text, name):
    m = re.search(r"```python\n(def " + re.escape(name) + r"\(.*?)```", text, re.S)
    if not m:
        sys.exit(f"extract: {name} not found in seed 003")
    return m.group(1)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    seeds, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    blocks = scripts(seed(seeds, "000"))
    for name in ["levenshtein_match.py", "pre_dedup_candidates.py", "citation_coverage.py"]:
        found = [b for b in blocks if name in b[:300]]
        if len(found) != 1:
            sys.exit(f"extract: {len(found)} scripts named {name} in seed 000")
        with open(os.path.join(out, name), "w", encoding="utf-8") as f:
            f.write(found[0])
    s003 = seed(seeds, "003")
    with open(os.path.join(out, "bib_layer1.py"), "w", encoding="utf-8") as f:
        f.write("from required_fields import get_required_fields  # noqa: F401\n\n\n")
        f.write(fenced_function(s003, "check_bibtex_structure") + "\n\n")
        f.write(fenced_function(s003, "check_field_format"))
    here = os.path.dirname(os.path.abspath(__file__))
    for name in ["required_fields.py", "driver.py"]:
        with open(os.path.join(here, name), encoding="utf-8") as src, open(os.path.join(out, name), "w", encoding="utf-8") as dst:
            dst.write(src.read())
    print(f"wrote the reference scripts and the driver to {out}")


if __name__ == "__main__":
    main()
