//! The readers on one-line cases; the per-style figures are in
//! `core/tests/paper_bbl.rs`.

use super::*;

/// (title, first author's family, year, doi) read from one reference string.
fn check(input: &str, title: &str, family: &str, year: Option<i32>, doi: Option<&str>) {
    let r = fields::parse(input);
    assert_eq!(r.title.as_deref(), Some(title), "title of {input:?}");
    assert_eq!(
        r.authors.first().map(|a| a.family.as_str()),
        Some(family),
        "first author of {input:?}"
    );
    assert_eq!(r.year, year, "year of {input:?}");
    assert_eq!(r.doi.as_ref().map(|d| d.as_str()), doi, "doi of {input:?}");
}

#[test]
fn reads_the_common_reference_shapes() {
    // plain / ACM: given names first, a full stop after the authors.
    check("[3] Anastassia Ailamaki, David J. DeWitt, and Mark D. Hill. DBMSs on a modern processor: where does time go? In VLDB, 1999.", "DBMSs on a modern processor: where does time go?", "Ailamaki", Some(1999), None);
    // APA: family first, the year in parentheses.
    check("Behnel, S., Bradshaw, R., and Smith, K. (2011). Cython: The best of both worlds. Computing in Science Engineering, 13(2):31–39. doi:10.1109/MCSE.2010.118", "Cython: The best of both worlds", "Behnel", Some(2011), Some("10.1109/MCSE.2010.118"));
    // LNCS: a colon after the authors.
    check("12. Cormen, T.H., Leiserson, C.E., Rivest, R.L., Stein, C.: Introduction to algorithms. MIT press (2009)", "Introduction to algorithms", "Cormen", Some(2009), None);
    // IEEE: the title quoted.
    check("[7] T. Jenness, J. Bosch, and E. J. Tollerud, “Investigating interoperability of the LSST data management software stack with Astropy,” in Proc. SPIE, vol. 9913, 2016, p. 99130G.", "Investigating interoperability of the LSST data management software stack with Astropy", "Jenness", Some(2016), None);
    // elsarticle: commas only.
    check("K. He, X. Zhang, S. Ren, J. Sun, Deep residual learning for image recognition, in: CVPR, 2016, pp. 770–778.", "Deep residual learning for image recognition", "He", Some(2016), None);
    // Vancouver: initials without full stops after the family name.
    check("(4) Lamichhane G, Zignol M, Broman KW. A post-genomic method for predicting essential genes. Proc Natl Acad Sci USA. 2003;100:7213–8.", "A post-genomic method for predicting essential genes", "Lamichhane", Some(2003), None);
    // A particle kept with the family name; a DOI URL anywhere.
    check("S. Van der Walt, S. C. Colbert, and G. Varoquaux. The NumPy array. https://doi.org/10.1109/MCSE.2011.37", "The NumPy array", "Van der Walt", None, Some("10.1109/MCSE.2011.37"));
}

#[test]
fn et_al_and_arxiv_ids_are_read() {
    let r = fields::parse("A. Vaswani, N. Shazeer, et al. Attention is all you need. arXiv preprint arXiv:1706.03762v5, 2017.");
    assert!(r.others, "et al. ends the list");
    assert_eq!(r.authors.len(), 2);
    assert_eq!(r.arxiv.as_ref().map(|a| a.as_str()), Some("1706.03762"));
    assert_eq!(r.title.as_deref(), Some("Attention is all you need"));
    assert_eq!(r.year, Some(2017));
}

/// (text, reference strings it splits into)
fn check_split(text: &str, expected: &[&str]) {
    let got: Vec<String> = plain::split(text).into_iter().map(|(_, s)| s).collect();
    assert_eq!(got, expected, "splitting {text:?}");
}

#[test]
fn splits_lists_into_references() {
    check_split(
        "[1] A. Smith. First title here.\n[2] B. Jones. Second\n    title here.\n",
        &[
            "[1] A. Smith. First title here.",
            "[2] B. Jones. Second title here.",
        ],
    );
    check_split(
        "1. A. Smith. A distri-\nbuted system.\n2. B. Jones. A BERT-\nBased model.\n",
        &[
            "1. A. Smith. A distributed system.",
            "2. B. Jones. A BERT-Based model.",
        ],
    );
    check_split(
        "Smith, A. (2001). One long\ntitle.\n\nJones, B. (2002). Another\ntitle.\n",
        &[
            "Smith, A. (2001). One long title.",
            "Jones, B. (2002). Another title.",
        ],
    );
    check_split(
        "Smith, A. (2001). One long\n   title wrapped.\nJones, B. (2002). Another\n   title.\n",
        &[
            "Smith, A. (2001). One long title wrapped.",
            "Jones, B. (2002). Another title.",
        ],
    );
}

#[test]
fn thebibliography_in_a_tex_file() {
    let tex = "\\section{x}\n\\begin{thebibliography}{9}\n\\bibitem[Knuth(1984)]{knuth}\nD.~E. Knuth.\n\\newblock Literate programming.\n\\newblock {\\em The Computer Journal}, 27(2):97--111, 1984.\n\\end{thebibliography}\n";
    let refs = read("paper.tex", tex.as_bytes()).unwrap();
    assert_eq!(refs.format, Format::Thebibliography);
    let r = &refs.references[0];
    assert_eq!(r.key.as_deref(), Some("knuth"));
    assert_eq!(r.title.as_deref(), Some("Literate programming"));
    assert_eq!(
        r.authors,
        vec![Author {
            family: "Knuth".into(),
            given: "D. E.".into()
        }]
    );
    assert_eq!(r.venue.as_deref(), Some("The Computer Journal"));
    assert_eq!(
        (r.year, r.volume.as_deref(), r.pages.as_deref()),
        (Some(1984), Some("27"), Some("97–111"))
    );
    assert_eq!(r.line, Some(3));
}

#[test]
fn reader_is_picked_by_name_and_content() {
    let check = |name: &str, bytes: &[u8], want: Format| {
        assert_eq!(format_of(name, bytes), want, "{name}");
    };
    check("x.pdf", b"%PDF-1.7", Format::Pdf);
    check("paste", b"%PDF-1.4", Format::Pdf);
    check("refs.bib", b"@article{a, title={T}}", Format::Bibliography);
    check(
        "paper.bbl",
        b"\\begin{thebibliography}{1}",
        Format::Thebibliography,
    );
    check(
        "paper.bbl",
        b"\\entry{a}{article}{}\n\\endentry",
        Format::Biblatex,
    );
    check("list.txt", b"[1] A. Smith. A title. 2001.", Format::Text);
    check(
        "-",
        b"\\begin{thebibliography}{1}\n\\bibitem{a} x",
        Format::Thebibliography,
    );
}

#[test]
fn a_pdf_is_a_typed_error_in_this_build() {
    let e = read("paper.pdf", b"%PDF-1.7\n").unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unsupported);
    assert_eq!(e.location.file.as_deref(), Some("paper.pdf"));
}

#[test]
fn a_bbl_without_items_is_an_error_not_an_empty_list() {
    let e = read("x.bbl", b"nothing here").unwrap_err();
    assert_eq!(e.kind, ErrorKind::InvalidValue);
}

#[test]
fn hostile_input_does_not_panic() {
    for input in [
        "\\bibitem",
        "\\bibitem[",
        "\\bibitem{",
        "{{{{",
        "}}}}",
        "\\entry{",
        "\\begin{thebibliography}\\bibitem{a}\\href{",
        "“",
        "[",
        "(1",
        "1.",
        "\\",
        "\\newblock\\newblock",
        &"{".repeat(10_000),
    ] {
        let _ = read("x.bbl", input.as_bytes());
        let _ = read("x.txt", input.as_bytes());
        let _ = fields::parse(input);
        let _ = bbl::read_biblatex(&format!("\\entry{{k}}{{misc}}{{}}{input}\\endentry"));
    }
}

#[test]
fn a_reference_becomes_a_parsed_entry_the_engine_reads() {
    let r = fields::parse("A. Vaswani, N. Shazeer, et al. Attention is all you need. In NeurIPS, 2017. doi:10.5555/3295222.3295349");
    let e = r.to_entry("ref1");
    assert!(e.parsed);
    let q = r.to_resolve("ref1");
    assert_eq!(q.title.as_deref(), Some("Attention is all you need"));
    assert_eq!(q.authors, vec!["Vaswani, A.", "Shazeer, N."]);
    assert!(q.others);
    assert_eq!(q.year, Some(2017));
    assert_eq!(q.venue.as_deref(), Some("NeurIPS"));
    assert_eq!(
        q.doi.as_ref().map(|d| d.as_str()),
        Some("10.5555/3295222.3295349")
    );
}
