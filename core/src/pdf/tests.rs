//! The reader on small PDFs typeset here with pdfTeX and BibTeX, one per
//! layout (tests/fixtures/pdf/PROVENANCE.md says how each was made). The
//! number of references is checked against the `.bbl` BibTeX wrote for the
//! same document, and a few raw strings are checked exactly: accents
//! (`Erdős`, `Žídek` built from a separate accent), ligatures, line-end
//! hyphens kept (`Pre-training`, `CRAN.R-project`) and removed, DOIs and
//! URLs broken across lines.

use super::*;

fn fixture_path(name: &str, ext: &str) -> String {
    format!(
        "{}/tests/fixtures/pdf/{name}.{ext}",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn fixture(name: &str) -> Vec<u8> {
    let path = fixture_path(name, "pdf");
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// How many references BibTeX wrote for the fixture (its truth).
fn bibitems(name: &str) -> usize {
    let path = fixture_path(name, "bbl");
    let bbl = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    // `\bibitem[…]{key}` or `\bibitem{key}` opening a line (apsrev's preamble
    // defines `\bibitemStop` and the like), or biber's `\entry{key}`
    bbl.lines()
        .filter(|l| {
            let l = l.trim_start();
            l.starts_with("\\entry{")
                || ["\\bibitem[", "\\bibitem{", "\\bibitem ["]
                    .iter()
                    .any(|p| l.starts_with(p))
        })
        .count()
}

/// The layouts, and what each adds: `prl` no heading over the references
/// and no article titles, `acs` `(n)` labels and a running head over the
/// bibliography's second page, `phys` superscript labels against the names.
const LAYOUTS: [&str; 9] = [
    "onecol", "twocol", "ieee", "acm", "llncs", "els", "prl", "acs", "phys",
];

#[test]
fn every_layout_yields_as_many_references_as_its_bbl() {
    for name in LAYOUTS {
        let refs = references(&fixture(name)).unwrap();
        assert_eq!(refs.references.len(), bibitems(name), "{name}");
        assert!(
            refs.references
                .iter()
                .all(|r| r.page >= 1 && r.page <= refs.pages),
            "{name}"
        );
    }
}

#[test]
fn numbered_labels_come_in_order_and_stay_out_of_the_raw_string() {
    for (name, first) in [
        ("onecol", "[1]"),
        ("ieee", "[1]"),
        ("acm", "[1]"),
        ("llncs", "1."),
        ("els", "[1]"),
    ] {
        let refs = references(&fixture(name)).unwrap().references;
        assert_eq!(
            refs.first().and_then(|r| r.label.as_deref()),
            Some(first),
            "{name}"
        );
        for (i, r) in refs.iter().enumerate() {
            let n = (i + 1).to_string();
            let label = r.label.as_deref().unwrap_or_default();
            assert!(
                label.trim_matches(['[', ']', '.']) == n,
                "{name}: {label} at {i}"
            );
            assert!(!r.raw.starts_with(label), "{name}: {}", r.raw);
        }
    }
}

/// (layout, index of the reference, its raw string, its page).
const EXACT: &[(&str, usize, &str, u32)] = &[
    ("onecol", 12, "Paul Erdős and Alfréd Rényi. On random graphs I. Publicationes Mathematicae Debrecen, 6:290–297, 1959.", 2),
    ("onecol", 11, "Jacob Devlin, Ming-Wei Chang, Kenton Lee, and Kristina Toutanova. BERT: Pre-training of deep bidirectional transformers for language understanding. In Proceedings of the 2019 Conference of the North American Chapter of the Association for Computational Linguistics: Human Language Technologies, pages 4171–4186, 2019.", 2),
    ("onecol", 35, "Tianyi Zhang, Varsha Kishore, Felix Wu, Kilian Q. Weinberger, and Yoav Artzi. BERTScore: Evaluating text generation with BERT. In International Conference on Learning Representations, 2020.", 3),
    ("twocol", 14, "John Jumper, Richard Evans, Alexander Pritzel, Tim Green, Michael Figurnov, Olaf Ronneberger, Kathryn Tunyasuvunakool, Russ Bates, Augustin Žídek, Anna Potapenko, Alex Bridgland, Clemens Meyer, and Simon A. A. Kohl. Highly accurate protein structure prediction with AlphaFold. Nature, 596(7873):583–589, 2021. doi: 10.1038/s41586-021-03819-2.", 1),
    ("twocol", 32, "Hadley Wickham, Peter Danenberg, Gábor Csárdi, and Manuel Eugster. roxygen2: In-Line Documentation for R, 2019. URL https://CRAN.R-project.org/package=roxygen2. R package version 7.0.2.", 2),
    ("twocol", 0, "Anastassia Ailamaki, David J. DeWitt, Mark D. Hill, and David A. Wood. Dbmss on a modern processor: where does time go? VLDB, 1999.", 1),
    ("ieee", 0, "G. Lamichhane, M. Zignol, N. J. Blades, D. E. Geiman, A. Dougherty, K. W. Broman, and W. R. Bishai, “A post-genomic method for predicting essential genes at subsaturation levels of mutagenesis: application to mycobacterium tuberculosis,” Proc Natl Acad Sci USA, vol. 100, pp. 7213–7218, 2003.", 1),
    ("ieee", 35, "C. Raffel, N. Shazeer, A. Roberts, K. Lee, S. Narang, M. Matena, Y. Zhou, W. Li, and P. J. Liu, “Exploring the limits of transfer learning with a unified text-to-text transformer,” Journal of Machine Learning Research, vol. 21, no. 140, pp. 1–67, 2020.", 1),
    ("acm", 11, "Jacob Devlin, Ming-Wei Chang, Kenton Lee, and Kristina Toutanova. 2019. BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding. In Proceedings of the 2019 Conference of the North American Chapter of the Association for Computational Linguistics: Human Language Technologies. 4171–4186. https://doi.org/10.18653/v1/N19-1423", 1),
    ("acm", 32, "Hadley Wickham, Peter Danenberg, Gábor Csárdi, and Manuel Eugster. 2019. roxygen2: In-Line Documentation for R. https://CRAN.R-project.org/package=roxygen2 R package version 7.0.2.", 1),
    ("llncs", 14, "Jumper, J., Evans, R., Pritzel, A., Green, T., Figurnov, M., Ronneberger, O., Tunyasuvunakool, K., Bates, R., Žídek, A., Potapenko, A., Bridgland, A., Meyer, C., Kohl, S.A.A.: Highly accurate protein structure prediction with AlphaFold. Nature 596(7873), 583–589 (2021). https://doi.org/10.1038/s41586-021-03819-2", 2),
    ("llncs", 12, "Erdős, P., Rényi, A.: On random graphs I. Publicationes Mathematicae Debrecen 6, 290–297 (1959)", 2),
    ("els", 11, "Devlin, J., Chang, M.W., Lee, K., Toutanova, K., 2019. BERT: Pre-training of deep bidirectional transformers for language understanding, in: Proceedings of the 2019 Conference of the North American Chapter of the Association for Computational Linguistics: Human Language Technologies, pp. 4171–4186. doi:10.18653/v1/N19-1423.", 1),
    ("els", 35, "Zhang, T., Kishore, V., Wu, F., Weinberger, K.Q., Artzi, Y., 2020. BERTScore: Evaluating text generation with BERT, in: International Conference on Learning Representations.", 2),
];

#[test]
fn raw_strings_are_exact() {
    for (name, index, raw, page) in EXACT {
        let refs = references(&fixture(name)).unwrap().references;
        let got = refs
            .get(*index)
            .unwrap_or_else(|| panic!("{name}: no reference {index}"));
        assert_eq!(got.raw, *raw, "{name} #{index}");
        assert_eq!(got.page, *page, "{name} #{index}");
    }
}

#[test]
fn the_appendix_after_the_bibliography_is_not_a_reference() {
    let refs = references(&fixture("onecol")).unwrap().references;
    assert!(refs
        .iter()
        .all(|r| !r.raw.contains("Proofs") && !r.raw.contains("appendix")));
}

#[test]
fn a_journal_footer_does_not_join_the_reference_above_it() {
    // elsarticle prints "Preprint submitted to …" at the foot of page 1.
    let refs = references(&fixture("els")).unwrap().references;
    assert!(
        refs.iter().all(|r| !r.raw.contains("Preprint")),
        "{refs:#?}"
    );
}

/// A one-page PDF written by hand around a content stream.
fn synthetic(content: &[u8], stream_dict: &str, trailer_extra: &str) -> Vec<u8> {
    let mut pdf = b"%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [3 0 R] /Count 1>> endobj\n3 0 obj <</Type /Page /Parent 2 0 R /Contents 4 0 R /Resources <<>> >> endobj\n".to_vec();
    pdf.extend(
        format!(
            "4 0 obj <</Length {} {stream_dict}>> stream\n",
            content.len()
        )
        .as_bytes(),
    );
    pdf.extend(content);
    pdf.extend(
        format!("\nendstream endobj\ntrailer <</Root 1 0 R {trailer_extra}>>\n%%EOF\n").as_bytes(),
    );
    pdf
}

#[test]
fn unreadable_pdfs_say_why() {
    let check = |bytes: &[u8], kind: ErrorKind, page: Option<u32>| {
        let err = references(bytes).unwrap_err();
        assert_eq!(err.kind, kind, "{err}");
        assert_eq!(err.location.page, page, "{err}");
        assert_eq!(err.message, err.message.to_lowercase(), "{err}");
        assert!(!err.message.ends_with('.'), "{err}");
    };
    check(b"@article{x, title={not a pdf}}", ErrorKind::NotPdf, None);
    check(b"", ErrorKind::NotPdf, None);
    // A scan: the page paints (an image, here a rectangle) but writes no text.
    check(
        &synthetic(b"0 0 100 100 re f", "", ""),
        ErrorKind::PdfNoText,
        None,
    );
    check(
        &synthetic(b"BT ET", "", "/Encrypt 5 0 R"),
        ErrorKind::PdfEncrypted,
        None,
    );
    // A content stream that does not inflate: page 1 is damaged.
    check(
        &synthetic(b"not deflate data", "/Filter /FlateDecode", ""),
        ErrorKind::PdfDamaged,
        Some(1),
    );
    check(
        b"%PDF-1.4\n1 0 obj <</Type /Catalog",
        ErrorKind::PdfDamaged,
        None,
    );
}

#[test]
fn truncated_and_bit_flipped_pdfs_never_panic() {
    // Regression guard for the "never panics on any input" rule: every cut
    // and corruption gives an error or a result. A fixed xorshift seed keeps
    // the inputs the same from run to run.
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for name in LAYOUTS {
        let pdf = fixture(name);
        for k in 1..24 {
            let _ = references(pdf.get(..pdf.len() * k / 24).unwrap_or_default());
        }
        for _ in 0..24 {
            let mut bytes = pdf.clone();
            for _ in 0..16 {
                let at = (next() % bytes.len() as u64) as usize;
                bytes[at] ^= 1 << (next() % 8);
            }
            let _ = references(&bytes);
        }
    }
}

#[test]
fn a_pdf_cut_before_its_object_streams_is_called_damaged() {
    // pdfTeX writes the page tree and fonts in object streams at the end of
    // the file: cut there, no page can be found, and the error says so.
    let pdf = fixture("onecol");
    let err = references(pdf.get(..pdf.len() * 2 / 3).unwrap_or_default()).unwrap_err();
    assert_eq!(err.kind, ErrorKind::PdfDamaged, "{err}");
}
