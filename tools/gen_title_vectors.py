#!/usr/bin/env python3
"""Generate title-ratio parity vectors with the real python-Levenshtein package.

Writes core/tests/fixtures/title/vectors.tsv: one pair a line,
`candidate<TAB>found<TAB>ratio<TAB>score`, where ratio is
Levenshtein.ratio(norm(a), norm(b)) * 100 printed with repr() (exact double)
and score is int(round(ratio)) as Python computes it. norm() is the
reference script's normalization followed by a trim.

Deterministic: a fixed seed, no input files. Re-run with
    pip install Levenshtein && python3 tools/gen_title_vectors.py
"""
import random
import re
import sys
from pathlib import Path

import Levenshtein

random.seed(20261202)

WORDS = """attention transformer graph neural network learning deep reinforcement policy
gradient language model large pretraining fine tuning retrieval augmented generation
diffusion image video segmentation detection object contrastive self supervised
representation benchmark dataset evaluation robust adversarial optimization stochastic
convex bayesian inference variational autoencoder generative adversarial scaling laws
efficient sparse mixture experts memory recurrent convolutional vision speech recognition
translation multilingual reasoning chain thought instruction alignment human feedback
reward preference knowledge distillation pruning quantization federated privacy
differential causal discovery time series forecasting anomaly protein structure
prediction molecular single cell clustering embedding contrastive few shot zero
meta continual lifelong curriculum exploration planning control robotics manipulation
navigation simulation physics informed operator fourier kernel gaussian process
uncertainty calibration fairness interpretability explanation attribution survey
towards via using with for and of on in a the an is all you need beyond revisiting
rethinking improving understanding scalable unified simple fast accurate""".split()

PUNCT = list(":;,.!?-()[]'\"/&+")


def norm(s):
    s = s.lower().strip()
    s = re.sub(r"[^a-z0-9\s]", " ", s)
    s = re.sub(r"\s+", " ", s)
    return s.strip()


def title(n=None):
    n = n or random.randint(3, 14)
    words = [random.choice(WORDS) for _ in range(n)]
    t = " ".join(words)
    if random.random() < 0.4:
        # A subtitle after a colon, as so many titles have.
        k = random.randint(1, max(1, n - 1))
        t = " ".join(words[:k]) + ": " + " ".join(words[k:])
    if random.random() < 0.2:
        t += " " + str(random.randint(1990, 2026))
    return t.title() if random.random() < 0.5 else t.capitalize()


def edit_chars(t, k):
    s = list(t)
    for _ in range(k):
        op = random.choice("ids")
        i = random.randrange(len(s) + 1)
        c = random.choice("abcdefghijklmnopqrstuvwxyz ")
        if op == "i" or not s:
            s.insert(i, c)
        elif op == "d" and i < len(s):
            del s[i]
        elif i < len(s):
            s[i] = c
    return "".join(s)


def punct_case(t):
    out = []
    for ch in t:
        if ch == " " and random.random() < 0.3:
            out.append(random.choice([" - ", ": ", ", ", "  ", " / "]))
        else:
            out.append(ch.upper() if random.random() < 0.2 else ch)
    s = "".join(out)
    if random.random() < 0.5:
        s += random.choice(PUNCT) * random.randint(1, 3)
    if random.random() < 0.3:
        s = random.choice(["  ", "\"", "(", "'"]) + s
    return s


def reorder(t):
    w = t.split()
    random.shuffle(w)
    return " ".join(w)


def prefix(t):
    w = t.split()
    return " ".join(w[: random.randint(1, max(1, len(w) - 1))])


def half_boundary_pair():
    # Search for a pair whose exact ratio lies on x.5: lensum must allow it.
    for _ in range(10000):
        a = norm(title(random.randint(2, 6)))
        b = norm(edit_chars(a, random.randint(1, 6)))
        r = Levenshtein.ratio(a, b) * 100
        if abs(r - round(r) ) > 0.49 and abs((r % 1) - 0.5) < 1e-6:
            return a, b
    return None


pairs = []
for _ in range(350):
    t = title()
    pairs.append((t, edit_chars(t, random.randint(1, 4))))
for _ in range(250):
    t = title()
    pairs.append((t, edit_chars(t, random.randint(5, 25))))
for _ in range(250):
    t = title()
    pairs.append((t, reorder(t)))
for _ in range(250):
    t = title()
    pairs.append((prefix(t), t) if random.random() < 0.5 else (t, prefix(t)))
for _ in range(350):
    pairs.append((title(), title()))
for _ in range(300):
    t = title()
    pairs.append((t, punct_case(t)))
for _ in range(150):
    t = title()
    pairs.append((t, punct_case(edit_chars(t, random.randint(1, 8)))))
pairs += [("", ""), ("", "Attention Is All You Need"), ("Attention Is All You Need", ""),
          ("!!!", ""), ("...", "???"), ("a", "b"), ("a", "a"), ("ab", "ba")]
halves = 0
while halves < 120:
    p = half_boundary_pair()
    if p:
        pairs.append(p)
        halves += 1

out = Path(__file__).resolve().parent.parent / "core/tests/fixtures/title/vectors.tsv"
out.parent.mkdir(parents=True, exist_ok=True)
n_half = 0
with out.open("w") as f:
    f.write("# candidate\tfound\tratio (repr of Levenshtein.ratio(norm(a), norm(b)) * 100)\tscore (int(round(ratio)))\n")
    f.write(f"# made by tools/gen_title_vectors.py with Levenshtein {Levenshtein.__version__}\n")
    for a, b in pairs:
        assert "\t" not in a + b and "\n" not in a + b, (a, b)
        r = Levenshtein.ratio(norm(a), norm(b)) * 100
        if abs((r % 1) - 0.5) < 1e-9:
            n_half += 1
        f.write(f"{a}\t{b}\t{r!r}\t{int(round(r))}\n")
print(f"{len(pairs)} pairs, {n_half} on a half boundary -> {out}", file=sys.stderr)
