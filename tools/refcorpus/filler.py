"""Body text for the generated documents: sentences of our own, assembled at random, that
cite every key once (in the order given, so unsorted styles number them in that order).
The text means little; it is there so the bibliography starts after page 1 and the pages
carry running heads and numbers, as a paper's do."""

SECTIONS = ["Introduction", "Background", "Approach", "Evaluation", "Discussion", "Conclusion"]

OPENERS = [
    "The question of how to measure progress in this area has been asked many times",
    "Several lines of work address a closely related setting",
    "A recurring difficulty is that the data rarely matches the assumptions of the model",
    "We follow the usual protocol and report the median over five runs",
    "Earlier studies relied on hand-built features and small collections",
    "Our setting differs in that every input arrives with a noisy label",
    "A simple baseline often remains surprisingly hard to beat",
    "The same observation holds for the larger configurations we tried",
    "One may object that the benchmark favours methods tuned on it",
    "The cost of annotation grows with the number of classes",
    "It is tempting to read these figures as a ranking of methods",
    "Practitioners tend to prefer the variant that is easiest to deploy",
    "Scaling the training set changes the picture only slightly",
    "A careful ablation shows which components matter",
    "The analysis below is limited to the public portion of the data",
    "Memory rather than compute is the binding constraint on our hardware",
]

MIDDLES = [
    "and the results depend strongly on how the splits are drawn",
    "which makes direct comparison across papers difficult",
    "although the gains shrink once the budget is held fixed",
    "so we keep the evaluation code identical for every system",
    "while the variance between seeds stays below one point",
    "and the remaining errors concentrate on rare categories",
    "which suggests that the bottleneck lies elsewhere",
    "yet none of them states its assumptions explicitly",
    "and we therefore report both the mean and the worst case",
    "because the reference implementation was not available",
]

CLOSERS = [
    "Table 1 summarizes the configurations.",
    "We return to this point in the discussion.",
    "The appendix lists every hyperparameter.",
    "This motivates the design choices that follow.",
    "Figure 2 shows the trend over training time.",
    "We leave a full treatment to future work.",
    "The effect is consistent across all datasets we examined.",
    "The code and data splits are released with the paper.",
]


def _cite(cmd, keys):
    return "~\\{}{{{}}}".format(cmd, ",".join(keys))


def body(keys, rng, cite_cmd, paragraphs=2):
    """LaTeX sections of `paragraphs` paragraphs each, citing every key once, in order."""
    keys = list(keys)
    per_section = max(1, -(-len(keys) // len(SECTIONS)))
    out = []
    for s, name in enumerate(SECTIONS):
        mine = keys[s * per_section : (s + 1) * per_section]
        out.append("\\section{{{}}}\n".format(name))
        for p in range(paragraphs):
            sentences = []
            for _ in range(rng.randint(5, 7)):
                sentence = "{}, {}".format(rng.choice(OPENERS), rng.choice(MIDDLES))
                if mine and rng.random() < 0.6:
                    take = mine[: rng.choice([1, 1, 1, 2, 3])]
                    mine = mine[len(take) :]
                    sentence += _cite(cite_cmd, take)
                sentences.append(sentence + ".")
                if rng.random() < 0.3:
                    sentences.append(rng.choice(CLOSERS))
            if p == paragraphs - 1 and mine:
                sentences.append("Related results appear in{}.".format(_cite(cite_cmd, mine)))
                mine = []
            out.append(" ".join(sentences) + "\n\n")
    return "".join(out)
