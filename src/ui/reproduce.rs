//! "Reproduce this": the commands from [`crate::plan::reproduce`] that measure the page's scenario on real
//! hardware, each with a copy button. Their result files import back under "Compare with your benchmark results".

use crate::scenario::{Report, Scenario, ScenarioError};
use leptos::prelude::*;

/// The panel (collapsed until opened).
#[component]
pub fn ReproducePanel(
    /// The scenario as evaluated.
    #[prop(into)]
    scenario: Signal<Result<Scenario, ScenarioError>>,
    /// Its evaluation (the load levels to measure come from it).
    report: ReadSignal<Result<Report, ScenarioError>>,
) -> impl IntoView {
    let open = RwSignal::new(false);
    // Built only while the panel is open.
    let commands = move || {
        if !open.get() {
            return None;
        }
        let s = scenario.get().ok()?;
        report.with(|r| r.as_ref().ok().and_then(|r| crate::plan::reproduce::reproduce(&s, r).ok()))
    };
    let copied = RwSignal::new(None::<usize>);
    // Copies the command shown beside the button (one handler for every button).
    let copy = move |ev: leptos::ev::MouseEvent| {
        use wasm_bindgen::JsCast;
        let Some(button) = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).filter(|e| e.has_attribute("data-step")) else {
            return;
        };
        let i = button.get_attribute("data-step").and_then(|v| v.parse::<usize>().ok());
        let text = button.closest(".command").ok().flatten().and_then(|c| c.query_selector("pre").ok().flatten()).and_then(|p| p.text_content());
        copied.set(text.is_some_and(|t| super::export::copy_text(&t)).then_some(i).flatten());
    };
    view! {
        <details class="reproduce" on:toggle=move |ev| {
            use wasm_bindgen::JsCast;
            if let Some(d) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlDetailsElement>().ok()) {
                open.set(d.open());
            }
        }>
            <summary>"Reproduce this on real hardware"</summary>
            <p class="note">"Start the server as the scenario describes it, then measure the same lengths at the loads that decide the sizing (one user where users are swept, the operating point, the capacity and just above it). Each level saves a result file; add the files under \"Compare with your benchmark results\" to set them beside the prediction."</p>
            // One handler for every copy button (by its data-step).
            <div on:click=copy>
                {move || commands().map(|c| view! {
                    {c.steps.into_iter().enumerate().map(|(i, step)| view! {
                        <div class="command">
                            <div class="command-head">
                                <span>{step.title}</span>
                                <button type="button" class="copy" data-step=i.to_string()>{move || if copied.get() == Some(i) { "Copied" } else { "Copy" }}</button>
                            </div>
                            <pre class="cmd">{step.text}</pre>
                        </div>
                    }).collect_view()}
                    <ul class="note">{c.notes.into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}</ul>
                })}
            </div>
        </details>
    }
}
