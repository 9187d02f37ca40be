//! ARCHITECTURE.md names every module the core declares: a newcomer who finds
//! a module in `lib.rs` finds its section (what it is, its invariant, where to
//! start) in the document, and a new module cannot land without one.

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
