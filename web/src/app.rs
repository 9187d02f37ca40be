//! The app's frame: header, navigation and the current page.

use crate::pages;
use crate::route::Page;
use leptos::prelude::*;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

fn current_fragment() -> String {
    window().location().hash().unwrap_or_default()
}

/// The root of the app.
#[component]
pub fn App() -> impl IntoView {
    let (page, set_page) = signal(Page::from_fragment(&current_fragment()));
    // Follow the fragment: links, back/forward and typed URLs all land here.
    let on_hash =
        Closure::<dyn Fn()>::new(move || set_page.set(Page::from_fragment(&current_fragment())));
    let _ =
        window().add_event_listener_with_callback("hashchange", on_hash.as_ref().unchecked_ref());
    on_hash.forget();

    view! {
        <div class="shell">
            <header class="top">
                <a class="brand" href="#/match">"citegate"</a>
                <span class="tagline">"check a paper's citations before you submit it"</span>
            </header>
            <nav class="nav" aria-label="pages">
                {Page::ALL
                    .into_iter()
                    .map(|p| {
                        view! {
                            <a
                                href=format!("#{}", p.path())
                                class:active=move || page.get() == p
                                aria-current=move || (page.get() == p).then_some("page")
                            >
                                {p.label()}
                            </a>
                        }
                    })
                    .collect_view()}
            </nav>
            <main class="page">
                {move || match page.get() {
                    Page::TitleMatch => pages::title_match::TitleMatchPage().into_any(),
                    other => pages::not_yet::NotYet(pages::not_yet::NotYetProps { page: other }).into_any(),
                }}
            </main>
        </div>
    }
}
