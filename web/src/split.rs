//! The app in two modules, so that the first load stays small.
//!
//! index.html loads the start module (bin `citegate-start`): the frame, the
//! Start page and Title match, without the browser services, the engines or
//! the other pages. The whole app (bin `citegate-web`, every page) is a
//! second module that Trunk builds but does not load (`data-type="worker"`,
//! as an ES module); `scripts/app-module.sh` names its two files by their
//! content hash and writes them into the page's `<meta name="citegate-app">`.
//!
//! When a page outside the start module is opened, the start module fetches
//! the whole app, unmounts itself and starts it; the whole app then draws
//! the page the address names, and stays. Pointing at or focusing a link to
//! such a page fetches the two files ahead (nothing of them runs until the
//! page is opened), so the wait after the click is mostly the start.

use crate::app::{follow_fragment, Frame};
use crate::pages;
use crate::route::Page;
use leptos::prelude::*;
use std::cell::{Cell, RefCell};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen(module = "/src/split.js")]
extern "C" {
    fn prefetch_app(js: &str, wasm: &str);
    #[wasm_bindgen(catch)]
    fn fetch_app(js: &str, wasm: &str) -> Result<js_sys::Promise, JsValue>;
    #[wasm_bindgen(catch)]
    fn start_app(loaded: &JsValue) -> Result<js_sys::Promise, JsValue>;
}

/// The whole app's two files, read from the `content` of the page's
/// `<meta name="citegate-app">`: the loader script, then the wasm.
pub fn whole_app_files(content: &str) -> Result<(String, String), String> {
    let mut parts = content.split_whitespace();
    match (parts.next(), parts.next(), parts.next()) {
        (Some(js), Some(wasm), None) if js.ends_with(".js") && wasm.ends_with(".wasm") => {
            Ok((js.to_string(), wasm.to_string()))
        }
        _ => Err(format!(
            "the page's citegate-app meta names no loader and wasm: {content:?}"
        )),
    }
}

fn page_files() -> Result<(String, String), String> {
    let content = document()
        .query_selector("meta[name=citegate-app]")
        .ok()
        .flatten()
        .and_then(|m| m.get_attribute("content"))
        .unwrap_or_default();
    whole_app_files(&content)
}

fn describe(e: JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| format!("{e:?}"))
}

thread_local! {
    /// The start module's mounted frame, dropped (unmounted) at the handover.
    static MOUNTED: RefCell<Option<Box<dyn std::any::Any>>> = const { RefCell::new(None) };
    static HANDING_OVER: Cell<bool> = const { Cell::new(false) };
}

/// The start module's entry point: draws the frame and the page. For a
/// page of the whole app the frame holds the page's name and a progress
/// bar while the whole app arrives (the page's inline script has been
/// fetching it since the HTML arrived), so a slow link shows where it is
/// going at once rather than a blank page.
pub fn start() {
    mount();
}

fn mount() {
    let Some(body) = document().body() else {
        web_sys::console::error_1(&"citegate: the page has no body".into());
        return;
    };
    let mounted = leptos::mount::mount_to(body, move || view! { <StartApp /> });
    MOUNTED.with(|m| *m.borrow_mut() = Some(Box::new(mounted)));
}

async fn fetch_whole_app() -> Result<JsValue, String> {
    let (js, wasm) = page_files()?;
    let promise = fetch_app(&js, &wasm).map_err(describe)?;
    JsFuture::from(promise).await.map_err(describe)
}

/// Fetches the whole app, then gives it the page; a failed fetch or start
/// comes back (the start module stays). Only one runs at a time.
///
/// The start module's frame stays up until the whole app has drawn its own:
/// the whole app mounts synchronously inside `start_app`, and the start
/// module's nodes go in the microtask after, before the browser paints, so
/// the page is never blank between the two.
async fn hand_over() -> Result<(), String> {
    if HANDING_OVER.with(|h| h.replace(true)) {
        return Ok(());
    }
    let started = match fetch_whole_app().await {
        Ok(loaded) => match start_app(&loaded) {
            Ok(promise) => JsFuture::from(promise)
                .await
                .map(|_| ())
                .map_err(|e| format!("it could not start: {}; reload the page", describe(e))),
            Err(e) => Err(format!(
                "it could not start: {}; reload the page",
                describe(e)
            )),
        },
        Err(e) => Err(e),
    };
    if let Err(e) = started {
        HANDING_OVER.with(|h| h.set(false));
        return Err(e);
    }
    // The start module leaves the page: its nodes, effects and listeners go.
    let mounted = MOUNTED.with(|m| m.borrow_mut().take());
    drop(mounted);
    Ok(())
}

/// Hands over, showing a failed fetch in the start module's frame.
async fn hand_over_showing(failed: RwSignal<Option<String>>) {
    if let Err(e) = hand_over().await {
        failed.set(Some(e));
    }
}

/// The page a link under the event's target points to, if any.
fn linked_page(ev: &web_sys::Event) -> Option<Page> {
    let element = ev.target()?.dyn_into::<web_sys::Element>().ok()?;
    let link = element.closest("a[href^='#']").ok()??;
    Some(Page::from_fragment(&link.get_attribute("href")?))
}

/// Fetches the whole app ahead when a link to one of its pages is pointed
/// at or focused; the listeners go with the start module.
fn prefetch_on_intent() {
    let intent = |ev: web_sys::Event| {
        if linked_page(&ev).is_some_and(|p| !p.in_start_module()) {
            if let Ok((js, wasm)) = page_files() {
                prefetch_app(&js, &wasm);
            }
        }
    };
    let over = window_event_listener(leptos::ev::pointerover, move |ev| intent(ev.into()));
    let focus = window_event_listener(leptos::ev::focusin, move |ev| intent(ev.into()));
    on_cleanup(move || {
        over.remove();
        focus.remove();
    });
}

/// The start module's root: the frame with Start or Title match, or, for
/// any other page, its name and a progress bar while the whole app loads,
/// and why, when it could not.
#[component]
fn StartApp() -> impl IntoView {
    let page = follow_fragment();
    let failed: RwSignal<Option<String>> = RwSignal::new(None);
    prefetch_on_intent();
    let retry = move |_| {
        failed.set(None);
        leptos::task::spawn_local(hand_over_showing(failed));
    };
    view! {
        <Frame page=page>
            {move || match page.get() {
                Page::Start => pages::start::StartPage().into_any(),
                Page::TitleMatch => pages::title_match::TitleMatchPage().into_any(),
                _ => {
                    if failed.get_untracked().is_none() {
                        leptos::task::spawn_local(hand_over_showing(failed));
                    }
                    view! {
                        {move || match failed.get() {
                            None => view! {
                                // Not an h1: the whole app's page brings that, and
                                // its arrival is what "the page is ready" means.
                                <div class="app-loading" id="app-loading" role="status">
                                    <p class="page-title" id="app-loading-title">{page.get_untracked().label()}</p>
                                    <progress aria-label="loading the page"></progress>
                                    <p class="muted">"Loading the rest of citegate: a few seconds on a slow link the first time, at once after that (the browser keeps it)."</p>
                                </div>
                            }.into_any(),
                            Some(e) => view! {
                                <div class="banner error" id="app-load-error" role="alert">
                                    "The rest of citegate could not be loaded (" {e} "). Check the connection, then "
                                    <button type="button" id="app-load-retry" on:click=retry>"try again"</button>
                                    "."
                                </div>
                            }.into_any(),
                        }}
                    }
                    .into_any()
                }
            }}
        </Frame>
    }
}

#[cfg(test)]
mod tests {
    use super::whole_app_files;

    fn check(content: &str, expected: Option<(&str, &str)>) {
        let got = whole_app_files(content).ok();
        let want = expected.map(|(j, w)| (j.to_string(), w.to_string()));
        assert_eq!(got, want, "{content:?}");
    }

    #[test]
    fn the_meta_names_a_loader_then_a_wasm() {
        check(
            "citegate-web-0123abcd.js citegate-web-0123abcd_bg.wasm",
            Some(("citegate-web-0123abcd.js", "citegate-web-0123abcd_bg.wasm")),
        );
        check("  a.js\n b_bg.wasm ", Some(("a.js", "b_bg.wasm")));
        check("", None);
        check("citegate-web.js", None);
        check("citegate-web_bg.wasm citegate-web.js", None);
        check("a.js b.wasm c.js", None);
    }
}
