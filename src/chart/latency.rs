//! Chart: TTFT and TPOT at P50 / P95 / P99 against load, with the target lines.
//!
//! TTFT (left, ms, or seconds where its axis passes 2 s) rises with queueing; TPOT (right, ms) rises with batch size. Percentiles come from the
//! serving simulation; a level marked saturated has a growing queue, so its values are lower bounds.

use super::{LegendEntry, LoadAxis, LoadScale, Swatch, SANS};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::RGBAColor;

/// Series of the latency chart (planning builds them from a report: `crate::plan::charts`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LatencyData {
    pub x: Vec<f64>,
    pub x_axis: LoadAxis,
    /// TTFT P50/P95/P99, ms (P50/P90/P99 with `mid_p90`).
    pub ttft: [Vec<f64>; 3],
    /// TPOT P50/P95/P99, ms (P50/P90/P99 with `mid_p90`).
    pub tpot: [Vec<f64>; 3],
    /// The middle line is P90, the target's percentile, instead of P95 (a trial judged at P90 and found no P90 line).
    pub mid_p90: bool,
    pub ttft_target: Option<f64>,
    pub tpot_target: Option<f64>,
    /// Levels whose queue grows without bound (their latencies are lower bounds, drawn clipped at the top).
    pub saturated: Vec<bool>,
    /// Levels that fail the target: the axes end soon after the first of them (later ones drawn clipped at the top).
    pub fails: Vec<bool>,
    /// A load picked on the page (the scrubber), marked across the plot.
    pub marker: Option<f64>,
    /// A pinned scenario ("A") drawn beside this one, dashed and lighter.
    pub compare: Option<Overlay>,
}

/// The pinned scenario's TTFT and TPOT at its target percentile, on the same load axis.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Overlay {
    pub x: Vec<f64>,
    /// Ms at the percentile.
    pub ttft: Vec<f64>,
    pub tpot: Vec<f64>,
    /// "P99".
    pub pct: String,
    pub saturated: Vec<bool>,
}

const TTFT: RGBColor = RGBColor(124, 58, 237);
const TPOT: RGBColor = RGBColor(13, 148, 136);

/// Draws the chart onto any plotters backend; returns where the load axis lies.
///
/// # Errors
/// A message when there is nothing to draw or the backend fails.
pub fn draw<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, d: &LatencyData, scale: f64) -> Result<LoadScale, String> {
    let px = |v: f64| super::px(scale, v);
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(err)?;
    let ok = |v: f64| v.is_finite() && v > 0.0;
    let pts: Vec<usize> = (0..d.x.len()).filter(|&i| ok(d.x[i]) && ok(d.tpot[0][i])).collect();
    if pts.is_empty() {
        return Err("no load levels to draw".into());
    }
    let a = d.compare.as_ref();
    let a_pts: Vec<usize> =
        a.map_or_else(Vec::new, |a| (0..a.x.len().min(a.ttft.len()).min(a.tpot.len())).filter(|&i| ok(a.x[i]) && ok(a.tpot[i])).collect());
    let (xlo, xhi) = super::load_range(pts.iter().map(|&i| d.x[i]).chain(a_pts.iter().filter_map(|&i| a.map(|a| a.x[i]))));
    // Scale to the levels that reach a steady state, up to the first that fails the target (its rise shows where the
    // target breaks); saturated levels' ever-growing queues and the levels past the failing one (a KV cache full,
    // requests evicted) would flatten the region that matters, so their values are clipped at the top (a teacher's
    // trial: 7.3 s at 768 users had put the 31–377 ms of 1–512 users in the bottom 5 %, P50, P95 and P99 one line).
    // The legend sits below the plot.
    let first_fail = pts.iter().copied().find(|&i| d.fails.get(i).copied().unwrap_or(false)).map_or(f64::INFINITY, |i| d.x[i]);
    // (Where fewer than three levels lie there — the lightest already fails — every steady level counts: a review
    // found a target no level meets drawn as two flat lines at the top of axes scaled to one level.)
    let steady_to =
        |end: f64| -> Vec<usize> { pts.iter().copied().filter(|&i| !d.saturated.get(i).copied().unwrap_or(false) && d.x[i] <= end).collect() };
    let steady = match steady_to(first_fail) {
        s if s.len() >= 3 => s,
        _ => steady_to(f64::INFINITY),
    };
    let scale_pts = if steady.is_empty() { &pts } else { &steady };
    // A's steady levels count too, so both sides' curves fit — up to the loads B's own axis is scaled to: past them
    // A's queues flattened B's curves (a pre-sales trial: pinning A put the TTFT axis at 0–8 s over B's 0–550 ms).
    let b_end = scale_pts.iter().map(|&i| d.x[i]).fold(0.0, f64::max);
    let a_steady: Vec<usize> =
        a_pts.iter().copied().filter(|&i| a.is_some_and(|a| !a.saturated.get(i).copied().unwrap_or(false) && a.x[i] <= b_end * 1.0001)).collect();
    let a_max =
        |f: &dyn Fn(&Overlay, usize) -> f64| a.map_or(0.0, |a| a_steady.iter().map(|&i| f(a, i)).filter(|x| x.is_finite()).fold(0.0, f64::max));
    // A target above the data sets its axis with some headroom: 1.15 × for TTFT, 1.4 × for TPOT, so that when both
    // do, their two lines do not lie on one height (a trial read them as one line). A target more than 3 × above
    // the data does not: it is named above the plot instead of squeezing the curves into its bottom (2 s over
    // TTFTs of 30–400 ms).
    let max_of = |v: &[Vec<f64>; 3], t: Option<f64>, extra: f64, headroom: f64| {
        let data = scale_pts.iter().map(|&i| v[2][i]).filter(|x| x.is_finite()).fold(extra, f64::max);
        (data * 1.15).max(t.filter(|t| *t <= 3.0 * data || data <= 0.0).unwrap_or(0.0) * headroom)
    };
    // Past a few times the TTFT target the exact figure no longer matters (the level fails either way), and
    // one queue-bound level of 30 s would flatten every other: clip at 4 × the target.
    let cap = d.ttft_target.filter(|t| *t > 0.0).map_or(f64::INFINITY, |t| 4.0 * t);
    // TTFT in ms where its axis stays under 2 s, as the cards and the table give it (a teacher's trial: an axis of
    // 0.05–0.2 s beside "158 ms" everywhere else), in seconds above.
    let tmax_ms = max_of(&d.ttft, d.ttft_target, a_max(&|a, i| a.ttft[i]), 1.15).min(cap).max(10.0);
    let (div, unit) = if tmax_ms < 2000.0 { (1.0, "ms") } else { (1e3, "s") };
    let tmax = tmax_ms / div;
    let mut pmax = max_of(&d.tpot, d.tpot_target, a_max(&|a, i| a.tpot[i]), 1.4).max(1.0);
    // Two target lines at one height read as one line in two colours (a teacher's trial, with both axes at 4 ×
    // their targets): TPOT's axis then gets 60 % more room, which moves its line down.
    if let (Some(t), Some(p)) = (d.ttft_target, d.tpot_target) {
        if (t / div / tmax - p / pmax).abs() < 0.05 {
            pmax *= 1.6;
        }
    }
    let ttft_line = d.ttft_target.map(|t| t / div).filter(|t| *t < tmax);
    let tpot_line = d.tpot_target.filter(|t| *t < pmax);
    // A target above the plot, named at its top (one line for both).
    let above: Vec<String> = [
        d.ttft_target.filter(|_| ttft_line.is_none()).map(|t| format!("TTFT target {}", ttft_words(t))),
        d.tpot_target.filter(|_| tpot_line.is_none()).map(|t| format!("TPOT target {t} ms")),
    ]
    .into_iter()
    .flatten()
    .collect();
    let names = ["P50", if d.mid_p90 { "P90" } else { "P95" }, "P99"];
    // P50 thick and solid, P95 dashed, P99 dotted: told apart in print and without colour, not by shade.
    let styles = [(0usize, 3.0, Swatch::Line as fn(RGBAColor, f64) -> Swatch), (1, 2.0, Swatch::Dashed), (2, 2.0, Swatch::Dotted)];
    let mut entries = Vec::new();
    for (c, what) in [(TTFT, "TTFT"), (TPOT, "TPOT")] {
        for (k, w, swatch) in styles {
            entries.push(LegendEntry { swatch: swatch(c.to_rgba(), w), label: format!("{what} {}", names[k]) });
        }
    }
    // The target lines are named on the plot itself (below), not here.
    if let Some(a) = a {
        entries.push(LegendEntry { swatch: Swatch::Dashed(TTFT.mix(0.45), 4.0), label: format!("A: TTFT {}", a.pct) });
        entries.push(LegendEntry { swatch: Swatch::Dashed(TPOT.mix(0.45), 4.0), label: format!("A: TPOT {}", a.pct) });
    }
    let (plot, strip) = super::split_legend(root, &entries, scale);
    let mut chart = super::dual_axis_chart(&plot, scale, (xlo, xhi), (tmax, pmax), (d.x_axis.label(), &format!("TTFT ({unit})"))).map_err(err)?;
    chart
        .configure_secondary_axes()
        .label_style((SANS, 12.0 * scale))
        .axis_desc_style((SANS, 13.0 * scale))
        .y_desc("TPOT (ms)")
        .y_label_formatter(&|v| if *v >= 10.0 || *v == 0.0 { format!("{v:.0}") } else { format!("{v:.1}") })
        .draw()
        .map_err(err)?;
    for (k, w, _) in styles {
        let ttft: Vec<(f64, f64)> = pts.iter().map(|&i| (d.x[i], (d.ttft[k][i] / div).min(tmax))).collect();
        let tpot: Vec<(f64, f64)> = pts.iter().map(|&i| (d.x[i], d.tpot[k][i].min(pmax))).collect();
        if k == 0 {
            chart.draw_series(LineSeries::new(ttft, TTFT.stroke_width(px(w)))).map_err(err)?;
            chart.draw_secondary_series(LineSeries::new(tpot, TPOT.stroke_width(px(w)))).map_err(err)?;
        } else {
            let (dash, gap) = if k == 1 { (px(8.0), px(5.0)) } else { (px(2.0), px(4.0)) };
            chart.draw_series(DashedLineSeries::new(ttft, dash, gap, TTFT.stroke_width(px(w)))).map_err(err)?;
            chart.draw_secondary_series(DashedLineSeries::new(tpot, dash, gap, TPOT.stroke_width(px(w)))).map_err(err)?;
        }
    }
    // A level whose figure runs past the axis is marked by a dot at the top, so a clipped curve does not
    // read as a plateau (a teacher's trial on a projector: an MoE's P99 TTFT of 736-748 ms drawn flat at 660).
    let over = |v: f64, top: f64| v.is_finite() && v > top * 1.0001;
    let mark = |x: f64, top: f64, c: RGBColor| Circle::new((x, top), px(4.0), c.filled());
    let ttft_over = pts.iter().filter(|&&i| (0..3).any(|k| over(d.ttft[k][i] / div, tmax)));
    chart.draw_series(ttft_over.map(|&i| mark(d.x[i], tmax, TTFT))).map_err(err)?;
    let tpot_over = pts.iter().filter(|&&i| (0..3).any(|k| over(d.tpot[k][i], pmax)));
    chart.draw_secondary_series(tpot_over.map(|&i| mark(d.x[i], pmax, TPOT))).map_err(err)?;
    if let Some(a) = a {
        // Long, wide and light dashes: unlike P95's.
        let (dash, gap) = (px(14.0), px(6.0));
        chart
            .draw_series(DashedLineSeries::new(
                a_pts.iter().map(|&i| (a.x[i], (a.ttft[i] / div).min(tmax))),
                dash,
                gap,
                TTFT.mix(0.45).stroke_width(px(4.0)),
            ))
            .map_err(err)?;
        chart
            .draw_secondary_series(DashedLineSeries::new(
                a_pts.iter().map(|&i| (a.x[i], a.tpot[i].min(pmax))),
                dash,
                gap,
                TPOT.mix(0.45).stroke_width(px(4.0)),
            ))
            .map_err(err)?;
    }
    if let Some(t) = ttft_line {
        chart.draw_series(DashedLineSeries::new([(xlo, t), (xhi, t)], px(6.0), px(4.0), TTFT.stroke_width(px(1.0)))).map_err(err)?;
    }
    if let Some(t) = tpot_line {
        chart.draw_secondary_series(DashedLineSeries::new([(xlo, t), (xhi, t)], px(6.0), px(4.0), TPOT.stroke_width(px(1.0)))).map_err(err)?;
    }
    // Each target line is named on the plot at its left end, in its colour, where the curves of a usable load
    // lie low: scaled to their axes, the two lines often lie at one height (2 s of 8 and 40 ms of 160 on the
    // default page), and a teacher's trial read them as one line with a legend entry too many. Where they lie
    // within a line of type of each other, TPOT's name follows TTFT's on the same line.
    let font = (SANS, 12.0 * scale).into_font();
    let lift = px(3.0) as i32;
    let left = Pos::new(HPos::Left, VPos::Bottom);
    // On a light patch of the plot's white: a curve that crosses a name there no longer runs through its letters (a
    // trial read "TPOT target 50 ms" struck through by TTFT's P50).
    let width = |text: &str| (text.chars().count() as f64 * 6.6 * scale) as i32;
    let patch = |x: i32, y: i32, w: i32| Rectangle::new([(x - lift, y - px(14.0) as i32), (x + w + lift, y + lift / 2)], WHITE.mix(0.85).filled());
    let mut ttft_at = None;
    if let (Some(t), Some(ms)) = (ttft_line, d.ttft_target) {
        let text = format!("TTFT target {}", ttft_words(ms));
        let (x, y) = chart.backend_coord(&(xlo, t));
        let end = x + lift * 2 + width(&text);
        plot.draw(&patch(x + lift * 2, y - lift, width(&text))).map_err(err)?;
        plot.draw(&Text::new(text, (x + lift * 2, y - lift), font.color(&TTFT).pos(left))).map_err(err)?;
        ttft_at = Some((end, y));
    }
    if let Some(t) = tpot_line {
        let (x, y) = chart.borrow_secondary().backend_coord(&(xlo, t));
        let x = match ttft_at {
            Some((end, yt)) if (yt - y).abs() < px(15.0) as i32 => end + lift * 4,
            _ => x + lift * 2,
        };
        let text = format!("TPOT target {t} ms");
        plot.draw(&patch(x, y - lift, width(&text))).map_err(err)?;
        plot.draw(&Text::new(text, (x, y - lift), font.color(&TPOT).pos(left))).map_err(err)?;
    }
    if !above.is_empty() {
        let text = format!("{}: above the plot", above.join(", "));
        let (x, y) = chart.backend_coord(&(xlo, tmax));
        let (x, y) = (x + lift * 2, y + px(14.0) as i32);
        plot.draw(&patch(x, y, width(&text))).map_err(err)?;
        plot.draw(&Text::new(text, (x, y), font.color(&BLACK.mix(0.7)).pos(left))).map_err(err)?;
    }
    if let Some(x) = d.marker.filter(|x| *x >= xlo && *x <= xhi) {
        super::draw_pick(&mut chart, x, tmax, scale).map_err(err)?;
    }
    super::draw_legend_strip(&strip, &entries, scale).map_err(err)?;
    root.present().map_err(err)?;
    Ok(LoadScale::of(&chart, (xlo, xhi)))
}

/// The chart as an SVG document of `size` logical pixels (the same drawing as on the page's canvas).
///
/// # Errors
/// As [`draw`].
pub fn to_svg(d: &LatencyData, size: (u32, u32)) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        draw(&root, d, 1.0)?;
    }
    Ok(svg)
}

/// A TTFT target as people say it, whatever the axis's unit: "2 s" from a second up, "500 ms" below.
fn ttft_words(ms: f64) -> String {
    if ms >= 1000.0 {
        format!("{} s", ms / 1e3)
    } else {
        format!("{ms} ms")
    }
}
