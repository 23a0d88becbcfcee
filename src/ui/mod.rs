//! The Leptos page (wasm32 only). The chain of derived state follows leptos-chartistry's `use_data`:
//! raw input strings → `Memo<Result<Scenario>>` → `Memo<Result<Report>>` → one narrow memo per chart → one
//! effect per canvas. Components never compute a formula; they call [`crate::plan::evaluate`].

mod backend;
mod charts;
mod compare;
mod explain;
mod export;
mod fleet;
mod inputs;
mod measure;
mod report;
mod reproduce;
mod results;
mod serving;
mod share;
mod sizing;
mod table;
pub mod worker;

use crate::model::quant;
use crate::model::units::fmt_num;
use crate::presets;
use crate::scenario::{Report, Scenario, ScenarioError};
use inputs::{Inputs, NumField, SelectField, TextField};
use leptos::prelude::*;

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    apply_theme(stored_theme().as_deref());
    let inputs = Inputs::new();
    // Scenario A of "A versus B", when one is pinned; the page's scenario is then B.
    let pinned = RwSignal::new(None::<Scenario>);
    // The load picked on the charts (slider or pointer), shared by the charts and "How to read this", and kept in
    // the address (`share`'s `&l=`).
    let pick = RwSignal::new(None::<f64>);
    // …of which the slider's and a click's (not the pointer passing over a chart) go into the address.
    let linked = RwSignal::new(None::<f64>);
    // A link with a scenario in its address reproduces that page; a broken one says which field is wrong. Without
    // one, the last scenario this browser kept comes back (said above the page, with a way to the defaults).
    let kept = share::restore_last(inputs.scenario().ok().as_ref());
    let link_error = RwSignal::new(follow_link(inputs, pinned, (pick, linked), kept));
    // A link that could not be read (or is another version's) stays in the address until the page changes, so it can
    // be corrected and reloaded (a bad-input trial: the page's defaults had replaced it at once).
    // Held with what the page showed then: its scenario, the A pinned and the load picked (any of them changing ends
    // the hold; a review: a scrubber pick had been dropped, and a link with a valid A was never held).
    let held = StoredValue::new(
        share::read_hash()
            .is_some_and(|h| h.shown.as_ref().map_or(true, |sc| sc.version.is_some_and(|v| v != crate::scenario::VERSION)))
            .then(|| inputs.scenario().ok().map(|s| (s, pinned.with_untracked(|a| a.as_ref().map(Scenario::to_json)), linked.get_untracked())))
            .flatten(),
    );
    // (Compared by their JSON: `Scenario::same_as`.)
    let scenario = Memo::new_with_compare(
        move |_| inputs.scenario(),
        |a, b| match (a, b) {
            (Some(Ok(a)), Some(Ok(b))) => !a.same_as(b),
            (Some(Err(a)), Some(Err(b))) => a != b,
            _ => true,
        },
    );
    // A new link opened in this tab (typed into the address bar, or back/forward) shows its scenario: the page
    // never shows one scenario while its address holds another. The page's own address updates use
    // `replaceState`, which fires neither event.
    let on_nav = move || {
        // The restored scenario's "Start from the defaults" (`share::restore_last`).
        if web_sys::window().and_then(|w| w.location().hash().ok()).as_deref() == Some("#new") {
            share::start_afresh();
            return;
        }
        let differs = share::read_hash().is_some_and(|h| {
            // A link with typed texts always restores them (its scenario may equal the page's).
            let typed = h.typed.is_some();
            let shown = match (h.shown, scenario.get_untracked()) {
                (Ok(linked), Ok(shown)) => !linked.same_as(&shown),
                _ => true,
            };
            let a = match h.pinned {
                None => pinned.with_untracked(Option::is_some),
                Some(Ok(a)) => pinned.with_untracked(|p| !p.as_ref().is_some_and(|p| p.same_as(&a))),
                Some(Err(_)) => true,
            };
            typed || shown || a || h.load != linked.get_untracked()
        });
        if differs {
            link_error.set(follow_link(inputs, pinned, (pick, linked), false));
        }
    };
    let h1 = window_event_listener(leptos::ev::hashchange, move |_| on_nav());
    let h2 = window_event_listener(leptos::ev::popstate, move |_| on_nav());
    // Presentation mode's state, for the button's pressed state; Escape leaves it and closes an open ⓘ.
    let present = RwSignal::new(false);
    // Presentation mode hides the inputs (the charts take the width); the ☰ button shows them for a live change.
    let inputs_shown = RwSignal::new(false);
    let h3 = window_event_listener(leptos::ev::keydown, move |e| {
        if e.key() == "Escape" {
            if present.get_untracked() {
                present.set(toggle_present());
            }
            close_open_infos();
        }
    });
    // One ⓘ open at a time, closed by a click elsewhere (a teacher's trial: open definitions stacked over the big
    // figures, and only Escape closed them). The browser opens a clicked one after this listener runs.
    let h4 = window_event_listener(leptos::ev::click, move |e| {
        use wasm_bindgen::JsCast;
        let inside_open =
            e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).and_then(|el| el.closest("details.info[open]").ok().flatten()).is_some();
        if !inside_open {
            close_open_infos();
        }
    });
    on_cleanup(move || {
        h1.remove();
        h2.remove();
        h3.remove();
        h4.remove();
    });
    // The first evaluation counts as heavy: the page draws its analytic figures at once and simulates after.
    let last_eval_ms = StoredValue::new(f64::INFINITY);
    let measurements = RwSignal::new(Vec::<crate::import::Measurement>::new());
    // The evaluation. One that took under `IN_TASK_MS` last time runs in one task; a heavier one (a 64-level DeepSeek-V3
    // sweep: ~80 ms) shows the analytic report at once and simulates its levels a few per task (`plan::Staged`,
    // ≤ 8 ms each), so no task holds the page while typing; a newer change drops the job in flight. The first
    // evaluation is simulated in pieces too, after the page is up with the analytic report (the simulated sweep
    // took 130–230 ms inside start-up: the first chart came after it). Every evaluation is news (a changed
    // scenario or runs, already compared by their own memos): comparing two reports field by field cost 3 KB of
    // wasm and saved nothing.
    // Opened on inputs that cannot be computed (a reload while a field held a wrong text or number): the scenario
    // they were laid over — the last that could be computed, which the address keeps beside their texts — is
    // evaluated and simulated, shown as such above the field's message (the page had opened blank).
    // (Each staged once: resolving is the scenario's check.)
    let staged_at_start = |s: &Scenario| crate::plan::Staged::new(s, &[]);
    let at_start = scenario.with_untracked(|s| s.as_ref().map_err(Clone::clone).and_then(staged_at_start));
    let base_staged = at_start.as_ref().err().and_then(|_| inputs.base.with_untracked(staged_at_start).ok());
    let evaluated = RwSignal::new(match &base_staged {
        Some(b) => Ok(b.analytic()),
        None => at_start.map(|st| st.analytic()),
    });
    let job = StoredValue::new(0_u64);
    let simulating = RwSignal::new(None::<(usize, usize)>);
    let pieces = Pieces { job, evaluated, simulating, last_eval_ms };
    // The levels are simulated in a Web Worker where one can run (`worker`), else here, in pieces.
    worker::start(pieces);
    if let Some(st) = base_staged {
        simulate(st, job.get_value(), Some(inputs.base.with_untracked(Scenario::to_json)), pieces, AFTER_DRAWINGS);
    }
    // What stops the inputs from being computed, if anything. One invalid field does not blank the page: the
    // results of the last inputs that could be computed stay, marked as such, while the field says what is wrong.
    let problem = RwSignal::new(None::<ScenarioError>);
    Effect::new(move |prev: Option<()>| {
        let staged = scenario.with(|s| s.as_ref().map_err(Clone::clone).and_then(|s| measurements.with(|ms| crate::plan::Staged::new(s, ms))));
        if staged.is_ok() {
            let gen = job.get_value().wrapping_add(1);
            job.set_value(gen);
            worker::cancel();
            simulating.set(None);
            problem.set(None);
        }
        match staged {
            // The last inputs that could be computed stay, and so does their simulation in flight: dropping it had
            // left their analytic estimate on the cards for good (a trial quoted its 7 servers, the simulation's 8).
            Err(e) => {
                if evaluated.with_untracked(Result::is_err) {
                    evaluated.set(Err(e.clone()));
                }
                problem.set(Some(e));
            }
            Ok(mut st) => {
                // Light last time: simulated here, in this task, if that takes under `IN_TASK_MS`; a heavier one (a
                // model that did not fit, then more devices: a 163 ms task) shows the analytic report and goes on in
                // the worker (or in pieces, from where it stopped).
                let t0 = now_ms();
                if last_eval_ms.get_value() < IN_TASK_MS {
                    while !st.done() && now_ms() - t0 < IN_TASK_MS {
                        st.step();
                    }
                    if st.done() {
                        evaluated.set(Ok(st.finish()));
                        finished(last_eval_ms, now_ms() - t0);
                        worker::record(false);
                        return;
                    }
                }
                // At start-up the analytic report is already shown, and its charts' drawings (queued in this
                // tick) go before the first piece.
                let after_drawings = if prev.is_some() {
                    evaluated.set(Ok(st.analytic()));
                    0.0
                } else {
                    // (Said at once: A's evaluation must not take the analytic report for the page's own.)
                    simulating.set(Some(st.progress()));
                    AFTER_DRAWINGS
                };
                // The worker gets the scenario only: with imported runs (they widen the levels) the page simulates.
                let json = scenario.with_untracked(|s| s.as_ref().ok().filter(|_| measurements.with_untracked(Vec::is_empty)).map(Scenario::to_json));
                simulate(st, job.get_value(), json, pieces, after_drawings);
            }
        }
    });
    let report = evaluated.read_only();
    // The load picked, as the level it snaps to (the pointer's every move is not an address to write), or as
    // picked while there is no report.
    let picked_level = Memo::new(move |_| {
        let p = linked.get()?;
        let level = report.with(|r| {
            let r = r.as_ref().ok()?;
            crate::plan::readout::nearest_level(r, Some(p)).and_then(|i| crate::plan::readout::readout(r, i)).map(|c| c.load)
        });
        level.or(Some(p))
    });
    // The address follows the page (an effect: it only talks to the outside world).
    // While a field's text is no number there is no scenario: the address keeps the last scenario the fields made
    // (else their base) and the fields' texts, so that a reload puts back what was typed (it had shown that last
    // scenario alone), and a link cut before the texts still shows a scenario.
    // A number out of its range (Prompt −5) is a scenario that does not resolve: kept the same way, its text beside
    // the last scenario that could be computed (written as it was, a reload had opened on that invalid scenario
    // with every chart empty: a teacher's trial).
    Effect::new(move |_| {
        let computable = scenario.with(|s| s.as_ref().is_ok_and(|s| s.resolve().is_ok()));
        let typed = (!computable).then(|| inputs.typed());
        let shown = scenario.with(|s| s.as_ref().ok().filter(|_| computable).cloned());
        let level = picked_level.get();
        // (The unreadable link, while the page still shows what it showed before it.)
        let pin = pinned.with(|a| a.as_ref().map(Scenario::to_json));
        let unchanged =
            held.with_value(|h| h.as_ref().is_some_and(|(s0, a0, l0)| shown.as_ref().is_some_and(|s| s.same_as(s0)) && *a0 == pin && level == *l0));
        if unchanged {
            return;
        }
        // The first change after it: texts typed beside the scenario the page showed, not beside the unreadable one
        // the address still holds (a review: a reload had then lost both).
        let before = held.with_value(|h| h.as_ref().map(|(s0, _, _)| s0.clone()));
        held.set_value(None);
        let shown = shown.or(before);
        pinned.with(|a| share::write_hash(shown.as_ref(), (a.as_ref(), level), typed.as_deref(), &inputs.base));
    });
    // A's evaluation: the page's own when A was pinned from it, else evaluated (a link that holds A).
    let report_a: Memo<Result<Option<Report>, ScenarioError>> = Memo::new_with_compare(
        move |_| {
            let Some(a) = pinned.get() else { return Ok(None) };
            // (Not the analytic report shown while the levels are simulated.)
            if scenario.with_untracked(|s| s.as_ref().is_ok_and(|s| s.same_as(&a))) && simulating.with_untracked(Option::is_none) {
                if let Ok(r) = report.get_untracked() {
                    return Ok(Some(r));
                }
            }
            crate::plan::evaluate(&a).map(Some)
        },
        |_, _| true,
    );
    // The inputs cannot be computed now: the figures shown are the last that could be (nothing pinned or exported).
    let stale = Signal::derive(move || problem.with(Option::is_some));
    // The charts' PNG and SVG buttons wait too: `data-stale` on <html> greys them and lets no click through (CSS; a
    // review found them exporting the last computable inputs' charts while the bar said exports wait).
    Effect::new(move |_| {
        let on = stale.get();
        if let Some(root) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
            let _ = if on { root.set_attribute("data-stale", "") } else { root.remove_attribute("data-stale") };
        }
    });
    let a_problem = Signal::derive(move || {
        report_a.with(|a| a.as_ref().err().map(|e| format!("Scenario A cannot be evaluated ({e}): unpin it, or correct its link.")))
    });
    // Every field's message, not only the one that stops the evaluation (read only while something is wrong).
    // A memo: some forty fields read it, and each reading of a derived signal would check every field again.
    let error: Signal<Vec<ScenarioError>> = Memo::new(move |_| {
        let Some(first) = problem.get() else { return Vec::new() };
        let mut all = inputs.field_errors();
        if !all.iter().any(|e| e.field == first.field) {
            all.insert(0, first);
        }
        all
    })
    .into();
    let link = Signal::derive(move || {
        scenario.with(|s| s.as_ref().map(|s| pinned.with(|a| share::link_for(s, a.as_ref(), picked_level.get()))).unwrap_or_default())
    });
    view! {
        <header class="top">
            <h1>"TPS Planner"</h1>
            <button type="button" class="theme" id="theme-toggle" on:click=move |_| toggle_theme() title="Light or dark theme (remembered in this browser)">"◐ Theme"</button>
            <button type="button" class="theme inputs-toggle" id="inputs-toggle" on:click=move |_| inputs_shown.set(toggle_inputs()) aria-pressed=move || if inputs_shown.get() { "true" } else { "false" } aria-controls="inputs" title="Presentation mode: show or hide the inputs (hidden, the charts take the width)">"☰ Inputs"</button>
            <button type="button" class="theme present" id="present-toggle" on:click=move |_| present.set(toggle_present()) aria-pressed=move || if present.get() { "true" } else { "false" } title="Presentation mode: larger type, charts side by side on a wide screen (a projector)">"▣ Present"</button>
            <p class="tagline">"Tokens per second for one user and for the whole server — and the load where it stops being good enough."</p>
        </header>
        {move || link_error.get().map(|m| view! { <p class="warning link-error" role="alert">{m}</p> })}
        <main class="layout">
            <section class="inputs" id="inputs" aria-label="Inputs">
                <HardwareInputs inputs error />
                <ModelInputs inputs error />
                <WorkloadInputs inputs error />
                <serving::ServingInputs inputs error />
                <fleet::FleetCostInputs inputs error />
            </section>
            <section class="outputs" aria-label="Results">
                <report::PrintHeader scenario report pinned report_a />
                <export::Toolbar scenario pinned report report_a stale />
                <p class="simulating" id="simulating" role="status">
                    {move || simulating.get().map(|(k, n)| format!("Simulating load levels: {k} of {n} (until then the dimmed figures are the analytic estimate)"))}
                </p>
                <results::Results report problem errors=error />
                <sizing::SizingCards report />
                <JumpBar />
                <compare::DiffTable report report_a problem=a_problem />
                <charts::Charts report report_a measurements pick linked=share::LinkedLoad(linked) />
                <explain::Explain report pick />
                <table::SweepTable report />
                <measure::MeasurementsPanel inputs scenario measurements />
                <reproduce::ReproducePanel scenario report />
                <share::ScenarioPanel inputs scenario stale />
                <report::PrintFooter report link />
            </section>
        </main>
        <footer class="foot">
            "Runs entirely in your browser; nothing is sent anywhere. TPOT = (E2E − TTFT) / (output tokens − 1), as vLLM's benchmark defines it (E2E: from sending a request to its last token); ITL = each gap between tokens."
        </footer>
    }
}

#[component]
fn HardwareInputs(inputs: Inputs, #[prop(into)] error: Signal<Vec<ScenarioError>>) -> impl IntoView {
    let hw = move || presets::hardware::find(&inputs.hw_preset.get());
    // A custom device's fields, kept while one preset is looked at and put back with Custom (a trial typed 777 GB/s and
    // 33 GiB, looked at an L4 and came back to the L4's 300 and 24).
    let custom: [RwSignal<String>; 8] =
        [inputs.bandwidth, inputs.memory, inputs.interconnect, inputs.compute, inputs.fp8, inputs.hw_kind, inputs.hw_name, inputs.hw_arch];
    let stash = RwSignal::new(Vec::<String>::new());
    let mut opts = vec![(String::new(), "Custom (type the numbers)".to_string())];
    opts.extend(presets::hardware::HARDWARE.iter().map(|h| {
        let products = presets::hardware::products(h.id).map_or(String::new(), |p| format!(" (in {p})"));
        (h.id.to_string(), format!("{}{products} — {:.0} GB/s, {:.0} GiB", h.name, h.bandwidth_gbps, h.memory_gb))
    }));
    let engines: Vec<(String, String)> = presets::engines::ENGINES.iter().map(|e| (e.id.to_string(), e.name.to_string())).collect();
    let mut archs = vec![(String::new(), "Typical for the kind".to_string())];
    archs.extend(
        crate::model::hardware::Architecture::ALL
            .iter()
            .filter(|a| **a != crate::model::hardware::Architecture::Other)
            .map(|a| (a.id().to_string(), a.id().replace('-', " "))),
    );
    let mut kinds = vec![(String::new(), "Other (generic efficiency)".to_string())];
    kinds.extend(
        crate::model::hardware::HardwareKind::ALL
            .iter()
            .filter(|k| **k != crate::model::hardware::HardwareKind::Other)
            .map(|k| (k.id().to_string(), kind_label(*k).to_string())),
    );
    view! {
        <fieldset>
            <legend>"Hardware"</legend>
            <SelectField label="Device" field="hardware.preset" value=inputs.hw_preset options=opts error on_pick=Callback::new(move |picked: String| {
                // Back to Custom after a preset: the custom device typed before it, if there was one.
                let kept = stash.get_untracked();
                // (A custom device has its bandwidth: fields half cleared by hand are no device to put back.)
                if picked.is_empty()
                    && kept.first().is_some_and(|t| !t.trim().is_empty())
                    && custom[..5].iter().all(|f| f.with_untracked(|t| t.trim().is_empty()))
                {
                    inputs.hw_cleared.set(String::new());
                    for (f, t) in custom.iter().zip(kept) {
                        f.set(t);
                    }
                    return;
                }
                // Kept from Custom to a preset, dropped from one preset to another: Custom after two presets starts
                // from the last one's numbers, as it always did.
                if !picked.is_empty() {
                    stash.set(if inputs.hw_preset.with_untracked(String::is_empty) { custom.iter().map(|f| f.get_untracked()).collect() } else { Vec::new() });
                }
                // Switching to Custom keeps the previous device's numbers, kind (its efficiency class) and name
                // in the fields, ready to edit: the prediction does not change until a number does.
                if let (true, Some(h)) = (picked.is_empty(), presets::hardware::find(&inputs.hw_preset.get_untracked())) {
                    inputs.hw_cleared.set(String::new());
                    keep(inputs.bandwidth, h.bandwidth_gbps);
                    keep(inputs.memory, h.memory_gb);
                    keep(inputs.interconnect, h.interconnect_gbps);
                    if let Some(tf) = h.fp16_tflops {
                        keep(inputs.compute, tf);
                    }
                    if let Some(tf) = h.fp8_tflops {
                        keep(inputs.fp8, tf);
                    }
                    if inputs.hw_kind.with_untracked(String::is_empty) {
                        inputs.hw_kind.set(h.kind.id().to_string());
                    }
                    if inputs.hw_name.with_untracked(String::is_empty) {
                        inputs.hw_name.set(format!("{} (custom)", h.name));
                    }
                    if inputs.hw_arch.with_untracked(String::is_empty) {
                        inputs.hw_arch.set(presets::hardware::architecture(h.id).id().to_string());
                    }
                } else if !picked.is_empty() {
                    // A preset brings its own figures: what was typed for the previous device goes (a pre-sales
                    // trial confirmed the H100's 3350 GB/s, pinned it as A, picked the L40S for B, and B was
                    // computed at 3350 GB/s: 8 servers, not 12, with only "(bandwidth set to 3350 GB/s)" to say so).
                    // A typed figure that was the previous preset's own goes silently; one that differed is named.
                    let old = presets::hardware::find(&inputs.hw_preset.get_untracked());
                    let mut named = Vec::new();
                    // A node's size typed stays with a device of the same kind of node (a pre-sales trial pinned 8 × H100
                    // on boards of 4 and picked the H200 for B: the 4 had gone); from or to an NVL72 rack it goes.
                    let node_of = presets::hardware::default_node_devices;
                    let node = old.filter(|h| node_of(h.id) != node_of(&picked)).map(|h| f64::from(node_of(h.id)));
                    let mut fields = vec![
                        (inputs.bandwidth, "bandwidth", "GB/s", old.map(|h| h.bandwidth_gbps)),
                        (inputs.compute, "FP16 compute", "TFLOPS", old.and_then(|h| h.fp16_tflops)),
                        (inputs.fp8, "FP8 compute", "TFLOPS", old.and_then(|h| h.fp8_tflops)),
                        (inputs.memory, "memory", "GiB", old.map(|h| h.memory_gb)),
                        (inputs.interconnect, "interconnect", "GB/s", old.map(|h| h.interconnect_gbps)),
                    ];
                    // From Custom it stays too, but for a rack (a pre-sales trial typed 8 per node, went through
                    // Custom to the H200, and found it empty: a node's size is the purchase's, not the device's).
                    if node.is_some() || (old.is_none() && node_of(&picked) == 72) {
                        fields.push((inputs.node_devices, "devices per node", "", node));
                    }
                    for (field, what, unit, was) in fields {
                        let typed = field.get_untracked();
                        if typed.trim().is_empty() {
                            continue;
                        }
                        // From Custom (no preset before) the fields were the custom device's own: cleared with it.
                        if old.is_some() && crate::model::units::parse_typed(&typed, false, false, false).ok().flatten() != was {
                            named.push(format!("{what} {} {unit}", typed.trim()).trim_end().to_string());
                        }
                        field.set(String::new());
                    }
                    inputs.hw_cleared.set(if named.is_empty() {
                        String::new()
                    } else {
                        format!(" Cleared with the change of device, as typed for the previous one: {}.", named.join(", "))
                    });
                    inputs.hw_kind.set(String::new());
                    inputs.hw_name.set(String::new());
                    inputs.hw_arch.set(String::new());
                    // A serving engine does not follow onto Apple silicon (none has a Metal backend): the engine goes to
                    // llama.cpp, what `tps eval` runs there, and weights left at the old engine's default follow it (a
                    // pre-sales trial's M3 Ultra stayed on vLLM in BF16: 4.1 tok/s, where the CLI said 14.2 with
                    // llama.cpp's Q4_K_M, and nothing said vLLM does not run there). A CPU keeps its engine: vLLM has a
                    // CPU backend. The generic engine stands for any other (MLX among them) and stays.
                    let engine = inputs.engine.get_untracked();
                    let apple = presets::hardware::find(&picked).is_some_and(|h| h.kind == crate::model::hardware::HardwareKind::AppleSilicon);
                    if apple && !matches!(engine.as_str(), "llama.cpp" | "generic") {
                        let native = presets::models::find(&inputs.model_preset.get_untracked()).map(|m| m.native_weights);
                        follow_weights(inputs, (&engine, native), ("llama.cpp", native));
                        let name = presets::engines::find(&engine).map_or(engine.clone(), |e| e.name.to_string());
                        inputs.engine.set("llama.cpp".into());
                        inputs.hw_cleared.update(|c| c.push_str(&format!(" Engine set to llama.cpp, what runs on this device ({name} has no Metal backend).")));
                    }
                }
            }) />
            <Show when=move || inputs.hw_preset.with(String::is_empty)>
                <TextField label="Device name" field="hardware.name" value=inputs.hw_name placeholder="e.g. our inference node" error />
                <SelectField label="Device kind (sets the efficiency class)" field="hardware.kind" value=inputs.hw_kind options=kinds.clone() error />
                <SelectField label="Generation" field="hardware.architecture" value=inputs.hw_arch options=archs.clone() error />
            </Show>
            <p class="note" id="efficiency-class">{move || efficiency_note(inputs)}</p>
            <NumField label="Memory bandwidth" unit="GB/s" field="hardware.memory_bandwidth_gbps" value=inputs.bandwidth
                placeholder=Signal::derive(move || hw().map_or("required".into(), |h| format!("{}", h.bandwidth_gbps))) error />
            <NumField label="Dense FP16 compute per device" unit="TFLOPS" field="hardware.fp16_tflops" value=inputs.compute
                placeholder=Signal::derive(move || hw().and_then(|h| h.fp16_tflops).map_or("typical for the kind".into(), |v| format!("{v}"))) error />
            <NumField label="Dense FP8 compute per device" unit="TFLOPS" field="hardware.fp8_tflops" value=inputs.fp8
                placeholder=Signal::derive(move || hw().map_or("none".into(), |h| h.fp8_tflops.map_or("none (no FP8 units)".into(), |v| format!("{v}")))) error />
            <NumField label="Memory per device" unit="GiB" field="hardware.memory_gb" value=inputs.memory
                placeholder=Signal::derive(move || hw().map_or("auto".into(), |h| format!("{}", h.memory_gb))) error />
            <NumField label="Devices" unit="" field="hardware.devices" value=inputs.devices
                placeholder=Signal::derive(|| "1 when empty".to_string()) error />
            <NumField label="Devices per node (linked by the interconnect; a fleet buys whole nodes)" unit="" field="hardware.node_devices" value=inputs.node_devices
                placeholder=Signal::derive(move || if inputs.hw_preset.with(|p| presets::hardware::default_node_devices(p)) == 72 { "72 (an NVL72 rack)".into() } else { "8 (HGX, OAM); 4-GPU boards: 4".to_string() }) error />
            <NumField label="Interconnect per device (each direction)" unit="GB/s" field="hardware.interconnect_gbps" value=inputs.interconnect
                placeholder=Signal::derive(move || hw().map_or("32 (PCIe 4 x16)".into(), |h| {
                    // H100 NVL's bridges join pairs: more than two cross PCIe Gen5, as the resolver takes it.
                    let many = inputs.devices.with(|d| d.trim().parse::<u32>().is_ok_and(|n| n > 2));
                    if h.id == "h100-nvl" && many { format!("{} (PCIe Gen5 between bridged pairs)", crate::model::hardware::PCIE_GEN5_GBPS) } else { format!("{}", h.interconnect_gbps) }
                })) error />
            <SelectField label="Multi-device split" field="hardware.parallelism" value=inputs.parallelism options=vec![
                (String::new(), "Default: tensor (llama.cpp: layer split)".to_string()),
                ("tensor".to_string(), "Tensor parallel (bandwidth adds)".to_string()),
                ("layer-split".to_string(), "Layer split, llama.cpp (memory adds, speed does not)".to_string()),
                ("pipeline".to_string(), "Pipeline, serving engine (batch throughput adds)".to_string()),
                ("row-split".to_string(), "Row split, llama.cpp -sm row (weights split, waits per layer)".to_string()),
                ("dp-attention".to_string(), "DP attention, experts split (MoE)".to_string()),
            ] error />
            <SelectField label="Engine" field="engine.preset" value=inputs.engine options=engines error on_pick=Callback::new(move |picked: String| {
                // Weights left at the old engine's default for this model follow the new engine's default
                // (DeepSeek-V3: Q4_K_M under llama.cpp, its released FP8 under vLLM).
                let native = presets::models::find(&inputs.model_preset.get_untracked()).map(|m| m.native_weights);
                let engine = inputs.engine.get_untracked();
                follow_weights(inputs, (&engine, native), (&picked, native));
            }) />
        </fieldset>
    }
}

#[component]
fn ModelInputs(inputs: Inputs, #[prop(into)] error: Signal<Vec<ScenarioError>>) -> impl IntoView {
    let m = move || presets::models::find(&inputs.model_preset.get());
    let q = move || quant::weight_format(&inputs.quant.get());
    // The size typed for a custom model while a named one is picked.
    let custom_params = RwSignal::new(String::new());
    let mut models = vec![(String::new(), "Custom (size only)".to_string())];
    models.extend(presets::models::MODELS.iter().map(|m| (m.id.to_string(), m.name.to_string())));
    // Empty: the engine's default for the model (its released format), or the bits typed below.
    let mut quants = vec![(String::new(), "The engine's default for the model, or bits typed below".to_string())];
    quants.extend(quant::WEIGHT_FORMATS.iter().map(|f| (f.id.to_string(), format!("{} ({} bits)", f.label, f.bits))));
    view! {
        <fieldset>
            <legend>"Model"</legend>
            <SelectField label="Model" field="model.preset" value=inputs.model_preset options=models error on_pick=Callback::new(move |picked: String| {
                let old = presets::models::find(&inputs.model_preset.get_untracked());
                if picked.is_empty() {
                    // Back to Custom: the size typed for it last time, else the previous model's, ready to edit.
                    let typed = custom_params.get_untracked();
                    if !typed.trim().is_empty() && inputs.params.with_untracked(|p| p.trim().is_empty()) {
                        inputs.params.set(typed);
                    } else if let Some(m) = old {
                        keep(inputs.params, m.active_params_b.max(m.params_b));
                    }
                } else {
                    // A named model brings its own size: the custom model's (kept for a return to Custom), or the
                    // size Custom filled in from a model, no longer applies (a trial picked Custom, then the 70B, and
                    // was shown the 8B's 16.1 GB of weights: the 8.03 B filled in had stayed as typed).
                    if old.is_none() {
                        custom_params.set(inputs.params.get_untracked());
                    }
                    inputs.params.set(String::new());
                }
                // Weights left at the engine's default for the previous model follow the default for the new one
                // (DeepSeek-V3 is released in FP8, gpt-oss in MXFP4); a format the user chose stays.
                if let Some(new) = presets::models::find(&picked) {
                    let engine = inputs.engine.get_untracked();
                    follow_weights(inputs, (&engine, old.map(|o| o.native_weights)), (&engine, Some(new.native_weights)));
                }
            }) />
            <NumField label="Parameters" unit="B" field="model.params_b" value=inputs.params
                placeholder=Signal::derive(move || m().map_or("required".into(), |m| format!("{}", m.params_b))) error />
            // The released format is the model's own, not the previous pick's bits kept as custom ones (an operations
            // trial's gpt-oss-120b came back at "custom, 8 bits" after FP8, 116.8 GB where MXFP4's 64.3 fit); a named
            // format drops bits typed for another ({"weights":"bf16","weight_bits":8} had followed).
            <SelectField label="Weights" field="quantization.weights" value=inputs.quant options=quants error on_pick=Callback::new(move |picked: String| {
                inputs.weights_followed.set(String::new());
                if !picked.is_empty() {
                    inputs.bits.set(String::new());
                }
            }) />
            {move || inputs.weights_followed.with(|t| (!t.is_empty()).then(|| view! { <p class="note" id="weights-followed">{t.clone()}</p> }))}
            // A format picked for another model stays when the model changes: where it is not the one the new model
            // is released in, that is said (a pre-sales trial's gpt-oss-120b kept the 70B's FP8: 118 GB of weights
            // where the CLI, given no format, took the released MXFP4's 64 GB).
            <p class="note" id="weights-released">{move || {
                let (model, picked) = (m()?, q()?);
                let native = quant::weight_format(model.native_weights)?;
                // Only a format larger than the released one: a smaller one is the usual quantization.
                (picked.bits > native.bits + 0.01).then(|| format!(
                    "{} is released in {} ({} bits): {} stores more than that (leave Weights at the engine's default for the released format).",
                    model.name, native.label, native.bits, picked.label
                ))
            }}</p>
            <NumField label="Bits per weight" unit="bits" field="quantization.weight_bits" value=inputs.bits
                placeholder=Signal::derive(move || q().map_or("default".into(), |q| format!("{}", q.bits))) error />
            // The KV cache's format: FP8 halves each token's cache (more sequences fit, attention reads half), which
            // an operations trial could only set in pasted JSON.
            <SelectField label="KV cache" field="quantization.kv_cache" value=inputs.kv options=vec![
                (String::new(), "16-bit (the engines' default)".to_string()),
                ("fp16".to_string(), "FP16".to_string()),
                ("bf16".to_string(), "BF16".to_string()),
                ("f16".to_string(), "F16".to_string()),
                ("fp8".to_string(), "FP8: half the bytes (vLLM, SGLang --kv-cache-dtype fp8)".to_string()),
                ("q8_0".to_string(), "Q8_0 (llama.cpp -ctk q8_0 -ctv q8_0)".to_string()),
                ("q4_0".to_string(), "Q4_0 (llama.cpp -ctk q4_0 -ctv q4_0)".to_string()),
                ("f32".to_string(), "F32".to_string()),
            ] error />
        </fieldset>
    }
}

#[component]
fn WorkloadInputs(inputs: Inputs, #[prop(into)] error: Signal<Vec<ScenarioError>>) -> impl IntoView {
    view! {
        <fieldset>
            <legend>"Workload and target"</legend>
            <NumField label="Prompt" unit="tokens" field="workload.prompt_tokens" value=inputs.prompt placeholder=Signal::derive(|| format!("{} when empty", fmt_num(crate::scenario::DEFAULT_PROMPT_TOKENS))) error />
            <NumField label="Output" unit="tokens" field="workload.output_tokens" value=inputs.output placeholder=Signal::derive(|| format!("{} when empty", fmt_num(crate::scenario::DEFAULT_OUTPUT_TOKENS))) error />
            <NumField label="Context already cached (earlier turns)" unit="tokens" field="workload.context_depth" value=inputs.depth placeholder=Signal::derive(|| "0".to_string()) error />
            // Batch (Serving → Use case) is latency-free: the latency target is hidden, kept, and not sent (hidden by
            // a class, not a <Show>: that would cost the page 2.7 KB).
            <p class="note" class:hidden=move || inputs.mode.with(|m| m != "batch")>"Batch use case: no latency target (total throughput)."</p>
            <div class:hidden=move || inputs.mode.with(|m| m == "batch")>
                <SelectField label="Judge latency at" field="target.percentile" value=inputs.percentile options=vec![
                    ("99".to_string(), "P99 (the 1 % slowest)".to_string()),
                    ("95".to_string(), "P95".to_string()),
                    ("90".to_string(), "P90".to_string()),
                    ("50".to_string(), "P50 (median)".to_string()),
                ] error />
                <NumField label="TPOT target (time per output token)" unit="ms" field="target.tpot_ms" value=inputs.tpot placeholder=Signal::derive(|| reader_target(|t| t.tpot_ms)) error />
                <NumField label="TTFT target (time to first token)" unit="ms" field="target.ttft_ms" value=inputs.ttft placeholder=Signal::derive(|| reader_target(|t| t.ttft_ms)) error />
            </div>
        </fieldset>
    }
}

/// A figure of the default (reader) target, as a placeholder shows it.
fn reader_target(f: fn(&presets::targets::TargetPreset) -> Option<f64>) -> String {
    presets::targets::find("reader").and_then(f).map_or_else(String::new, fmt_num)
}

/// How a device kind reads in the page.
fn kind_label(k: crate::model::hardware::HardwareKind) -> &'static str {
    use crate::model::hardware::HardwareKind as K;
    match k {
        K::DatacenterGpu => "Datacenter GPU with HBM (A100, H100, MI300X …)",
        K::WorkstationGpu => "Workstation or GDDR datacenter GPU (RTX 6000 Ada, L40S, A10 …)",
        K::ConsumerGpu => "Consumer GPU (GeForce, Radeon)",
        K::AppleSilicon => "Apple silicon (unified memory, Metal)",
        K::Cpu => "CPU only",
        K::Other => "Other (generic efficiency)",
    }
}

/// "Efficiency class: …": which fitted defaults the chosen device kind and engine bring.
fn efficiency_note(inputs: Inputs) -> String {
    use crate::model::hardware::HardwareKind as K;
    let kind = presets::hardware::find(&inputs.hw_preset.get())
        .map(|h| h.kind)
        .or_else(|| inputs.hw_kind.with(|k| K::ALL.into_iter().find(|x| x.id() == k.as_str())))
        .unwrap_or(K::Other);
    let id = inputs.engine.get();
    let engine = presets::engines::find(&id).map_or(id.clone(), |e| e.name.to_string());
    let arch = presets::hardware::find(&inputs.hw_preset.get()).map(|h| presets::hardware::architecture(h.id)).unwrap_or_else(|| {
        inputs
            .hw_arch
            .with(|a| crate::model::hardware::Architecture::ALL.into_iter().find(|x| x.id() == a.as_str()))
            .unwrap_or_else(|| crate::model::hardware::Architecture::typical_for(kind))
    });
    let balance = presets::hardware::find(&inputs.hw_preset.get()).and_then(|h| h.fp16_tflops.map(|f| f * 1e3 / h.bandwidth_gbps));
    let e = presets::engines::efficiency(&id, kind, arch, balance);
    // A calibration in the scenario (its engine's, while that engine is the one picked) replaces the defaults: said
    // here with its figures (a trial's calibrated link still read "fitted defaults").
    let (bw, kv, fl, whence) = inputs.base.with(|b| {
        let eng = &b.engine;
        match eng.calibrated_from.as_ref().filter(|_| eng.preset.as_deref().unwrap_or("") == id) {
            Some(from) => (
                eng.bandwidth_efficiency.unwrap_or(e.bandwidth),
                // As the resolver sets it.
                e.kv_given(eng.kv_bandwidth_efficiency, eng.bandwidth_efficiency),
                eng.compute_efficiency.unwrap_or(e.compute),
                format!("calibrated on {from}; Undo under \"Compare with your benchmark results\""),
            ),
            // A generation without served runs borrows its compute from the nearest machine balance's (a
            // pre-sales trial read "cdna3 … fitted defaults" for MI300X, whose η_fl is Hopper's): said, as the
            // resolver's Defaults used say it.
            None => {
                let whence = presets::engines::compute_borrowed_from(&id, kind, arch, balance).map_or_else(
                    || "fitted defaults; see Defaults used".into(),
                    |from| {
                        format!("fitted defaults, the compute borrowed from {}: no served runs of {} fitted; see Defaults used", from.id(), arch.id())
                    },
                );
                (e.bandwidth, e.kv_bandwidth, e.compute, whence)
            }
        }
    });
    format!(
        "Efficiency class: {}, {} generation, with {engine} — weights streamed at {:.0} % of the bandwidth, KV cache at {:.0} %, compute at {:.0} % of peak ({whence}).",
        kind_label(kind),
        arch.id(),
        bw * 100.0,
        kv * 100.0,
        fl * 100.0
    ) + &inputs.hw_cleared.get()
}

/// Weights left at the default of one engine (or model) follow the default of another: set, and said under the
/// Weights field (a trial's Q4_K_M from a link went to BF16 under vLLM without a word, A pinned beside it; a review
/// found the note stale under Hardware and the Apple path silent). Nothing followed: the note goes.
fn follow_weights(inputs: Inputs, before: (&str, Option<&str>), after: (&str, Option<&str>)) {
    let old = inputs.quant.get_untracked();
    match crate::scenario::weights_after_pick(&old, before, after) {
        Some(q) => {
            let label = |id: &str| quant::weight_format(id).map_or_else(|| id.to_string(), |f| f.label.to_string());
            let name = presets::engines::find(after.0).map_or_else(|| after.0.to_string(), |e| e.name.to_string());
            inputs.weights_followed.set(format!("Weights set to {}, what {name} runs for this model (were {}).", label(&q), label(&old)));
            inputs.quant.set(q);
        }
        None => inputs.weights_followed.set(String::new()),
    }
}

/// Loads the scenario in the address into the fields (and pins its A, when it has one); returns the message
/// for a broken or invalid link (`kept`: the address is the one this browser kept, not a link).
fn follow_link(
    inputs: Inputs,
    pinned: RwSignal<Option<Scenario>>,
    (pick, load): (RwSignal<Option<f64>>, RwSignal<Option<f64>>),
    kept: bool,
) -> Option<String> {
    let this = if kept { "The scenario this browser kept" } else { "The scenario in this link" };
    let linked = share::read_hash()?;
    pick.set(linked.load);
    load.set(linked.load);
    let a_problem = match linked.pinned {
        None => {
            pinned.set(None);
            None
        }
        Some(Ok(a)) => {
            let bad = a.resolve().err().map(|e| format!("The pinned scenario A in this link has an invalid value ({e})."));
            pinned.set(Some(a));
            bad
        }
        Some(Err(e)) => Some(format!("The pinned scenario A in this link could not be read ({e}).")),
    };
    let shown = match linked.shown {
        // Another version's scenario would be read as this one's with its fields missing ("Memory bandwidth:
        // required", a teacher's trial): not loaded, said.
        Ok(sc) if sc.version.is_some_and(|v| v != crate::scenario::VERSION) => Some(format!(
            "{this} is of version {}; this page reads version {}: it keeps what it showed.",
            sc.version.unwrap_or_default(),
            crate::scenario::VERSION
        )),
        Ok(sc) => {
            // Loaded even when invalid, so the field at fault is shown with its message.
            inputs.load(&sc);
            if let Some(t) = &linked.typed {
                inputs.restore(t);
                return a_problem;
            }
            // Where the fields could not hold the fault (a load of both users and a rate: the Load select takes one),
            // nothing is marked below: said so (a bad-input trial read "correct the field marked below" over none).
            sc.resolve().err().map(|e| {
                if inputs.scenario().is_ok_and(|s| s.resolve().is_ok()) {
                    format!("{this} has an invalid value ({e}); the page shows what its fields could take of it.")
                } else {
                    format!("{this} has an invalid value ({e}); correct the field marked below.")
                }
            })
        }
        Err(e) => Some(format!("{this} could not be read ({e}); the page keeps what it showed.")),
    };
    match (shown, a_problem) {
        (Some(a), Some(b)) => Some(format!("{a} {b}")),
        (a, b) => a.or(b),
    }
}

/// Today's date, YYYY-MM-DD (the browser's clock).
pub(crate) fn today() -> String {
    let iso: String = js_sys::Date::new_0().to_iso_string().into();
    iso.chars().take(10).collect()
}

/// Fills an empty field with a preset's number (a field the user typed in is left alone).
fn keep(field: RwSignal<String>, v: f64) {
    if field.with_untracked(|s| s.trim().is_empty()) {
        field.set(format!("{v}"));
    }
}

/// Milliseconds from the page's performance clock (0 if unavailable).
fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// What a job simulated in pieces reads and writes: the current job's number, the evaluation, the progress shown
/// and the last evaluation's time.
#[derive(Clone, Copy)]
struct Pieces {
    job: StoredValue<u64>,
    evaluated: RwSignal<Result<Report, ScenarioError>>,
    simulating: RwSignal<Option<(usize, usize)>>,
    last_eval_ms: StoredValue<f64>,
}

/// `spent` that makes [`simulate`]'s first task only queue the next one: the work starts after the tasks queued
/// meanwhile (the start-up's chart drawings).
const AFTER_DRAWINGS: f64 = -1.0;

/// Simulates job `gen`'s levels in the worker where one can run them (`json`: the scenario), else here in pieces
/// ([`simulate_in_pieces`]). At start-up (`spent` = [`AFTER_DRAWINGS`]) either begins after the first charts'
/// drawings queued in the same tick, which a worker started at once competes with on two cores (first chart in
/// scripts/test, median of three pages: 669 ms in the one run with the worker started at once; 500, 516 and 646 ms
/// after; 502 before the worker — the in-suite figure varies by ±100 ms from run to run).
fn simulate(st: crate::plan::Staged, gen: u64, json: Option<String>, p: Pieces, spent: f64) {
    if spent < 0.0 {
        return set_timeout(
            move || {
                if p.job.try_get_value() == Some(gen) {
                    simulate(st, gen, json, p, 0.0);
                }
            },
            std::time::Duration::ZERO,
        );
    }
    let st = match json {
        Some(j) => match worker::run(st, gen, &j) {
            None => return,
            Some(st) => st,
        },
        None => st,
    };
    worker::record(false);
    simulate_in_pieces(st, gen, p, spent);
}

/// Simulates `st`'s levels in tasks of at most ~8 ms (one `setTimeout` each) while job `gen` is current, showing
/// the progress; when done, the finished report replaces the analytic one and its total time (`spent` so far) is
/// recorded.
fn simulate_in_pieces(mut st: crate::plan::Staged, gen: u64, p: Pieces, spent: f64) {
    set_timeout(
        move || {
            if p.job.try_get_value() != Some(gen) {
                return;
            }
            let t0 = now_ms();
            while !st.done() && now_ms() - t0 < 8.0 {
                st.step();
            }
            if st.done() {
                let report = st.finish();
                p.evaluated.set(Ok(report));
                p.simulating.set(None);
                finished(p.last_eval_ms, spent + now_ms() - t0);
            } else {
                p.simulating.set(Some(st.progress()));
                simulate_in_pieces(st, gen, p, spent + now_ms() - t0);
            }
        },
        std::time::Duration::ZERO,
    );
}

/// The longest evaluation the page runs in the task of an input, ms: past it the analytic report is drawn at
/// once and the levels are simulated in the worker. Under the 16 ms from an input to the analytic redraw
/// with the headline's update (~7 ms measured) beside it; at 30 ms (20 ms in-task slices, until 2026-12-04) the
/// default scenario's edits took 30–40 ms to the throughput chart's redraw — its sweep takes ~20–60 ms, so the
/// slice ran out and the analytic report came after it.
const IN_TASK_MS: f64 = 8.0;

/// Records a finished evaluation's time: it decides how the next one runs (in one task or in pieces).
fn finished(last_eval_ms: StoredValue<f64>, ms: f64) {
    last_eval_ms.set_value(ms);
    expose("__tpsLastEvalMs", ms.into());
}

/// Sets `window[key]` for the e2e tests and benchmark (`__tpsLastEvalMs`: the last evaluation's time;
/// `__tpsWorker`: where its levels were simulated).
fn expose(key: &str, value: wasm_bindgen::JsValue) {
    if let Some(w) = web_sys::window() {
        let _ = js_sys::Reflect::set(&w, &key.into(), &value);
    }
}

/// The theme chosen with the toggle ("light" or "dark"), from localStorage; none: the OS's.
fn stored_theme() -> Option<String> {
    web_sys::window()?.local_storage().ok()??.get_item("tps-theme").ok()?
}

/// Sets `data-theme` on the root element (the style sheet follows `prefers-color-scheme` without it).
fn apply_theme(theme: Option<&str>) {
    if let Some(root) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
        let _ = match theme {
            Some(t) => root.set_attribute("data-theme", t),
            None => root.remove_attribute("data-theme"),
        };
    }
}

/// Switches between light and dark (from whichever is shown) and remembers the choice.
fn toggle_theme() {
    let Some(w) = web_sys::window() else { return };
    let dark = match stored_theme() {
        Some(t) => t == "dark",
        // window.matchMedia through js_sys (web-sys's MediaQueryList feature is not enabled).
        None => js_sys::Reflect::get(&w, &"matchMedia".into())
            .ok()
            .and_then(|f| wasm_bindgen::JsCast::dyn_into::<js_sys::Function>(f).ok())
            .and_then(|f| f.call1(&w, &"(prefers-color-scheme: dark)".into()).ok())
            .and_then(|m| js_sys::Reflect::get(&m, &"matches".into()).ok())
            .and_then(|m| m.as_bool())
            .unwrap_or(false),
    };
    let next = if dark { "light" } else { "dark" };
    if let Ok(Some(s)) = w.local_storage() {
        let _ = s.set_item("tps-theme", next);
    }
    apply_theme(Some(next));
}

/// A phone's way to the page's parts (shown under 600 px only, `www/style.css`): the answer comes first there, then
/// about 2,400 px of inputs before the first chart (a teacher's trial: five screens of fields before the curves a
/// class had been told to look at). Buttons, not `#` links: the page's own hash carries a shared scenario.
#[component]
fn JumpBar() -> impl IntoView {
    // How to read opens (it starts closed on a phone); the sticky message of an invalid field, where there is one, stays
    // above the part jumped to instead of over its top (a review).
    let go = |id: &'static str| {
        move |_| {
            let Some(w) = web_sys::window() else { return };
            let Some(d) = w.document() else { return };
            let Some(e) = d.get_element_by_id(id) else { return };
            if let Some(details) = wasm_bindgen::JsCast::dyn_ref::<web_sys::HtmlDetailsElement>(&e) {
                details.set_open(true);
            }
            e.scroll_into_view();
            if let Some(card) = d.get_element_by_id("scenario-error").and_then(|c| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(c).ok()) {
                w.scroll_by_with_x_and_y(0.0, -f64::from(card.offset_height()));
            }
        }
    };
    view! {
        <nav class="jump" aria-label="Go to">
            <button type="button" id="jump-charts" on:click=go("chart-block")>"Charts ↓"</button>
            <button type="button" id="jump-inputs" on:click=go("inputs")>"Inputs ↓"</button>
            <button type="button" id="jump-explain" on:click=go("explain")>"How to read ↓"</button>
        </nav>
    }
}

/// Presentation mode on or off (`data-present` on `<html>`: larger type, charts side by side on wide screens,
/// their text drawn larger). Returns whether it is now on.
fn toggle_present() -> bool {
    toggle_root_flag("data-present")
}

/// Presentation mode's inputs shown or hidden (`data-inputs` on `<html>`; outside presentation mode they are
/// always shown). Returns whether they are now shown.
fn toggle_inputs() -> bool {
    toggle_root_flag("data-inputs")
}

/// Sets or clears the attribute `name` on `<html>`; the charts redraw at once at the new layout (a resize event).
/// Returns whether it is now set.
fn toggle_root_flag(name: &str) -> bool {
    let Some(w) = web_sys::window() else { return false };
    let mut on = false;
    if let Some(root) = w.document().and_then(|d| d.document_element()) {
        on = !root.has_attribute(name);
        let _ = if on { root.set_attribute(name, "") } else { root.remove_attribute(name) };
    }
    if let Ok(e) = web_sys::Event::new("resize") {
        let _ = w.dispatch_event(&e);
    }
    on
}

/// Closes every open ⓘ definition (Escape, a click outside them).
fn close_open_infos() {
    let Some(d) = web_sys::window().and_then(|w| w.document()) else { return };
    while let Ok(Some(e)) = d.query_selector("details.info[open]") {
        if e.remove_attribute("open").is_err() {
            break;
        }
    }
}
