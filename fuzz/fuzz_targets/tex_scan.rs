//! The `.tex` cite extractor: any text, as one file and as a project.
#![no_main]

use citegate_core::tex;
use libfuzzer_sys::fuzz_target;
use std::collections::BTreeMap;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let scan = tex::scan(&text);
    let _ = tex::extract_cites(&text);
    // Rename every key found to a fixed one: exercises the rewriter on the
    // same positions the scanner reported.
    for c in scan.cites() {
        // The reported byte span lies on character boundaries of the source
        // (the key itself may differ: comments inside it are dropped).
        assert!(text.get(c.start..c.end).is_some(), "span of {c:?}");
    }
    let map: BTreeMap<String, String> = scan
        .cites()
        .map(|c| (c.key.to_string(), "renamed".to_string()))
        .collect();
    let _ = tex::sync_keys(&text, &map);
    let mut files = BTreeMap::new();
    files.insert("main.tex".to_string(), text.into_owned());
    let _ = tex::scan_project(&["main.tex".to_string()], &files);
});
