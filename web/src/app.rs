//! The app's frame: header, navigation and the current page.

use crate::pages;
use crate::route::Page;
use crate::services::settings::Settings;
use crate::services::Services;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

pub(crate) fn current_fragment() -> String {
    window().location().hash().unwrap_or_default()
}

/// One query parameter of the page URL (`?api=…&s2_interval=…`), decoded.
fn query_param(name: &str) -> Option<String> {
    let search = window().location().search().ok()?;
    search.trim_start_matches('?').split('&').find_map(|pair| {
        let (k, v) = pair.split_once('=')?;
        if k != name {
            return None;
        }
        js_sys::decode_uri_component(v)
            .ok()
            .and_then(|v| v.as_string())
    })
}

/// Applies `?api=BASE` (every service under one base: `BASE/s2`,
/// `BASE/openalex`, `BASE/crossref`, `BASE/datacite`, as a relay or a test server serves
/// them) and `?s2_interval=MS` to the settings in memory for this visit
/// only: nothing is saved, so opening citegate without them brings the
/// saved settings back. The Settings page says when they are in force.
/// `?relay=BASE` does the same for a `citegate relay`, through which DBLP
/// and arXiv are asked too.
/// `?timeout_ms=MS` sets how long a request may hang before it counts as a
/// network failure (30 s by default), likewise for the page's life only,
/// since only tests that simulate a stalled service have reason to shorten it.
/// `?s2_backoff_ms=MS` likewise sets the first wait after an unreadable
/// Semantic Scholar answer (5 s by default, doubled per try), for tests of
/// its rate limit.
fn apply_url_overrides(services: Services) {
    crate::api::transport::watch_policy();
    if let Some(ms) = query_param("timeout_ms").and_then(|t| t.trim().parse::<u32>().ok()) {
        crate::api::transport::set_timeout_ms(ms);
    }
    if let Some(ms) = query_param("s2_backoff_ms").and_then(|t| t.trim().parse::<u64>().ok()) {
        crate::api::client::set_s2_backoff_ms(ms);
    }
    let api = query_param("api").filter(|a| !a.trim().is_empty());
    let relay = query_param("relay").filter(|a| !a.trim().is_empty());
    let interval = query_param("s2_interval").and_then(|i| i.trim().parse::<u64>().ok());
    if api.is_none() && relay.is_none() && interval.is_none() {
        return;
    }
    crate::services::settings::mark_url_overrides();
    services.settings.update(|s| {
        // `?relay=BASE` (a citegate relay: DBLP and arXiv too) wins over `?api=`.
        let fresh = match (&relay, &api) {
            (Some(r), _) => Some(Settings::with_relay(r)),
            (None, Some(a)) => Some(Settings::with_base(a)),
            _ => None,
        };
        if let Some(fresh) = fresh {
            s.s2_base = fresh.s2_base;
            s.openalex_base = fresh.openalex_base;
            s.crossref_base = fresh.crossref_base;
            s.datacite_base = fresh.datacite_base;
            s.relay = fresh.relay;
        }
        if let Some(ms) = interval {
            s.s2_interval_ms = ms;
        }
    });
    // The throttle was configured from the saved settings when the services
    // opened; the visit's interval must reach it too, or S2 keeps the saved
    // pace (seen as a paced run in the unpaced e2e suite).
    services.apply_limits();
}

/// A navigation link to `p`, marked while it is the current page.
fn nav_link(p: Page, page: ReadSignal<Page>) -> impl IntoView {
    view! {
        <a
            href=format!("#{}", p.path())
            class:active=move || page.get() == p
            aria-current=move || (page.get() == p).then_some("page")
        >
            {p.label()}
        </a>
    }
}

/// The page the fragment names, followed as it changes: links,
/// back/forward and typed URLs all land here. The listener goes with the
/// component that asked, so the start module leaves none behind when the
/// whole app takes the page over (`split`).
pub fn follow_fragment() -> ReadSignal<Page> {
    let (page, set_page) = signal(Page::from_fragment(&current_fragment()));
    let listener = window_event_listener(leptos::ev::hashchange, move |_| {
        set_page.set(Page::from_fragment(&current_fragment()))
    });
    on_cleanup(move || listener.remove());
    page
}

/// The frame both modules draw (`split`): skip link, header, navigation,
/// the offline banner, and `main` holding the page.
#[component]
pub fn Frame(
    page: ReadSignal<Page>,
    /// Shown at the end of the header (the whole app's paper switcher).
    #[prop(optional, into)]
    header_end: ViewFn,
    children: Children,
) -> impl IntoView {
    // The tab's title names the page, and the Tools menu closes once a
    // page is chosen.
    Effect::new(move |_| {
        document().set_title(&page.get().document_title());
        if let Some(menu) = document().get_element_by_id("tools-menu") {
            let _ = menu.remove_attribute("open");
        }
    });
    let reach = crate::components::Reach::provide();

    view! {
        <div class="shell">
            <a class="skip-link" href="#/" on:click=move |ev: leptos::ev::MouseEvent| {
                // The fragment routes pages, so the link moves focus itself.
                ev.prevent_default();
                if let Some(main) = document().get_element_by_id("main") {
                    if let Ok(el) = main.dyn_into::<web_sys::HtmlElement>() {
                        let _ = el.focus();
                    }
                }
            }>"Skip to content"</a>
            <header class="top">
                <a class="brand" href="#/">"citegate"</a>
                <span class="tagline">"check a paper's citations before you submit it"</span>
                <a class="check-paper" id="check-paper" href="#/bibtex">"Check a paper"</a>
                // Reactive: the switcher appears once the services open.
                {move || header_end.run()}
            </header>
            <nav class="nav" aria-label="pages">
                {Page::ALL
                    .into_iter()
                    .filter(|p| !p.is_tool() && *p != Page::Start)
                    .map(|p| nav_link(p, page))
                    .collect_view()}
                <details class="tools-menu" id="tools-menu">
                    <summary class:active=move || page.get().is_tool()>"Tools"</summary>
                    <div class="tools-list">
                        {Page::ALL
                            .into_iter()
                            .filter(|p| p.is_tool())
                            .map(|p| nav_link(p, page))
                            .collect_view()}
                    </div>
                </details>
            </nav>
            <crate::components::OfflineBanner reach=reach />
            <main class="page" id="main" tabindex="-1">
                {children()}
            </main>
        </div>
    }
}

/// The root of the whole app: every page, with the browser services.
#[component]
pub fn App() -> impl IntoView {
    let page = follow_fragment();

    // The browser services (storage, throttle, cache) open asynchronously;
    // pages are shown once they are ready, or without them if storage fails.
    let ready: RwSignal<Option<Option<Services>>> =
        RwSignal::new(use_context::<Services>().map(Some));
    let storage_error = RwSignal::new(String::new());
    if ready.get_untracked().is_none() {
        leptos::task::spawn_local(async move {
            match Services::open_default().await {
                Ok(s) => {
                    apply_url_overrides(s);
                    ready.set(Some(Some(s)));
                }
                Err(e) => {
                    storage_error.set(format!("browser storage is unavailable ({e}); pages that ask the scholarly services cannot run"));
                    ready.set(Some(None));
                }
            }
        });
    }

    view! {
        <Frame
            page=page
            header_end=move || ready.get().flatten().map(|s| view! { <crate::components::PaperSwitcher services=s /> })
        >
            {move || storage_error.with(|e| (!e.is_empty()).then(|| view! { <div class="banner error" id="storage-error">{e.clone()}</div> }))}
            {move || ready.get().flatten().map(|s| view! { <crate::components::UnsavedBanner unsaved=s.unsaved() /> })}
            {move || {
                let page = page.get();
                // A page without storage is shown at once (and not
                // rebuilt when the services open); the others wait.
                if page.needs_services() {
                    let Some(services) = ready.get() else {
                        return view! { <p class="muted" id="loading">"starting…"</p> }.into_any();
                    };
                    if let Some(s) = services {
                        provide_context(s);
                    }
                }
                match page {
                Page::Start => pages::start::StartPage().into_any(),
                Page::TitleMatch => pages::title_match::TitleMatchPage().into_any(),
                Page::Coverage => pages::coverage::CoveragePage().into_any(),
                Page::Bibtex => pages::bibtex::BibtexPage().into_any(),
                Page::Pool => pages::pool::PoolPage().into_any(),
                Page::Library => pages::library::LibraryPage().into_any(),
                Page::CrossCheck => pages::crosscheck::CrossCheckPage().into_any(),
                Page::Search => pages::search::SearchPage().into_any(),
                Page::Settings => pages::settings::SettingsPage().into_any(),
                Page::Write => pages::write::WritePage().into_any(),
                }
            }}
        </Frame>
    }
}
