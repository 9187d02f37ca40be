//! One banner, below the navigation, while any of the person's work could
//! not be stored in the browser: what was not saved, why, and how to free
//! space, with a link to Settings. The words come from
//! [`crate::services::unsaved::banner_text`]; the page's work is untouched.

use crate::services::unsaved::{banner_text, Unsaved};
use leptos::prelude::*;

/// The banner for `unsaved`; empty while every write has gone through.
#[component]
pub fn UnsavedBanner(unsaved: Unsaved) -> impl IntoView {
    move || {
        let text = banner_text(&unsaved.list());
        (!text.is_empty()).then(|| {
            view! {
                <div class="banner error" id="unsaved-banner" role="alert">
                    <span>{text}</span>
                    " "
                    <a href="#/settings">"Open Settings"</a>
                </div>
            }
        })
    }
}
