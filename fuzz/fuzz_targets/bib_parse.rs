//! The `.bib` parser (bytes and text) and the layer-1 checker.
#![no_main]

use citegate_core::bibtex::{existence, format, parse};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let bib = match parse::parse_bytes(data) {
        Ok(bib) => bib,
        Err(_) => parse::parse(&String::from_utf8_lossy(data)),
    };
    let _ = format::check_entries(&bib, 2026);
    let cites: Vec<format::CiteUse> = bib
        .entries
        .iter()
        .take(8)
        .map(|e| format::CiteUse {
            key: e.key.clone(),
            file: "main.tex".into(),
            line: 1,
        })
        .chain(std::iter::once(format::CiteUse {
            key: "missing".into(),
            file: "main.tex".into(),
            line: 2,
        }))
        .collect();
    let _ = format::check_cites(&bib, &cites, false);
    for entry in &bib.entries {
        let _ = existence::plan(entry);
        let _ = format::entry_year(entry);
    }
});
