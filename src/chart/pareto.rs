//! Chart: the trade-off between speed for each user and throughput for the operator — output tok/s per user (x)
//! against output tok/s per GPU (y), one point per load level. More users move along the curve from the right
//! (one user, fastest) to the top left (a full batch, most tokens per GPU); the target's per-user floor is a
//! vertical line (levels left of it are too slow for each user), levels that fail the target otherwise (its
//! percentile, TTFT too) hollow and ringed red, the operating point a green ring, the level picked with the
//! scrubber a dark one. The per-user axis is logarithmic like the other charts' load axis.

use super::{LegendEntry, LoadScale, Swatch};
use plotters::coord::Shift;
use plotters::prelude::*;

/// What the chart draws (planning builds it from a report: `crate::plan::charts::pareto`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ParetoData {
    /// (output tok/s per user, output tok/s per GPU) of each load level, in load order.
    pub points: Vec<(f64, f64)>,
    /// The target's per-user floor (1000 ÷ TPOT target), tok/s.
    pub floor: Option<f64>,
    /// Whether each point's level fails the target (at its percentile, TTFT included), aligned with `points`: a
    /// level right of the floor can still fail (a teacher's trial: 3–6 users at P99 TTFT 8–20 s in the clear area).
    pub fails: Vec<bool>,
    /// The operating point (per user, per GPU).
    pub operating: Option<(f64, f64)>,
    /// The level picked on the page (the scrubber).
    pub marker: Option<(f64, f64)>,
    /// What one device is called on the axis and legend ("GPU", "CPU", "chip", "device"; empty: "GPU").
    pub device: &'static str,
}

const CURVE: RGBColor = RGBColor(37, 99, 235);
const FLOOR: RGBColor = RGBColor(220, 38, 38);
const OP: RGBColor = RGBColor(22, 163, 74);
const PICK: RGBColor = RGBColor(15, 23, 42);

/// Draws the chart onto any plotters backend. Its x axis is not a load, so the returned scale is empty (the
/// page's pointer picks nothing here).
///
/// # Errors
/// A message when there is nothing to draw or the backend fails.
pub fn draw<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, d: &ParetoData, scale: f64) -> Result<LoadScale, String> {
    let px = |v: f64| super::px(scale, v);
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(err)?;
    let ok = |p: &&(f64, f64)| p.0.is_finite() && p.0 > 0.0 && p.1.is_finite() && p.1 >= 0.0;
    let pts: Vec<(f64, f64)> = d.points.iter().filter(ok).copied().collect();
    let failing: Vec<(f64, f64)> = d.points.iter().zip(&d.fails).filter(|(p, f)| **f && ok(p)).map(|(p, _)| *p).collect();
    if pts.is_empty() {
        return Err("no load levels to draw".into());
    }
    let floor = d.floor.filter(|f| f.is_finite() && *f > 0.0);
    // The per-user range covers the levels and the floor, from the power of ten below them (plotters labels a
    // log axis from its first power of ten: 20–250 tok/s would read only "100" and "200") to a little above.
    let (lo, hi) = super::load_range(pts.iter().map(|p| p.0).chain(floor));
    let (xlo, xhi) = (10f64.powf((lo / 1.15).log10().floor()), hi * 1.15);
    let ymax = super::nice_max(pts.iter().map(|p| p.1).fold(0.0, f64::max) * 1.1);
    let on = |p: &(f64, f64)| p.0 >= xlo && p.0 <= xhi && p.1.is_finite() && p.1 >= 0.0 && p.1 <= ymax;
    let device = if d.device.is_empty() { "GPU" } else { d.device };
    let mut entries = vec![LegendEntry { swatch: Swatch::Line(CURVE.to_rgba(), 3.0), label: format!("load levels (per user vs per {device})") }];
    if let Some(f) = floor {
        entries.push(LegendEntry { swatch: Swatch::Fill(FLOOR.mix(0.08)), label: format!("under the target floor ({f:.0} tok/s each)") });
    }
    if !failing.is_empty() {
        entries.push(LegendEntry { swatch: Swatch::Ring(FLOOR.to_rgba()), label: "fails the target (its percentile, TTFT too)".into() });
    }
    let op = d.operating.filter(on);
    if op.is_some() {
        entries.push(LegendEntry { swatch: Swatch::Ring(OP.to_rgba()), label: "operating point".into() });
    }
    let pick = d.marker.filter(on);
    if pick.is_some() {
        entries.push(LegendEntry { swatch: Swatch::Ring(PICK.to_rgba()), label: "level picked below".into() });
    }
    let (plot, strip) = super::split_legend(root, &entries, scale);
    let mut chart =
        super::panel(&plot, scale, (xlo, xhi), ymax, (Some("output tok/s per user"), &format!("output tok/s per {device}"))).map_err(err)?;
    if let Some(f) = floor.filter(|f| *f > xlo) {
        // Too slow for each user left of the floor: shaded, and the floor itself a red line.
        let f = f.min(xhi);
        chart.draw_series(std::iter::once(Rectangle::new([(xlo, 0.0), (f, ymax)], FLOOR.mix(0.08).filled()))).map_err(err)?;
        chart.draw_series(LineSeries::new([(f, 0.0), (f, ymax)], FLOOR.stroke_width(px(1.5)))).map_err(err)?;
    }
    chart.draw_series(LineSeries::new(pts.iter().copied(), CURVE.stroke_width(px(3.0)))).map_err(err)?;
    chart.draw_series(pts.iter().map(|p| Circle::new(*p, px(3.5), CURVE.filled()))).map_err(err)?;
    // A failing level: hollow, ringed red.
    chart.draw_series(failing.iter().filter(|p| on(p)).map(|p| Circle::new(*p, px(4.5), WHITE.filled()))).map_err(err)?;
    chart.draw_series(failing.iter().filter(|p| on(p)).map(|p| Circle::new(*p, px(4.5), FLOOR.stroke_width(px(2.0))))).map_err(err)?;
    if let Some(p) = pick {
        chart.draw_series(std::iter::once(Circle::new(p, px(10.0), PICK.mix(0.7).stroke_width(px(2.0))))).map_err(err)?;
    }
    if let Some(o) = op {
        chart.draw_series(std::iter::once(Circle::new(o, px(7.0), OP.stroke_width(px(3.0))))).map_err(err)?;
    }
    super::draw_legend_strip(&strip, &entries, scale).map_err(err)?;
    root.present().map_err(err)?;
    Ok(LoadScale::default())
}
