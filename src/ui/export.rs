//! Downloads built in the browser (a Blob and a temporary link; nothing leaves the machine): CSV, JSON and SVG
//! text, a canvas as PNG at its device resolution, and the page's export and print bar.

use crate::scenario::{Report, Scenario, ScenarioError};
use leptos::prelude::*;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// Offers a Blob as a file named `name`.
fn download_blob(name: &str, blob: &web_sys::Blob) {
    let Ok(url) = web_sys::Url::create_object_url_with_blob(blob) else { return };
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

/// A file name's middle for a report: its model and hardware, lower case, "-" between words and for anything not
/// ASCII ("llama-3-70b-llama-3.1-70b-on-8-nvidia-h100-sxm5-80gb"), so that A's and B's downloads do not overwrite
/// each other (a pre-sales trial).
pub fn file_stem(r: &crate::scenario::Report) -> String {
    let mut out = String::new();
    for c in format!("{} on {}", r.model, r.hardware).to_ascii_lowercase().chars() {
        if c.is_ascii_alphanumeric() || c == '.' {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    out.trim_end_matches('-').chars().take(80).collect()
}

/// Offers `text` as a file named `name` of type `mime`.
pub fn download_text(name: &str, mime: &str, text: &str) {
    let parts = js_sys::Array::of1(&text.into());
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    if let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts) {
        download_blob(name, &blob);
    }
}

/// Offers the canvas's pixels (device resolution) as a PNG file named `name`.
pub fn download_canvas_png(canvas: &web_sys::HtmlCanvasElement, name: &str) {
    let name = name.to_string();
    let done = Closure::once_into_js(move |blob: Option<web_sys::Blob>| {
        if let Some(b) = blob {
            download_blob(&name, &b);
        }
    });
    let _ = canvas.to_blob(done.unchecked_ref());
}

/// Copies `text` to the clipboard; false when the browser refuses (the text stays selectable on the page).
pub fn copy_text(text: &str) -> bool {
    let Some(w) = web_sys::window() else { return false };
    let clip = js_sys::Reflect::get(&w, &"navigator".into()).and_then(|n| js_sys::Reflect::get(&n, &"clipboard".into()));
    let Ok(clip) = clip else { return false };
    let Ok(write) = js_sys::Reflect::get(&clip, &"writeText".into()).and_then(|f| f.dyn_into::<js_sys::Function>()) else {
        return false;
    };
    write.call1(&clip, &text.into()).is_ok()
}

/// "Pin as A" / "Unpin A", print (the one-page sizing report), and the tables and the report as files. One
/// click handler serves every button (by its id): each handler of its own would add about 1 KB of wasm.
#[component]
pub fn Toolbar(
    /// The scenario shown (pinned as it is).
    scenario: Memo<Result<Scenario, ScenarioError>>,
    /// Scenario A, when pinned.
    pinned: RwSignal<Option<Scenario>>,
    /// The evaluation.
    report: ReadSignal<Result<Report, ScenarioError>>,
    /// The pinned scenario's evaluation (A), when one is pinned.
    report_a: Memo<Result<Option<Report>, ScenarioError>>,
    /// Whether the inputs cannot be computed now (a text that is no number, or a value the scenario refuses): the
    /// figures shown are then the last inputs that could be.
    #[prop(into)]
    stale: Signal<bool>,
) -> impl IntoView {
    let click = move |ev: leptos::ev::MouseEvent| {
        let Some(id) =
            ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).and_then(|e| e.closest("button").ok().flatten()).map(|b| b.id())
        else {
            return;
        };
        // While a field is invalid the figures on the page are the last inputs that could be computed (a keystroke
        // before: "2k" typed over 1500 showed and exported a 2-token prompt's results, and pinned nothing, silently).
        // Nothing is pinned, printed or exported then — nor where a value parses but is refused (a review: bandwidth 0 had
        // exported the old report and pinned an A that could not be evaluated); the bar says why (style.css,
        // `.toolbar.stale`). Unpin still works.
        let stale = stale.get_untracked();
        match id.as_str() {
            "pin-a" if pinned.with_untracked(Option::is_some) => pinned.set(None),
            _ if stale => {}
            // Only a scenario that evaluates can be A.
            "pin-a" if report.with_untracked(Result::is_ok) => pinned.set(scenario.get_untracked().ok()),
            "pin-a" => {}
            // A new A while one is pinned, in one click (a teacher's trial pressed "Unpin A" to pin another and lost
            // the comparison).
            "repin-a" if report.with_untracked(Result::is_ok) => pinned.set(scenario.get_untracked().ok()),
            "print-report" => {
                if let Some(w) = web_sys::window() {
                    let _ = w.print();
                }
            }
            // The comparison as a table, or as the JSON `tps diff A B` prints (a trial's pre-sales engineer wanted the
            // meeting's A-vs-B in a file a script can read, and the report JSON held B alone).
            "export-diff-csv" | "export-diff-json" => report_a.with_untracked(|a| {
                report.with_untracked(|b| {
                    if let (Ok(Some(a)), Ok(b)) = (a, b) {
                        let d = crate::plan::diff(a, b);
                        if id == "export-diff-csv" {
                            download_text(&format!("tps-a-vs-b-{}.csv", file_stem(b)), "text/csv", &crate::plan::export::diff_csv(&d));
                        } else {
                            download_text(
                                &format!("tps-a-vs-b-{}.json", file_stem(b)),
                                "application/json",
                                &serde_json::to_string_pretty(&d).unwrap_or_default(),
                            );
                        }
                    }
                });
            }),
            _ => report.with_untracked(|r| match (id.as_str(), r) {
                ("export-sweep-csv", Ok(r)) => {
                    download_text(&format!("tps-sweep-{}.csv", file_stem(r)), "text/csv", &crate::plan::export::sweep_csv(r))
                }
                ("export-report-json", Ok(r)) => download_text(
                    &format!("tps-report-{}.json", file_stem(r)),
                    "application/json",
                    &serde_json::to_string_pretty(&*r.for_json()).unwrap_or_default(),
                ),
                _ => {}
            }),
        }
    };
    // Which buttons show and what the pin button says follow one class on the bar (see style.css).
    view! {
        <div class="toolbar" class:pinned=move || pinned.with(Option::is_some) class:stale=move || stale.get() on:click=click>
            <button type="button" id="pin-a" class="pin" title="Keep this scenario as A; change anything and the page shows B against it">
                <span class="if-unpinned">"Pin as A"</span><span class="if-pinned">"Unpin A"</span>
            </button>
            <button type="button" id="repin-a" class="if-pinned" title="Make the scenario shown now A, in place of the pinned one">"Pin this as A"</button>
            <button type="button" id="print-report" title="A one-page sizing report (A4 or Letter): print it or save it as PDF; the table of the sweep, when open, follows on a page of its own">"Print / PDF"</button>
            <button type="button" id="export-sweep-csv">"Sweep CSV"</button>
            <button type="button" id="export-diff-csv" class="if-pinned">"A vs B CSV"</button>
            <button type="button" id="export-diff-json" class="if-pinned">"A vs B JSON"</button>
            <button type="button" id="export-report-json">"Report JSON"</button>
        </div>
    }
}
