//! The scenario outside the page: the URL hash (a link reproduces the page), a JSON view to copy into
//! `tps eval`, a paste box to load one, and a download. Everything stays in the browser.

use super::inputs::Inputs;
use crate::scenario::{Scenario, ScenarioError};
use leptos::prelude::*;

const PREFIX: &str = "#s=";
/// The pinned scenario ("A") follows the current one: `#s=<B>&a=<A>` (`&` never occurs in %-encoded JSON).
const PINNED: &str = "&a=";
/// While a field holds what the page cannot read into a scenario (text that is no number, a share out of range),
/// the fields' texts follow last (`#s=<last scenario>[&a=<A>]&t=<texts>`, [`Inputs::typed`]): a reload puts back
/// what was typed, not the last scenario alone.
const TYPED: &str = "&t=";
/// The load picked on the charts (the slider, or the pointer over a chart), before the texts: `&l=6` (users or
/// req/s, as the sweep's axis): a teacher's link to "look at 6 users" opened at the operating point instead.
const LOAD: &str = "&l=";

/// The load the address keeps (`&l=`): set by the slider and by a click or a drag's end on a chart, not by the pointer
/// passing over one (a review: every level crossed had rewritten the address and the browser's storage, past the
/// browsers' limits on `replaceState`). A prop of the charts (not a context: a Leptos context cost the page 1.3 KB).
#[derive(Clone, Copy)]
pub struct LinkedLoad(pub RwSignal<Option<f64>>);

/// What a link holds: the scenario shown and, when one was pinned, scenario A.
pub struct Linked {
    pub shown: Result<Scenario, ScenarioError>,
    pub pinned: Option<Result<Scenario, ScenarioError>>,
    /// The fields' texts, when one did not parse.
    pub typed: Option<String>,
    /// The load picked on the charts, when one was.
    pub load: Option<f64>,
}

fn decode(encoded: &str, which: &str) -> Result<Scenario, ScenarioError> {
    // A link cut short can break the %-encoding: say so rather than fall back silently.
    match js_sys::decode_uri_component(encoded).ok().and_then(|v| v.as_string()) {
        Some(json) => Scenario::from_json(&json),
        None => Err(ScenarioError::new("json", format!("the link's {which} is cut off or damaged"))),
    }
}

/// The scenarios in the address, if there are any: each `Ok` when it parses, the error naming the field when
/// not. Links from before A existed (`#s=` alone) read as they always did.
pub fn read_hash() -> Option<Linked> {
    let hash = web_sys::window()?.location().hash().ok()?;
    let rest = hash.strip_prefix(PREFIX)?;
    let (rest, typed) = match rest.split_once(TYPED) {
        // (The texts are %-encoded too: a foreign `&x=…` after them is not the last field's text.)
        Some((r, t)) => (r, Some(t.split('&').next().unwrap_or_default().to_string())),
        None => (rest, None),
    };
    // The load runs to the next key, if one follows (a hand-edited `&l=6&a=…` keeps its A).
    let (rest, load) = match rest.split_once(LOAD) {
        // A load that is no positive number is left out: the page opens at its operating point, as without one.
        Some((r, l)) => {
            let (number, after) = l.split_once('&').map_or((l, None), |(n, a)| (n, Some(a)));
            (after.map_or_else(|| r.to_string(), |a| format!("{r}&{a}")), number.parse::<f64>().ok().filter(|l| l.is_finite() && *l > 0.0))
        }
        None => (rest.to_string(), None),
    };
    let rest = rest.as_str();
    let (shown, pinned) = match rest.split_once(PINNED) {
        Some((s, a)) => (s, Some(a)),
        None => (rest, None),
    };
    // A key this page does not write (a mail client's or a hand's `&x=…`) ends the scenario before it: %-encoded JSON
    // holds no `&` (a trial's `&utm=1` had made the whole link unreadable).
    let first = |p: &'_ str| p.split('&').next().unwrap_or_default().to_string();
    let (shown, pinned) = (first(shown), pinned.map(first));
    let (shown, pinned) = (shown.as_str(), pinned.as_deref());
    Some(Linked { shown: decode(shown, "scenario"), pinned: pinned.map(|a| decode(a, "pinned scenario (A)")), typed, load })
}

/// The scenario's JSON for the address: %-encoded where a fragment needs it (quotes, spaces, `%`, `#`, `&`,
/// non-ASCII) and literal elsewhere (`{ } [ ] : ,` …), which keeps printed links about a fifth shorter than
/// `encodeURIComponent`. Read back with `decodeURIComponent`, as links written before always were.
fn encode(s: &Scenario) -> String {
    let json = s.to_compact_json();
    let mut out = String::with_capacity(json.len() + json.len() / 4);
    for c in json.chars() {
        if c.is_ascii_alphanumeric() || "{}[]:,.-_'()!*~/?=@$;+".contains(c) {
            out.push(c);
        } else {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("%{b:02X}"));
            }
        }
    }
    out
}

/// `#s=` + the scenario's JSON %-encoded (`shown`), `&a=` + the pinned one's, `&l=` + the load picked on the
/// charts, and `&t=` + the fields' texts.
fn hash_of(shown: &str, pinned: Option<&Scenario>, load: Option<f64>, typed: Option<&str>) -> String {
    let mut h = format!("{PREFIX}{shown}");
    if let Some(a) = pinned {
        h = h + PINNED + &encode(a);
    }
    if let Some(l) = load {
        // To a millionth: a sweep's level made by arithmetic (0.30000000000000004) is written as typed.
        h = h + LOAD + &format!("{}", (l * 1e6).round() / 1e6);
    }
    if let Some(t) = typed {
        h = h + TYPED + t;
    }
    h
}

/// The page's address with these scenarios in it (for printing and sharing).
pub fn link_for(s: &Scenario, pinned: Option<&Scenario>, load: Option<f64>) -> String {
    let base = web_sys::window().and_then(|w| w.location().href().ok()).unwrap_or_default();
    let base = base.split('#').next().unwrap_or_default().to_string();
    format!("{base}{}", hash_of(&encode(s), pinned, load, None))
}

/// Writes the scenarios (and the fields' texts, while one does not parse) into the address without adding a
/// history entry. Without a scenario `s` (a field's text is no number) the address keeps the scenario it holds,
/// the last the fields made, or else `base`'s.
pub fn write_hash(s: Option<&Scenario>, (pinned, load): (Option<&Scenario>, Option<f64>), typed: Option<&str>, base: &RwSignal<Scenario>) {
    let Some(w) = web_sys::window() else { return };
    let shown = match s {
        Some(s) => encode(s),
        None => w
            .location()
            .hash()
            .ok()
            .and_then(|h| h.strip_prefix(PREFIX).and_then(|r| r.split('&').next()).map(String::from))
            .unwrap_or_else(|| base.with_untracked(encode)),
    };
    let hash = hash_of(&shown, pinned, load, typed);
    if let Ok(h) = w.history() {
        let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&hash));
    }
    // Kept by the browser too: the page opened again without a link (a file copied into an air-gapped network)
    // comes back to it (`restore_last`).
    if let Ok(Some(st)) = w.local_storage() {
        let _ = st.set_item(LAST, &hash);
    }
}

/// The browser's key for the last address the page wrote.
const LAST: &str = "tps-last";

/// Opened without a scenario in the address: puts back the last one this browser kept (a new user's trial closed
/// the single file and found its inputs gone on opening it again), unless it is the page's own `fresh` one. Whether
/// it did.
pub fn restore_last(fresh: Option<&Scenario>) -> bool {
    let Some(w) = web_sys::window() else { return false };
    if w.location().hash().is_ok_and(|h| h.starts_with(PREFIX)) {
        return false;
    }
    let fresh = fresh.map(|s| hash_of(&encode(s), None, None, None));
    let Some(last) = w
        .local_storage()
        .ok()
        .flatten()
        .and_then(|st| st.get_item(LAST).ok().flatten())
        .filter(|h| h.starts_with(PREFIX) && fresh.as_ref() != Some(h))
    else {
        return false;
    };
    let restored = w.history().is_ok_and(|h| h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&last)).is_ok());
    // Said above the page, with a way back to the defaults (`#new`, which the page's navigation handler takes): a
    // plain element, as a node in the page's view cost 1.8 KB of wasm.
    if let (true, Some(d)) = (restored, w.document()) {
        if let (Ok(p), Some(body)) = (d.create_element("p"), d.body()) {
            p.set_id("restored");
            p.set_class_name("note restored");
            p.set_inner_html(
                "Your last scenario on this computer, kept by this browser. <a href=\"#new\" id=\"start-afresh\">Start from the defaults</a>",
            );
            let _ = body.insert_before(&p, body.first_child().as_ref());
        }
    }
    restored
}

/// Forgets the kept scenario and opens the page afresh, on its defaults.
pub fn start_afresh() {
    let Some(w) = web_sys::window() else { return };
    if let Ok(Some(st)) = w.local_storage() {
        let _ = st.remove_item(LAST);
    }
    let href = w.location().href().unwrap_or_default();
    let _ = w.location().set_href(href.split('#').next().unwrap_or_default());
}

/// The JSON of the current scenario, a paste box and a download button.
#[component]
pub fn ScenarioPanel(
    /// The page's inputs (loading a scenario fills them).
    inputs: Inputs,
    /// The current scenario.
    scenario: Memo<Result<Scenario, ScenarioError>>,
    /// Whether the inputs cannot be computed now (`Toolbar`'s): nothing is saved then.
    #[prop(into)]
    stale: Signal<bool>,
) -> impl IntoView {
    let pasted = RwSignal::new(String::new());
    let problem = RwSignal::new(None::<String>);
    // While a field is invalid there is no scenario to show or save (the download had saved an empty file).
    let json = move || scenario.with(|s| s.as_ref().map(Scenario::to_json).unwrap_or_else(|_| "(none while a field above is invalid)".into()));
    let apply = move |_| match Scenario::from_json(&pasted.get_untracked()) {
        Ok(sc) => match sc.resolve() {
            Ok(_) => {
                inputs.load(&sc);
                problem.set(None);
                pasted.set(String::new());
            }
            Err(e) => problem.set(Some(e.to_string())),
        },
        // A benchmark's result pasted here (a trial got "unknown field `backend`"): say where it goes.
        Err(e) => problem.set(Some(if pasted.with_untracked(|t| crate::import::parse("pasted text", t).is_ok()) {
            "This is a benchmark result, not a scenario: add it under \"Compare with your benchmark results\" to compare and calibrate.".into()
        } else {
            e.to_string()
        })),
    };
    view! {
        <details class="scenario-json">
            <summary>"Scenario JSON — share, save, or run with `tps eval`"</summary>
            <p class="note">"The page's address holds this scenario: copy the address to share exactly this view."</p>
            <pre id="scenario-json">{json}</pre>
            <button type="button" id="download-json" on:click=move |_| {
                if let (false, Ok(s)) = (stale.get_untracked(), scenario.get_untracked()) {
                    super::export::download_text("tps-scenario.json", "application/json", &s.to_json());
                }
            }>"Download JSON"</button>
            <label class="field">
                <span class="label">"Load a scenario (paste JSON)"</span>
                <textarea id="paste-json" rows="5" prop:value=move || pasted.get() on:input=move |ev| pasted.set(event_target_value(&ev))></textarea>
            </label>
            <button type="button" id="apply-json" on:click=apply>"Load"</button>
            <span class="error" role="alert" id="paste-error">{move || problem.get()}</span>
        </details>
    }
}
