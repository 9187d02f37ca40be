//! citegate's local index: the public bibliographic dumps (DBLP's XML,
//! arXiv's metadata snapshot, OpenAlex's works snapshot, Crossref's public
//! data file) read as streams into one SQLite store on disk (records, ids,
//! build progress), with a Tantivy index beside it for title candidates.
//! This crate does IO; what counts as a match (title
//! normalization, the ratio, DOI and arXiv id forms) is the core's
//! (`citegate_core::title`, `citegate_core::ids`), called from here.
//!
//! - [`work`]: one record of any dump, as the index stores it.
//! - [`dblp`]: DBLP's XML, streamed, with `dblp.dtd`'s character entities.
//! - [`dumps`]: arXiv, OpenAlex and Crossref records from their JSON.
//! - [`store`]: building (resumable, in batches) and looking up.
//! - [`titles`]: the title index, derived from the store's records.
//! - [`gen`]: a deterministic generator of schema-true DBLP XML.

pub mod dblp;
pub mod dumps;
pub mod gen;
pub mod store;
pub mod titles;
pub mod work;

pub use store::{Dump, Hit, Index, IndexError};
pub use titles::TitlePass;
pub use work::{Source, Work};
