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
fn reads_the_shapes_of_nature_apa_and_author_year_labels() {
    // Nature: family first, `&` before the last author, whose initials end the names.
    check("Wu, Y., Teng, L., Liu, S. & Guo, Y. Integrated single-cell and bulk transcriptomics identify subtypes. Frontiers in immunology (2026).", "Integrated single-cell and bulk transcriptomics identify subtypes", "Wu", Some(2026), None);
    check(
        "Boatright, R. G., Shaffer, T. J. & Young, D. G. Civility in politics. Routledge (2019).",
        "Civility in politics",
        "Boatright",
        Some(2019),
        None,
    );
    // apalike's author-year label, longer than a numeric one.
    check("[Barick et al., 2015] Barick, B. K., Rodríguez-Fernández, C., and Dhar, S. (2015). Structural and electronic properties of InN nanowire network. AIP Adv., 5(5):057162.", "Structural and electronic properties of InN nanowire network", "Barick", Some(2015), None);
    // APA: the kind of work after the title is not the title.
    check("Ng, H. T. (1992). A general abductive system [Doctoral dissertation, University of Texas at Austin].", "A general abductive system", "Ng", Some(1992), None);
    check(
        "Stefik, M. J. (1980). Planning with constraints (tech. rep.). Stanford University.",
        "Planning with constraints",
        "Stefik",
        Some(1980),
        None,
    );
    check(
        "Barstow, D. R. (1979). The roles of knowledge in program synthesis (Vol. 6). Proc. IJCAI.",
        "The roles of knowledge in program synthesis",
        "Barstow",
        Some(1979),
        None,
    );
    // ...but a parenthesis that is part of the title stays.
    check(
        "Fritz, U. (2012). Grass snakes (Natrix cetti) of Corsica. Amphibia-Reptilia.",
        "Grass snakes (Natrix cetti) of Corsica",
        "Fritz",
        Some(2012),
        None,
    );
    // A question mark inside a title does not end it.
    check("Li, Z., Wang, T., & Arora, S. (2022). What happens after sgd reaches zero loss? –a mathematical framework. ICLR.", "What happens after sgd reaches zero loss? –a mathematical framework", "Li", Some(2022), None);
    // APA's elided authors (`. . .`) and a Catalan particle are names.
    check("D’Acapito, F., Rovezzi, M., . . . Martelli, F. (2012). The Mn site in Mn-doped GaAs nanowires. Semicond. Sci. Technol., 27(8), 085001.", "The Mn site in Mn-doped GaAs nanowires", "D’Acapito", Some(2012), None);
    check("C. Colombo, A. Fontcuberta i Morral, and M. Grätzel, Gallium arsenide p-i-n radial structures, Appl. Phys. Lett., 94 (2009), p. 173108.", "Gallium arsenide p-i-n radial structures", "Colombo", Some(2009), None);
}

#[test]
fn long_names_lowercased_initials_and_entities_stay_names() {
    // A four-word name inside a list of short ones.
    check("Jiehua Chen, Seyedeh Negar Layegh Khavidaki, Sebastian Vincent Haydn, and Manuel Sorge. Game implementation: What are the obstructions? In AAAI, 2023.", "Game implementation: What are the obstructions?", "Chen", Some(2023), None);
    check("Fröhlich, D., Baldassarri Höger von Högersthal, G., Kulka, M., Stolz, H.: Acoustic and optical phonon scattering in Cu2O. Physical Review B 73, 035202 (2006).", "Acoustic and optical phonon scattering in Cu2O", "Fröhlich", Some(2006), None);
    // ...but not as the last piece, where a title in title case stands.
    check(
        "K. He, X. Zhang, Deep Residual Image Recognition, in: CVPR, 2016.",
        "Deep Residual Image Recognition",
        "He",
        Some(2016),
        None,
    );
    // A lowercased initial opening a name.
    check("F M Morales, J M Mánuel, R García, and a Vescan. Evaluation of lattice constants for ternary alloys. J. Phys. Appl. Phys., 46(24):245502, 2013.", "Evaluation of lattice constants for ternary alloys", "Morales", Some(2013), None);
    // Lowercased dotted initials anywhere in a name, and a long last name after `and`.
    check("T. Suski, a. Kamińska, J. a. Plesiewicz, and Y. Nanishi. Role of localized donor states in InN. Phys. Rev. B, 2008.", "Role of localized donor states in InN", "Suski", Some(2008), None);
    check("Mark Sandler, Max Vladymyrov, and Blaise Agüera y Arcas. Meta-learning bidirectional update rules. In ICML, 2021.", "Meta-learning bidirectional update rules", "Sandler", Some(2021), None);
    // Regression: a two-letter family name ends the list (`Xu.` is no initial).
    check(
        "P. Xu and Y. Xu. Equity promotion in online resource allocation. In AAAI, 2022.",
        "Equity promotion in online resource allocation",
        "Xu",
        Some(2022),
        None,
    );
    // A hyphenated initial and a two-letter transliteration before an initial.
    check("Xue Wang, Hergo-H. Wehmann, and Andreas Waag. Polarity analysis of GaN nanorods. Phys. Status Solidi, 2010.", "Polarity analysis of GaN nanorods", "Wang", Some(2010), None);
    check("V. T. Agekyan and Yu. A. Stepanov. Exchange interaction in exciton excited s states. JETP Letters, 21:127–128, 1975.", "Exchange interaction in exciton excited s states", "Agekyan", Some(1975), None);
    // An HTML entity a record carried into print.
    check("Francesco d&apos;Amore, Daniel Mitropolsky, and Emanuele Natale. Planning with biological neurons and synapses. In AAAI, 2022.", "Planning with biological neurons and synapses", "d'Amore", Some(2022), None);
}

#[test]
fn dois_broken_by_a_line_end_and_arxiv_dois_are_kept() {
    // A PDF's line break after the scheme, with or without a space before the colon.
    check("Sayna Ebrahimi. 2022. Contrastive Test-Time Adaptation. In CVPR. https: //doi.org/10.1109/CVPR52688.2022.00039", "Contrastive Test-Time Adaptation", "Ebrahimi", Some(2022), Some("10.1109/CVPR52688.2022.00039"));
    check("Qian, S. (2022). Understanding 3d object articulation. CVPR. https : //doi.org/10.1109/CVPR52688.2022.00165", "Understanding 3d object articulation", "Qian", Some(2022), Some("10.1109/CVPR52688.2022.00165"));
    // A DOI broken at a full stop, spaced out, with a URL glued on, or with ACM's angle brackets.
    for (printed, doi) in [
        (
            "doi: 10.1016/j.tet.2010.03 .065",
            "10.1016/j.tet.2010.03.065",
        ),
        (
            "doi: 10.1021/acs . nanolett.7b02251.",
            "10.1021/acs.nanolett.7b02251",
        ),
        (
            "https : / / doi . org / 10.1016/j . matchemphys.2007.06.008.",
            "10.1016/j.matchemphys.2007.06.008",
        ),
        (
            "https://doi.org/10.1145/3711896.3736933.https://dblp.org/rec/conf/kdd/X25.",
            "10.1145/3711896.3736933",
        ),
        (
            "https://doi.org/10.1002/1521-396X(200212)194:2⟨361::AID-PSSA361⟩3.0.CO;2-R",
            "10.1002/1521-396X(200212)194:2<361::AID-PSSA361>3.0.CO;2-R",
        ),
        ("doi:10.1000/xyz . Available online.", "10.1000/xyz"),
    ] {
        let r = fields::parse(&format!(
            "A. Smith. A title here. Some Journal, 2020. {printed}"
        ));
        assert_eq!(r.doi.as_ref().map(|d| d.as_str()), Some(doi), "{printed}");
    }
    // arXiv's DOI is the DOI printed and names the arXiv id too.
    let r = fields::parse("Hao Peng and Lingpeng Kong. Random feature attention. In ICLR, 2021. doi:10.48550/arXiv.2103.02143.");
    assert_eq!(
        r.doi.as_ref().map(|d| d.as_str()),
        Some("10.48550/arXiv.2103.02143")
    );
    assert_eq!(r.arxiv.as_ref().map(|a| a.as_str()), Some("2103.02143"));
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
/// Issue 29: what styles print after a title in its own sentence, read as
/// part of it (the dev corpus, `bench/refs_extract.py`).
#[test]
fn a_titles_tail_of_edition_volume_publisher_or_kind_is_cut() {
    let cut = |t: &str, expected: &str| assert_eq!(fields::cut_title_tail(t), expected, "{t}");
    cut(
        "Artificial Intelligence : A Modern Approach (second ed.)",
        "Artificial Intelligence : A Modern Approach",
    );
    cut(
        "Understanding line drawings of scenes with shadows (P. Winston, Ed.)",
        "Understanding line drawings of scenes with shadows",
    );
    cut(
        "Representing and analyzing surface orientation, volume 2",
        "Representing and analyzing surface orientation",
    );
    cut(
        "Excitons in cuprous oxide, Ph.D. Thesis, Zernike Institute for Advanced Materials",
        "Excitons in cuprous oxide",
    );
    cut(
        "The Logic of Time; Kluwer Academic Publishers: Boston",
        "The Logic of Time",
    );
    cut(
        "Semi conducting properties of cuprous oxide; tech. rep.; Arizona State University",
        "Semi conducting properties of cuprous oxide",
    );
    cut(
        "The federal appointments process (Duke University Press",
        "The federal appointments process",
    );
    // Kept: a title's own parenthesis, volume or semicolon.
    cut(
        "Language as a Cognitive Process, Volume I: Syntax",
        "Language as a Cognitive Process, Volume I: Syntax",
    );
    cut(
        "Preparation of cuprite (Cu2O) with magnetron sputtering",
        "Preparation of cuprite (Cu2O) with magnetron sputtering",
    );
    cut("Deep learning; a review", "Deep learning; a review");
    cut(
        "CUPROUS OXIDE PHOTOVOLTAIC CELLS (fourth quaterly report)",
        "CUPROUS OXIDE PHOTOVOLTAIC CELLS (fourth quaterly report)",
    );
}

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
    // A break where a hyphenator breaks (TeX: `dis-tributed`) is joined; a
    // hyphen where none would break (`nanowire-dielectric`) is kept.
    check_split(
        "1. A. Smith. A dis-\ntributed system.\n2. B. Jones. A BERT-\nBased model.\n3. C. Li. A nanowire-\ndielectric cavity.\n",
        &[
            "1. A. Smith. A distributed system.",
            "2. B. Jones. A BERT-Based model.",
            "3. C. Li. A nanowire-dielectric cavity.",
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
fn a_pdf_with_no_pages_is_a_typed_error_naming_the_file() {
    let e = read("paper.pdf", b"%PDF-1.7\n").unwrap_err();
    assert_eq!(e.kind, ErrorKind::PdfDamaged);
    assert_eq!(e.location.file.as_deref(), Some("paper.pdf"));
}

#[test]
fn a_pdf_s_references_are_parsed_into_fields_with_their_page() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/pdf/llncs.pdf");
    let bytes = std::fs::read(path).unwrap();
    let refs = read("llncs.pdf", &bytes).unwrap();
    assert_eq!(refs.format, Format::Pdf);
    assert_eq!(refs.references.len(), 36);
    let jumper = &refs.references[14];
    assert_eq!(jumper.source, Source::Pdf);
    assert_eq!(jumper.page, Some(2));
    assert_eq!(jumper.year, Some(2021));
    assert_eq!(
        jumper.authors.get(8).map(|a| a.family.as_str()),
        Some("Žídek")
    );
    assert_eq!(
        jumper.doi.as_ref().map(|d| d.as_str()),
        Some("10.1038/s41586-021-03819-2")
    );
    assert_eq!(
        jumper.title.as_deref(),
        Some("Highly accurate protein structure prediction with AlphaFold")
    );
}

/// (file, how many references, whether the Jumper et al. Nature article
/// prints its title): the styles that print none (APS's PRL, ACS) leave the
/// title empty, never a journal or a year in its place.
#[test]
fn styles_that_print_no_article_title_leave_the_title_empty() {
    for (name, titled) in [("prl", false), ("acs", false), ("phys", true)] {
        let path = format!(
            "{}/tests/fixtures/pdf/{name}.pdf",
            env!("CARGO_MANIFEST_DIR")
        );
        let refs = read(&path, &std::fs::read(&path).unwrap()).unwrap();
        assert_eq!(refs.references.len(), 36, "{name}");
        let jumper = refs
            .references
            .iter()
            .find(|r| r.authors.first().is_some_and(|a| a.family == "Jumper"))
            .unwrap_or_else(|| panic!("{name}: Jumper et al. read"));
        assert_eq!(jumper.year, Some(2021), "{name}");
        assert_eq!(jumper.venue.as_deref(), Some("Nature"), "{name}");
        let want = titled.then_some("Highly accurate protein structure prediction with AlphaFold");
        assert_eq!(
            jumper.title.as_deref().map(str::to_lowercase),
            want.map(str::to_lowercase),
            "{name}"
        );
        // no reference of these styles gets a year or a number for a title
        for r in &refs.references {
            let t = r.title.as_deref().unwrap_or("x");
            assert!(
                t.chars().any(char::is_alphabetic),
                "{name}: {:?} titled {t:?}",
                r.raw
            );
        }
    }
}

/// (item, venue, doi): the `.bbl` items of styles that print no title keep
/// an empty title (regression: APS's `in \emph{\bibinfo{booktitle}{AAAI}}`
/// read as a book titled "AAAI"; MNRAS's `\mn@doi[Journal]{doi}` lost both).
#[test]
fn bbl_items_printed_without_a_title_keep_their_venue_and_doi() {
    fn check(item: &str, venue: &str, doi: Option<&str>) {
        let text = format!("\\begin{{thebibliography}}{{1}}\n{item}\n\\end{{thebibliography}}\n");
        let refs = bbl::read_thebibliography(&text);
        assert_eq!(refs.len(), 1, "{item}");
        let r = &refs[0];
        assert_eq!(r.title, None, "{item}");
        assert_eq!(r.venue.as_deref(), Some(venue), "{item}");
        assert_eq!(r.doi.as_ref().map(|d| d.as_str()), doi, "{item}");
        assert!(r.year.is_some(), "{item}");
    }
    check(
        "\\bibitem [{\\citenamefont {Wu}(2023)}]{k}%\n  \\BibitemOpen\n  \\bibfield  {author} {\\bibinfo {author} {\\bibfnamefont {X.}~\\bibnamefont\n  {Wu}},\\ }in\\ \\href\n  {https://doi.org/10.1609/AAAI.V37I9.26237} {\\emph {\\bibinfo {booktitle}\n  {AAAI}}}\\ (\\bibinfo {year} {2023})\\BibitemShut {NoStop}%",
        "AAAI",
        Some("10.1609/AAAI.V37I9.26237"),
    );
    check(
        "\\bibitem [{\\citenamefont {Li}(2021)}]{k}%\n  \\BibitemOpen\n  \\bibfield  {author} {\\bibinfo {author} {\\bibfnamefont {W.}~\\bibnamefont\n  {Li}},\\ }in\\ \\href@noop {} {\\emph {\\bibinfo {booktitle}\n  {ICLR}}}\\ (\\bibinfo {year} {2021})\\BibitemShut {NoStop}%",
        "ICLR",
        None,
    );
    check(
        "\\bibitem[\\protect\\citeauthoryear{Bolshakov}{Bolshakov}{2013}]{k}\nBolshakov A.~D., Dubrovskii V.~G., 2013,\n  \\mn@doi [Tech. Phys. Lett.] {10.1134/S1063785013120043}, 39, 1047",
        "Tech. Phys. Lett",
        Some("10.1134/S1063785013120043"),
    );
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

/// Drives a resolver run in which every service knows nothing.
fn run_empty(refs: Vec<crate::resolve::Reference>) -> crate::resolve::Report {
    use crate::resolve::{Next, Options, Reply, Run, Surface};
    use crate::works::{request::Endpoints, Service};
    let mut run = Run::new(refs, Options::new(Endpoints::public(), Surface::Browser));
    let mut now = 0.0;
    loop {
        match run.next(now) {
            Next::Send(out) => {
                for o in out {
                    let body = match o.request.service {
                        Service::SemanticScholar => r#"{"total":0,"data":[]}"#,
                        Service::OpenAlex => r#"{"meta":{"count":0},"results":[]}"#,
                        _ => r#"{"message-type":"work-list","message":{"items":[]}}"#,
                    };
                    run.answer(
                        o.id,
                        Reply {
                            status: 200,
                            body: body.into(),
                            ..Reply::default()
                        },
                        now,
                    );
                }
            }
            Next::WaitUntil(t) => now = t,
            Next::AwaitReplies | Next::Done => break,
        }
    }
    run.report()
}

#[test]
fn check_report_carries_each_references_raw_text() {
    let text = "[1] A. Smith. A first title of a paper. In VLDB, 1999.\n[2] B. Jones. A second title of a paper. 2001.\n";
    let refs = read("list.txt", text.as_bytes()).unwrap();
    let offline = check::offline_report(&refs, 2026);
    assert_eq!(offline.entries, 2);
    assert!(
        offline.findings.is_empty(),
        "no BibTeX format rules for printed references: {:?}",
        offline.findings
    );
    let run = run_empty(check::references(&refs));
    let online = check::online_report(
        &refs,
        &run,
        crate::cutoff::Date::new(2026, 12, 5).unwrap(),
        0,
        0,
    );
    let raws: Vec<Option<&str>> = online.entries.iter().map(|e| e.raw.as_deref()).collect();
    assert_eq!(
        raws,
        vec![
            Some("[1] A. Smith. A first title of a paper. In VLDB, 1999."),
            Some("[2] B. Jones. A second title of a paper. 2001.")
        ]
    );
    assert_eq!(online.entries[0].key, "ref1");
}

#[test]
fn a_bib_file_gets_the_bibtex_checks_and_no_raw() {
    let refs = read(
        "refs.bib",
        b"@article{a, title={A title}, author={Smith, A.}, year={1999}}",
    )
    .unwrap();
    assert_eq!(refs.format, Format::Bibliography);
    let offline = check::offline_report(&refs, 2026);
    assert!(
        !offline.findings.is_empty(),
        "an article without journal is a layer-1 finding"
    );
    let run = run_empty(check::references(&refs));
    let online = check::online_report(
        &refs,
        &run,
        crate::cutoff::Date::new(2026, 12, 5).unwrap(),
        0,
        0,
    );
    assert_eq!(online.entries[0].raw, None);
    assert_eq!(online.entries[0].key, "a");
}

#[test]
fn a_source_gives_its_bib_else_its_bbl_else_its_thebibliography() {
    let f = |p: &str, t: &str| (p.to_string(), t.as_bytes().to_vec());
    let bbl = "\\begin{thebibliography}{1}\n\\bibitem{k}\nA. Smith.\n\\newblock A title from the bbl.\n\\newblock 2001.\n\\end{thebibliography}";
    let tex = "\\documentclass{article}\n\\begin{thebibliography}{1}\n\\bibitem{t}\nB. Jones.\n\\newblock A title from the tex.\n\\end{thebibliography}";
    let bib = "@misc{b, title={A title from the bib}}";
    let check = |files: &[(String, Vec<u8>)], format: Format, title: &str, file: &str| {
        let refs = read_source("src.zip", files).unwrap();
        assert_eq!(refs.format, format);
        assert_eq!(refs.references[0].title.as_deref(), Some(title));
        assert_eq!(refs.file, file);
    };
    check(
        &[f("main.tex", tex), f("main.bbl", bbl), f("refs.bib", bib)],
        Format::Bibliography,
        "A title from the bib",
        "src.zip",
    );
    check(
        &[f("main.tex", tex), f("main.bbl", bbl)],
        Format::Thebibliography,
        "A title from the bbl",
        "src.zip:main.bbl",
    );
    check(
        &[f("fig.png", ""), f("main.tex", tex)],
        Format::Thebibliography,
        "A title from the tex",
        "src.zip:main.tex",
    );
    let e = read_source("src.zip", &[f("main.tex", "\\documentclass{article}")]).unwrap_err();
    assert_eq!(e.kind, ErrorKind::InvalidValue);
    assert_eq!(e.location.file.as_deref(), Some("src.zip"));
}

#[test]
fn an_author_year_list_without_labels_or_indents_is_split_at_each_author_list() {
    check_split(
        "A. Smith and B. Jones.\nA first title. VLDB, 1999.\nC. Brown, D. White, and E. Green.\nA second title. 2001.\n\nnoise\n",
        &["A. Smith and B. Jones. A first title. VLDB, 1999.", "C. Brown, D. White, and E. Green. A second title. 2001."],
    );
}

/// A paper's references written as BibTeX (what the app's BibTeX page
/// checks when a PDF or a `.bbl` is dropped) read back as the same entries.
#[test]
fn a_papers_references_as_bibtex_read_back_as_the_same_entries() {
    for name in ["twocol.pdf", "ieee.bbl", "acm.pdf"] {
        let path = format!("{}/tests/fixtures/pdf/{name}", env!("CARGO_MANIFEST_DIR"));
        let bytes = std::fs::read(&path).expect("fixture");
        let refs = super::read(name, &bytes).expect("read");
        let want = refs.bibliography();
        let text = refs.to_bibtex();
        assert!(text.starts_with(&format!(
            "% {} references read from {name}",
            refs.references.len()
        )));
        let got = crate::bibtex::parse::parse(&text);
        assert!(got.problems.is_empty(), "{name}: {:?}", got.problems);
        assert_eq!(got.entries.len(), want.entries.len(), "{name}");
        for (g, w) in got.entries.iter().zip(&want.entries) {
            assert_eq!(g.key, w.key);
            for f in ["title", "author", "year", "doi", "journal", "booktitle"] {
                assert_eq!(g.get(f), w.get(f), "{name} {} {f}", w.key);
            }
        }
    }
}

#[test]
fn a_lone_brace_in_print_does_not_break_the_bibtex_written() {
    let list = "[1] A. Author. A title with a lone } brace and {. In Proc. X, 2020.\n\n[2] B. Writer. Second paper. J. Y, 2019.\n";
    let refs = super::read("refs.txt", list.as_bytes()).expect("read");
    let got = crate::bibtex::parse::parse(&refs.to_bibtex());
    assert_eq!(got.entries.len(), 2, "{}", refs.to_bibtex());
    assert!(got.problems.is_empty(), "{:?}", got.problems);
}

fn check_pasted_arxiv(paste: &str, expected: Option<&str>) {
    let got = pasted_arxiv(paste);
    assert_eq!(got.as_ref().map(|a| a.as_str()), expected, "{paste:?}");
}

#[test]
fn a_paste_naming_one_arxiv_paper_is_told_from_a_reference_list() {
    check_pasted_arxiv("arXiv:2401.12345", Some("2401.12345"));
    check_pasted_arxiv("  https://arxiv.org/abs/1706.03762v5\n", Some("1706.03762"));
    check_pasted_arxiv("https://arxiv.org/pdf/1706.03762.pdf", Some("1706.03762"));
    check_pasted_arxiv("hep-th/9711200", Some("hep-th/9711200"));
    // A reference that cites an arXiv id is a reference, not a paper to fetch.
    check_pasted_arxiv(
        "A. Vaswani et al. Attention is all you need. arXiv:1706.03762, 2017.",
        None,
    );
    check_pasted_arxiv("[1] arXiv:1706.03762", None);
    check_pasted_arxiv("", None);
    check_pasted_arxiv("10.1038/nature14539", None);
}

fn tar_of(files: &[(&str, &str)]) -> Vec<u8> {
    let mut b = tar::Builder::new(Vec::new());
    for (path, body) in files {
        let mut h = tar::Header::new_ustar();
        h.set_size(body.len() as u64);
        h.set_mode(0o644);
        h.set_entry_type(tar::EntryType::Regular);
        // set_path refuses `..`; write the name field as a hostile tar would.
        h.as_old_mut().name[..path.len()].copy_from_slice(path.as_bytes());
        h.set_cksum();
        b.append(&h, body.as_bytes()).unwrap();
    }
    b.into_inner().unwrap()
}

fn gz(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

const BIBITEMS: &str = "\\begin{thebibliography}{1}\n\\bibitem{a} A.~Author. \\newblock A first title. \\newblock In \\emph{Proc. X}, 2020.\n\\bibitem{b} B.~Author. \\newblock A second title. \\newblock \\emph{J. Y}, 3:1--2, 2019.\n\\end{thebibliography}\n";

fn check_read_any(name: &str, bytes: &[u8], expected: Result<usize, &str>) {
    match (read_any(name, bytes), expected) {
        (Ok(r), Ok(n)) => assert_eq!(r.references.len(), n, "{name}"),
        (Err(e), Err(m)) => assert!(e.to_string().contains(m), "{name}: {e}"),
        (got, want) => panic!("{name}: {got:?} against {want:?}"),
    }
}

#[test]
fn an_eprint_source_is_read_in_memory_as_arxiv_sends_it() {
    let body =
        format!("\\documentclass{{article}}\\begin{{document}}x\n{BIBITEMS}\\end{{document}}\n");
    let source = tar_of(&[("main.tex", body.as_str()), ("fig.txt", "not a paper")]);
    check_read_any("arXiv:2401.12345", &gz(&source), Ok(2));
    check_read_any("src.tar", &source, Ok(2));
    // One gzipped .tex, as arXiv sends a one-file source.
    check_read_any("arXiv:2401.00001", &gz(body.as_bytes()), Ok(2));
    // A path that climbs out of the archive is left out, not read.
    let hostile = tar_of(&[("../evil.tex", body.as_str())]);
    check_read_any("evil.tar", &hostile, Err("the source has no .bib, no .bbl"));
    // Damaged gzip data is named as such, with the file.
    let mut cut = gz(&source);
    cut.truncate(cut.len() / 2);
    check_read_any("arXiv:2401.99999", &cut, Err("arXiv:2401.99999"));
}
