//! The load levels simulated in a Web Worker that runs this same wasm, so that no simulation shares the page's
//! thread (issue 9: "never blocked"). The page posts the scenario's JSON; the worker builds the same
//! [`Staged`] from it, simulates every level (announcing each one done) and sends them back packed as numbers
//! (`LoadPoint::pack`: a few lines instead of a deserializer for the report); the page builds the report from
//! them (`Staged::unpack`, `Staged::finish`: the capacity search and the fleet stay on the page's side, as they
//! were). A change while a job runs terminates the worker (the stale work stops) and the next job starts a new one.
//!
//! The worker is a script made from a Blob (no file of its own: the single HTML file has none to load). It loads
//! the page's wasm-bindgen glue and instantiates the page's own compiled `WebAssembly.Module`, posted with the
//! first job (nothing is compiled twice). The multi-file page's worker is a module that imports Trunk's glue file
//! (its `modulepreload` link). The single file, opened from disk (file://, an opaque origin), gets no module
//! worker and cannot load a script from a Blob inside a worker in Chromium; its loader keeps a classic-script copy
//! of the glue's text (`window.__tpsGlueClassic`: scripts/postbuild.py strips the `export`s), and its classic
//! worker's own Blob holds that text and the handler. Both builds' Content-Security-Policy allow
//! `worker-src blob:`; nothing else changed. Where a worker cannot start or fails (an older browser, a stricter
//! policy), the page simulates in its own thread, a few levels per task, as before (`ui::simulate_in_pieces`),
//! for good.

use super::{finished, now_ms, simulate_in_pieces, Pieces};
use crate::plan::Staged;
use leptos::prelude::Set;
use std::cell::RefCell;
use wasm_bindgen::{closure::Closure, JsCast, JsValue};
use web_sys::{MessageEvent, Worker};

/// The module worker's script: imports the glue and the module with its first job, then simulates each job.
/// A failure (the glue not loaded, the module not instantiated) is posted back: the page then simulates itself.
const MODULE: &str = "let r;onmessage=async e=>{const d=e.data;try{r??=import(d.glue).then(async g=>{await g.default({module_or_path:d.module});return g});const g=await r;postMessage({job:d.job,levels:g.tps_simulate(d.scenario,(k,n)=>postMessage({job:d.job,k,n}))})}catch(x){postMessage({job:d.job,failed:1})}};onmessageerror=()=>postMessage({failed:1})";
/// The classic worker's handler (the single file), after the glue's classic copy in the same script.
const CLASSIC: &str = "\nlet __tpsReady;onmessage=async e=>{const d=e.data;try{__tpsReady??=__wbg_init({module_or_path:d.module});await __tpsReady;postMessage({job:d.job,levels:tps_simulate(d.scenario,(k,n)=>postMessage({job:d.job,k,n}))})}catch(x){postMessage({job:d.job,failed:1})}};onmessageerror=()=>postMessage({failed:1})";

/// The page's side: the worker, the job it runs (its staged levels and when it was posted), whether a worker
/// failed, and the message and error handlers (made once, for every worker the page starts).
struct State {
    pieces: Pieces,
    worker: Option<Worker>,
    pending: Option<(u64, Staged, f64)>,
    failed: bool,
    handlers: (JsValue, JsValue),
    /// The page's glue ([`glue`]), read once when the page starts.
    glue: Option<(JsValue, bool)>,
    /// The worker script's Blob address, made once (each worker the page starts loads the same script).
    script: Option<String>,
}

thread_local! {
    static STATE: RefCell<Option<State>> = const { RefCell::new(None) };
}

fn with<T>(f: impl FnOnce(&mut State) -> T) -> Option<T> {
    STATE.with(|s| s.borrow_mut().as_mut().map(f))
}

/// Readies the page's side (no worker starts before the first job).
pub(super) fn start(pieces: Pieces) {
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(|ev: MessageEvent| {
        // Only the job the worker runs now counts: not a job cancelled, nor one already handed to the page.
        let Some((p, running)) = with(|s| (s.pieces, s.pending.as_ref().map(|j| j.0))) else { return };
        match reply(&ev) {
            Some(Reply::Progress(job, k)) if running == Some(job) => p.simulating.set(Some(k)),
            Some(Reply::Levels(job, levels)) if running == Some(job) => {
                let Some((_, mut st, t0)) = with(|s| s.pending.take()).flatten() else { return };
                let done = st.unpack(&levels);
                record(done);
                if done {
                    p.evaluated.set(Ok(st.finish()));
                    p.simulating.set(None);
                    finished(p.last_eval_ms, now_ms() - t0);
                } else {
                    simulate_in_pieces(st, job, p, 0.0);
                }
            }
            Some(Reply::Failed(job)) if job.is_none() || job == running => failed(),
            _ => {}
        }
    });
    let on_error = Closure::<dyn FnMut(JsValue)>::new(|_: JsValue| failed());
    let handlers = (on_message.into_js_value(), on_error.into_js_value());
    STATE.with(|s| *s.borrow_mut() = Some(State { pieces, worker: None, pending: None, failed: false, handlers, glue: glue(), script: None }));
}

/// A worker that cannot start or failed: the page simulates in its own thread from now on, the job in flight too.
fn failed() {
    record(false);
    let Some((p, pending)) = with(|s| {
        s.failed = true;
        stop(s);
        (s.pieces, s.pending.take())
    }) else {
        return;
    };
    if let Some((job, st, _)) = pending {
        simulate_in_pieces(st, job, p, 0.0);
    }
}

/// Terminates the worker, and with it any job it runs.
fn stop(s: &mut State) {
    if let Some(w) = s.worker.take() {
        w.terminate();
    }
}

/// A new evaluation: the job still running, if any, is stale; its worker stops (the next job starts another).
pub(super) fn cancel() {
    with(|s| {
        if s.pending.take().is_some() {
            stop(s);
        }
    });
}

/// Runs `st`'s levels as job `job` (the scenario's JSON) in the worker, starting one if none runs; gives `st`
/// back where no worker can run it.
pub(super) fn run(st: Staged, job: u64, json: &str) -> Option<Staged> {
    let ran = with(|s| {
        if s.failed {
            return false;
        }
        if s.worker.is_none() {
            s.worker = spawn(s);
        }
        let glue = s.glue.as_ref().filter(|g| !g.1).map_or(JsValue::UNDEFINED, |g| g.0.clone());
        let posted = s.worker.as_ref().is_some_and(|w| post(w, job, json, glue));
        if !posted {
            s.failed = true;
            stop(s);
        }
        posted
    });
    if ran != Some(true) {
        return Some(st);
    }
    with(|s| s.pending = Some((job, st, now_ms())));
    None
}

/// Exposes where the last evaluation's levels were simulated, by the worker (true) or on the page (false: in one
/// task or in pieces), as `window.__tpsWorker`, for the e2e tests.
pub(super) fn record(used: bool) {
    super::expose("__tpsWorker", used.into());
}

/// The worker's side (`tps_simulate`, exported by the page's binary): simulates the scenario's levels, calling
/// `progress(k, n)` after each, and returns them packed; empty when the scenario is not valid.
#[must_use]
pub fn simulate(scenario: &str, progress: &js_sys::Function) -> Vec<f64> {
    let Ok(mut st) = crate::scenario::Scenario::from_json(scenario).and_then(|s| Staged::new(&s, &[])) else {
        return Vec::new();
    };
    while !st.step() {
        let (k, n) = st.progress();
        let _ = progress.call2(&JsValue::NULL, &(k as f64).into(), &(n as f64).into());
    }
    st.packed()
}

/// A message from the worker: its job, and either progress (levels done, in all), the packed levels, or that it
/// failed.
enum Reply {
    Progress(u64, (usize, usize)),
    Levels(u64, Vec<f64>),
    Failed(Option<u64>),
}

/// Reads a worker's message.
fn reply(ev: &MessageEvent) -> Option<Reply> {
    let d = ev.data();
    let get = |k: &str| js_sys::Reflect::get(&d, &k.into()).ok().filter(|v| !v.is_undefined());
    let job = get("job").and_then(|j| j.as_f64()).map(|j| j as u64);
    if get("failed").is_some() {
        return Some(Reply::Failed(job));
    }
    let job = job?;
    if let Some(levels) = get("levels") {
        return Some(Reply::Levels(job, levels.dyn_into::<js_sys::Float64Array>().ok()?.to_vec()));
    }
    Some(Reply::Progress(job, (get("k")?.as_f64()? as usize, get("n")?.as_f64()? as usize)))
}

/// The page's glue: the single file's classic copy (its text), or Trunk's module file (its absolute address);
/// whether it is the classic copy.
fn glue() -> Option<(JsValue, bool)> {
    let w = web_sys::window()?;
    if let Some(classic) = js_sys::Reflect::get(&w, &"__tpsGlueClassic".into()).ok().filter(JsValue::is_string) {
        return Some((classic, true));
    }
    let link = w.document()?.query_selector("link[rel=modulepreload]").ok()??;
    js_sys::Reflect::get(&link, &"href".into()).ok().map(|h| (h, false))
}

/// Starts a worker with the state's handlers (its script made the first time); `None` where one cannot start.
fn spawn(s: &mut State) -> Option<Worker> {
    let (glue, classic) = s.glue.as_ref()?;
    let classic = *classic;
    if s.script.is_none() {
        let opts = web_sys::BlobPropertyBag::new();
        opts.set_type("text/javascript");
        let parts = if classic { js_sys::Array::of2(glue, &CLASSIC.into()) } else { js_sys::Array::of1(&MODULE.into()) };
        let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts).ok()?;
        s.script = web_sys::Url::create_object_url_with_blob(&blob).ok();
    }
    let o = web_sys::WorkerOptions::new();
    if !classic {
        o.set_type(web_sys::WorkerType::Module);
    }
    let w = Worker::new_with_options(s.script.as_deref()?, &o).ok()?;
    w.set_onmessage(Some(s.handlers.0.unchecked_ref()));
    w.set_onerror(Some(s.handlers.1.unchecked_ref()));
    Some(w)
}

/// Posts job `job`: the scenario's JSON, with the module worker's glue address (`undefined` for the classic one)
/// and the page's compiled module (used once).
fn post(w: &Worker, job: u64, scenario: &str, glue: JsValue) -> bool {
    let msg = js_sys::Object::new();
    let ok = [("job", JsValue::from(job as f64)), ("scenario", scenario.into()), ("glue", glue), ("module", wasm_bindgen::module())]
        .into_iter()
        .all(|(k, v)| js_sys::Reflect::set(&msg, &k.into(), &v).unwrap_or(false));
    ok && w.post_message(&msg).is_ok()
}
