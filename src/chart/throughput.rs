//! Chart: per-user tokens/s (upper panel) and system tokens/s (lower panel) against load.
//!
//! The two numbers move in opposite directions as load grows. They have different units and scales, so they
//! are drawn as two stacked panels sharing the load axis rather than on one plot with two y-axes, where the
//! lines would cross at a point that means nothing (and readers took that crossing for the operating point).
//! Both panels mark the operating point; the upper one the capacity at the target (where the per-user figures
//! are judged), the per-user floor the target implies (1000 ÷ TPOT target) and the model's uncertainty band; the
//! lower one the saturation knee (where the system's throughput flattens).

use super::{LegendEntry, LoadAxis, LoadScale, Swatch};
use plotters::coord::Shift;
use plotters::prelude::*;

/// What the chart draws (planning builds it from a report: `crate::plan::charts`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ThroughputData {
    /// Load per level (users or req/s).
    pub x: Vec<f64>,
    pub x_axis: LoadAxis,
    /// Per-user tok/s at the median TPOT.
    pub per_user: Vec<f64>,
    /// Per-user tok/s at the target percentile's TPOT.
    pub per_user_tail: Vec<f64>,
    pub tail_label: String,
    pub system: Vec<f64>,
    /// Per-user floor implied by the TPOT target.
    pub floor: Option<f64>,
    pub knee_x: Option<f64>,
    /// The capacity at the target (the most load meeting it).
    pub capacity_x: Option<f64>,
    /// The knee's and the capacity's legend labels with their loads and the capacity's limit ("saturation knee (101
    /// users)", "capacity at the target (197 users, TTFT)": a teacher's trial found the lines without a number);
    /// empty: the bare names.
    pub knee_label: String,
    pub capacity_label: String,
    /// The first level whose KV cache filled (running requests evicted, read again later), and its legend label
    /// ("KV cache full (768 users: requests evicted)"): where the system's curve can fall and TTFT jump, memory's
    /// limit beside the compute's knee (a teacher's trial looked for where memory runs out on the chart).
    pub kv_full_x: Option<f64>,
    pub kv_full_label: String,
    /// A load picked on the page (the scrubber), marked on both panels.
    pub marker: Option<f64>,
    /// Operating point (load, per-user, system).
    pub operating: Option<(f64, f64, f64)>,
    /// The single-stream ceiling (bandwidth ÷ bytes per token, tok/s; 0: none): no user decodes faster, so the
    /// band stops there (a × 1.63 band around 20 tok/s reached past a 24 tok/s ceiling).
    pub ceiling: f64,
    /// The band under load as a fraction b: drawn from ÷ (1 + b) to × (1 + b) (`plan::band`).
    pub band: f64,
    /// The same for one user (the single-stream band).
    pub band_one: f64,
    /// Imported measurements: (load, per-user tok/s, system tok/s).
    pub measured: Vec<(f64, Option<f64>, Option<f64>)>,
    /// A pinned scenario ("A") drawn beside this one, dashed and lighter.
    pub compare: Option<Overlay>,
}

/// The pinned scenario's curves on the same load axis.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Overlay {
    pub x: Vec<f64>,
    /// Per-user tok/s at the median TPOT.
    pub per_user: Vec<f64>,
    pub system: Vec<f64>,
    /// Its operating point (load, per-user, system).
    pub operating: Option<(f64, f64, f64)>,
}

impl ThroughputData {
    /// The band's upper edge at level `i`: per-user × (1 + band), never above the single-stream ceiling.
    #[must_use]
    pub fn band_top(&self, i: usize) -> f64 {
        let top = self.per_user.get(i).map_or(0.0, |u| u * (1.0 + self.band_at(i)));
        if self.ceiling > 0.0 {
            top.min(self.ceiling)
        } else {
            top
        }
    }

    /// The band at level `i`: the single-stream band for one user (on a concurrency axis), else the batched one.
    #[must_use]
    pub fn band_at(&self, i: usize) -> f64 {
        if self.x_axis == LoadAxis::Users && self.x.get(i).is_some_and(|x| *x <= 1.0) {
            self.band_one
        } else {
            self.band
        }
    }
}

const USER: RGBColor = RGBColor(37, 99, 235);
const SYSTEM: RGBColor = RGBColor(217, 119, 6);
const FLOOR: RGBColor = RGBColor(220, 38, 38);
const KNEE: RGBColor = RGBColor(71, 85, 105);
const CAP: RGBColor = RGBColor(153, 27, 27);
const OP: RGBColor = RGBColor(22, 163, 74);
const KV_FULL: RGBColor = RGBColor(126, 34, 206);

/// The legend of the series this data draws, in drawing order.
fn legend(d: &ThroughputData, has_user_pts: bool, has_sys_pts: bool, show_floor: bool, show_op: bool) -> Vec<LegendEntry> {
    let mut v = Vec::new();
    let mut add = |swatch, label: &str| v.push(LegendEntry { swatch, label: label.to_string() });
    add(Swatch::Line(USER.to_rgba(), 3.0), "per user (median TPOT)");
    add(Swatch::Line(USER.mix(0.8), 1.5), &d.tail_label);
    add(Swatch::Line(SYSTEM.to_rgba(), 3.0), "system (all users)");
    if d.band > 0.0 {
        add(Swatch::Fill(USER.mix(0.18)), "validated error (9 in 10 measured within)");
    }
    if let (true, Some(f)) = (show_floor, d.floor) {
        add(Swatch::Line(FLOOR.to_rgba(), 1.0), &format!("target floor {f:.0} tok/s"));
    }
    let named = |label: &str, bare: &'static str| if label.is_empty() { bare.to_string() } else { label.to_string() };
    if d.knee_x.is_some() {
        add(Swatch::Dashed(KNEE.to_rgba(), 2.0), &named(&d.knee_label, "saturation knee"));
    }
    if d.capacity_x.is_some() {
        add(Swatch::Dotted(CAP.to_rgba(), 2.0), &named(&d.capacity_label, "capacity at the target"));
    }
    if d.kv_full_x.is_some() {
        add(Swatch::Dashed(KV_FULL.to_rgba(), 2.0), &d.kv_full_label);
    }
    if show_op {
        add(Swatch::Ring(OP.to_rgba()), "operating point");
    }
    if has_user_pts {
        add(Swatch::Cross(USER.to_rgba()), "measured per user");
    }
    if has_sys_pts {
        add(Swatch::Cross(SYSTEM.to_rgba()), "measured system");
    }
    if d.compare.is_some() {
        add(Swatch::Dashed(USER.mix(0.55), 2.0), "A: per user");
        add(Swatch::Dashed(SYSTEM.mix(0.55), 2.0), "A: system");
    }
    v
}

/// Draws the chart onto any plotters backend: the plot on top, its legend in a strip below it. Returns where
/// the load axis lies (both panels share it).
///
/// # Errors
/// A message when there is nothing to draw or the backend fails.
pub fn draw<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, d: &ThroughputData, scale: f64) -> Result<LoadScale, String> {
    let px = |v: f64| super::px(scale, v);
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(err)?;
    let pts: Vec<usize> = (0..d.x.len()).filter(|&i| d.x[i] > 0.0 && d.x[i].is_finite()).collect();
    if pts.is_empty() {
        return Err("no load levels to draw".into());
    }
    // The pinned scenario's levels (A), drawn on the same axes.
    let a = d.compare.as_ref();
    let a_pts: Vec<usize> = a.map_or_else(Vec::new, |a| {
        (0..a.x.len().min(a.per_user.len()).min(a.system.len())).filter(|&i| a.x[i] > 0.0 && a.x[i].is_finite()).collect()
    });
    let a_x = a_pts.iter().filter_map(|&i| a.map(|a| a.x[i]));
    let (xlo, xhi) = super::load_range(pts.iter().map(|&i| d.x[i]).chain(d.measured.iter().map(|m| m.0)).chain(a_x));
    // 10 % headroom above the highest point (the legend is outside the plot).
    let umax = super::nice_max(
        pts.iter()
            // The band widens the axis up to 1.6 × the curve; a wider band (MoE) is cut at the top of the panel.
            .map(|&i| d.per_user[i] * (1.0 + d.band_at(i).min(0.6)))
            .chain(d.measured.iter().filter_map(|m| m.1))
            .chain(a_pts.iter().filter_map(|&i| a.map(|a| a.per_user[i])))
            .fold(d.floor.unwrap_or(0.0) * 1.1, f64::max)
            * 1.1,
    );
    let smax = super::nice_max(
        pts.iter()
            .map(|&i| d.system[i])
            .chain(d.measured.iter().filter_map(|m| m.2))
            .chain(a_pts.iter().filter_map(|&i| a.map(|a| a.system[i])))
            .fold(0.0, f64::max)
            * 1.1,
    );
    let in_range = |x: f64| x >= xlo && x <= xhi;
    let user_pts: Vec<(f64, f64)> = d.measured.iter().filter_map(|m| m.1.map(|u| (m.0, u))).filter(|p| in_range(p.0)).collect();
    let sys_pts: Vec<(f64, f64)> = d.measured.iter().filter_map(|m| m.2.map(|s| (m.0, s))).filter(|p| in_range(p.0)).collect();
    let floor = d.floor.filter(|f| *f < umax);
    let op = d.operating.filter(|o| o.0 >= xlo && o.0 <= xhi);
    let entries = legend(d, !user_pts.is_empty(), !sys_pts.is_empty(), floor.is_some(), op.is_some());
    let (plot, strip) = super::split_legend(root, &entries, scale);
    // The upper panel has no load-axis labels: it gets a little less height so both plots are about as tall.
    let h = plot.dim_in_pixel().1;
    let (top, bottom) = plot.split_vertically(h.saturating_sub(px(40.0)) / 2);
    let (dash, gap) = (px(7.0), px(5.0));
    let a_line = |f: fn(&Overlay, usize) -> f64| a.map(|a| a_pts.iter().map(|&i| (a.x[i], f(a, i))).collect::<Vec<_>>()).unwrap_or_default();
    let line = |v: &[f64]| pts.iter().map(|&i| (d.x[i], v[i])).collect::<Vec<_>>();
    let mut load_scale = LoadScale::default();
    for (k, area) in [top, bottom].iter().enumerate() {
        let (ymax, series, color) = if k == 0 { (umax, &d.per_user, USER) } else { (smax, &d.system, SYSTEM) };
        let descs = if k == 0 { (None, "per-user tok/s") } else { (Some(d.x_axis.label()), "system tok/s") };
        let mut chart = super::panel(area, scale, (xlo, xhi), ymax, descs).map_err(err)?;
        if k == 0 && d.band > 0.0 {
            // Uncertainty band around the per-user line, multiplicative (÷ (1 + b) … × (1 + b): see plan::band),
            // cut at the top of the panel.
            let mut poly: Vec<(f64, f64)> = pts.iter().map(|&i| (d.x[i], d.band_top(i).min(ymax))).collect();
            poly.extend(pts.iter().rev().map(|&i| (d.x[i], d.per_user[i] / (1.0 + d.band_at(i)))));
            chart.draw_series(std::iter::once(Polygon::new(poly, USER.mix(0.12)))).map_err(err)?;
        }
        if let (0, Some(f)) = (k, floor) {
            chart.draw_series(LineSeries::new([(xlo, f), (xhi, f)], FLOOR.stroke_width(px(1.0)))).map_err(err)?;
        }
        // The capacity (dotted) where the per-user figures are judged, the knee (dashed) where the system's
        // throughput flattens, each in its own panel (in one, the two often stood a few users apart and read as
        // one line); the scrubber's load (thin, solid) across both.
        if let (1, Some(x)) = (k, d.knee_x) {
            chart.draw_series(DashedLineSeries::new([(x, 0.0), (x, ymax)], px(8.0), px(4.0), KNEE.stroke_width(px(2.0)))).map_err(err)?;
        }
        if let (0, Some(x)) = (k, d.capacity_x.filter(|x| in_range(*x))) {
            chart.draw_series(DashedLineSeries::new([(x, 0.0), (x, ymax)], px(2.0), px(4.0), CAP.stroke_width(px(2.0)))).map_err(err)?;
        }
        // Memory full: on the system panel, where it explains a fall of the curve (long dashes, violet, apart from
        // the knee's grey).
        if let (1, Some(x)) = (k, d.kv_full_x.filter(|x| in_range(*x))) {
            chart.draw_series(DashedLineSeries::new([(x, 0.0), (x, ymax)], px(12.0), px(4.0), KV_FULL.stroke_width(px(2.0)))).map_err(err)?;
        }
        if let Some(x) = d.marker.filter(|x| in_range(*x)) {
            super::draw_pick(&mut chart, x, ymax, scale).map_err(err)?;
        }
        if let Some(a) = a {
            // A under B: dashed, lighter, no band or markers of its own but its operating point.
            let pts = if k == 0 { a_line(|a, i| a.per_user[i]) } else { a_line(|a, i| a.system[i]) };
            chart.draw_series(DashedLineSeries::new(pts, dash, gap, color.mix(0.55).stroke_width(px(2.0)))).map_err(err)?;
            if let Some(o) = a.operating.filter(|o| in_range(o.0)) {
                let y = if k == 0 { o.1 } else { o.2 };
                chart.draw_series(std::iter::once(Circle::new((o.0, y), px(6.0), OP.mix(0.5).stroke_width(px(2.0))))).map_err(err)?;
            }
        }
        chart.draw_series(LineSeries::new(line(series), color.stroke_width(px(3.0)))).map_err(err)?;
        chart.draw_series(pts.iter().map(|&i| Circle::new((d.x[i], series[i]), 3, color.filled()))).map_err(err)?;
        if k == 0 {
            // Thinner than the median's 3 px but not faint: at 1 px and 60 % a teacher's trial lost it in the dark
            // theme (the canvas is inverted there) and on a projector. 1.5 px of the layout, rounded by `px` (2 on a
            // 1× screen, 3 on a 2× one).
            chart.draw_series(LineSeries::new(line(&d.per_user_tail), USER.mix(0.8).stroke_width(px(1.5)))).map_err(err)?;
        }
        if let Some(o) = op {
            let y = if k == 0 { o.1 } else { o.2 };
            chart.draw_series(std::iter::once(Circle::new((o.0, y), px(7.0), OP.stroke_width(px(3.0))))).map_err(err)?;
        }
        load_scale = LoadScale::of(&chart, (xlo, xhi));
        let crosses = if k == 0 { &user_pts } else { &sys_pts };
        chart.draw_series(crosses.iter().map(|p| Cross::new(*p, px(6.0) as i32, color.stroke_width(px(2.5))))).map_err(err)?;
    }
    super::draw_legend_strip(&strip, &entries, scale).map_err(err)?;
    root.present().map_err(err)?;
    Ok(load_scale)
}

/// The chart as an SVG document of `size` logical pixels (the same drawing as on the page's canvas).
///
/// # Errors
/// As [`draw`].
pub fn to_svg(d: &ThroughputData, size: (u32, u32)) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        draw(&root, d, 1.0)?;
    }
    Ok(svg)
}
