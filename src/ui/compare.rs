//! A versus B: "Pin as A" keeps the current scenario; whatever is changed afterwards is B. The difference
//! table shows [`crate::plan::diff`]'s rows (A, B, B − A, B ÷ A); the charts draw A dashed beside B.

use crate::plan::DiffRow;
use crate::scenario::{Report, ScenarioError};
use leptos::prelude::*;

/// A figure of the table with `places` decimals (thousands grouped when none, a typographic minus).
fn fixed(v: f64, places: usize) -> String {
    if places == 0 {
        super::results::group(v)
    } else {
        format!("{v:.*}", places).replacen('-', "−", 1)
    }
}

/// A figure of the table: whole numbers as such, others with 2–3 decimals ([`crate::plan::diff::decimals`]).
fn num(v: f64) -> String {
    fixed(v, crate::plan::diff::decimals(v, 3))
}

fn row(r: DiffRow) -> impl IntoView {
    let opt = |v: Option<f64>| v.map_or_else(|| "—".to_string(), num);
    let places = r.delta_decimals(3);
    let delta = r.shown_delta(3).map_or_else(|| "—".to_string(), |d| format!("{}{}", if d > 0.0 { "+" } else { "" }, fixed(d, places)));
    // Green where B is better than A, red where worse.
    let better = r.b_better();
    view! {
        <tr data-metric=r.metric>
            <th scope="row">{r.label}</th>
            <td>{opt(r.a)}</td>
            <td>{opt(r.b)}</td>
            <td class:better=better == Some(true) class:worse=better == Some(false)>{delta}</td>
            <td>{r.ratio.map_or_else(|| "—".to_string(), |x| format!("{x:.2}×"))}</td>
            <td class="unit">{r.unit}</td>
        </tr>
    }
}

/// The difference table, when a scenario is pinned as A.
#[component]
pub fn DiffTable(
    /// The page's evaluation (B).
    report: ReadSignal<Result<Report, ScenarioError>>,
    /// The pinned scenario's evaluation (A), when one is pinned.
    report_a: Memo<Result<Option<Report>, ScenarioError>>,
    /// Why A could not be evaluated, if it could not.
    #[prop(into)]
    problem: Signal<Option<String>>,
) -> impl IntoView {
    view! {
        {move || problem.get().map(|p| view! { <p class="warning" id="diff-problem">{p}</p> })}
        {move || report_a.with(|a| report.with(|b| match (a, b) {
            (Ok(Some(a)), Ok(b)) => Some(crate::plan::diff(a, b)),
            _ => None,
        })).map(|d| view! {
            <section class="compare" aria-label="A versus B">
                <h2>"A versus B"</h2>
                <p class="diff-verdict" id="diff-verdict"><strong>{d.headline.clone()}</strong>{d.summary.strip_prefix(d.headline.as_str()).unwrap_or_default().to_string()}</p>
                <p class="sides"><span class="tag a">"A"</span>{d.a.describe()}<br/><span class="tag b">"B"</span>{d.b.describe()}" (the page)"</p>
                <div class="table-scroll"><table id="diff-table">
                    <thead><tr><th></th><th>"A"</th><th>"B"</th><th>"B − A"</th><th>"B ÷ A"</th><th></th></tr></thead>
                    <tbody>{d.rows.into_iter().map(row).collect_view()}</tbody>
                </table></div>
                <p class="note" id="diff-verdict-a">"A: " {d.a.verdict}</p>
            </section>
        })}
    }
}
