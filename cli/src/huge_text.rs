//! A large `.tex` file read into transparent huge pages.
//!
//! Reading a 5 MB draft into an ordinary allocation costs more in the kernel
//! than scanning it: about 1,300 page faults, each zeroing 4 KB, before the
//! bytes are even copied in. Memory the process maps itself and marks for
//! huge pages (`madvise(MADV_HUGEPAGE)`, which Linux needs when transparent
//! huge pages are set to `madvise`, the common default) takes one fault per
//! 2 MB. `memmap2` makes both calls behind a safe API (an anonymous map
//! and a non-destructive advice; no file is mapped), so the workspace's
//! `unsafe_code = "forbid"` holds. Elsewhere, or when anything here fails,
//! the file is read as every other file is ([`crate::io::read_text`]), which
//! also gives every error.

use crate::error::Error;
use std::io::Read;
use std::path::Path;

/// Files smaller than this are read the ordinary way: one huge page is the
/// least that is mapped.
const HUGE: u64 = 2 << 20;

/// A file's text in memory of its own, checked as UTF-8 once.
pub struct HugeText {
    map: memmap2::MmapMut,
    /// The text's bytes in `map` (a byte-order mark left out).
    start: usize,
    end: usize,
}

impl AsRef<str> for HugeText {
    fn as_ref(&self) -> &str {
        // Checked when read; checking again is one pass at memory speed
        // (`str` from bytes without a check would take `unsafe`).
        let bytes = self.map.get(self.start..self.end).unwrap_or_default();
        utf8(bytes).unwrap_or_default()
    }
}

/// The bytes as text if they are UTF-8, checked with vector instructions
/// where the processor has them (`simdutf8`): a few times faster than the
/// standard library's check on a large draft, which is read twice.
fn utf8(bytes: &[u8]) -> Option<&str> {
    simdutf8::basic::from_utf8(bytes).ok()
}

/// A `.tex` file as text: read into huge pages when it is large, else (or
/// when that fails) as [`crate::io::read_text`] reads it.
pub enum Text {
    Huge(HugeText),
    Plain(String),
}

impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        match self {
            Text::Huge(t) => t.as_ref(),
            Text::Plain(t) => t,
        }
    }
}

/// Reads `path` as [`crate::io::read_text`] does, into huge pages if it is large.
pub fn read_text(path: &Path) -> Result<Text, Error> {
    match read_huge(path) {
        Some(Ok(t)) => Ok(Text::Huge(t)),
        Some(Err(e)) => Err(e),
        None => crate::io::read_text(path).map(Text::Plain),
    }
}

/// `None` when the file is small or cannot be read this way (the ordinary
/// read then runs, with its errors); an error for bytes that are not text.
fn read_huge(path: &Path) -> Option<Result<HugeText, Error>> {
    let mut file = std::fs::File::open(path).ok()?;
    let len = file.metadata().ok()?.len();
    if len < HUGE {
        return None;
    }
    let size = usize::try_from(len.div_ceil(HUGE).checked_mul(HUGE)?).ok()?;
    let len = usize::try_from(len).ok()?;
    let mut map = memmap2::MmapMut::map_anon(size).ok()?;
    #[cfg(target_os = "linux")]
    {
        // Only a hint: without it the map is read into ordinary pages.
        let _ = map.advise(memmap2::Advice::HugePage);
    }
    file.read_exact(map.get_mut(..len)?).ok()?;
    // A file that grew since its size was read is read the ordinary way.
    if file.read(&mut [0u8]).ok()? != 0 {
        return None;
    }
    let bytes = map.get(..len)?;
    Some(
        match citegate_core::text::decode_checked(bytes, |b| utf8(b).is_some()) {
            Ok(start) => Ok(HugeText {
                map,
                start,
                end: len,
            }),
            Err(e) => Err(Error::input(path, e)),
        },
    )
}
