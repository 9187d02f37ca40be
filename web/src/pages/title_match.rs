//! "Title match": the verifier's title rule, live.

use citegate_core::title;
use leptos::prelude::*;

const EXAMPLE_CANDIDATE: &str = "Linformer";
const EXAMPLE_FOUND: &str = "Linformer: Self-Attention with Linear Complexity";

/// Two titles in, the score, the verdict and the normalized forms out.
#[component]
pub fn TitleMatchPage() -> impl IntoView {
    let (candidate, set_candidate) = signal(String::new());
    let (found, set_found) = signal(String::new());
    let (bypass, set_bypass) = signal(false);
    let (threshold, set_threshold) = signal(title::DEFAULT_THRESHOLD);
    let result = Memo::new(move |_| {
        title::match_titles(
            &candidate.get(),
            &found.get(),
            bypass.get(),
            threshold.get(),
        )
    });

    let load_example = move |_| {
        set_candidate.set(EXAMPLE_CANDIDATE.to_string());
        set_found.set(EXAMPLE_FOUND.to_string());
        set_bypass.set(true);
    };

    view! {
        <section class="title-match">
            <h1>"Title match"</h1>
            <p class="muted">
                "A candidate is kept only when its title scores strictly above the threshold against the title the index returns. "
                "The score is python-Levenshtein's ratio of the normalized titles, rounded half to even."
            </p>
            <div class="toolbar">
                <button type="button" id="load-example" on:click=load_example>"Load example"</button>
            </div>
            <div class="form-grid">
                <label for="candidate">"Candidate title"</label>
                <input
                    id="candidate"
                    type="text"
                    placeholder="the title from your search"
                    prop:value=move || candidate.get()
                    on:input=move |ev| set_candidate.set(event_target_value(&ev))
                />
                <label for="found">"Found title"</label>
                <input
                    id="found"
                    type="text"
                    placeholder="the title Semantic Scholar returned"
                    prop:value=move || found.get()
                    on:input=move |ev| set_found.set(event_target_value(&ev))
                />
                <label for="threshold">"Threshold"</label>
                <input
                    id="threshold"
                    type="number"
                    min="0"
                    max="100"
                    prop:value=move || threshold.get().to_string()
                    on:input=move |ev| {
                        if let Ok(t) = event_target_value(&ev).trim().parse::<i64>() {
                            set_threshold.set(t);
                        }
                    }
                />
                <label for="bypass">"Substring bypass"</label>
                <span>
                    <input
                        id="bypass"
                        type="checkbox"
                        prop:checked=move || bypass.get()
                        on:change=move |ev| set_bypass.set(event_target_checked(&ev))
                    />
                    <span class="muted">" a candidate of fewer than 4 words contained in the found title scores at least 95"</span>
                </span>
            </div>
            <div class="result" aria-live="polite">
                <div class="score-line">
                    <span class="score" id="score">{move || result.get().score}</span>
                    <span
                        id="verdict"
                        class=move || if result.get().pass { "badge pass" } else { "badge fail" }
                    >
                        {move || if result.get().pass { "PASS" } else { "FAIL" }}
                    </span>
                    <span class="muted">
                        {move || format!("ratio {:.4} · passes iff score > {}", result.get().ratio, result.get().threshold)}
                    </span>
                </div>
                <dl class="normalized">
                    <dt>"candidate, normalized"</dt>
                    <dd><code id="norm-candidate">{move || result.get().candidate_normalized}</code></dd>
                    <dt>"found, normalized"</dt>
                    <dd><code id="norm-found">{move || result.get().found_normalized}</code></dd>
                </dl>
            </div>
        </section>
    }
}
