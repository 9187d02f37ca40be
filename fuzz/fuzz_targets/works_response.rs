//! Semantic Scholar, Crossref, OpenAlex (and arXiv) response parsers. The
//! first byte picks the service, the second the HTTP status.
#![no_main]

use citegate_core::works::{self, parse, Service};
use libfuzzer_sys::fuzz_target;

const SERVICES: [Service; 5] = [
    Service::SemanticScholar,
    Service::OpenAlex,
    Service::Crossref,
    Service::Arxiv,
    Service::Asta,
];
const STATUSES: [u16; 8] = [200, 200, 200, 400, 404, 429, 500, 0];

fuzz_target!(|data: &[u8]| {
    let (Some(&s), Some(&st)) = (data.first(), data.get(1)) else {
        return;
    };
    let service = SERVICES[usize::from(s) % SERVICES.len()];
    let status = STATUSES[usize::from(st) % STATUSES.len()];
    let body = String::from_utf8_lossy(&data[2..]);
    if let Ok(page) = parse::parse_response(service, status, &body) {
        for w in &page.works {
            let _ = w.year();
            let _ = w.doi_key();
        }
    }
    let _ = works::parse_error(service, status, &body);
});
