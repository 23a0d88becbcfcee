//! The page's entry point: mounts the Leptos app (wasm32). Natively it only points to the CLI.

#[cfg(target_arch = "wasm32")]
fn main() {
    // A panic is a bug (the page must never panic); if one happens, the console names where, and its message
    // when it is a plain string (a lighter hook than formatting the whole panic report).
    std::panic::set_hook(Box::new(|info| {
        let what = info.payload().downcast_ref::<&str>().copied().unwrap_or("panic");
        let at = info.location().map_or_else(String::new, |l| format!(" at {}:{}", l.file(), l.line()));
        web_sys::console::error_1(&format!("TPS Planner: {what}{at}").into());
    }));
    // In the page's Web Worker (`ui::worker`) there is no window: it only simulates (`tps_simulate`).
    let Some(w) = web_sys::window() else { return };
    // The loader's fallback message (index.html) stays hidden once the page runs.
    let _ = js_sys::Reflect::set(&w, &"__tpsMounted".into(), &true.into());
    if let Some(el) = w.document().and_then(|d| d.get_element_by_id("boot-problem")) {
        el.remove();
    }
    leptos::mount::mount_to_body(tps_planner::ui::App);
}

/// The page's Web Worker's entry (`ui::worker::simulate`): the scenario's load levels, simulated and packed.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn tps_simulate(scenario: &str, progress: &js_sys::Function) -> Vec<f64> {
    tps_planner::ui::worker::simulate(scenario, progress)
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("tps-planner is the web page (build it with `scripts/serve`); natively, use the `tps` CLI.");
}
