//! Every bibliography reader behind `read_bibliography_bytes` (BibTeX,
//! CSL-JSON, RIS; UTF-8 or 8-bit), `crossref`/`xdata` inheritance, the
//! CSL-JSON writer and layer 1. The first byte picks the file name the
//! format is guessed from.
#![no_main]

use citegate_core::bibtex::{self, csl, format};
use libfuzzer_sys::fuzz_target;

const NAMES: [&str; 4] = ["refs.bib", "refs.json", "refs.ris", "refs.txt"];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let name = NAMES[usize::from(pick) % NAMES.len()];
    let Ok(bib) = bibtex::read_bibliography_bytes(name, rest) else {
        return;
    };
    let _ = format::check_entries(&bib, 2026);
    let written = csl::write(&bib.entries);
    // What citegate writes as CSL-JSON must read back with as many entries.
    let again = csl::parse(&written);
    assert_eq!(
        again.entries.len(),
        bib.entries.len(),
        "csl round trip lost entries"
    );
});
