//! Batch lookups: one request per few hundred items that carry an id.
//!
//! Items with an identifier are looked up through each service's batch
//! form — Semantic Scholar `POST /paper/batch` (500 ids), OpenAlex
//! `filter=doi:a|b|…` (50), Crossref `filter=doi:…,doi:…` (50) — and only
//! items without one fall back to a title search each. The chunks are cut
//! from the *whole* item list in its order, never from the items still to
//! do, so a resumed run rebuilds byte-identical batch requests and finds
//! them in the cache instead of sending them again. The core plans the
//! requests (`works::request::batch`) and reads the bodies; this module
//! only groups items and routes answers back to them.

use citegate_core::crossindex;
use citegate_core::pool::PoolPaper;
use citegate_core::works::request::{WorkId, CROSSREF_BATCH_MAX, OPENALEX_BATCH_MAX, S2_BATCH_MAX};
use citegate_core::works::Service;

/// A pool paper's DOI as the cross-check uses it (bare, lowercased).
pub fn paper_doi(p: &PoolPaper) -> Option<String> {
    crossindex::pool_doi(p)
}

/// The batch size of `service`.
pub fn batch_max(service: Service) -> usize {
    match service {
        Service::SemanticScholar => S2_BATCH_MAX,
        Service::OpenAlex => OPENALEX_BATCH_MAX,
        _ => CROSSREF_BATCH_MAX,
    }
}

/// Splits item positions into id-bearing chunks of at most `size` (in item
/// order, over all items) and the positions without an id.
pub fn plan_chunks<T>(
    items: &[T],
    id_of: impl Fn(&T) -> Option<WorkId>,
    size: usize,
) -> (Vec<Vec<(usize, WorkId)>>, Vec<usize>) {
    let mut with = Vec::new();
    let mut without = Vec::new();
    for (i, item) in items.iter().enumerate() {
        match id_of(item) {
            Some(id) => with.push((i, id)),
            None => without.push(i),
        }
    }
    let chunks = with.chunks(size.max(1)).map(<[_]>::to_vec).collect();
    (chunks, without)
}
