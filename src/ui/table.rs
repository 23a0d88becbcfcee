//! The sweep as a table: the charts' numbers in text, for reading exact values, copying into a report and for
//! screen readers.

use crate::scenario::{Report, ScenarioError};
use leptos::prelude::*;

/// One row per load level.
#[component]
pub fn SweepTable(
    /// The evaluation.
    report: Memo<Result<Report, ScenarioError>>,
) -> impl IntoView {
    move || {
        report.with(|r| {
            let Ok(r) = r else { return ().into_any() };
            let p = r.target.percentile;
            let rows = r
                .sweep
                .iter()
                .map(|l| {
                    let load = l.concurrency.map_or_else(|| format!("{:.3} req/s", l.request_rate.unwrap_or(0.0)), |c| format!("{c:.0}"));
                    view! {
                        <tr class:bad=!l.meets_target>
                            <td>{load}</td>
                            <td>{format!("{:.1}", l.per_user_tps)}</td>
                            <td>{super::results::group(l.system_tps)}</td>
                            <td>{super::results::group(l.ttft_ms.p50)}</td>
                            <td>{super::results::group(l.ttft_ms.at(p))}</td>
                            <td>{format!("{:.1}", l.tpot_ms.p50)}</td>
                            <td>{format!("{:.1}", l.tpot_ms.at(p))}</td>
                            <td>{format!("{:.1}", l.mean_batch)}</td>
                            <td>{format!("{:?}", l.bound).to_lowercase()}</td>
                            <td>{if l.saturated { "saturated" } else if l.meets_target { "✓" } else { "✗" }}</td>
                        </tr>
                    }
                })
                .collect_view();
            view! {
                <details class="sweep-table">
                    <summary>"Table of the sweep"</summary>
                    <div class="table-scroll"><table id="sweep-table">
                        <thead>
                            <tr>
                                <th>{if r.sweep.first().is_some_and(|l| l.request_rate.is_some()) { "rate" } else { "users" }}</th>
                                <th>"tok/s per user"</th>
                                <th>"tok/s total"</th>
                                <th>"TTFT P50 ms"</th>
                                <th>{if p == 50.0 { "TTFT P50 ms (target)".to_string() } else { format!("TTFT P{p:.0} ms") }}</th>
                                <th>"TPOT P50 ms"</th>
                                <th>{if p == 50.0 { "TPOT P50 ms (target)".to_string() } else { format!("TPOT P{p:.0} ms") }}</th>
                                <th>"batch"</th>
                                <th>"bound"</th>
                                <th>"target"</th>
                            </tr>
                        </thead>
                        <tbody>{rows}</tbody>
                    </table></div>
                </details>
            }
            .into_any()
        })
    }
}
