//! verify's Semantic Scholar body reader, with and without a status.
#![no_main]

use citegate_core::verify;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&st, rest)) = data.split_first() else {
        return;
    };
    let Ok(body) = std::str::from_utf8(rest) else {
        return;
    };
    let status = match st % 4 {
        0 => None,
        1 => Some(200),
        2 => Some(404),
        _ => Some(429),
    };
    let _ = verify::read_s2_body(body, status);
});
