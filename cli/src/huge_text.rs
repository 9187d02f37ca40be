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

/// The size of a transparent huge page.
const HUGE_PAGE: usize = 2 << 20;

/// Files smaller than this are read the ordinary way: one huge page is the
/// least that is mapped.
const HUGE: u64 = HUGE_PAGE as u64;

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

/// Fills `buf` from `file` a piece at a time, checking each piece while it
/// is in the cache (a pass over 5 MB in memory costs about as much as
/// reading it): true when every byte is UTF-8 and none is NUL, false when
/// that is not so or cannot be told (`text::decode_checked` then checks
/// again, and gives the error). `None` when the file could not be read.
fn read_checked(file: &mut std::fs::File, buf: &mut [u8]) -> Option<bool> {
    const PIECE: usize = 1 << 18;
    let mut done = 0;
    // Bytes before `valid` are UTF-8 (a character the last piece cut in
    // two is checked again with the rest of it).
    let mut valid = 0;
    let mut clean = true;
    while done < buf.len() {
        let to = (done + PIECE).min(buf.len());
        file.read_exact(buf.get_mut(done..to)?).ok()?;
        if clean {
            let piece = buf.get(done..to)?;
            clean = memchr::memchr(0, piece).is_none();
            match simdutf8::compat::from_utf8(buf.get(valid..to)?) {
                Ok(_) => valid = to,
                Err(e) if e.error_len().is_none() => valid += e.valid_up_to(),
                Err(_) => clean = false,
            }
        }
        done = to;
    }
    Some(clean && valid == buf.len())
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
        // Only the huge pages the file fills: each is zeroed whole before
        // the read, and a 5.1 MB draft uses half of its third one (0.9 MB
        // zeroed for nothing, slower than its 230 ordinary page faults when
        // another program has just left the memory cold).
        let _ = map.advise_range(memmap2::Advice::HugePage, 0, len / HUGE_PAGE * HUGE_PAGE);
    }
    let checked = read_checked(&mut file, map.get_mut(..len)?)?;
    // A file that grew since its size was read is read the ordinary way.
    if file.read(&mut [0u8]).ok()? != 0 {
        return None;
    }
    let bytes = map.get(..len)?;
    Some(match citegate_core::text::decode_checked(bytes, checked) {
        Ok(start) => Ok(HugeText {
            map,
            start,
            end: len,
        }),
        Err(e) => Err(Error::input(path, e)),
    })
}

#[cfg(test)]
mod tests {
    use super::read_checked;
    use std::io::Write;

    fn checked(bytes: &[u8]) -> Option<bool> {
        let mut file = tempfile::tempfile().ok()?;
        file.write_all(bytes).ok()?;
        std::io::Seek::rewind(&mut file).ok()?;
        let mut buf = vec![0u8; bytes.len()];
        let clean = read_checked(&mut file, &mut buf);
        assert_eq!(buf, bytes);
        clean
    }

    /// Three-byte characters cut in two by the pieces' ends are UTF-8;
    /// a NUL byte or an invalid byte in a later piece is found.
    #[test]
    fn pieces_are_checked_whole() {
        let text = "€".repeat(600_000).into_bytes();
        assert_eq!(checked(&text), Some(true));
        for bad in [&b"\0"[..], b"\xFF", b"\xE2\x82"] {
            let mut b = text.clone();
            b.splice(700_002..700_002, bad.iter().copied());
            assert_eq!(checked(&b), Some(false), "{bad:?}");
        }
        // Cut short at the end: an incomplete last character.
        assert_eq!(checked(&text[..text.len() - 1]), Some(false));
    }
}
