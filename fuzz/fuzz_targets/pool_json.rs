//! `citation_pool.json`: the reader, its round trip, validation, dedup and export.
#![no_main]

use citegate_core::{bibtex::write, coverage, pool, tex};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(mut value) = serde_json::from_str::<serde_json::Value>(text) {
        let _ = pool::validate(&mut value.clone(), false);
        let _ = pool::validate(&mut value, true);
    }
    let _ = pool::parse_dedupe_input(text);
    let Ok(mut p) = pool::parse_pool(text) else {
        return;
    };
    // What we write we must read back to the same pool.
    let json = pool::to_json(&p);
    let again = pool::parse_pool(&json).expect("to_json output must parse");
    assert_eq!(
        pool::to_json(&again),
        json,
        "pool round trip changed the pool"
    );
    let _ = coverage::entries(&p.papers);
    let _ = tex::pool_key_map(&p.papers);
    let _ = pool::dedupe(p.papers.clone(), None);
    let _ = write::write_bib(&mut p);
});
