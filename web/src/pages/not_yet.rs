//! The frame of a page that is not built yet: it says so plainly.

use crate::route::Page;
use leptos::prelude::*;

/// A page that is not built yet.
#[component]
pub fn NotYet(page: Page) -> impl IntoView {
    view! {
        <section>
            <h1>{page.label()}</h1>
            <p class="muted">"This page is not built yet. The command-line tool has its checks: run "<code>"citegate --help"</code>"."</p>
        </section>
    }
}
