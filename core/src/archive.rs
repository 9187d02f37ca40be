//! A `.zip` dropped in place of a folder (an Overleaf project download, an
//! arXiv source bundle repacked): its files as `(path, bytes)` pairs, read in
//! memory. Paths are kept as the archive names them, `/`-separated and
//! relative, so `\input{sections/intro}` finds `sections/intro.tex` the way
//! LaTeX would in the unpacked folder. Folders, macOS resource forks
//! (`__MACOSX/`) and entries whose names climb out of the archive (`../`) are
//! left out; an archive that cannot be read is one error naming why.

use crate::{Error, ErrorKind, Result};
use std::io::{Cursor, Read};

/// Whether `bytes` start like a zip archive (a local file header or an
/// empty archive's end record).
pub fn is_zip(bytes: &[u8]) -> bool {
    bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06")
}

/// Most bytes one archive may unpack to: a guard against archives that
/// inflate a few kilobytes into gigabytes.
pub const MAX_UNPACKED: u64 = 512 * 1024 * 1024;

/// The files of the archive in `bytes`, in archive order.
pub fn unzip(bytes: &[u8]) -> Result<Vec<(String, Vec<u8>)>> {
    let bad = |why: String| {
        Error::new(
            ErrorKind::Encoding,
            format!("not a readable zip archive: {why}"),
        )
    };
    let mut archive = zip::ZipArchive::new(Cursor::new(bytes)).map_err(|e| bad(e.to_string()))?;
    let mut out = Vec::new();
    let mut total: u64 = 0;
    for i in 0..archive.len() {
        let mut file = archive.by_index(i).map_err(|e| bad(e.to_string()))?;
        if file.is_dir() {
            continue;
        }
        let Some(path) = file.enclosed_name() else {
            continue;
        };
        let path = path
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("/");
        if path.is_empty() || path.starts_with("__MACOSX/") {
            continue;
        }
        let mut body = Vec::new();
        let limit = MAX_UNPACKED.saturating_sub(total) + 1;
        (&mut file)
            .take(limit)
            .read_to_end(&mut body)
            .map_err(|e| bad(format!("{path}: {e}")))?;
        total += body.len() as u64;
        if total > MAX_UNPACKED {
            return Err(bad(format!(
                "it unpacks to more than {} MB",
                MAX_UNPACKED / (1024 * 1024)
            )));
        }
        out.push((path, body));
    }
    Ok(out)
}

/// Whether `bytes` are a POSIX tar archive (`ustar` at offset 257).
pub fn is_tar(bytes: &[u8]) -> bool {
    bytes.get(257..262) == Some(b"ustar")
}

/// Whether `bytes` start like gzip data.
pub fn is_gzip(bytes: &[u8]) -> bool {
    bytes.starts_with(&[0x1f, 0x8b])
}

fn unreadable(what: &str, why: impl std::fmt::Display) -> Error {
    Error::new(
        ErrorKind::Encoding,
        format!("not a readable {what}: {}", why.to_string().to_lowercase()),
    )
}

/// The bytes gzip data unpacks to, at most [`MAX_UNPACKED`].
pub fn gunzip(bytes: &[u8]) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .take(MAX_UNPACKED + 1)
        .read_to_end(&mut out)
        .map_err(|e| unreadable("gzip file", e))?;
    if out.len() as u64 > MAX_UNPACKED {
        return Err(unreadable(
            "gzip file",
            format!(
                "it unpacks to more than {} MB",
                MAX_UNPACKED / (1024 * 1024)
            ),
        ));
    }
    Ok(out)
}

/// The regular files of a tar archive, in archive order, with their paths
/// (`/`-separated; entries that climb out with `..` left out, as in
/// [`unzip`]).
pub fn untar(bytes: &[u8]) -> Result<Vec<(String, Vec<u8>)>> {
    let bad = |e: std::io::Error| unreadable("tar archive", e);
    let mut out = Vec::new();
    let mut archive = tar::Archive::new(bytes);
    for entry in archive.entries().map_err(bad)? {
        let mut entry = entry.map_err(bad)?;
        if !entry.header().entry_type().is_file() {
            continue;
        }
        let path = entry
            .path()
            .map_err(bad)?
            .to_string_lossy()
            .replace('\\', "/");
        let path = path.trim_start_matches("./").to_string();
        if path.is_empty() || path.split('/').any(|s| s == "..") || path.starts_with('/') {
            continue;
        }
        let mut data = Vec::new();
        entry.read_to_end(&mut data).map_err(bad)?;
        out.push((path, data));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use zip::write::SimpleFileOptions;

    fn archive(files: &[(&str, &str)], method: zip::CompressionMethod) -> Vec<u8> {
        let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
        let opts = SimpleFileOptions::default().compression_method(method);
        for (name, body) in files {
            if name.ends_with('/') {
                w.add_directory(*name, opts).unwrap();
            } else {
                w.start_file(*name, opts).unwrap();
                w.write_all(body.as_bytes()).unwrap();
            }
        }
        w.finish().unwrap().into_inner()
    }

    fn check(files: &[(&str, &str)], expected: &[&str]) {
        for method in [
            zip::CompressionMethod::Stored,
            zip::CompressionMethod::Deflated,
        ] {
            let bytes = archive(files, method);
            assert!(is_zip(&bytes));
            let got: Vec<String> = unzip(&bytes).unwrap().into_iter().map(|(p, _)| p).collect();
            assert_eq!(got, expected, "{method:?}");
        }
    }

    #[test]
    fn paths_are_kept_and_junk_left_out() {
        check(
            &[
                ("main.tex", "x"),
                ("sections/", ""),
                ("sections/intro.tex", "y"),
            ],
            &["main.tex", "sections/intro.tex"],
        );
        check(
            &[("__MACOSX/._main.tex", "junk"), ("main.tex", "x")],
            &["main.tex"],
        );
        check(
            &[("../escape.tex", "x"), ("ok.bib", "@misc{a,}")],
            &["ok.bib"],
        );
        check(&[], &[]);
    }

    #[test]
    fn contents_come_back_whole() {
        let text = "\\section{Intro}\n".repeat(1000);
        let bytes = archive(&[("a/b.tex", &text)], zip::CompressionMethod::Deflated);
        assert!(bytes.len() < text.len() / 10, "deflated");
        assert_eq!(
            unzip(&bytes).unwrap(),
            vec![("a/b.tex".to_string(), text.into_bytes())]
        );
    }

    #[test]
    fn broken_archives_are_one_error() {
        let mut bytes = archive(&[("main.tex", "hello")], zip::CompressionMethod::Stored);
        bytes.truncate(bytes.len() - 10);
        let e = unzip(&bytes).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Encoding);
        assert!(
            e.message.starts_with("not a readable zip archive"),
            "{}",
            e.message
        );
        assert!(unzip(b"PK\x03\x04garbage").is_err());
        assert!(!is_zip(b"@article{x,}"));
    }
}
