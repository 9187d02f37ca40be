"""The rules the truth is made with: LaTeX decoding, name splitting, BibTeX reading and
.bbl item order. Run: python3 -m unittest discover tools/refcorpus"""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bibsrc  # noqa: E402
import refcorpus  # noqa: E402


class Decode(unittest.TestCase):
    def check(self, latex, text):
        self.assertEqual(bibsrc.latex_to_text(latex), text, latex)

    def test_cases(self):
        self.check(r"{T}owards {BERT}-style {P}re-training", "Towards BERT-style Pre-training")
        self.check(r"{\"O}sterreich and \v{S}koda", "Österreich and Škoda")
        self.check(r"G{\"o}del, Escher, Bach", "Gödel, Escher, Bach")
        self.check(r"\'{E}cole \`a la {\c c}a", "École à la ça")
        self.check(r"Stra{\ss}e {\o}re {\aa}s", "Straße øre ås")
        self.check(r"An $O(n \log n)$ bound", "An O(n log n) bound")
        self.check(r"$\alpha$-stable laws in $\mathbb{R}^d$", "α-stable laws in Rd")
        self.check(r"Pages 1--10 --- done", "Pages 1–10 — done")
        self.check(r"Notice \& note, 50\% off", "Notice & note, 50% off")
        self.check(r"\emph{Deep} \textbf{nets}", "Deep nets")
        self.check("wrapped\n   title", "wrapped title")

    def test_unknown_command_is_refused(self):
        with self.assertRaises(bibsrc.Undecodable):
            bibsrc.latex_to_text(r"\frobnicate{x}")
        with self.assertRaises(bibsrc.Undecodable):
            bibsrc.latex_to_text(r"open {brace")


class Names(unittest.TestCase):
    def check(self, field, names):
        self.assertEqual(bibsrc.split_names(field), names, field)

    def test_cases(self):
        self.check("Ada Lovelace and Alan Turing", [("Ada", "Lovelace"), ("Alan", "Turing")])
        self.check("van der Maaten, Laurens", [("Laurens", "van der Maaten")])
        self.check("Ludwig van Beethoven", [("Ludwig", "van Beethoven")])
        self.check("Jean-Pierre {Le Goff}", [("Jean-Pierre", "{Le Goff}")])
        self.check("Smith, Jr, John", [("John", "Smith")])
        self.check("{World Health Organization}", [("", "{World Health Organization}")])
        self.check("A. Bee and others", [("A.", "Bee"), None])
        self.check("Sandy {and} Co", [("Sandy {and}", "Co")])


class Bib(unittest.TestCase):
    def test_strings_concatenation_and_quotes(self):
        text = '@string{pub = "Springer"}\n@book{k1, title = "A {"}quoted{"} Title", publisher = pub # { Verlag}, year = 2001}\n@comment{x}\n@article{k2, title={B}, journal=unknownmacro}'
        entries = list(bibsrc.parse_bib(text))
        self.assertEqual([(t, k) for t, k, _ in entries], [("book", "k1")])
        self.assertEqual(entries[0][2]["publisher"], "Springer Verlag")
        self.assertEqual(entries[0][2]["year"], "2001")


class BblOrder(unittest.TestCase):
    def test_bibtex_items_with_labels_and_comments(self):
        bbl = "\\begin{thebibliography}{9}\n\\bibitem[Smith et~al\\mbox{.}(2020)]%\n   {b}\nB text\n\\bibitem{a}\nA text\n\\end{thebibliography}"
        self.assertEqual([k for k, _ in refcorpus.bbl_items(bbl, "bibtex")], ["b", "a"])
        apacite = "\\bibitem [\\protect \\citeauthoryear {%\nBaba%\n}{%\n{\\protect \\APACyear {2017}}%\n}]{%\nkey1}\nX"
        self.assertEqual([k for k, _ in refcorpus.bbl_items(apacite, "bibtex")], ["key1"])

    def test_biber_list_in_print_order_is_chosen(self):
        def entry(k):
            return "\\entry{%s}{article}{}\n\\endentry\n" % k

        bbl = "\\datalist[entry]{apa/apasortcite//global/global}\n" + entry("x") + entry("y") + "\\enddatalist\n"
        bbl += "\\datalist[entry]{apa/global//global/global}\n" + entry("y") + entry("x") + "\\enddatalist\n"
        printed = {"y": 0, "x": 1}

        def order(items):
            at = [printed[k] for k, _ in items]
            return sum(1 for a, b in zip(at, at[1:]) if a < b)

        self.assertEqual([k for k, _ in refcorpus.bbl_items(bbl, "biber", order)], ["y", "x"])


class Records(unittest.TestCase):
    def test_plain_text_markup_is_escaped_and_doi_cleaned(self):
        r = refcorpus._record(
            {"corpus": "hallmark", "file": "f", "id": "i"},
            "inproceedings",
            {"title": "Notice & note of 50% of_all", "author": "A B and C D", "year": "2020", "booktitle": "X", "doi": "https://doi.org/10.1234/ab_c"},
        )
        self.assertEqual(r["fields"]["title"], r"Notice \& note of 50\% of\_all")
        self.assertEqual(r["title"], "Notice & note of 50% of_all")
        self.assertEqual(r["doi"], "10.1234/ab_c")

    def test_arxiv_from_doi_and_eprint(self):
        r = refcorpus._record({"corpus": "x"}, "article", {"title": "Some long title", "author": "A B", "year": "2020", "journal": "J", "doi": "10.48550/arXiv.2101.00001"})
        self.assertEqual(r["arxiv"], "2101.00001")
        r = refcorpus._record({"corpus": "x"}, "misc", {"title": "Some long title", "author": "A B", "year": "2020", "eprint": "hep-th/9901001", "eprinttype": "arxiv"})
        self.assertEqual(r["arxiv"], "hep-th/9901001")

    def test_names_as_papers_print_them(self):
        base = {"title": "Some long title", "year": "2020", "journal": "J"}
        r = refcorpus._record({"corpus": "x"}, "article", dict(base, author="Kun Chen 0002 and Eric Graves 0002"))
        self.assertEqual([a["family"] for a in r["authors"]], ["Chen", "Graves"])
        r = refcorpus._record({"corpus": "x"}, "article", dict(base, author=r"Hen Dotan, Nripan Mathews, Takashi Hisatomi, Michael Gr{\"a}tzel"))
        self.assertEqual([a["family"] for a in r["authors"]], ["Dotan", "Mathews", "Hisatomi", "Grätzel"])

    def test_records_whose_truth_cannot_be_told_are_dropped(self):
        base = {"author": "A B", "year": "2020", "journal": "J"}
        for extra in ({"title": r"With \unknown{x} inside"}, {"title": "Cyrillic Кириллица here"}, {"title": "Too short"}, {"title": "No year here", "year": "n.d."}):
            self.assertIsNone(refcorpus._record({"corpus": "x"}, "article", dict(base, **extra)), extra)


    def test_fresh_pool_holds_no_record_a_heldout_document_drew(self):
        pool = [
            {"title": "Record number {} of the pool".format(i), "fields": {"title": "Record {}".format(i), "author": "A B"}, "authors": [{}],
             "doi": "10.1/x{}".format(i) if i % 5 == 0 else "", "arxiv": "", "type": "article", "source": {"corpus": "hallmark" if i % 3 else "bib-corpus"}}
            for i in range(60)
        ]
        docs = [{"name": "heldout-a", "refs": 10}, {"name": "heldout-b", "refs": 12}]
        fresh = refcorpus.unused_by(pool, docs)
        drawn = set()
        for d in docs:
            rng = refcorpus.random.Random(d["name"])
            drawn.update(r["title"] for r in refcorpus.choose(pool, rng, d["refs"]))
        self.assertTrue(drawn)
        self.assertEqual(len(fresh), len(pool) - len(drawn))
        self.assertFalse(drawn & {r["title"] for r in fresh})


if __name__ == "__main__":
    unittest.main()
