//! Components shared by pages: reading files, offering downloads, copying
//! text, status banners, tables, progress of long runs, and yielding to the event loop.
//!
//! Everything that shows text from a file or an API goes through Leptos text
//! nodes, never `inner_html`: a title such as `<img src=x onerror=…>` is shown
//! as those characters. Reading a file keeps its bytes until it is known to
//! be UTF-8, so a bad file is reported with its name and the byte offset
//! where decoding failed rather than shown as replacement characters.

pub mod clip;
pub mod files;
pub mod offline;
pub mod papers;
pub mod progress;
pub mod status;
pub mod unsaved;

pub use clip::{download, CopyButton, DownloadButton};
pub use files::{read_paper, read_pasted, FileDrop, LoadedFile, Pasted};
pub use offline::{OfflineBanner, Reach};
pub use papers::PaperSwitcher;
pub use progress::Progress;
pub use status::{slice, yield_now, Banner, BannerKind, TextTable};
pub use unsaved::UnsavedBanner;
