//! The cite commands the scanner knows: the built-in table (`cite-commands.tsv`), the shapes of their arguments, and definitions learned from a document.

use crate::short_keys::ShortKeys;
use serde::Serialize;

/// A cite command defined in a document, learned so that its uses are read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Definition {
    /// The command's name without the backslash.
    pub name: String,
    /// How its arguments are read.
    pub form: Form,
}

/// How a learned cite command reads its arguments.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "DefinitionForm"))]
#[serde(rename_all = "snake_case")]
pub enum Form {
    /// Takes its arguments as a built-in command of this shape does
    /// (`\let`, `\DeclareCiteCommand`, `\DeclareMultiCiteCommand`).
    Like {
        /// The shape: `single`, `multi`, `volcite` or `volcites`.
        shape: String,
        /// True for a `\nocite`-like command.
        nocite: bool,
    },
    /// A macro whose body cites some of its arguments, or fixed keys.
    Wrapper {
        /// Each parameter in order, as xparse writes them: `m` a mandatory
        /// `{…}`, `o` an optional `[…]`, `s` an optional star.
        params: String,
        /// The 1-based parameters whose text is a key list.
        key_params: Vec<usize>,
        /// Keys the body cites whatever the arguments.
        keys: Vec<String>,
        /// True when every cite in the body is a `\nocite`.
        nocite: bool,
    },
}

/// How a cite command takes its arguments.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Shape {
    /// Up to two `[…]` (and apacite's `<…>`), then one `{keys}`.
    Single,
    /// Up to two `(…)`, then one or more groups of up to two `[…]` and a `{keys}`.
    Multi,
    /// biblatex's `\volcite[pre]{volume}[pages]{key}`.
    Volcite,
    /// biblatex's `\volcites(pre)(post)` followed by volcite groups.
    Volcites,
}

impl Shape {
    pub(super) fn parse(name: &str) -> Option<Shape> {
        Some(match name {
            "single" | "apa" => Shape::Single,
            "multi" => Shape::Multi,
            "volcite" => Shape::Volcite,
            "volcites" => Shape::Volcites,
            _ => return None,
        })
    }

    pub(super) fn name(self) -> &'static str {
        match self {
            Shape::Single => "single",
            Shape::Multi => "multi",
            Shape::Volcite => "volcite",
            Shape::Volcites => "volcites",
        }
    }
}

/// The cite commands of LaTeX, natbib, biblatex and apacite as data
/// (`cite-commands.tsv`, with its provenance in its header). A list, not a
/// pattern: `\citestyle{plainnat}` must not cite `plainnat`.
pub(super) const COMMANDS: &str = include_str!("../cite-commands.tsv");

/// A known cite command: its shape and whether it only adds to the bibliography.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct Known {
    pub(super) shape: Shape,
    pub(super) nocite: bool,
    /// The command's row in the table ([`LEARNED`] for a learned command).
    pub(super) row: u16,
}

/// [`Known::row`] of a command learned from a definition.
pub(super) const LEARNED: u16 = u16::MAX;

/// True if `name` holds `cite` or `Cite`.
pub(super) fn has_cite(name: &str) -> bool {
    name.as_bytes()
        .windows(4)
        .any(|w| matches!(w, [b'c' | b'C', b'i', b't', b'e']))
}

pub(super) fn builtin(name: &str) -> Option<Known> {
    // Every name in the table contains `cite` except `bibentry`: most control
    // words of a document are ruled out without hashing them.
    if !has_cite(name) && name != "bibentry" {
        return None;
    }
    builtin_lookup(name)
}

/// [`builtin`] without the filter.
pub(super) fn builtin_lookup(name: &str) -> Option<Known> {
    // Command names are short: a `ShortKeys` finds one without hashing
    // it or calling `memcmp`, and this runs once per cite command.
    static TABLE: std::sync::OnceLock<ShortKeys<Known>> = std::sync::OnceLock::new();
    TABLE
        .get_or_init(|| {
            let mut table = ShortKeys::default();
            let rows = COMMANDS
                .lines()
                .filter(|l| !l.starts_with('#'))
                .filter_map(|l| {
                    let mut cols = l.split('\t');
                    let name = cols.next()?;
                    let shape = Shape::parse(cols.next()?)?;
                    let nocite = cols.next()? == "nocite";
                    Some((name, shape, nocite))
                })
                .zip(0u16..LEARNED);
            for ((name, shape, nocite), row) in rows {
                table.add(name, Known { shape, nocite, row });
            }
            table
        })
        .get(name)
        .copied()
}

/// Environments whose body is printed as is, so commands in them do nothing.
pub(super) const VERBATIM_ENVS: &[&str] = &[
    "verbatim",
    "verbatim*",
    "Verbatim",
    "Verbatim*",
    "BVerbatim",
    "LVerbatim",
    "lstlisting",
    "minted",
    "comment",
    "filecontents",
    "filecontents*",
];
