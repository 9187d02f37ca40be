//! Downloads (a Blob behind an object URL) and copy-to-clipboard.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Offers `text` as a file named `name`; returns an error sentence on failure.
pub fn download(name: &str, mime: &str, text: &str) -> Result<(), String> {
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts)
        .map_err(|_| "the browser could not build the file".to_string())?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)
        .map_err(|_| "the browser could not offer the file".to_string())?;
    let a = document()
        .create_element("a")
        .ok()
        .and_then(|e| e.dyn_into::<web_sys::HtmlAnchorElement>().ok())
        .ok_or_else(|| "the browser could not offer the file".to_string())?;
    a.set_href(&url);
    a.set_download(name);
    a.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}

/// A button that downloads `content()` as `filename`.
#[component]
pub fn DownloadButton(
    /// Element id.
    id: &'static str,
    /// Button text.
    label: &'static str,
    /// The file name offered.
    #[prop(into)]
    filename: Signal<String>,
    /// The MIME type.
    #[prop(default = "text/plain;charset=utf-8")]
    mime: &'static str,
    /// The content; the button is disabled while it is empty.
    #[prop(into)]
    content: Signal<String>,
    /// When given, enables the button instead of a non-empty `content`, so
    /// a large content is only built when the button is clicked.
    #[prop(optional, into)]
    enabled: Option<Signal<bool>>,
) -> impl IntoView {
    let error = RwSignal::new(String::new());
    view! {
        <button
            type="button"
            class="secondary"
            id=id
            disabled=move || match enabled {
                Some(e) => !e.get(),
                None => content.with(|c| c.is_empty()),
            }
            on:click=move |_| {
                error.set(download(&filename.get(), mime, &content.get()).err().unwrap_or_default())
            }
        >
            {label}
        </button>
        <span class="error-text">{move || error.get()}</span>
    }
}

/// A button that copies `text()` to the clipboard and says whether it did.
#[component]
pub fn CopyButton(
    /// Element id.
    id: &'static str,
    /// Button text.
    label: &'static str,
    /// What to copy; the button is disabled while it is empty.
    #[prop(into)]
    text: Signal<String>,
) -> impl IntoView {
    let state = RwSignal::new("");
    let copy = move |_| {
        let value = text.get();
        let promise = window().navigator().clipboard().write_text(&value);
        leptos::task::spawn_local(async move {
            let ok = wasm_bindgen_futures::JsFuture::from(promise).await.is_ok();
            state.set(if ok {
                "copied"
            } else {
                "the browser refused the clipboard; select the text and copy it"
            });
        });
    };
    view! {
        <button type="button" class="secondary" id=id disabled=move || text.with(|t| t.is_empty()) on:click=copy>
            {label}
        </button>
        <span class="muted copy-state">{move || state.get()}</span>
    }
}
