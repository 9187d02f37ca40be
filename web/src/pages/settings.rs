//! "Settings": keys, contact address, base URLs, the Semantic Scholar
//! interval, the response cache, and what each backend needs.
//!
//! Keys are write-only on this page. The inputs are password fields that
//! start empty; saving with an empty field keeps the key already set, and a
//! separate button forgets both. After saving, the page only says whether a
//! key is set — it never puts a key back into the document, so a remembered
//! key cannot be read off the screen or out of a screenshot. Everything else
//! is [`Settings`], saved to the workspace through the services. The writing
//! model's key follows the same rules and goes only to the model base URL.

use crate::components::{Banner, BannerKind, TextTable};
use crate::services::cache::CacheStats;
use crate::services::settings::{Secrets, Settings};
use crate::services::Services;
use citegate_core::settings as settings_check;
use leptos::prelude::*;

/// One row of the backend table: name, what it needs, its state here.
fn backend_rows(s: &Settings, s2_key: bool, oa_key: bool) -> Vec<Vec<String>> {
    let mail = !s.mailto.trim().is_empty();
    vec![
        vec![
            "Semantic Scholar".into(),
            "works without a key, but rate-limited (shared pool); a key gives a steady rate".into(),
            if s2_key {
                format!("key set · one request every {} ms", s.s2_interval_ms)
            } else {
                format!("no key · one request every {} ms", s.s2_interval_ms)
            },
        ],
        vec![
            "OpenAlex".into(),
            "wants a free API key for more than a trickle of requests; mailto is sent when set"
                .into(),
            if oa_key {
                "key set".into()
            } else {
                "no key: low daily allowance".into()
            },
        ],
        vec![
            "Crossref".into(),
            "no key; a contact email (mailto) puts requests in the polite pool".into(),
            if mail {
                "polite pool (mailto set)".into()
            } else {
                "public pool (no mailto)".into()
            },
        ],
        vec![
            "ASTA".into(),
            "needs an API key and a relay (it does not answer browsers directly)".into(),
            "not available in the browser app".into(),
        ],
    ]
}

/// Everything the Settings page reads and writes: the form's fields as
/// typed, what is known about the keys, and the status line. One value,
/// cheap to copy into each sub-component and handler.
#[derive(Clone, Copy)]
struct SettingsState {
    services: Services,
    s2_base: RwSignal<String>,
    oa_base: RwSignal<String>,
    cr_base: RwSignal<String>,
    mailto: RwSignal<String>,
    /// The Semantic Scholar interval as typed (milliseconds).
    interval: RwSignal<String>,
    /// The key fields: empty unless the user is typing a new key.
    s2_key: RwSignal<String>,
    oa_key: RwSignal<String>,
    llm_api: RwSignal<String>,
    llm_base: RwSignal<String>,
    llm_model: RwSignal<String>,
    llm_key: RwSignal<String>,
    llm_key_set: RwSignal<bool>,
    /// Whether the Semantic Scholar and OpenAlex keys are set.
    key_state: RwSignal<(bool, bool)>,
    remember: RwSignal<bool>,
    message: RwSignal<String>,
    kind: RwSignal<BannerKind>,
}

impl SettingsState {
    fn new(services: Services) -> Self {
        let current = services.settings.get_untracked();
        let (has_s2, has_oa, remembered) = services.secrets_state();
        SettingsState {
            services,
            s2_base: RwSignal::new(current.s2_base.clone()),
            oa_base: RwSignal::new(current.openalex_base.clone()),
            cr_base: RwSignal::new(current.crossref_base.clone()),
            mailto: RwSignal::new(current.mailto.clone()),
            interval: RwSignal::new(current.s2_interval_ms.to_string()),
            s2_key: RwSignal::new(String::new()),
            oa_key: RwSignal::new(String::new()),
            llm_api: RwSignal::new(current.llm_api.clone()),
            llm_base: RwSignal::new(current.llm_base.clone()),
            llm_model: RwSignal::new(current.llm_model.clone()),
            llm_key: RwSignal::new(String::new()),
            llm_key_set: RwSignal::new(services.current_secrets().llm_api_key.is_some()),
            key_state: RwSignal::new((has_s2, has_oa)),
            remember: RwSignal::new(remembered),
            message: RwSignal::new(String::new()),
            kind: RwSignal::new(BannerKind::Info),
        }
    }

    fn say(self, kind: BannerKind, message: String) {
        self.kind.set(kind);
        self.message.set(message);
    }

    /// The base URLs, contact email and interval as typed, each checked by
    /// the core; else the message saying which field is wrong.
    fn checked_fields(self) -> Result<(String, String, String, String, u64), String> {
        let checked = (|| -> Result<(String, String, String, String), citegate_core::Error> {
            Ok((
                settings_check::base_url(
                    "Semantic Scholar base URL",
                    &self.s2_base.get_untracked(),
                )?,
                settings_check::base_url("OpenAlex base URL", &self.oa_base.get_untracked())?,
                settings_check::base_url("Crossref base URL", &self.cr_base.get_untracked())?,
                settings_check::contact_email("Contact email", &self.mailto.get_untracked())?
                    .unwrap_or_default(),
            ))
        })();
        let (s2, oa, cr, mail) = checked.map_err(|e| {
            format!(
                "not saved: {}: {}",
                e.location.field.as_deref().unwrap_or("a field"),
                e.message
            )
        })?;
        let Ok(ms) = self.interval.get_untracked().trim().parse::<u64>() else {
            return Err(
                "not saved: the Semantic Scholar interval must be a whole number of milliseconds"
                    .into(),
            );
        };
        Ok((s2, oa, cr, mail, ms))
    }

    /// Every field is checked by the core before anything is kept; the form
    /// keeps what was typed so a mistake costs one correction.
    fn save(self) {
        let services = self.services;
        let (s2, oa, cr, mail, ms) = match self.checked_fields() {
            Ok(v) => v,
            Err(m) => {
                self.say(BannerKind::Error, m);
                return;
            }
        };
        services.settings.update(|s| {
            s.s2_base = s2;
            s.openalex_base = oa;
            s.crossref_base = cr;
            s.mailto = mail;
            s.s2_interval_ms = ms;
            s.llm_api = self.llm_api.get_untracked();
            s.llm_base = self.llm_base.get_untracked().trim().to_string();
            s.llm_model = self.llm_model.get_untracked().trim().to_string();
        });
        // An empty key field keeps the key already set.
        let kept = services.current_secrets();
        let typed = |field: RwSignal<String>, old: Option<String>| {
            let t = field.get_untracked().trim().to_string();
            if t.is_empty() {
                old
            } else {
                Some(t)
            }
        };
        let secrets = Secrets {
            s2_api_key: typed(self.s2_key, kept.s2_api_key),
            openalex_api_key: typed(self.oa_key, kept.openalex_api_key),
            llm_api_key: typed(self.llm_key, kept.llm_api_key),
            remember: self.remember.get_untracked(),
        };
        self.llm_key_set.set(secrets.llm_api_key.is_some());
        self.llm_key.set(String::new());
        self.key_state.set((
            secrets.s2_api_key.is_some(),
            secrets.openalex_api_key.is_some(),
        ));
        services.set_secrets(secrets);
        self.s2_key.set(String::new());
        self.oa_key.set(String::new());
        self.store("settings saved");
    }

    /// Saves the settings to the workspace and says so.
    fn store(self, done: &'static str) {
        leptos::task::spawn_local(async move {
            match self.services.save_settings().await {
                Ok(()) => self.say(BannerKind::Ok, done.into()),
                Err(e) => self.say(
                    BannerKind::Error,
                    format!("settings could not be saved ({e})"),
                ),
            }
        });
    }

    fn reset(self) {
        let d = Settings::default();
        self.s2_base.set(d.s2_base.clone());
        self.oa_base.set(d.openalex_base.clone());
        self.cr_base.set(d.crossref_base.clone());
        self.mailto.set(d.mailto.clone());
        self.interval.set(d.s2_interval_ms.to_string());
        self.services.settings.set(d);
        self.store("settings reset to the defaults (keys kept)");
    }

    fn forget(self) {
        self.services.set_secrets(Secrets::default());
        self.key_state.set((false, false));
        self.llm_key_set.set(false);
        self.remember.set(false);
        self.say(BannerKind::Ok, "keys forgotten".into());
    }
}

/// A labelled text field bound to `sig`.
fn text_input(id: &'static str, label: &'static str, sig: RwSignal<String>) -> impl IntoView {
    view! {
        <label for=id>{label}</label>
        <input id=id type="text" prop:value=move || sig.get() on:input=move |ev| sig.set(event_target_value(&ev))/>
    }
}

/// A labelled key field: a password field that starts empty and says only
/// whether a key is `set`.
fn key_input(
    id: &'static str,
    label: &'static str,
    sig: RwSignal<String>,
    set: Signal<bool>,
) -> impl IntoView {
    view! {
        <label for=id>{label}</label>
        <input
            id=id
            type="password"
            autocomplete="off"
            placeholder=move || if set.get() { "set (hidden) — type to replace" } else { "not set" }
            prop:value=move || sig.get()
            on:input=move |ev| sig.set(event_target_value(&ev))
        />
    }
}

/// The settings and status page.
#[component]
pub fn SettingsPage() -> impl IntoView {
    let Some(services) = use_context::<Services>() else {
        return view! {
            <section>
                <h1>"Settings"</h1>
                <p class="banner error">"browser storage is unavailable; settings cannot be kept"</p>
            </section>
        }
        .into_any();
    };
    let state = SettingsState::new(services);
    let SettingsState {
        key_state,
        remember,
        kind,
        message,
        ..
    } = state;
    view! {
        <section>
            <h1>"Settings"</h1>
            <SettingsForm state=state />
            <Show when=move || crate::services::settings::url_overrides_active()>
                <p class="banner partial" id="url-override">
                    "The page's address sets the base URLs or the Semantic Scholar interval (?api=, ?s2_interval=) for this visit only; "
                    "your saved settings are unchanged and return when you open citegate without them."
                </p>
            </Show>
            <p id="key-state" class="muted">
                {move || {
                    let (s2, oa) = key_state.get();
                    let said = |b: bool| if b { "set" } else { "not set" };
                    format!(
                        "Semantic Scholar key: {} · OpenAlex key: {} · {}",
                        said(s2),
                        said(oa),
                        if remember.get() { "remembered on this device" } else { "kept for this tab only" },
                    )
                }}
            </p>
            <Banner id="settings-status" kind=kind text=message/>
            <h2>"Backends"</h2>
            <TextTable
                id="backends"
                headers=vec!["backend", "needs", "here"]
                rows=Signal::derive(move || {
                    let (s2, oa) = key_state.get();
                    backend_rows(&services.settings.get(), s2, oa)
                })
            />
            <CacheSection state=state />
        </section>
    }
    .into_any()
}

/// The form: keys, contact, base URLs, interval and the writing model, with
/// Save, Forget keys and Reset to defaults.
#[component]
fn SettingsForm(state: SettingsState) -> impl IntoView {
    let SettingsState {
        s2_key,
        oa_key,
        key_state,
        remember,
        llm_api,
        llm_key,
        llm_key_set,
        ..
    } = state;
    view! {
        <form class="form-grid" id="settings-form" on:submit=move |ev: leptos::ev::SubmitEvent| { ev.prevent_default(); state.save(); }>
            {key_input("s2-key", "Semantic Scholar API key", s2_key, Signal::derive(move || key_state.get().0))}
            {key_input("openalex-key", "OpenAlex API key", oa_key, Signal::derive(move || key_state.get().1))}
            <label for="remember">"Remember keys on this device"</label>
            <input id="remember" type="checkbox" prop:checked=move || remember.get() on:change=move |ev| remember.set(event_target_checked(&ev))/>
            {text_input("mailto", "Contact email (mailto)", state.mailto)}
            {text_input("s2-base", "Semantic Scholar base URL", state.s2_base)}
            {text_input("openalex-base", "OpenAlex base URL", state.oa_base)}
            {text_input("crossref-base", "Crossref base URL", state.cr_base)}
            {text_input("s2-interval", "Semantic Scholar interval (ms)", state.interval)}
            <label for="llm-api">"Writing model API"</label>
            <select id="llm-api" prop:value=move || llm_api.get() on:change=move |ev| llm_api.set(event_target_value(&ev))>
                <option value="openai">"OpenAI-compatible (OpenAI, OpenRouter, Ollama, llama.cpp, vLLM)"</option>
                <option value="anthropic">"Anthropic Messages"</option>
            </select>
            {text_input("llm-base", "Writing model base URL", state.llm_base)}
            {text_input("llm-model", "Writing model name", state.llm_model)}
            {key_input("llm-key", "Writing model API key", llm_key, Signal::derive(move || llm_key_set.get()))}
            <button type="submit" id="save-settings">"Save"</button>
            <button type="button" class="secondary" id="forget-keys" on:click=move |_| state.forget()>"Forget keys"</button>
            <button type="button" class="secondary" id="reset-settings" on:click=move |_| state.reset()>"Reset to defaults"</button>
        </form>
    }
}

/// The response cache: its figures, Refresh and Clear cache. The figures
/// are a `LocalResource` read from IndexedDB (refetched by Refresh and after
/// a clear) shown under `Suspense`; clearing is an `Action`.
#[component]
fn CacheSection(state: SettingsState) -> impl IntoView {
    let services = state.services;
    let stats = LocalResource::new(move || {
        let cache = services.cache();
        async move { cache.stats().await }
    });
    let clear = Action::new_local(move |_: &()| {
        let cache = services.cache();
        async move { cache.clear().await.map_err(|e| e.to_string()) }
    });
    Effect::new(move |_| {
        let Some(done) = clear.value().get() else {
            return;
        };
        match done {
            Ok(()) => state.say(BannerKind::Ok, "cache cleared".into()),
            Err(e) => state.say(
                BannerKind::Error,
                format!("the cache could not be cleared ({e})"),
            ),
        }
        stats.refetch();
    });
    let figures = move |s: CacheStats| {
        format!(
            "{} entries · {} hits · {} misses this session",
            s.entries, s.hits, s.misses
        )
    };
    view! {
        <h2>"Cache"</h2>
        <p id="cache-stats">
            <Suspense fallback=|| "reading…">{move || stats.get().map(figures)}</Suspense>
        </p>
        <div class="toolbar">
            <button type="button" class="secondary" id="refresh-cache" on:click=move |_| stats.refetch()>"Refresh"</button>
            <button type="button" class="secondary" id="clear-cache" on:click=move |_| { clear.dispatch(()); }>"Clear cache"</button>
        </div>
    }
}
