//! Status banners, a plain text table, and a yield to the event loop for
//! long loops that must not freeze the page.

use leptos::prelude::*;

/// How a banner reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BannerKind {
    /// Everything worked.
    Ok,
    /// Some of it worked; the banner says what did not.
    Partial,
    /// Nothing usable came back.
    Error,
    /// Neutral information.
    Info,
}

impl BannerKind {
    fn class(self) -> &'static str {
        match self {
            BannerKind::Ok => "banner ok",
            BannerKind::Partial => "banner partial",
            BannerKind::Error => "banner error",
            BannerKind::Info => "banner",
        }
    }
}

/// A status banner: its kind sets the colour, the text is shown as text.
#[component]
pub fn Banner(
    /// Element id.
    id: &'static str,
    /// The kind.
    #[prop(into)]
    kind: Signal<BannerKind>,
    /// The message; nothing is shown while it is empty.
    #[prop(into)]
    text: Signal<String>,
) -> impl IntoView {
    view! {
        <Show when=move || text.with(|t| !t.is_empty())>
            <div id=id class=move || kind.get().class() role="status">{move || text.get()}</div>
        </Show>
    }
}

/// A table of text cells.
#[component]
pub fn TextTable(
    /// Element id of the `<table>`.
    id: &'static str,
    /// Column headings.
    headers: Vec<&'static str>,
    /// The rows, each a list of cells.
    #[prop(into)]
    rows: Signal<Vec<Vec<String>>>,
) -> impl IntoView {
    view! {
        <div class="table-wrap">
            <table id=id class="cards">
                <thead>
                    <tr>{headers.iter().map(|h| view! { <th>{*h}</th> }).collect_view()}</tr>
                </thead>
                <tbody>
                    {move || {
                        rows.get()
                            .into_iter()
                            .map(|r| view! {
                                <tr>
                                    {r.into_iter()
                                        .zip(headers.iter().copied().chain(std::iter::repeat("")))
                                        .map(|(c, h)| view! { <td data-label=h>{c}</td> })
                                        .collect_view()}
                                </tr>
                            })
                            .collect_view()
                    }}
                </tbody>
            </table>
        </div>
    }
}

/// Lets the browser paint and handle input before the next chunk of work.
pub async fn yield_now() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let _ = window().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// How long one slice of work may hold the page before it yields to the
/// browser (ms): short enough that typing and clicks stay smooth, long
/// enough that a 50 MB file or 10,000 candidates are not slowed by the
/// yields.
pub const SLICE_MS: f64 = 30.0;

/// Runs `step` until it reports done or one slice of [`SLICE_MS`] is used;
/// `true` when done. Callers `yield_now().await` between slices.
pub fn slice(mut step: impl FnMut() -> bool) -> bool {
    let t0 = crate::services::clock::perf_now();
    loop {
        if step() {
            return true;
        }
        if crate::services::clock::perf_now() - t0 >= SLICE_MS {
            return false;
        }
    }
}
