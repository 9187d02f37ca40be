//! A drop zone with a file picker. Each file is read as bytes and decoded as
//! UTF-8; a file that cannot be read or decoded is named with the reason, and
//! the good files are still handed on.

use citegate_core::text;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// A file read as text.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LoadedFile {
    /// The file's name as the browser gives it.
    pub name: String,
    /// Its content.
    pub text: String,
}

/// Decodes file bytes as UTF-8 through the core's [`text::decode`] (a
/// leading byte-order mark is dropped); the error names the file, the line
/// and byte, and what the file is instead (UTF-16, a zip archive, binary).
pub fn decode_text(name: &str, bytes: &[u8]) -> Result<LoadedFile, String> {
    match text::decode(bytes) {
        Ok(t) => Ok(LoadedFile {
            name: name.to_string(),
            text: t.to_string(),
        }),
        Err(mut e) => {
            // "name:line: what"; the byte offset is in the message already.
            e.location.file = Some(name.to_string());
            e.location.index = None;
            Err(e.to_string())
        }
    }
}

async fn read_file(file: web_sys::File) -> Result<LoadedFile, String> {
    let name = file.name();
    let buf = JsFuture::from(file.array_buffer())
        .await
        .map_err(|e| format!("{name}: the browser could not read it ({e:?})"))?;
    let bytes = js_sys::Uint8Array::new(&buf).to_vec();
    decode_text(&name, &bytes)
}

async fn read_all(files: Vec<web_sys::File>) -> (Vec<LoadedFile>, Vec<String>) {
    let mut ok = Vec::new();
    let mut bad = Vec::new();
    for f in files {
        match read_file(f).await {
            Ok(x) => ok.push(x),
            Err(e) => bad.push(e),
        }
    }
    (ok, bad)
}

/// A drop zone and a file picker. `on_files` gets the files that were read;
/// the ones that could not be read are listed under the zone.
#[component]
pub fn FileDrop(
    /// The element id of the `<input type=file>` (tests set files on it).
    id: &'static str,
    /// What to drop, e.g. "Drop .tex files here".
    label: &'static str,
    /// The `accept` attribute, e.g. ".tex,.bib".
    #[prop(default = "")]
    accept: &'static str,
    /// Whether several files may be chosen.
    #[prop(default = false)]
    multiple: bool,
    /// Called with the files read.
    #[prop(into)]
    on_files: Callback<Vec<LoadedFile>>,
) -> impl IntoView {
    let over = RwSignal::new(false);
    let failed = RwSignal::new(Vec::<String>::new());
    let take = move |list: Option<web_sys::FileList>| {
        let Some(list) = list else { return };
        // A FileList is live: take the files out before the input is reset.
        let files: Vec<web_sys::File> = (0..list.length()).filter_map(|i| list.item(i)).collect();
        leptos::task::spawn_local(async move {
            let (ok, bad) = read_all(files).await;
            failed.set(bad);
            if !ok.is_empty() {
                on_files.run(ok);
            }
        });
    };
    let on_drop = move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        over.set(false);
        take(ev.data_transfer().and_then(|d| d.files()));
    };
    let on_change = move |ev: leptos::ev::Event| {
        let input = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok());
        if let Some(input) = input {
            take(input.files());
            // Choosing the same file again must fire `change` again.
            input.set_value("");
        }
    };
    view! {
        <div
            class="dropzone"
            class:over=move || over.get()
            on:dragover=move |ev: web_sys::DragEvent| {
                ev.prevent_default();
                over.set(true);
            }
            on:dragleave=move |_| over.set(false)
            on:drop=on_drop
        >
            <label for=id>{label}" — or "<span class="linkish">"choose…"</span></label>
            <input id=id class="file-input" type="file" accept=accept multiple=multiple on:change=on_change />
            <ul class="file-errors" role="alert">
                {move || failed.get().into_iter().map(|e| view! { <li class="error-text">{e}</li> }).collect_view()}
            </ul>
        </div>
    }
}
