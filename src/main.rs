//! The page's entry point: mounts the Leptos app (wasm32). Natively it only points to the CLI.

#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
    // The loader's fallback message (index.html) stays hidden once the page runs.
    if let Some(w) = web_sys::window() {
        let _ = js_sys::Reflect::set(&w, &"__tpsMounted".into(), &true.into());
        if let Some(el) = w.document().and_then(|d| d.get_element_by_id("boot-problem")) {
            el.remove();
        }
    }
    leptos::mount::mount_to_body(tps_planner::ui::App);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("tps-planner is the web page (build it with `scripts/serve`); natively, use the `tps` CLI.");
}
