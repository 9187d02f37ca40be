//! `refs.jsonl`: the library reader and its round trip.
#![no_main]

use citegate_core::library::Library;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (lib, errors) = Library::parse(&text);
    let _ = lib.doi_keys();
    // Unreadable lines are kept as they were, so reading what we write gives
    // the same records, the same errors on the same lines, and the same text.
    let out = lib.to_jsonl();
    let (again, errors_again) = Library::parse(&out);
    let lines =
        |es: &[citegate_core::Error]| es.iter().map(|e| e.location.line).collect::<Vec<_>>();
    assert_eq!(
        lines(&errors_again),
        lines(&errors),
        "errors moved in the round trip"
    );
    assert_eq!(again.len(), lib.len(), "records lost in the round trip");
    assert_eq!(
        again.to_jsonl(),
        out,
        "refs.jsonl round trip changed the library"
    );
});
