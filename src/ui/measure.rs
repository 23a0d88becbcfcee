//! "Compare with your benchmark results": files read in the browser (FileReader, nothing uploaded) or pasted
//! text, parsed by [`crate::import`], each run predicted on the page's scenario at its own load. Measured
//! points are also drawn on the throughput chart.

use super::inputs::Inputs;
use crate::import::{self, Comparison, Measurement, Mismatch};
use crate::scenario::{Scenario, ScenarioError};
use leptos::prelude::*;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// Parses `text` and adds its measurements (skipping runs already added), or records the error. Whether it
/// added any.
fn add(name: &str, text: &str, measurements: RwSignal<Vec<Measurement>>, problems: RwSignal<Vec<String>>) -> bool {
    match import::parse(name, text) {
        Ok(ms) => {
            let (mut dup, n) = (0, ms.len());
            // The same run again, or in another export of it (import::same_run), is kept once.
            measurements.update(|all| dup = import::merge(all, ms));
            if dup > 0 {
                problems.update(|p| p.push(format!("{name}: {dup} run{} already added, skipped", if dup == 1 { "" } else { "s" })));
            }
            dup < n
        }
        Err(e) => {
            problems.update(|p| p.push(e.to_string()));
            false
        }
    }
}

/// The browser's key for the texts of the runs added (an operations trial found its imported runs gone after a
/// reload, the scenario kept): the texts, not the parsed runs, so that what comes back is parsed as it was added.
const RUNS: &str = "tps-runs";

/// The most the kept texts may take, in bytes of UTF-8 (browsers allow about 5 million UTF-16 units per origin's
/// storage; the kept scenario and theme need a little of it).
const RUNS_LIMIT: usize = 2_000_000;

/// The (name, text) pairs kept by this browser.
fn kept() -> Vec<(String, String)> {
    let stored = web_sys::window().and_then(|w| w.local_storage().ok().flatten()).and_then(|st| st.get_item(RUNS).ok().flatten());
    let Some(array) = stored.and_then(|s| js_sys::JSON::parse(&s).ok()).and_then(|v| v.dyn_into::<js_sys::Array>().ok()) else {
        return Vec::new();
    };
    array
        .iter()
        .filter_map(|pair| {
            let pair = pair.dyn_into::<js_sys::Array>().ok()?;
            Some((pair.get(0).as_string()?, pair.get(1).as_string()?))
        })
        .collect()
}

/// Keeps `text` with the others, unless they would be too large together. Whether it did.
fn keep(name: &str, text: &str) -> bool {
    let Some(st) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) else { return false };
    let array = js_sys::Array::new();
    for (n, t) in kept().iter().map(|(n, t)| (n.as_str(), t.as_str())).chain([(name, text)]) {
        array.push(&js_sys::Array::of2(&n.into(), &t.into()));
    }
    let Some(json) = js_sys::JSON::stringify(&array).ok().and_then(|v| v.as_string()) else { return false };
    // A quota the browser sets lower than ours refuses it too.
    json.len() <= RUNS_LIMIT && st.set_item(RUNS, &json).is_ok()
}

/// Adds `text` and keeps it for the next visit, saying so where it is too large to keep.
fn add_kept(name: &str, text: &str, measurements: RwSignal<Vec<Measurement>>, problems: RwSignal<Vec<String>>) -> bool {
    let added = add(name, text, measurements, problems);
    if added && !keep(name, text) {
        problems.update(|p| p.push(format!("{name}: added, but too large to keep in this browser: gone after a reload")));
    }
    added
}

/// Order of the table: serving runs by load (concurrency, then request rate; a sweep reads 1, 8, 32, 128
/// whichever tools wrote it), then single-stream tests by depth; ties by tool and label.
fn order(a: &Measurement, b: &Measurement) -> std::cmp::Ordering {
    let load = |m: &Measurement| (m.concurrency.is_none(), m.concurrency.or(m.request_rate).unwrap_or(f64::INFINITY));
    let (la, lb) = (load(a), load(b));
    (a.kind as u8)
        .cmp(&(b.kind as u8))
        .then(a.context_depth.total_cmp(&b.context_depth))
        .then(la.0.cmp(&lb.0))
        .then(la.1.total_cmp(&lb.1))
        .then(a.tool.to_ascii_lowercase().cmp(&b.tool.to_ascii_lowercase()))
        .then(a.label.cmp(&b.label))
}

/// Reads each chosen file as text (in the browser) and adds it.
fn read_files(
    input: &web_sys::HtmlInputElement,
    measurements: RwSignal<Vec<Measurement>>,
    problems: RwSignal<Vec<String>>,
    added: RwSignal<Vec<String>>,
) {
    let Some(files) = input.files() else { return };
    for i in 0..files.length() {
        let Some(file) = files.get(i) else { continue };
        let Ok(reader) = web_sys::FileReader::new() else {
            problems.update(|p| p.push("this browser cannot read files here; paste the text instead".into()));
            return;
        };
        let name = file.name();
        let r = reader.clone();
        let onload = Closure::once(move || match r.result().ok().and_then(|v| v.as_string()) {
            Some(text) => {
                if add_kept(&name, &text, measurements, problems) {
                    added.update(|a| a.push(name.clone()));
                }
            }
            None => problems.update(|p| p.push(format!("{name}: not a text file"))),
        });
        reader.set_onload(Some(onload.as_ref().unchecked_ref()));
        onload.forget();
        if reader.read_as_text(&file).is_err() {
            problems.update(|p| p.push(format!("{}: could not be read", file.name())));
        }
    }
    // Choosing the same file again should load it again.
    input.set_value("");
}

/// "Switch the page to …" for a run of another model or device whose name matches a preset; switching clears
/// `message` (a calibration refusal that no longer applies).
fn switch_button(inputs: Inputs, mm: &Mismatch, message: RwSignal<String>) -> Option<impl IntoView> {
    let id = mm.preset.clone()?;
    let what = mm.what;
    let label = match what {
        "model" => crate::presets::models::find(&id).map_or(id.clone(), |p| p.name.to_string()),
        "engine" => crate::presets::engines::find(&id).map_or(id.clone(), |p| p.name.to_string()),
        "weight format" => crate::model::quant::weight_format(&id).map_or(id.clone(), |f| f.label.to_string()),
        "device count" | "split" => mm.file.clone(),
        _ => crate::presets::hardware::find(&id).map_or(id.clone(), |p| p.name.to_string()),
    };
    let go = move |_| {
        if what == "model" {
            inputs.model_preset.set(id.clone());
            inputs.params.set(String::new());
        } else if what == "engine" {
            inputs.engine.set(id.clone());
        } else if what == "weight format" {
            inputs.quant.set(id.clone());
            inputs.bits.set(String::new());
        } else if what == "device count" {
            inputs.devices.set(id.clone());
        } else if what == "split" {
            inputs.parallelism.set(id.clone());
        } else {
            inputs.hw_preset.set(id.clone());
            inputs.hw_kind.set(String::new());
            inputs.hw_name.set(String::new());
        }
        message.set(String::new());
    };
    Some(view! { <button type="button" class="switch-preset" on:click=go>{format!("Switch the page to {label}")}</button> })
}

fn fmt(v: f64) -> String {
    if v.abs() >= 100.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

/// The panel.
#[component]
pub fn MeasurementsPanel(
    /// The page's inputs (a run's lengths can be copied into them).
    inputs: Inputs,
    /// The page's scenario as evaluated (after the typing delay): hardware, engine, formats for the predictions.
    #[prop(into)]
    scenario: Signal<Result<Scenario, ScenarioError>>,
    /// Imported measurements (shared with the charts).
    measurements: RwSignal<Vec<Measurement>>,
) -> impl IntoView {
    let problems = RwSignal::new(Vec::<String>::new());
    // The runs this browser kept from the last visit come back, parsed again (their count said above the table).
    let restored = RwSignal::new(0usize);
    if measurements.with_untracked(Vec::is_empty) {
        // Quietly: a kept text that repeats another's runs had said "already added" on every reload (a review).
        let quiet = RwSignal::new(Vec::new());
        for (name, text) in kept() {
            add(&name, &text, measurements, quiet);
        }
        restored.set(measurements.with_untracked(Vec::len));
    }
    let pasted = RwSignal::new(String::new());
    let opened = RwSignal::new(false);
    // Calibration (plan::calibrate): the engine's efficiencies fitted to these runs go into the page's base
    // scenario (the fields the page has no control for), so they are in the scenario and its link and nothing
    // typed is touched; the scenario before is kept for "Undo" (the signal type of the pinned A: no new code).
    // Runs of another model or device are refused by the core: the message says which, and the runs' presets
    // are offered beside it ("Switch the page to …", as in the table).
    let calibration = RwSignal::new(String::new());
    let before_calibration = RwSignal::new(None::<Scenario>);
    // The scenario the last calibration made: "Undo" restores the one before only while the engine is still the one
    // it applied (another scenario loaded since keeps its own; a review). And whether the last attempt was refused.
    let applied = RwSignal::new(None::<Scenario>);
    let refused = RwSignal::new(false);
    let caution = RwSignal::new(false);
    let comparisons: Memo<Vec<Result<Comparison, String>>> = Memo::new(move |_| {
        let Ok(s) = scenario.get() else { return Vec::new() };
        measurements.with(|ms| {
            let mut sorted: Vec<&Measurement> = ms.iter().collect();
            crate::sorting::sort_small_by(&mut sorted, |a, b| order(a, b).is_lt());
            sorted.into_iter().map(|m| import::compare(&s, m).map_err(|e| format!("{} — {}: no prediction ({e})", m.tool, m.label))).collect()
        })
    });
    // The page's lengths, to flag runs whose crosses are not on the chart.
    // The lengths the chart is drawn for: the evaluated scenario's, defaults included.
    let page_lengths = Memo::new(move |_| {
        scenario.with(|s| s.as_ref().ok().and_then(|s| s.resolve().ok()).map(|r| (r.workload.prompt_tokens, r.workload.output_tokens)))
    });
    let off_chart = move || {
        let Some((p, o)) = page_lengths.get() else { return 0 };
        measurements.with(|ms| ms.iter().filter(|m| m.kind == import::Kind::Serving && m.load_recorded && !m.same_lengths(p, o)).count())
    };
    let summary = move || comparisons.with(|cs| import::headline(cs.iter().flatten()));
    // The files added, named beside the chooser: it is emptied to take the same file again, and its "No file chosen"
    // had read as a failed import (an operations trial).
    let added = RwSignal::new(Vec::<String>::new());
    let on_files = move |ev: leptos::ev::Event| {
        problems.set(Vec::new());
        if let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) {
            read_files(&input, measurements, problems, added);
        }
    };
    let on_paste = move |_| {
        problems.set(Vec::new());
        let text = pasted.get_untracked();
        if text.trim().is_empty() {
            problems.set(vec!["paste the contents of a result file into the box first".into()]);
        } else {
            // Kept when refused, to be mended (an operations trial lost a long paste to "not valid JSON").
            if add_kept("pasted text", &text, measurements, problems) && problems.with_untracked(Vec::is_empty) {
                pasted.set(String::new());
            }
        }
    };
    // Clearing the runs keeps the calibration (and what Undo goes back to).
    let clear = move |_| {
        measurements.set(Vec::new());
        added.set(Vec::new());
        restored.set(0);
        if let Some(st) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) {
            let _ = st.remove_item(RUNS);
        }
        problems.set(Vec::new());
        calibration.set(String::new());
        refused.set(false);
        caution.set(false);
    };
    // Whether the engine is still the one the last calibration applied.
    let ours = move || applied.with_untracked(|a| a.as_ref().is_some_and(|a| inputs.base.with_untracked(|b| b.engine == a.engine)));
    let on_calibrate = move |_| {
        let Ok(s) = scenario.get_untracked() else {
            calibration.set("Correct the inputs marked above first.".into());
            caution.set(false);
            return;
        };
        match measurements.with_untracked(|ms| crate::plan::calibrate::calibrate(&s, ms)) {
            Ok(cal) => {
                calibration.set(cal.summary());
                refused.set(false);
                // Applied with caveats (an efficiency past what the data's devices reach, a bound, figures made worse):
                // shown as a caution, not in the notes' grey (an operations trial missed η_fl 0.871 said there).
                caution.set(!cal.caveats().is_empty());
                // Calibrated again: "Undo" still goes back to before the first (a trial calibrated twice, and Undo
                // went back to the first calibration, then vanished) — unless another scenario came in between.
                if before_calibration.with_untracked(Option::is_none) || !ours() {
                    before_calibration.set(Some(s));
                }
                inputs.base.update(|b| b.engine = cal.scenario.engine.clone());
                applied.set(Some(cal.scenario));
            }
            // Refused: the calibration in place (if any) stays, and so does what Undo goes back to.
            Err(e) => {
                refused.set(true);
                calibration.set(format!("Not calibrated: {}.", e.message));
            }
        }
    };
    let undo = move |_| {
        match before_calibration.get_untracked().filter(|_| ours()) {
            Some(before) => inputs.base.update(|b| b.engine = before.engine),
            // Calibrated in a link, a pasted scenario or before a reload: back to the defaults.
            None => inputs.base.update(|b| {
                crate::plan::calibrate::discard(b);
            }),
        }
        calibration.set(String::new());
        refused.set(false);
        caution.set(false);
        before_calibration.set(None);
        applied.set(None);
    };
    // After a refusal: the presets of the runs' models and devices, once each, to switch the page to.
    let refusal_switches = move || {
        if calibration.with(String::is_empty) || !refused.get() {
            return Vec::new();
        }
        let mut seen: Vec<Mismatch> = Vec::new();
        comparisons.with(|cs| {
            for mm in cs.iter().flatten().flat_map(|c| &c.mismatch) {
                if mm.preset.is_some() && !seen.iter().any(|x| x.what == mm.what && x.preset == mm.preset) {
                    seen.push(mm.clone());
                }
            }
        });
        seen.iter().filter_map(|mm| switch_button(inputs, mm, calibration)).collect::<Vec<_>>()
    };
    view! {
        // Open while it has runs, and stays as the user left it: "Clear" empties it but does not fold it away.
        <details class="measurements" class:empty=move || measurements.with(Vec::is_empty) prop:open=move || opened.get() || !measurements.with(Vec::is_empty)
            on:toggle=move |ev| {
                if let Some(d) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlDetailsElement>().ok()) {
                    opened.set(d.open());
                }
            }>
            <summary>"Compare with your benchmark results"</summary>
            <p class="note">
                "Result files of vLLM (" <code>"vllm bench serve"</code> ", " <code>"benchmark_serving.py"</code> "), SGLang " <code>"bench_serving"</code>
                ", genai-perf, AIPerf, llmperf, llama-bench (json, jsonl, csv, md) and vLLM's " <code>"/metrics"</code>
                ". Each run is predicted on the hardware, model and engine above, at the run's own concurrency and lengths. Files are read in this browser; nothing leaves it."
            </p>
            <label class="field">
                <span class="label">"Result files"<span id="measure-added">{move || {
                    added.with(|a| if a.is_empty() || measurements.with(Vec::is_empty) { String::new() } else { format!(" — added: {}", a.join(", ")) })
                }}</span></span>
                <input type="file" id="measure-files" multiple accept=".json,.jsonl,.csv,.md,.prom,.txt" on:change=on_files />
            </label>
            <label class="field">
                <span class="label">"…or paste a result"</span>
                <textarea id="measure-paste" rows="4" prop:value=move || pasted.get() on:input=move |ev| pasted.set(event_target_value(&ev))></textarea>
            </label>
            <button type="button" id="measure-add" on:click=on_paste>"Add"</button>
            <button type="button" id="measure-clear" on:click=clear>"Clear"</button>
            <ul class="error" role="alert" id="measure-errors">
                {move || problems.get().into_iter().map(|p| view! { <li>{p}</li> }).collect_view()}
            </ul>
            <p class="note" id="measure-kept" class:hidden=move || restored.get() == 0 || measurements.with(Vec::is_empty)>
                {move || format!("{} run{} from your last visit, kept by this browser (Clear forgets them).", restored.get(), if restored.get() == 1 { "" } else { "s" })}
            </p>
            <p class="summary" id="measure-summary">{summary}</p>
            // Shown with runs to calibrate on, or a calibration to undo (one from a link or before a reload too).
            <div class="calibrate" class:hidden=move || measurements.with(Vec::is_empty) && inputs.base.with(|b| b.engine.calibrated_from.is_none())>
                <button type="button" id="measure-calibrate" on:click=on_calibrate class:hidden=move || measurements.with(Vec::is_empty)
                    title="Fit the engine's efficiencies (bandwidth, KV, compute, per-step and per-request overheads) to these runs of this deployment">
                    "Calibrate the engine on these runs"
                </button>
                <button type="button" id="measure-uncalibrate" on:click=undo class:hidden=move || inputs.base.with(|b| b.engine.calibrated_from.is_none())>"Undo calibration"</button>
                <p class="note" id="measure-calibration" role="status" class:hidden=move || calibration.with(String::is_empty) class:refused=move || refused.get() class:caution=move || caution.get() && !refused.get()>
                    {move || calibration.get()} " " {refusal_switches}
                </p>
            </div>
            {move || {
                let n = off_chart();
                (n > 0).then(|| view! {
                    <p class="note" id="measure-off-chart">{format!(
                        "{n} run{} used other prompt/output lengths than the page ({} + {} tokens), so {} not drawn on the chart; \
                         \"Use these lengths\" on a run sets the page to its workload.",
                        if n == 1 { "" } else { "s" }, page_lengths.get().map_or(0.0, |l| l.0), page_lengths.get().map_or(0.0, |l| l.1), if n == 1 { "it is" } else { "they are" }
                    )}</p>
                })
            }}
            <div class="table-wrap" class:hidden=move || measurements.with(Vec::is_empty)>
                <table id="measure-table">
                    <thead><tr><th>"figure"</th><th>"predicted"</th><th>"measured"</th><th>"error"</th></tr></thead>
                    <tbody>
                        {move || comparisons.get().into_iter().map(|c| match c {
                            Err(e) => view! { <tr><td colspan="4" class="error">{e}</td></tr> }.into_any(),
                            Ok(c) => {
                                let m = &c.measurement;
                                let head = format!("{} — {} ({}); predicted for {}", m.tool, m.label, m.model.as_deref().unwrap_or("model not recorded"), c.load);
                                let notes: Vec<String> = m.notes.iter().chain(&c.notes).filter(|n| !c.mismatch.iter().any(|mm| mm.note() == **n)).cloned().collect();
                                // Not for a run of one output token (a prompt benchmark): the page's answers are two tokens or
                                // more, and the button had set Output to 1, refused (an operations trial).
                                let lengths = (m.kind == import::Kind::Serving).then_some(()).and(m.prompt_tokens.zip(m.output_tokens)).filter(|(_, o)| *o >= 2.0);
                                let spread = m.length_spread();
                                let use_lengths = lengths.map(|(p, o)| {
                                    let set = move |_| {
                                        inputs.prompt.set(format!("{}", p.round()));
                                        inputs.output.set(format!("{}", o.round()));
                                        // A run with varied lengths (llmperf gives the spread) is simulated as it was predicted.
                                        if let Some((dist, spread)) = spread {
                                            inputs.distribution.set(dist.id().into());
                                            inputs.spread.set(if spread > 0.0 { format!("{spread:.2}") } else { String::new() });
                                        }
                                    };
                                    view! { <button type="button" class="use-lengths" on:click=set>{format!("Use these lengths ({:.0} + {:.0})", p, o)}</button> }
                                });
                                // The file was measured on another model or device: say so above its rows and offer to switch.
                                let mismatch = c.mismatch.iter().map(|mm| {
                                    let switch = switch_button(inputs, mm, calibration);
                                    view! { <tr class="mismatch"><td colspan="4">"⚠ " {mm.note()} " " {switch}</td></tr> }
                                }).collect_view();
                                view! {
                                    <tr class="run"><th colspan="4" scope="rowgroup">{head}" "{use_lengths}</th></tr>
                                    {mismatch}
                                    {c.rows.into_iter().map(|r| {
                                        let bad = r.error_pct.abs() > 25.0;
                                        view! {
                                            <tr>
                                                <td>{format!("{} ({})", r.metric, r.unit)}</td>
                                                <td class="num">{fmt(r.predicted)}</td>
                                                <td class="num">{fmt(r.measured)}</td>
                                                <td class="num" class:off=bad>{format!("{:+.1} %", r.error_pct)}</td>
                                            </tr>
                                        }
                                    }).collect_view()}
                                    {(!notes.is_empty()).then(|| view! { <tr class="notes"><td colspan="4">{notes.join(" · ")}</td></tr> })}
                                }.into_any()
                            }
                        }).collect_view()}
                    </tbody>
                </table>
            </div>
        </details>
    }
}
