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
            <table id=id>
                <thead>
                    <tr>{headers.into_iter().map(|h| view! { <th>{h}</th> }).collect_view()}</tr>
                </thead>
                <tbody>
                    {move || {
                        rows.get()
                            .into_iter()
                            .map(|r| view! { <tr>{r.into_iter().map(|c| view! { <td>{c}</td> }).collect_view()}</tr> })
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
