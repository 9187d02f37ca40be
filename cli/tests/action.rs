//! `action.yml`, the GitHub Action: its inputs, every flag it passes
//! existing in `citegate <command> --help`, and its run script run with
//! bash against this build of the binary (annotations, `fail-on`, a bad
//! input refused).

mod common;

use common::{citegate, stdout, tempdir, write};
use std::path::{Path, PathBuf};
use std::process::Command;

fn action() -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../action.yml");
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// The lines of the block under the key line `head` (exact, trimmed),
/// i.e. the following lines indented deeper than it.
fn block<'a>(text: &'a str, head: &str) -> Vec<&'a str> {
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.trim() == head)
        .unwrap_or_else(|| panic!("no `{head}` in action.yml"));
    let depth = indent(lines[at]);
    lines[at + 1..]
        .iter()
        .take_while(|l| l.trim().is_empty() || indent(l) > depth)
        .copied()
        .collect()
}

/// The names of the inputs: the keys one level under `inputs:`.
fn inputs(text: &str) -> Vec<String> {
    let lines = block(text, "inputs:");
    let depth = lines
        .iter()
        .find(|l| !l.trim().is_empty())
        .map(|l| indent(l))
        .unwrap_or(0);
    lines
        .iter()
        .filter(|l| indent(l) == depth && !l.trim().is_empty())
        .map(|l| l.trim().trim_end_matches(':').to_string())
        .collect()
}

/// The run script of the step named `citegate` (its `run: |` block, the
/// indentation removed).
fn citegate_script(text: &str) -> String {
    let step = block(text, "- name: citegate");
    let at = step
        .iter()
        .position(|l| l.trim() == "run: |")
        .expect("the citegate step has a run block");
    let depth = indent(step[at]);
    let body: Vec<&str> = step[at + 1..]
        .iter()
        .take_while(|l| l.trim().is_empty() || indent(l) > depth)
        .copied()
        .collect();
    let cut = body
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| indent(l))
        .min()
        .unwrap_or(0);
    body.iter()
        .map(|l| l.get(cut..).unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

#[test]
fn the_action_declares_its_inputs_and_uses_each() {
    let text = action();
    assert_eq!(
        inputs(&text),
        ["files", "command", "online", "fail-on", "args"]
    );
    for name in inputs(&text) {
        let b = block(&text, &format!("{name}:"));
        assert!(
            b.iter().any(|l| l.trim().starts_with("description:")),
            "{name} has no description"
        );
        assert!(
            text.contains(&format!("${{{{ inputs.{name} }}}}")),
            "{name} is never used"
        );
    }
    assert!(block(&text, "files:")
        .iter()
        .any(|l| l.trim() == "required: true"));
    // It installs from its own checkout with the lock file, as the README says.
    assert!(text.contains("using: composite"));
    assert!(
        text.contains("cargo install --locked --path \"$GITHUB_ACTION_PATH/cli\" --profile cli")
    );
    let manifest =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../Cargo.toml"))
            .unwrap();
    assert!(manifest.contains("[profile.cli]"));
}

#[test]
fn every_flag_the_action_passes_is_in_the_help_of_both_commands() {
    let script = citegate_script(&action());
    let flags: Vec<String> = script
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .filter(|w| w.starts_with("--") && w.len() > 2)
        .map(str::to_string)
        .collect();
    for want in ["--format", "--fail-on", "--online"] {
        assert!(
            flags.iter().any(|f| f == want),
            "{want} not passed: {flags:?}"
        );
    }
    for command in ["bibcheck", "check"] {
        let o = citegate().args([command, "--help"]).output().unwrap();
        let help = stdout(&o);
        for f in &flags {
            assert!(
                help.contains(f.as_str()),
                "`citegate {command} --help` has no {f}"
            );
        }
        assert!(help.contains("github"), "`{command}` has no github format");
        assert!(script.contains("--format github"));
    }
}

/// Runs the action's script with `inputs` as the runner would set them and
/// this build's `citegate` first on the PATH.
fn run_script(dir: &Path, inputs: &[(&str, &str)]) -> (i32, String) {
    let bin: PathBuf = Path::new(env!("CARGO_BIN_EXE_citegate"))
        .parent()
        .unwrap()
        .to_path_buf();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut cmd = Command::new("bash");
    cmd.arg("-c")
        .arg(citegate_script(&action()))
        .current_dir(dir)
        .env("PATH", path);
    for v in ["S2_API_KEY", "OPENALEX_API_KEY", "PAPER_ORCHESTRA_MAILTO"] {
        cmd.env_remove(v);
    }
    for (name, value) in inputs {
        cmd.env(
            format!("CITEGATE_{}", name.to_uppercase().replace('-', "_")),
            value,
        );
    }
    let o = cmd.output().expect("bash");
    (o.status.code().unwrap_or(-1), stdout(&o))
}

#[test]
fn the_action_script_prints_annotations_and_fails_as_fail_on_says() {
    let tmp = tempdir();
    let dir = tmp.path();
    // A warning only: the DOI written as a URL.
    write(
        dir,
        "warn.bib",
        "@article{w, author = {A. B}, title = {A title}, journal = {J}, year = {2020}, doi = {https://doi.org/10.1234/abc}}\n",
    );
    // An error: a required field missing.
    write(
        dir,
        "err.bib",
        "@article{e, author = {A. B}, title = {A title}, year = {2020}}\n",
    );
    let base = [("command", "bibcheck"), ("online", "false"), ("args", "")];
    let with = |files: &str, fail_on: &str| {
        let mut v = base.to_vec();
        v.push(("files", files));
        v.push(("fail-on", fail_on));
        run_script(dir, &v)
    };
    // (files, fail-on, exit code, annotation prefix in the output)
    for (files, fail_on, code, annotation) in [
        ("warn.bib", "error", 0, "::warning file=warn.bib,line=1"),
        ("warn.bib", "warning", 1, "::warning file=warn.bib,line=1"),
        ("err.bib", "error", 1, "::error file=err.bib,line=1"),
        ("*.bib", "error", 1, "::error file=err.bib,line=1"),
    ] {
        let (got, out) = with(files, fail_on);
        assert_eq!(got, code, "{files} --fail-on {fail_on}: {out}");
        assert!(out.contains(annotation), "{files}: {out}");
    }
    // The glob reached both files.
    let (_, out) = with("*.bib", "error");
    assert!(out.contains("file=warn.bib"), "{out}");

    // check reads the same bibliography as a paper's references.
    let mut v = base.to_vec();
    v[0] = ("command", "check");
    v.push(("files", "err.bib"));
    v.push(("fail-on", "error"));
    let (got, out) = run_script(dir, &v);
    assert_eq!(got, 1, "{out}");
    assert!(out.contains("::error file=err.bib"), "{out}");

    // Inputs the action does not know are refused before citegate runs.
    for (name, bad) in [("command", "rm"), ("online", "yes"), ("fail-on", "never")] {
        let mut v: Vec<(&str, &str)> = vec![
            ("files", "warn.bib"),
            ("command", "bibcheck"),
            ("online", "false"),
            ("fail-on", "error"),
            ("args", ""),
        ];
        for kv in v.iter_mut() {
            if kv.0 == name {
                kv.1 = bad;
            }
        }
        let (got, out) = run_script(dir, &v);
        assert_eq!(got, 2, "{name}={bad}: {out}");
        assert!(
            out.contains(&format!("::error title=citegate::{name} must be")),
            "{out}"
        );
    }
}
