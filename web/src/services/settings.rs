//! Settings that persist, and secrets that by default do not.
//!
//! The split is by type, not by care: [`Settings`] (base URLs, contact
//! address, Semantic Scholar interval) is serializable and goes to the
//! workspace store; [`Secrets`] (the API keys) implements neither
//! `Serialize` nor a revealing `Debug`, so no export, store write or log
//! line can carry a key by accident — the compiler refuses. Keys live in
//! memory for the page's life unless the user ticks "remember on this
//! device", which writes them (and only them) to `localStorage`. The
//! contact address is not treated as a secret: the services' polite pools
//! ask for it in every URL.

use citegate_core::fetch::DEFAULT_S2_INTERVAL_MS;
use citegate_core::works::request::Endpoints;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Persistent settings (no secrets).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Semantic Scholar Graph base URL.
    pub s2_base: String,
    /// OpenAlex base URL.
    pub openalex_base: String,
    /// Crossref base URL.
    pub crossref_base: String,
    /// DataCite REST API base URL (settings saved before it existed get the public one).
    pub datacite_base: String,
    /// Contact address sent as `mailto` to Crossref and OpenAlex (empty: none).
    pub mailto: String,
    /// The base of a `citegate relay` every service goes through, DBLP and
    /// arXiv included (empty: none; the services are asked directly).
    pub relay: String,
    /// Minimum time between two Semantic Scholar requests, in milliseconds.
    pub s2_interval_ms: u64,
    /// The writing model's API shape: `openai` or `anthropic`.
    pub llm_api: String,
    /// The writing model's base URL.
    pub llm_base: String,
    /// The writing model's name.
    pub llm_model: String,
}

impl Default for Settings {
    fn default() -> Self {
        let ep = Endpoints::public();
        Settings {
            s2_base: ep.s2_base,
            openalex_base: ep.openalex_base,
            crossref_base: ep.crossref_base,
            datacite_base: ep.datacite_base,
            mailto: String::new(),
            relay: String::new(),
            s2_interval_ms: DEFAULT_S2_INTERVAL_MS,
            llm_api: "openai".into(),
            llm_base: "https://api.openai.com/v1".into(),
            llm_model: String::new(),
        }
    }
}

impl Settings {
    /// The browser's services at one base (a relay or a test server):
    /// `{base}/s2`, `{base}/openalex`, `{base}/crossref`, `{base}/datacite`.
    pub fn with_base(base: &str) -> Self {
        let b = base.trim_end_matches('/');
        Settings {
            s2_base: format!("{b}/s2"),
            openalex_base: format!("{b}/openalex"),
            crossref_base: format!("{b}/crossref"),
            datacite_base: format!("{b}/datacite"),
            ..Settings::default()
        }
    }

    /// Every service through the `citegate relay` at `base` (its paths
    /// are [`citegate_core::relay::ROUTES`]), DBLP and arXiv included.
    pub fn with_relay(base: &str) -> Self {
        Settings {
            relay: base.trim_end_matches('/').to_string(),
            ..Settings::with_base(base)
        }
    }

    /// Where a run executes: behind a relay every service is reached.
    pub fn surface(&self) -> citegate_core::resolve::Surface {
        if self.relay.trim().is_empty() {
            citegate_core::resolve::Surface::Browser
        } else {
            citegate_core::resolve::Surface::Relayed
        }
    }

    /// The core's endpoints for these settings and `secrets`.
    pub fn endpoints(&self, secrets: &Secrets) -> Endpoints {
        let some = |s: &str| (!s.trim().is_empty()).then(|| s.trim().to_string());
        Endpoints {
            s2_base: self.s2_base.clone(),
            openalex_base: self.openalex_base.clone(),
            crossref_base: self.crossref_base.clone(),
            datacite_base: self.datacite_base.clone(),
            s2_api_key: secrets.s2_api_key.as_deref().and_then(some),
            openalex_api_key: secrets.openalex_api_key.as_deref().and_then(some),
            mailto: some(&self.mailto),
            ..self.relayed_endpoints()
        }
    }
}

impl Settings {
    /// DBLP's and arXiv's bases: the relay's when there is one.
    fn relayed_endpoints(&self) -> Endpoints {
        let public = Endpoints::public();
        let r = self.relay.trim().trim_end_matches('/');
        if r.is_empty() {
            return public;
        }
        Endpoints {
            dblp_base: format!("{r}/dblp"),
            arxiv_base: format!("{r}/arxiv"),
            ..public
        }
    }
}

/// API keys. Not serializable on purpose.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Secrets {
    /// Semantic Scholar API key.
    pub s2_api_key: Option<String>,
    /// OpenAlex API key.
    pub openalex_api_key: Option<String>,
    /// The writing model's API key (sent only to the model base URL).
    pub llm_api_key: Option<String>,
    /// Keep the keys in this browser's `localStorage`.
    pub remember: bool,
}

impl fmt::Debug for Secrets {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown = |k: &Option<String>| if k.is_some() { "set" } else { "unset" };
        f.debug_struct("Secrets")
            .field("s2_api_key", &shown(&self.s2_api_key))
            .field("openalex_api_key", &shown(&self.openalex_api_key))
            .field("llm_api_key", &shown(&self.llm_api_key))
            .field("remember", &self.remember)
            .finish()
    }
}

const S2_KEY: &str = "citegate:secret:s2_api_key";
const OA_KEY: &str = "citegate:secret:openalex_api_key";
const LLM_KEY: &str = "citegate:secret:llm_api_key";

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

impl Secrets {
    /// Keys remembered on this device, if the user asked to.
    pub fn load_remembered() -> Secrets {
        let Some(st) = storage() else {
            return Secrets::default();
        };
        let s2 = st.get_item(S2_KEY).ok().flatten();
        let oa = st.get_item(OA_KEY).ok().flatten();
        let llm = st.get_item(LLM_KEY).ok().flatten();
        Secrets {
            remember: s2.is_some() || oa.is_some() || llm.is_some(),
            s2_api_key: s2,
            openalex_api_key: oa,
            llm_api_key: llm,
        }
    }

    /// Writes the keys to `localStorage` when `remember` is set, and
    /// removes them from it otherwise.
    pub fn persist(&self) {
        let Some(st) = storage() else {
            return;
        };
        for (name, value) in [
            (S2_KEY, &self.s2_api_key),
            (OA_KEY, &self.openalex_api_key),
            (LLM_KEY, &self.llm_api_key),
        ] {
            match value.as_deref().filter(|_| self.remember) {
                Some(v) if !v.is_empty() => {
                    let _ = st.set_item(name, v);
                }
                _ => {
                    let _ = st.remove_item(name);
                }
            }
        }
    }

    /// Every key value, to check that a text does not contain one.
    pub fn values(&self) -> Vec<&str> {
        [&self.s2_api_key, &self.openalex_api_key, &self.llm_api_key]
            .into_iter()
            .filter_map(|k| k.as_deref())
            .filter(|k| !k.is_empty())
            .collect()
    }
}

thread_local! {
    static OVERRIDDEN: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether the page's address overrides saved settings for this visit
/// (`?api=`, `?s2_interval=`; the app's frame applies them).
pub fn url_overrides_active() -> bool {
    OVERRIDDEN.with(|o| o.get())
}

/// Records that the page's address overrides saved settings for this visit.
pub(crate) fn mark_url_overrides() {
    OVERRIDDEN.with(|o| o.set(true));
}

#[cfg(test)]
mod tests {
    use super::*;
    use citegate_core::resolve::Surface;

    #[test]
    fn a_relay_carries_every_service_dblp_and_arxiv_included() {
        let s = Settings::with_relay("http://127.0.0.1:8787/");
        let ep = s.endpoints(&Secrets::default());
        assert_eq!(ep.s2_base, "http://127.0.0.1:8787/s2");
        assert_eq!(ep.dblp_base, "http://127.0.0.1:8787/dblp");
        assert_eq!(ep.arxiv_base, "http://127.0.0.1:8787/arxiv");
        assert_eq!(s.surface(), Surface::Relayed);
        // One base that is not a relay (a test server, ?api=): DBLP and
        // arXiv stay out of the page's reach, as without one.
        let plain = Settings::with_base("http://127.0.0.1:8787");
        assert_eq!(plain.surface(), Surface::Browser);
        assert_eq!(
            plain.endpoints(&Secrets::default()).dblp_base,
            Endpoints::public().dblp_base
        );
    }
}
