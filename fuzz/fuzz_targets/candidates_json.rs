//! `raw_candidates.json`: the reader and the pre-dedup it feeds.
#![no_main]

use citegate_core::candidates;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(list) = candidates::parse_candidates(text) {
        for c in &list {
            let _ = candidates::exact_key(c);
        }
        let _ = candidates::pre_dedup(list);
    }
    let _ = candidates::arxiv_id(text);
});
