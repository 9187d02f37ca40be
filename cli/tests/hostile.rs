//! The CLI on hostile files and a closed stdout: a clear error naming the
//! file and the place, or a quiet exit, never a panic.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("citegate-hostile-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).expect("scratch dir");
    d
}

fn citegate(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_citegate"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("run citegate");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `citegate bibcheck --bib <file with bytes>` must exit 2 with an error on
/// stderr naming the file and containing `says`.
fn check_bib(name: &str, bytes: &[u8], says: &str) {
    let dir = scratch("bib");
    std::fs::write(dir.join(name), bytes).expect("write");
    let (code, out, err) = citegate(&dir, &["bibcheck", "--bib", name]);
    assert_eq!(code, 2, "{name}: {out}{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.starts_with(&format!("error: {name}")), "{name}: {err}");
    assert!(err.contains(says), "{name}: {err:?} lacks {says:?}");
}

fn utf16le(text: &str) -> Vec<u8> {
    let mut out = vec![0xFF, 0xFE];
    out.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    out
}

#[test]
fn bibcheck_names_bad_encodings_and_binary_files() {
    // An 8-bit file is read, with a warning that names the encoding and
    // the line of the first byte that is not UTF-8.
    let dir = scratch("bib");
    std::fs::write(dir.join("latin1.bib"), b"@misc{a,\n title={caf\xe9}}").expect("write");
    let (code, out, err) = citegate(&dir, &["bibcheck", "--bib", "latin1.bib", "--json"]);
    assert_ne!(code, 2, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["entries"], 1, "{out}");
    assert_eq!(v["findings"][0]["line"], 2, "{out}");
    assert!(
        v["findings"][0]["message"]
            .as_str()
            .is_some_and(|m| m.contains("latin-1")),
        "{out}"
    );
    check_bib("utf16.bib", &utf16le("@misc{a, title={x}}"), "UTF-16");
    check_bib(
        "archive.bib",
        b"PK\x03\x04\x14\0\x08\0\x08\0refs.bib\0\0",
        "zip archive",
    );
    check_bib("nul.bib", b"@misc{a, title={\0}}", "NUL byte at offset 16");
}

#[test]
fn cites_names_a_tex_file_that_is_not_utf8() {
    let dir = scratch("tex");
    std::fs::write(dir.join("bad.tex"), b"ok \\cite{a}\n\xff").expect("write");
    let (code, _, err) = citegate(&dir, &["cites", "--tex", "bad.tex"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("bad.tex") && err.contains("offset 12"),
        "{err}"
    );
}

/// Runs citegate with stdout closed before it prints, as `citegate … | head -0`
/// would leave it: it must stop quietly with the broken-pipe code.
fn check_closed_stdout(dir: &Path, args: &[&str]) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_citegate"))
        .current_dir(dir)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn citegate");
    drop(child.stdout.take());
    let mut err = String::new();
    if let Some(mut e) = child.stderr.take() {
        e.read_to_string(&mut err).expect("read stderr");
    }
    let status = child.wait().expect("wait");
    assert_eq!(err, "", "{args:?} wrote to stderr");
    assert_eq!(status.code(), Some(141), "{args:?}");
}

#[test]
fn a_closed_stdout_ends_quietly_instead_of_panicking() {
    let dir = scratch("pipe");
    let tex: String = (0..20_000)
        .map(|i| format!("see \\cite{{k{i}}}\n"))
        .collect();
    std::fs::write(dir.join("main.tex"), tex).expect("write");
    check_closed_stdout(&dir, &["cites", "--tex", "main.tex"]);
    check_closed_stdout(&dir, &["cites", "--tex", "main.tex", "--json"]);
    // Output written whole through a buffer (`print!`, not `println!`) and
    // text made by a library (completions, the man page) take the same road.
    check_closed_stdout(&dir, &["completions", "bash"]);
    check_closed_stdout(&dir, &["man"]);
}
