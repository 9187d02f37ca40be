//! The start page: what citegate does, the way through it, and the three
//! ways in. Static text and links only; nothing here reads or decides.

use leptos::prelude::*;

/// One step of the way from an outline to a submitted bibliography.
struct Step {
    href: &'static str,
    name: &'static str,
    what: &'static str,
}

const STEPS: [Step; 4] = [
    Step {
        href: "#/pool",
        name: "Pool",
        what: "Search the outline's queries, keep the papers Semantic Scholar confirms from before the cutoff, and download citation_pool.json and refs.bib.",
    },
    Step {
        href: "#/write",
        name: "Draft",
        what: "Write the Introduction and Related Work with your own model, held to the pool and re-prompted until it cites enough of it.",
    },
    Step {
        href: "#/coverage",
        name: "Coverage",
        what: "Hold the draft to the pool: at least 90 % of it cited, every cite in the pool, and a re-prompt naming what is missing.",
    },
    Step {
        href: "#/bibtex",
        name: "BibTeX check",
        what: "Look every entry up in the scholarly indexes: which exist, which differ from the record, which could not be checked.",
    },
];

/// The start page.
#[component]
pub fn StartPage() -> impl IntoView {
    view! {
        <section class="start">
            <h1>"Check a paper's citations before you submit it"</h1>
            <p class="lead">
                "citegate catches the three ways a bibliography goes wrong: papers that do not exist, "
                "a fifty-paper search of which three end up cited, and work that appeared after the "
                "venue's deadline. It runs in this browser; your files and keys stay here."
            </p>
            <div class="ways" id="ways-in">
                <a class="way" id="way-pool" href="#/pool">
                    <strong>"Build a pool from an outline"</strong>
                    <span>"Candidates from your searches, verified and deduplicated, with the writing prompt."</span>
                </a>
                <a class="way" id="way-coverage" href="#/coverage">
                    <strong>"Gate a draft"</strong>
                    <span>"Your .tex files against the pool or a .bib: cited / N against the 90 % gate."</span>
                </a>
                <a class="way" id="way-paper" href="#/bibtex">
                    <strong>"Check a paper"</strong>
                    <span>"Its PDF, its .bbl or a pasted reference list: each reference read here, nothing uploaded, then looked up."</span>
                </a>
                <a class="way" id="way-bibtex" href="#/bibtex">
                    <strong>"Check a .bib"</strong>
                    <span>"Any bibliography: format first, then each entry looked up and compared."</span>
                </a>
            </div>
            <h2>"The way through"</h2>
            <ol class="steps" id="workflow">
                {STEPS
                    .iter()
                    .map(|s| view! {
                        <li>
                            <a href=s.href>{s.name}</a>
                            <span class="muted">{s.what}</span>
                        </li>
                    })
                    .collect_view()}
            </ol>
            <p class="muted">
                "Also here: "<a href="#/crosscheck">"Cross-check"</a>" a pool against Crossref and OpenAlex, "
                <a href="#/search">"Search"</a>" three indexes at once, keep a "<a href="#/library">"Library"</a>
                ", and set keys and a contact address in "<a href="#/settings">"Settings"</a>"."
            </p>
        </section>
    }
}
