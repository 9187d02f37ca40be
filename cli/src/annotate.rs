//! Output for CI and scripts: GitHub workflow annotations, SARIF 2.1.0, the
//! `--fail-on` rule, and `-` as standard input. Rendering only: the findings
//! are the core's.

use crate::io::outln;
use citegate_core::bibtex::check::OnlineEntry;
use citegate_core::bibtex::format::{Finding, Severity};
use citegate_core::bibtex::verdict::Class;
use serde_json::{json, Value};
use std::io::Read;
use std::path::Path;

/// How a check's findings are printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputFormat {
    /// One line a finding, `file:line: severity: message`.
    Text,
    /// The whole report as JSON.
    Json,
    /// GitHub Actions workflow commands (`::error file=…,line=…::message`).
    Github,
    /// A SARIF 2.1.0 log (code scanning in GitHub, GitLab, Azure DevOps).
    Sarif,
}

/// Which findings make the exit code 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FailOn {
    /// Any finding, warnings included.
    Warning,
    /// Errors only; warnings are printed and pass.
    Error,
}

/// The bytes of `path`, or of standard input when it is `-`.
pub fn read_input(path: &Path) -> std::io::Result<Vec<u8>> {
    if path.as_os_str() == "-" {
        let mut buf = Vec::new();
        std::io::stdin().read_to_end(&mut buf)?;
        Ok(buf)
    } else {
        std::fs::read(path)
    }
}

/// The name shown for `path`: `<stdin>` for `-`.
pub fn display_name(path: &Path) -> String {
    if path.as_os_str() == "-" {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    }
}

/// Escapes a workflow command's message (GitHub's rules: `%`, CR, LF).
fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a workflow command's property value (also `:` and `,`).
fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// One GitHub workflow command a finding: `::error file=F,line=L,title=T::message`.
pub fn github_lines(bib: &str, findings: &[Finding]) -> Vec<String> {
    findings
        .iter()
        .map(|f| {
            let level = match f.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            };
            let mut props = vec![format!(
                "file={}",
                escape_property(f.file.as_deref().unwrap_or(bib))
            )];
            if let Some(line) = f.line {
                props.push(format!("line={line}"));
            }
            props.push(format!("title=citegate {}", escape_property(&code(f))));
            let mut message = f.message.clone();
            if let Some(s) = &f.suggestion {
                message.push_str(&format!(" (suggested: {s})"));
            }
            format!("::{level} {}::{}", props.join(","), escape_data(&message))
        })
        .collect()
}

/// Prints [`github_lines`], then [`verdict_lines`].
pub fn print_github(bib: &str, findings: &[Finding], verdicts: &[OnlineEntry]) {
    for line in github_lines(bib, findings) {
        outln!("{line}");
    }
    for line in verdict_lines(bib, verdicts) {
        outln!("{line}");
    }
}

/// The entries an online check did not find valid, each with the file it
/// is in: what the GitHub and SARIF outputs annotate.
pub struct Judged<'a> {
    /// The bibliography holding the entry.
    pub file: &'a str,
    /// The entry's verdict and class.
    pub entry: &'a OnlineEntry,
}

/// The GitHub annotation level of an entry's class: an accusation is an
/// error, an entry that could not be verified a warning, a valid entry
/// under a notice (an expression of concern, a correction) or one a
/// reviewer accepted as a false alarm a notice.
fn class_level(e: &OnlineEntry) -> &'static str {
    match e.class {
        // A reviewer's false alarm no longer fails: it is shown, not raised.
        _ if e.passes() => "notice",
        Class::Fabricated | Class::Miscited | Class::Retracted => "error",
        Class::Unverified => "warning",
        Class::Valid => "notice",
    }
}

/// Whether an online verdict is annotated: every entry that is not valid,
/// and a valid one with a notice.
pub fn annotated(e: &OnlineEntry) -> bool {
    e.class != Class::Valid || !e.notices.is_empty()
}

/// An online verdict's message: the key, the class in words, the reasons,
/// the notices and a reviewer's mark.
pub fn verdict_message(e: &OnlineEntry) -> String {
    let mut m = format!("{}: {}: {}", e.key, e.class.name(), e.class.words());
    let notices = e.notices.iter().map(|n| &n.message);
    let accepted = e.accepted.iter().map(|a| &a.message);
    for said in e
        .reasons
        .iter()
        .map(|r| &r.message)
        .chain(notices)
        .chain(accepted)
    {
        m.push_str("; ");
        m.push_str(said);
    }
    m
}

/// The SARIF rule of an annotated entry: its class, or for a valid entry
/// the kind of its first notice (`expression_of_concern`, `correction`).
fn verdict_rule(e: &OnlineEntry) -> String {
    match (e.class, e.notices.first()) {
        (Class::Valid, Some(n)) => serde_json::to_value(n.kind)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default(),
        (c, _) => c.name().to_string(),
    }
}

/// One GitHub workflow command per [`annotated`] entry, at the entry's
/// line, titled with its class (`citegate fabricated`).
pub fn verdict_lines(bib: &str, verdicts: &[OnlineEntry]) -> Vec<String> {
    verdicts
        .iter()
        .filter(|e| annotated(e))
        .map(|e| {
            format!(
                "::{} file={},line={},title=citegate {}::{}",
                class_level(e),
                escape_property(bib),
                e.line,
                e.class.name(),
                escape_data(&verdict_message(e))
            )
        })
        .collect()
}

fn code(f: &Finding) -> String {
    serde_json::to_value(f.code)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// The findings as a SARIF 2.1.0 log: one run of the tool `citegate`, one
/// rule a finding code or verdict class, one result a finding with its
/// file and line, then one result per entry not found valid online (its
/// `properties` give the class, the verdict and the key).
pub fn sarif(bib: &str, findings: &[Finding], judged: &[Judged<'_>]) -> Value {
    let judged: Vec<&Judged<'_>> = judged.iter().filter(|j| annotated(j.entry)).collect();
    let mut rules: Vec<String> = findings.iter().map(code).collect();
    rules.extend(judged.iter().map(|j| verdict_rule(j.entry)));
    rules.sort();
    rules.dedup();
    let verdicts = judged.iter().map(|j| {
        json!({
            "ruleId": verdict_rule(j.entry),
            "level": match class_level(j.entry) { "notice" => "note", l => l },
            "message": { "text": verdict_message(j.entry) },
            "locations": [{
                "physicalLocation": {
                    "artifactLocation": { "uri": j.file },
                    "region": { "startLine": j.entry.line },
                }
            }],
            "properties": {
                "class": j.entry.class,
                "verdict": j.entry.verdict,
                "key": j.entry.key,
                "notices": j.entry.notices,
                "accepted": j.entry.accepted,
            },
        })
    });
    let results: Vec<Value> = findings
        .iter()
        .map(|f| {
            let mut location = json!({
                "physicalLocation": {
                    "artifactLocation": { "uri": f.file.as_deref().unwrap_or(bib) },
                }
            });
            if let Some(line) = f.line {
                location["physicalLocation"]["region"] = json!({ "startLine": line });
            }
            json!({
                "ruleId": code(f),
                "level": match f.severity { Severity::Error => "error", Severity::Warning => "warning" },
                "message": { "text": f.message },
                "locations": [location],
            })
        })
        .chain(verdicts)
        .collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "citegate",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules.iter().map(|r| json!({ "id": r })).collect::<Vec<_>>(),
            }},
            "results": results,
        }]
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes() {
        assert_eq!(escape_data("50% a\nb"), "50%25 a%0Ab");
        assert_eq!(escape_property("C:\\x,y"), "C%3A\\x%2Cy");
    }
}
