//! One banner, at the top of the app, when the scholarly services cannot
//! be reached: the browser is offline, or a run got no readable answer from
//! any service (a firewall, a network that blocks them). Pages report what
//! their runs saw with [`report_run`]; the banner says it once and points
//! to the relay setting, so no page repeats a fetch error on every row.

use citegate_core::bibtex::report;
use citegate_core::resolve;
use leptos::prelude::*;

/// Whether the services can be reached, shared by the app and its pages.
#[derive(Debug, Clone, Copy)]
pub struct Reach {
    /// The browser says it is offline (`navigator.onLine`).
    pub offline: RwSignal<bool>,
    /// The last run got no readable answer from any service.
    pub unreachable: RwSignal<bool>,
}

impl Reach {
    /// Creates the state, follows the browser's online and offline events
    /// and provides it to the pages below.
    pub fn provide() -> Reach {
        let reach = Reach {
            offline: RwSignal::new(!window().navigator().on_line()),
            unreachable: RwSignal::new(false),
        };
        // The listeners go with the frame that asked (the start module
        // leaves none behind when the whole app takes over).
        let follow = move |_| {
            let online = window().navigator().on_line();
            reach.offline.set(!online);
            if online {
                // Back online: the next run decides again.
                reach.unreachable.set(false);
            }
        };
        let on = window_event_listener(leptos::ev::online, follow);
        let off = window_event_listener(leptos::ev::offline, follow);
        on_cleanup(move || {
            on.remove();
            off.remove();
        });
        provide_context(reach);
        reach
    }

    /// True when the services cannot be reached.
    pub fn down(self) -> bool {
        self.offline.get() || self.unreachable.get()
    }
}

/// Records what a finished run saw: unreachable when it asked and nothing
/// answered readably (decided by the core), reachable when anything did.
/// `reach` is `use_context::<Reach>()` taken when the page was built.
pub fn report_run(reach: Option<Reach>, run: &resolve::Report) {
    if let Some(r) = reach {
        if run.requests > 0 || run.resolutions.iter().any(|x| !x.evidence.is_empty()) {
            r.unreachable.set(report::unreachable(run));
        }
    }
}

/// Whether the services are known to be unreachable now (for a page that
/// shortens its per-row errors while the banner is up).
pub fn services_down(reach: Option<Reach>) -> bool {
    reach.is_some_and(|r| r.offline.get_untracked() || r.unreachable.get_untracked())
}

/// The banner; shown while the services cannot be reached.
#[component]
pub fn OfflineBanner(reach: Reach) -> impl IntoView {
    view! {
        <Show when=move || reach.down()>
            <div class="banner error offline-banner" id="offline-banner" role="alert">
                {move || if reach.offline.get() {
                    "You are offline: the scholarly services cannot be reached. "
                } else {
                    "The scholarly services cannot be reached (offline, or a firewall?). "
                }}
                "Entries that need them are marked “could not check”. A relay can be set in "
                <a href="#/settings">"Settings"</a>"."
            </div>
        </Show>
    }
}
