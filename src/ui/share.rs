//! The scenario outside the page: the URL hash (a link reproduces the page), a JSON view to copy into
//! `tps eval`, a paste box to load one, and a download. Everything stays in the browser.

use super::inputs::Inputs;
use crate::scenario::{Scenario, ScenarioError};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

const PREFIX: &str = "#s=";

/// The scenario in the address, if there is one: `Ok` when it parses, the error naming the field when not.
pub fn read_hash() -> Option<Result<Scenario, ScenarioError>> {
    let hash = web_sys::window()?.location().hash().ok()?;
    let encoded = hash.strip_prefix(PREFIX)?;
    // A link cut short can break the %-encoding: say so rather than fall back silently.
    match js_sys::decode_uri_component(encoded).ok().and_then(|v| v.as_string()) {
        Some(json) => Some(Scenario::from_json(&json)),
        None => Some(Err(ScenarioError::new("json", "the link's scenario is cut off or damaged"))),
    }
}

/// `#s=` + the scenario's JSON, %-encoded.
fn hash_of(s: &Scenario) -> String {
    let json = serde_json::to_string(s).unwrap_or_default();
    let encoded: String = js_sys::encode_uri_component(&json).into();
    format!("{PREFIX}{encoded}")
}

/// The page's address with this scenario in it (for printing and sharing).
pub fn link_for(s: &Scenario) -> String {
    let base = web_sys::window().and_then(|w| w.location().href().ok()).unwrap_or_default();
    let base = base.split('#').next().unwrap_or_default().to_string();
    format!("{base}{}", hash_of(s))
}

/// Writes the scenario into the address without adding a history entry.
pub fn write_hash(s: &Scenario) {
    if let Some(w) = web_sys::window() {
        if let Ok(h) = w.history() {
            let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&hash_of(s)));
        }
    }
}

/// Offers `text` as a file download named `name`.
fn download(name: &str, text: &str) {
    let parts = js_sys::Array::of1(&text.into());
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type("application/json");
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts) else { return };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else { return };
    if let Some(a) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.create_element("a").ok())
        .and_then(|e| e.dyn_into::<web_sys::HtmlAnchorElement>().ok())
    {
        a.set_href(&url);
        a.set_download(name);
        a.click();
    }
    let _ = web_sys::Url::revoke_object_url(&url);
}

/// The JSON of the current scenario, a paste box and a download button.
#[component]
pub fn ScenarioPanel(
    /// The page's inputs (loading a scenario fills them).
    inputs: Inputs,
    /// The current scenario.
    scenario: Memo<Result<Scenario, ScenarioError>>,
) -> impl IntoView {
    let pasted = RwSignal::new(String::new());
    let problem = RwSignal::new(None::<String>);
    let json = move || scenario.with(|s| s.as_ref().map(Scenario::to_json).unwrap_or_default());
    let apply = move |_| match Scenario::from_json(&pasted.get_untracked()) {
        Ok(sc) => match sc.resolve() {
            Ok(_) => {
                inputs.load(&sc);
                problem.set(None);
                pasted.set(String::new());
            }
            Err(e) => problem.set(Some(e.to_string())),
        },
        Err(e) => problem.set(Some(e.to_string())),
    };
    view! {
        <details class="scenario-json">
            <summary>"Scenario JSON — share, save, or run with `tps eval`"</summary>
            <p class="note">"The page's address holds this scenario: copy the address to share exactly this view."</p>
            <pre id="scenario-json">{json}</pre>
            <button type="button" id="download-json" on:click=move |_| download("tps-scenario.json", &json())>"Download JSON"</button>
            <label class="field">
                <span class="label">"Load a scenario (paste JSON)"</span>
                <textarea id="paste-json" rows="5" prop:value=move || pasted.get() on:input=move |ev| pasted.set(event_target_value(&ev))></textarea>
            </label>
            <button type="button" id="apply-json" on:click=apply>"Load"</button>
            <span class="error" role="alert" id="paste-error">{move || problem.get()}</span>
        </details>
    }
}
