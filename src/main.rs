//! The page's entry point: mounts the Leptos app (wasm32). Natively it only points to the CLI.

#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(tps_planner::ui::App);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("tps-planner is the web page (build it with `scripts/serve`); natively, use the `tps` CLI.");
}
