//! A drop zone with a file picker. Each file is read as bytes and decoded as
//! UTF-8; a file that cannot be read or decoded is named with the reason, and
//! the good files are still handed on. A dropped folder, a folder chosen with
//! the folder picker, or a `.zip` (an Overleaf project download) gives the
//! files inside it that the zone accepts, each named by its path inside the
//! folder or archive, so a project's `\\input{sections/intro}` resolves.

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
    /// Set when an 8-bit file was read as Latin-1 or Windows-1252 (a zone
    /// that reads `.bib` files as BibTeX does): the warning naming the
    /// encoding, with its line and column.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warning: Option<citegate_core::Error>,
    /// The text is a paper's references (a PDF, a `.bbl`) written as
    /// BibTeX by the core ([`citegate_core::paper::PaperRefs::to_bibtex`]):
    /// its entries are read as parsed references, not as a `.bib` written
    /// by hand.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub paper: bool,
}

/// Whether a file dropped on a zone that takes papers is one, by its name:
/// a `.pdf` or a `.bbl`. A `.bib` holding a PDF's bytes is read as text and
/// refused as not text, as before (a paper is never guessed from bytes).
fn is_paper(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    [".pdf", ".bbl", ".txt", ".md"]
        .iter()
        .any(|ext| lower.ends_with(ext))
}

/// What a paste is: a file the page checks, or an arXiv paper to fetch
/// through the relay.
#[derive(Debug, Clone, PartialEq)]
pub enum Pasted {
    /// BibTeX as it is, or a reference list read by the core.
    File(LoadedFile),
    /// A lone arXiv id or link, with a relay to fetch its source through.
    Arxiv(citegate_core::ids::ArxivId),
}

/// What was pasted, as the page takes it: BibTeX as it is, a reference
/// list through the core's reader (one reference per numbered item or
/// paragraph). A lone arXiv id names a paper: fetched through the relay
/// when there is one (`relayed`); without, no page can fetch it (arXiv
/// sends no CORS headers) and the error says where its PDF is.
pub fn read_pasted(text: &str, relayed: bool) -> Result<Pasted, String> {
    if let Some(id) = citegate_core::paper::pasted_arxiv(text) {
        if relayed {
            return Ok(Pasted::Arxiv(id));
        }
        let id = id.as_str();
        return Err(format!(
            "arXiv:{id} names a paper, and arXiv's files cannot be fetched by a web page (arXiv sends no CORS headers): download https://arxiv.org/pdf/{id} and drop the PDF here, open the app through citegate relay (?relay=), or run `citegate check arXiv:{id}`"
        ));
    }
    if text.trim().is_empty() {
        return Err("nothing was pasted".to_string());
    }
    if text.trim_start().starts_with('@') {
        return Ok(Pasted::File(LoadedFile {
            name: "pasted.bib".to_string(),
            text: text.to_string(),
            warning: None,
            paper: false,
        }));
    }
    read_paper("pasted references.txt", text.as_bytes()).map(Pasted::File)
}

/// A paper's references through the core's reader, as BibTeX text; the
/// error names the file and says what the reader found (a scan, an
/// encrypted or damaged PDF, no bibliography).
pub fn read_paper(name: &str, bytes: &[u8]) -> Result<LoadedFile, String> {
    match citegate_core::paper::read_any(name, bytes) {
        Ok(refs) if refs.references.is_empty() => Err(format!(
            "{name} was not loaded: no references were found in it"
        )),
        Ok(refs) => Ok(LoadedFile {
            name: name.to_string(),
            text: refs.to_bibtex(),
            warning: None,
            paper: true,
        }),
        Err(e) => Err(format!("{name} was not loaded: {}", e.message)),
    }
}

/// Decodes file bytes as UTF-8 through the core's [`text::decode`] (a
/// leading byte-order mark is dropped); the error names the file and says
/// in plain words what it is instead (UTF-16, a zip archive, binary).
pub fn decode_text(name: &str, bytes: &[u8]) -> Result<LoadedFile, String> {
    match text::decode(bytes) {
        Ok(t) => Ok(LoadedFile {
            name: name.to_string(),
            text: t.to_string(),
            warning: None,
            paper: false,
        }),
        // What the file is, in plain words (the located error speaks of
        // byte offsets, which tell a person nothing).
        Err(e) => Err(match text::in_plain_words(bytes) {
            Some(words) => format!("{name} was not loaded: {words}"),
            None => format!("{name} was not loaded: {}", e.message),
        }),
    }
}

/// [`decode_text`], except that 8-bit text is read as Latin-1 or
/// Windows-1252 (as BibTeX reads a `.bib`) with the core's warning kept on
/// the file instead of refused.
pub fn decode_text_8bit(name: &str, bytes: &[u8]) -> Result<LoadedFile, String> {
    match text::decode_or_8bit(bytes) {
        Ok((t, warning)) => Ok(LoadedFile {
            name: name.to_string(),
            text: t.into_owned(),
            warning: warning.map(|mut w| {
                w.location.file = Some(name.to_string());
                w.location.index = None;
                w
            }),
            paper: false,
        }),
        Err(_) => decode_text(name, bytes),
    }
}

/// Whether `name` ends in one of the extensions of an `accept` list
/// (`".tex,.bib"`); an empty list accepts everything.
fn accepted(name: &str, accept: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    accept.trim().is_empty()
        || accept
            .split(',')
            .map(str::trim)
            .any(|ext| !ext.is_empty() && lower.ends_with(&ext.to_ascii_lowercase()))
}

/// The files of a dropped `.zip` (an Overleaf project download) that the
/// zone accepts, named by their path inside the archive; the others are
/// passed over silently (figures, PDFs, class files).
fn unpack(name: &str, bytes: &[u8], accept: &str) -> (Vec<LoadedFile>, Vec<String>) {
    match citegate_core::archive::unzip(bytes) {
        Ok(files) => {
            let (mut ok, mut bad) = (Vec::new(), Vec::new());
            for (path, body) in files.into_iter().filter(|(p, _)| accepted(p, accept)) {
                match decode_text(&path, &body) {
                    Ok(f) => ok.push(f),
                    Err(e) => bad.push(format!("{name}: {e}")),
                }
            }
            if ok.is_empty() && bad.is_empty() {
                bad.push(format!("{name}: the archive holds no {accept} file"));
            }
            (ok, bad)
        }
        Err(e) => (Vec::new(), vec![format!("{name}: {}", e.message)]),
    }
}

/// Reads one file, named `path` (its path inside a dropped folder, else its
/// name); a zip archive gives the accepted files inside it.
async fn read_file(
    file: web_sys::File,
    path: String,
    accept: &str,
    eight_bit: bool,
    papers: bool,
) -> (Vec<LoadedFile>, Vec<String>) {
    let buf = match JsFuture::from(file.array_buffer()).await {
        Ok(b) => b,
        Err(e) => {
            return (
                Vec::new(),
                vec![format!("{path}: the browser could not read it ({e:?})")],
            )
        }
    };
    let bytes = js_sys::Uint8Array::new(&buf).to_vec();
    if citegate_core::archive::is_zip(&bytes) && path.to_ascii_lowercase().ends_with(".zip") {
        return unpack(&path, &bytes, accept);
    }
    let decoded = if papers && is_paper(&path) {
        read_paper(&path, &bytes)
    } else if eight_bit {
        decode_text_8bit(&path, &bytes)
    } else {
        decode_text(&path, &bytes)
    };
    match decoded {
        Ok(f) => (vec![f], Vec::new()),
        Err(e) => (Vec::new(), vec![e]),
    }
}

/// The path a picked file had inside the folder chosen with the folder
/// picker (`webkitRelativePath`), without the folder's own name; else its
/// name.
fn picked_path(file: &web_sys::File) -> String {
    let rel = js_sys::Reflect::get(file, &"webkitRelativePath".into())
        .ok()
        .and_then(|v| v.as_string())
        .unwrap_or_default();
    match rel.split_once('/') {
        Some((_, inner)) if !inner.is_empty() => inner.to_string(),
        _ => file.name(),
    }
}

async fn read_all(
    files: Vec<(web_sys::File, String)>,
    accept: &str,
    eight_bit: bool,
    papers: bool,
) -> (Vec<LoadedFile>, Vec<String>) {
    let mut ok = Vec::new();
    let mut bad = Vec::new();
    for (f, path) in files {
        let (o, b) = read_file(f, path, accept, eight_bit, papers).await;
        ok.extend(o);
        bad.extend(b);
    }
    (ok, bad)
}

/// Calls `f` with a callback and waits for the value it is called with.
async fn callback_value(f: impl FnOnce(&js_sys::Function)) -> Option<wasm_bindgen::JsValue> {
    let mut f = Some(f);
    let promise = js_sys::Promise::new(&mut |resolve, _reject| {
        if let Some(f) = f.take() {
            f(&resolve);
        }
    });
    JsFuture::from(promise).await.ok()
}

/// Every file below a dropped entry, with its path relative to the folder
/// that was dropped (a dropped folder's own name is left off, as the folder
/// picker does).
async fn entry_files(root: web_sys::FileSystemEntry) -> Vec<(web_sys::File, String)> {
    let mut out = Vec::new();
    // (entry, path so far): an explicit stack, folders can be deep.
    let mut stack = vec![(root, String::new())];
    let mut is_root = true;
    while let Some((entry, prefix)) = stack.pop() {
        let is_root = std::mem::replace(&mut is_root, false);
        if entry.is_file() {
            let fe: web_sys::FileSystemFileEntry = entry.clone().unchecked_into();
            if let Some(file) = callback_value(|cb| fe.file_with_callback(cb)).await {
                let path = if prefix.is_empty() {
                    entry.name()
                } else {
                    format!("{prefix}{}", entry.name())
                };
                out.push((file.unchecked_into::<web_sys::File>(), path));
            }
        } else if entry.is_directory() {
            let dir: web_sys::FileSystemDirectoryEntry = entry.clone().unchecked_into();
            let reader = dir.create_reader();
            let inner = if is_root {
                // The dropped folder itself: its children are at the top.
                String::new()
            } else {
                format!("{prefix}{}/", entry.name())
            };
            // readEntries hands out a batch at a time until an empty one.
            loop {
                let Some(batch) = callback_value(|cb| {
                    let _ = reader.read_entries_with_callback(cb);
                })
                .await
                else {
                    break;
                };
                let batch: js_sys::Array = batch.unchecked_into();
                if batch.length() == 0 {
                    break;
                }
                for child in batch.iter() {
                    stack.push((child.unchecked_into(), inner.clone()));
                }
            }
        }
    }
    out.sort_by(|a, b| a.1.cmp(&b.1));
    out
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
    /// Whether a whole folder may be chosen (paths inside it are kept, so
    /// `\\input{sections/intro}` resolves); dropping a folder or a `.zip`
    /// works on every zone.
    #[prop(default = false)]
    folders: bool,
    /// Whether 8-bit text is read as Latin-1 or Windows-1252 with a warning
    /// (a `.bib`, as BibTeX reads it) instead of refused.
    #[prop(default = false)]
    eight_bit: bool,
    /// Whether a paper (a PDF, a `.bbl`) is read into its references
    /// ([`read_paper`]) rather than as text.
    #[prop(default = false)]
    papers: bool,
    /// Called with the files read.
    #[prop(into)]
    on_files: Callback<Vec<LoadedFile>>,
) -> impl IntoView {
    let over = RwSignal::new(false);
    let failed = RwSignal::new(Vec::<String>::new());
    let deliver = move |files: Vec<(web_sys::File, String)>| {
        leptos::task::spawn_local(async move {
            let (ok, bad) = read_all(files, accept, eight_bit, papers).await;
            failed.set(bad);
            if !ok.is_empty() {
                on_files.run(ok);
            }
        });
    };
    let take = move |list: Option<web_sys::FileList>| {
        let Some(list) = list else { return };
        // A FileList is live: take the files out before the input is reset.
        let files: Vec<(web_sys::File, String)> = (0..list.length())
            .filter_map(|i| list.item(i))
            .map(|f| {
                let p = picked_path(&f);
                (f, p)
            })
            .collect();
        deliver(files);
    };
    let on_drop = move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        over.set(false);
        let Some(dt) = ev.data_transfer() else { return };
        // Entries must be taken during the event; folders are read after it.
        let items = dt.items();
        let entries: Vec<web_sys::FileSystemEntry> = (0..items.length())
            .filter_map(|i| items.get(i))
            .filter_map(|item| item.webkit_get_as_entry().ok().flatten())
            .collect();
        if entries.iter().any(|e| e.is_directory()) {
            leptos::task::spawn_local(async move {
                let mut files = Vec::new();
                for e in entries {
                    files.extend(entry_files(e).await);
                }
                deliver(files);
            });
        } else {
            take(dt.files());
        }
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
    let folder_id = format!("{id}-folder");
    // `webkitdirectory` turns the second picker into a folder picker; the
    // view macro knows no such attribute, so it is set on the element.
    let folder_input = NodeRef::<leptos::html::Input>::new();
    Effect::new(move |_| {
        if let Some(el) = folder_input.get() {
            let _ = el.set_attribute("webkitdirectory", "");
        }
    });
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
            {folders.then(|| view! {
                <label class="folder-pick" for=folder_id.clone()>"or a whole folder…"</label>
                <input id=folder_id class="file-input" type="file" multiple=true on:change=on_change node_ref=folder_input />
            })}
            <ul class="file-errors" role="alert">
                {move || failed.get().into_iter().map(|e| view! { <li class="error-text">{e}</li> }).collect_view()}
            </ul>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_pasted(text: &str, relayed: bool, expected: Result<&str, &str>) {
        let got = read_pasted(text, relayed);
        let said = match &got {
            Ok(Pasted::File(f)) => {
                assert!(f.text.contains('@'), "{}", f.text);
                Ok(format!("{} paper={}", f.name, f.paper))
            }
            Ok(Pasted::Arxiv(id)) => Ok(format!("fetch arXiv:{}", id.as_str())),
            Err(e) => Err(e.clone()),
        };
        match (said, expected) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "{text:?}"),
            (Err(e), Err(starts)) => assert!(e.starts_with(starts), "{e}"),
            (got, want) => panic!("{text:?}: {got:?} against {want:?}"),
        }
    }

    #[test]
    fn a_paste_is_checked_as_a_list_as_bibtex_or_named_as_an_arxiv_paper() {
        let list = "[1] A. Vaswani, N. Shazeer. Attention is all you need. In NeurIPS, 2017.\n[2] K. He, X. Zhang. Deep residual learning for image recognition. In CVPR, 2016.";
        check_pasted(list, false, Ok("pasted references.txt paper=true"));
        check_pasted(
            "@article{k, title = {T}}",
            false,
            Ok("pasted.bib paper=false"),
        );
        check_pasted(
            "arXiv:2401.12345",
            false,
            Err("arXiv:2401.12345 names a paper"),
        );
        check_pasted(
            "https://arxiv.org/abs/1706.03762v2",
            false,
            Err("arXiv:1706.03762 names a paper"),
        );
        // Behind a relay the page fetches it.
        check_pasted(
            "https://arxiv.org/abs/1706.03762v2",
            true,
            Ok("fetch arXiv:1706.03762"),
        );
        check_pasted(list, true, Ok("pasted references.txt paper=true"));
        check_pasted("   \n ", false, Err("nothing was pasted"));
    }

    #[test]
    fn papers_are_told_by_their_names() {
        for (name, paper) in [
            ("a.pdf", true),
            ("A.BBL", true),
            ("refs.txt", true),
            ("refs.md", true),
            ("refs.bib", false),
            ("scan.bib", false),
        ] {
            assert_eq!(is_paper(name), paper, "{name}");
        }
    }
}
