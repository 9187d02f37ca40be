//! `outline.json`: the search-query reader.
#![no_main]

use citegate_core::candidates;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = candidates::outline_queries(text);
});
