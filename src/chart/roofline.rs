//! Chart: the roofline — attainable compute (TFLOP/s, log) against arithmetic intensity (FLOPs per byte moved,
//! log). The hardware's roof is min(peak, bandwidth × intensity): a slope where a step is memory-bound, flat
//! where it is compute-bound, the two meeting at the ridge (peak ÷ bandwidth). The engine's roof (dashed) is the
//! same at the scenario's η_bw and η_fl. Each decode step is a point at its load level's mean batch: one
//! sequence reads every weight for 2 FLOPs per parameter (intensity ≈ 1–2 at 16 bits), a batch of B reuses them
//! B times, so the points climb the slope as users are added, until the KV cache each sequence reads (which no
//! batch shares) holds the intensity below the ridge. A prefill chunk multiplies the weights by hundreds of
//! prompt tokens at once and sits right of the ridge, under the flat roof: why prefill is compute-bound and
//! decode memory-bound — for a dense model. A mixture-of-experts chunk spreads its tokens over the experts: each
//! expert's weights are reused only by the tokens routed to it (DeepSeek-V3's 512-token chunk: 16 per expert), so
//! such a chunk can sit left of the ridge too (58 FLOP/byte on 8 × H200, ridge 412); the page's title and
//! explanation do not assume a side, the explanation reads it off the numbers. A point below its roof is time the roofline does not count (per-step overhead, the
//! kernel chain's floor, MoE kernels, communication).

use super::{LegendEntry, LoadScale, Swatch};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// What the chart draws (planning builds it from a report: `crate::plan::charts::roofline`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RooflineData {
    /// Peak compute, TFLOP/s, and bandwidth, GB/s, of the devices working on one step.
    pub peak_tflops: f64,
    pub bandwidth_gbps: f64,
    /// The engine's efficiencies (η_fl, η_bw): its roof is the hardware's times these.
    pub efficiency: (f64, f64),
    /// (intensity, TFLOP/s) of the decode step at each load level, in load order (0, 0 where there is none).
    pub decode: Vec<(f64, f64)>,
    /// (intensity, TFLOP/s, prompt tokens) of one prefill chunk.
    pub prefill: Option<(f64, f64, f64)>,
    /// The operating point's level and the level picked on the page (the scrubber), as (intensity, TFLOP/s).
    pub operating: Option<(f64, f64)>,
    pub marker: Option<(f64, f64)>,
}

const ROOF: RGBColor = RGBColor(15, 23, 42);
const ENGINE: RGBColor = RGBColor(100, 116, 139);
const DECODE: RGBColor = RGBColor(37, 99, 235);
const PREFILL: RGBColor = RGBColor(217, 119, 6);
const OP: RGBColor = RGBColor(22, 163, 74);

/// Draws the chart onto any plotters backend. Its x axis is not a load, so the returned scale is empty.
///
/// # Errors
/// A message when there is nothing to draw or the backend fails.
pub fn draw<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, d: &RooflineData, scale: f64) -> Result<LoadScale, String> {
    let px = |v: f64| super::px(scale, v);
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(err)?;
    let ok = |p: &(f64, f64)| p.0.is_finite() && p.0 > 0.0 && p.1.is_finite() && p.1 > 0.0;
    let pts: Vec<(f64, f64)> = d.decode.iter().copied().filter(ok).collect();
    let prefill = d.prefill.filter(|p| ok(&(p.0, p.1)));
    let (peak, bw) = (d.peak_tflops, d.bandwidth_gbps / 1e3);
    if pts.is_empty() || !(peak.is_finite() && peak > 0.0 && bw.is_finite() && bw > 0.0) {
        return Err("no load levels to draw".into());
    }
    let ridge = peak / bw;
    // Intensity from a decade below the points to a decade past the ridge or the prefill; compute from a decade
    // below the lowest point to above the peak (room for the roof's labels).
    let xs = pts.iter().map(|p| p.0).chain(prefill.map(|p| p.0)).chain([ridge]);
    let (lo, hi) = xs.fold((f64::MAX, 0.0_f64), |(a, b), x| (a.min(x), b.max(x)));
    let (xlo, xhi) = (10f64.powf((lo / 1.5).log10().floor()), 10f64.powf((hi * 1.5).log10().ceil()));
    let ymin = pts.iter().map(|p| p.1).chain(prefill.map(|p| p.1)).fold(peak, f64::min);
    let (ylo, yhi) = (10f64.powf((ymin / 1.5).log10().floor()).max(peak * 1e-6), peak * 2.5);
    let (eta_fl, eta_bw) = d.efficiency;
    let mut entries = vec![
        LegendEntry { swatch: Swatch::Line(ROOF.to_rgba(), 2.5), label: format!("hardware: {peak:.0} TFLOP/s, {bw:.2} TB/s") },
        LegendEntry { swatch: Swatch::Dashed(ENGINE.to_rgba(), 2.0), label: format!("engine's roof (η_fl {eta_fl:.2}, η_bw {eta_bw:.2})") },
        LegendEntry { swatch: Swatch::Line(DECODE.to_rgba(), 3.0), label: "decode step at each load's batch".into() },
    ];
    if let Some(p) = prefill {
        entries.push(LegendEntry { swatch: Swatch::Fill(PREFILL.to_rgba()), label: format!("prefill, {:.0} prompt tokens", p.2) });
    }
    let on = |p: &(f64, f64)| ok(p) && p.0 >= xlo && p.0 <= xhi && p.1 >= ylo && p.1 <= yhi;
    let op = d.operating.filter(on);
    if op.is_some() {
        entries.push(LegendEntry { swatch: Swatch::Ring(OP.to_rgba()), label: "operating point".into() });
    }
    let pick = d.marker.filter(on);
    if pick.is_some() {
        entries.push(LegendEntry { swatch: Swatch::Ring(ROOF.to_rgba()), label: "level picked below".into() });
    }
    let (plot, strip) = super::split_legend(root, &entries, scale);
    // Both axes logarithmic, on the load charts' coordinate type (log x, linear y) with y in decades above `ylo`:
    // a second coordinate type would cost the page ~10 KB of wasm in plotters' generic code.
    let base = ylo.log10();
    let y = |t: f64| t.log10() - base;
    let decade = |v: &f64| if (v - v.round()).abs() < 1e-6 { super::y_tick(&10f64.powf(v.round() + base)) } else { String::new() };
    // The intensity axis ends on a labelled decade ("10000"): room on the right for half of it (it was clipped).
    let mut b = super::builder(&plot, scale, 40.0, 0.0);
    b.margin_right(super::px(scale, 24.0));
    let mut chart = b.build_cartesian_2d((xlo..xhi).log_scale(), 0.0..y(yhi)).map_err(err)?;
    super::mesh(&mut chart, scale, ("arithmetic intensity (FLOPs per byte moved)", "TFLOP/s"), (&decade, 10)).map_err(err)?;
    // The slope starts where it enters the plot: at the left edge, or on the bottom edge where bandwidth ×
    // intensity reaches the lowest TFLOP/s shown (a point below the axis would be clamped onto it, bending the
    // slope away from bandwidth × intensity).
    let roof = |f: f64, b: f64| {
        let x0 = xlo.max(ylo / b);
        [(x0, y((b * x0).min(f))), (f / b, y(f)), (xhi, y(f))]
    };
    chart.draw_series(DashedLineSeries::new(roof(peak * eta_fl, bw * eta_bw), px(7.0), px(5.0), ENGINE.stroke_width(px(2.0)))).map_err(err)?;
    chart.draw_series(LineSeries::new(roof(peak, bw), ROOF.stroke_width(px(2.5)))).map_err(err)?;
    chart.draw_series(DashedLineSeries::new([(ridge, 0.0), (ridge, y(peak))], px(2.0), px(4.0), ROOF.mix(0.5).stroke_width(px(1.5)))).map_err(err)?;
    // The engine's own ridge (where its dashed roof bends): what the sweep table's "bound" column goes by — a
    // step between the two ridges is compute-bound for the engine though left of the hardware's ridge.
    let eridge = peak * eta_fl / (bw * eta_bw);
    chart
        .draw_series(DashedLineSeries::new([(eridge, 0.0), (eridge, y(peak * eta_fl))], px(2.0), px(4.0), ENGINE.mix(0.6).stroke_width(px(1.5))))
        .map_err(err)?;
    // The labels sit in the headroom above the peak: the ridge's left of its line, "compute-bound" at the right
    // end (both right-aligned, so they never run off the plot), "memory-bound" at the left end.
    // Where a label would collide (a narrow phone, presentation type: a new user saw "ridge" run into
    // "compute-bound", and the points near the ridge hide the engine's ridge label), it moves or is left out
    // (the caption says the same): widths are estimated from the type size.
    let font = (super::SANS, 12.0 * scale).into_font().color(&ROOF);
    let right = font.pos(Pos::new(HPos::Right, VPos::Top));
    let at = |x: f64, t: f64| chart.backend_coord(&(x, y(t)));
    let wide = |s: &str| (s.chars().count() as f64 * 6.6 * scale) as i32;
    let ridge_text = format!("ridge: {ridge:.0} FLOP/byte");
    let ridge_starts = at(ridge / 1.08, peak).0 - wide(&ridge_text);
    let mut labels = vec![(ridge_text, (ridge / 1.08, peak * 2.2), &right)];
    // "memory-bound" at the left end, unless it reaches the ridge's label.
    let memory_text = "memory-bound ↙";
    if at(xlo * 1.3, peak).0 + wide(memory_text) + 6 < ridge_starts {
        labels.push((memory_text.to_string(), (xlo * 1.3, peak * 1.6), &font));
    }
    // "compute-bound" in the headroom at the right end, unless the ridge's label reaches it.
    let bound_text = "compute-bound ↓";
    if at(xhi / 1.1, peak).0 - wide(bound_text) > at(ridge / 1.08, peak).0 + 6 {
        labels.push((bound_text.to_string(), (xhi / 1.1, peak * 1.6), &right));
    }
    // The engine's ridge at the foot of its line, where no point or roof runs: left of it (right of it the
    // hardware's ridge line may be near), or right where the plot begins too soon.
    let eridge_text = format!("engine's ridge: {eridge:.0}");
    let foot = ylo * 10f64.powf(0.08 * y(yhi));
    labels.push(if at(eridge / 1.08, peak).0 - wide(&eridge_text) > at(xlo, peak).0 {
        (eridge_text, (eridge / 1.08, foot), &right)
    } else {
        (eridge_text, (eridge * 1.08, foot), &font)
    });
    for (text, (x, t), style) in labels {
        plot.draw(&Text::new(text, at(x, t), style.clone())).map_err(err)?;
    }
    let pts: Vec<(f64, f64)> = pts.iter().map(|p| (p.0, y(p.1))).collect();
    chart.draw_series(LineSeries::new(pts.iter().copied(), DECODE.stroke_width(px(3.0)))).map_err(err)?;
    chart.draw_series(pts.iter().map(|p| Circle::new(*p, px(3.5), DECODE.filled()))).map_err(err)?;
    if let Some(p) = prefill {
        let r = 1.12_f64.log10();
        chart.draw_series(std::iter::once(Rectangle::new([(p.0 / 1.12, y(p.1) - r), (p.0 * 1.12, y(p.1) + r)], PREFILL.filled()))).map_err(err)?;
    }
    if let Some(p) = pick {
        chart.draw_series(std::iter::once(Circle::new((p.0, y(p.1)), px(10.0), ROOF.mix(0.7).stroke_width(px(2.0))))).map_err(err)?;
    }
    if let Some(o) = op {
        chart.draw_series(std::iter::once(Circle::new((o.0, y(o.1)), px(7.0), OP.stroke_width(px(3.0))))).map_err(err)?;
    }
    super::draw_legend_strip(&strip, &entries, scale).map_err(err)?;
    root.present().map_err(err)?;
    Ok(LoadScale::default())
}
