//! The app's root component.
use leptos::prelude::*;

/// The root of the app.
#[component]
pub fn App() -> impl IntoView {
    view! { <p>"citegate"</p> }
}
