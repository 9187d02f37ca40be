//! The paper switcher: one workspace per paper ([`crate::services::store`]).
//! "New paper" asks for a name before anything changes, and the previous
//! paper's work is kept, so switching back undoes it. After a switch the
//! app reloads, so every page starts from what the chosen paper holds.

use crate::services::store::Papers;
use crate::services::Services;
use leptos::prelude::*;

fn reload() {
    let _ = window().location().reload();
}

/// The switcher in the app's header.
#[component]
pub fn PaperSwitcher(services: Services) -> impl IntoView {
    let papers = RwSignal::new(None::<Papers>);
    let asking = RwSignal::new(false);
    let name = RwSignal::new(String::new());
    let error = RwSignal::new(String::new());
    leptos::task::spawn_local(async move {
        match services.workspace().papers().await {
            Ok(p) => papers.set(Some(p)),
            Err(e) => error.set(format!("the list of papers could not be read ({e})")),
        }
    });
    let save = move |next: Papers| {
        leptos::task::spawn_local(async move {
            match services.workspace().save_papers(&next).await {
                Ok(()) => reload(),
                Err(e) => error.set(format!("the paper could not be opened ({e})")),
            }
        });
    };
    let switch = move |id: String| {
        if let Some(mut p) = papers.get_untracked() {
            if p.current != id && p.papers.iter().any(|x| x.id == id) {
                p.current = id;
                save(p);
            }
        }
    };
    let create = move || {
        if let Some(mut p) = papers.get_untracked() {
            p.add(&name.get_untracked());
            save(p);
        }
    };
    view! {
        <div class="papers" id="papers">
            <label for="paper-switch">"Paper"</label>
            <select id="paper-switch" on:change=move |ev| switch(event_target_value(&ev))>
                {move || papers.get().map(|p| {
                    let current = p.current.clone();
                    p.papers.into_iter().map(|x| {
                        let selected = x.id == current;
                        view! { <option value=x.id selected=selected>{x.name}</option> }
                    }).collect_view()
                })}
            </select>
            <button type="button" class="secondary" id="new-paper"
                aria-expanded=move || asking.get().to_string()
                on:click=move |_| asking.set(true)>"New paper"</button>
            <Show when=move || asking.get()>
                <form class="new-paper" id="new-paper-form" on:submit=move |ev: leptos::ev::SubmitEvent| { ev.prevent_default(); create(); }>
                    <label for="new-paper-name">"Name of the new paper"</label>
                    <input id="new-paper-name" type="text" placeholder="e.g. survey draft" autofocus=true
                        prop:value=move || name.get() on:input=move |ev| name.set(event_target_value(&ev)) />
                    <button type="submit" id="create-paper">"Create and open"</button>
                    <button type="button" class="secondary" id="cancel-paper" on:click=move |_| { asking.set(false); name.set(String::new()); }>"Cancel"</button>
                    <p class="muted">"The current paper's pool, files and results stay with it: switch back to it here at any time."</p>
                </form>
            </Show>
            {move || error.with(|e| (!e.is_empty()).then(|| view! { <span class="error-text" role="alert">{e.clone()}</span> }))}
        </div>
    }
}
