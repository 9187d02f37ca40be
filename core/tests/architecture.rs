//! ARCHITECTURE.md names every module the core declares and every crate the
//! workspace's `Cargo.toml` lists: a newcomer who finds a module in `lib.rs`
//! or a crate folder finds its section (what it is, its invariant, where to
//! start) in the document, and neither can land without one.

use std::path::Path;

/// The modules `lib.rs` declares, public or private, in order.
fn declared_modules(lib_rs: &str) -> Vec<String> {
    lib_rs
        .lines()
        .map(str::trim)
        .filter_map(|line| {
            let rest = line
                .strip_prefix("pub mod ")
                .or_else(|| line.strip_prefix("mod "))?;
            Some(rest.trim_end_matches(';').trim().to_string())
        })
        .collect()
}

/// The module sections of ARCHITECTURE.md: headings of the form "### `name`".
fn documented_modules(doc: &str) -> Vec<String> {
    doc.lines()
        .filter_map(|line| line.strip_prefix("### `")?.strip_suffix('`'))
        .map(str::to_string)
        .collect()
}

#[test]
fn declared_modules_reads_public_and_private_declarations() {
    let lib = "pub mod a;\nmod b;\n#[cfg(feature = \"js\")]\npub mod c;\npub use x::y;\n";
    assert_eq!(declared_modules(lib), ["a", "b", "c"]);
}

#[test]
fn documented_modules_reads_only_module_headings() {
    let doc = "## `core/`\n### `title`\ntext `x`\n### `bibtex`\n### Not a module\n";
    assert_eq!(documented_modules(doc), ["title", "bibtex"]);
}

#[test]
fn every_core_module_has_a_section_in_architecture_md() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let lib = std::fs::read_to_string(root.join("src/lib.rs")).expect("core/src/lib.rs");
    let doc = std::fs::read_to_string(root.join("../ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let documented = documented_modules(&doc);
    let missing: Vec<String> = declared_modules(&lib)
        .into_iter()
        .filter(|m| !documented.contains(m))
        .collect();
    assert!(
        missing.is_empty(),
        "modules declared in core/src/lib.rs without a \"### `name`\" section in ARCHITECTURE.md: {missing:?}"
    );
    let declared = declared_modules(&lib);
    let stale: Vec<&String> = documented
        .iter()
        .filter(|m| !declared.contains(m))
        .collect();
    assert!(
        stale.is_empty(),
        "sections for modules core/src/lib.rs no longer declares: {stale:?}"
    );
}

/// The crate folders the workspace's `Cargo.toml` names (members and
/// excluded crates), as written there.
fn workspace_crates(cargo_toml: &str) -> Vec<String> {
    cargo_toml
        .lines()
        .filter(|l| l.starts_with("members") || l.starts_with("exclude"))
        .flat_map(|l| l.split('"').skip(1).step_by(2))
        .map(str::to_string)
        .collect()
}

/// The folders the top-level sections name: "## `cli/` — …", "## `tools/`, `bench/`".
fn documented_folders(doc: &str) -> Vec<String> {
    doc.lines()
        .filter_map(|l| l.strip_prefix("## "))
        .flat_map(|h| h.split('`').skip(1).step_by(2))
        .filter(|f| f.ends_with('/'))
        .map(str::to_string)
        .collect()
}

#[test]
fn workspace_crates_and_folders_are_read_from_their_lines() {
    let toml = "[workspace]\nmembers = [\"core\", \"tools/world\"]\nexclude = [\"fuzz\"]\n";
    assert_eq!(workspace_crates(toml), ["core", "tools/world", "fuzz"]);
    let doc = "## `cli/` — crate\n## `tools/`, `bench/`\n### `title`\n";
    assert_eq!(documented_folders(doc), ["cli/", "tools/", "bench/"]);
}

#[test]
fn every_crate_of_the_repository_has_a_section_in_architecture_md() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let toml = std::fs::read_to_string(root.join("Cargo.toml")).expect("Cargo.toml");
    let doc = std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let folders = documented_folders(&doc);
    let crates = workspace_crates(&toml);
    assert!(
        crates.len() >= 8,
        "read too few crates from Cargo.toml: {crates:?}"
    );
    let missing: Vec<&String> = crates
        .iter()
        .filter(|c| {
            // A crate is covered by a section on its own folder or on the
            // folder that holds it (`tools/` for `tools/world`).
            let own = format!("{c}/");
            let top = format!("{}/", c.split('/').next().unwrap_or(c));
            !folders.contains(&own) && !folders.contains(&top)
        })
        .collect();
    assert!(
        missing.is_empty(),
        "crates in Cargo.toml without a \"## `folder/`\" section in ARCHITECTURE.md: {missing:?}"
    );
}
