//! Charts, one per module, each a `draw(area, data)` generic over the plotters backend: the page draws on a
//! canvas, tests draw into an SVG string. A chart reads only its own data type (series, markers, measured
//! points), which planning builds from a report (`crate::plan::charts`): charts know nothing of where the
//! numbers come from. The data is compared by value, so the page redraws only when it changes.

pub mod latency;
pub mod pareto;
pub mod roofline;
pub mod throughput;

use plotters::chart::DualCoordChartContext;
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::RGBAColor;

/// What the load axis counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LoadAxis {
    /// Concurrent users (closed loop).
    #[default]
    Users,
    /// Requests per second (open loop).
    RequestRate,
}

impl LoadAxis {
    /// The axis description. Its scale is said: each tick is 1, 2 or 5 × a power of ten, and a class had read a
    /// saturating system curve on it as one that kept speeding up (a teacher's trial).
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            LoadAxis::Users => "concurrent users (log scale)",
            LoadAxis::RequestRate => "request rate (req/s, log scale)",
        }
    }
}

/// The coordinate system both charts use: log-scaled load on x, linear y.
pub(crate) type LogLin = Cartesian2d<LogCoord<f64>, RangedCoordf64>;

/// Where the load axis lies on a drawn chart: the backend pixels of its two ends and the loads there. The page
/// turns a pointer's position over a chart into a load with it.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct LoadScale {
    /// Backend pixels (x) of the axis's low and high end.
    pub px: (f64, f64),
    /// The loads at those ends (the axis is logarithmic).
    pub load: (f64, f64),
}

impl LoadScale {
    /// The scale of a drawn chart whose load axis spans `range`.
    pub(crate) fn of<DB: DrawingBackend>(chart: &ChartContext<'_, DB, LogLin>, (lo, hi): (f64, f64)) -> Self {
        let px = |x: f64| f64::from(chart.backend_coord(&(x, 0.0)).0);
        Self { px: (px(lo), px(hi)), load: (lo, hi) }
    }

    /// The load at backend pixel `x` (log scale), clamped to the axis's ends.
    #[must_use]
    pub fn load_at(&self, x: f64) -> f64 {
        let ((a, b), (lo, hi)) = (self.px, self.load);
        if !(b > a && lo > 0.0 && hi >= lo) {
            return lo;
        }
        let t = ((x - a) / (b - a)).clamp(0.0, 1.0);
        (lo.ln() + t * (hi / lo).ln()).exp()
    }
}

/// The load picked on the page (the scrubber), as a thin line across a plot up to `ymax`.
pub(crate) fn draw_pick<DB: DrawingBackend>(
    chart: &mut ChartContext<'_, DB, LogLin>,
    x: f64,
    ymax: f64,
    scale: f64,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    chart.draw_series(LineSeries::new([(x, 0.0), (x, ymax)], RGBColor(15, 23, 42).mix(0.6).stroke_width(px(scale, 1.5))))?;
    Ok(())
}

/// The x range covering the given loads (a single load is widened to a factor of two each side).
pub(crate) fn load_range(xs: impl Iterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) = xs.fold((f64::INFINITY, 0.0_f64), |(lo, hi), x| (lo.min(x), hi.max(x)));
    if hi > lo {
        (lo, hi)
    } else {
        (lo * 0.5, lo * 2.0)
    }
}

/// Formats a tick of a log axis: whole numbers from 10 up, else up to three decimals without trailing zeros.
/// Only 1, 2 and 5 × a power of ten are labelled: plotters puts a tick at every multiple within a decade when the
/// axis spans about one (30 40 50 … 90 ran together on a phone); the others keep their grid line.
pub(crate) fn load_tick(v: &f64) -> String {
    let lead = v / 10f64.powf(v.log10().floor());
    if ![1.0, 2.0, 5.0, 10.0].iter().any(|m| (lead - m).abs() < 1e-6) {
        return String::new();
    }
    if *v >= 10.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.3}").trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// The charts' typeface. Named by the enum, not by the string "sans-serif": plotters reads a family's name
/// through `str::to_lowercase`, which brings Unicode's case tables into the page (3.4 KB of code and data).
pub(crate) const SANS: FontFamily<'static> = FontFamily::SansSerif;

/// A round axis maximum at or above `v` (1, 1.5, 2, 2.5, 3, 4, 5, 6, 8 × a power of ten); 1 for nothing to show.
pub(crate) fn nice_max(v: f64) -> f64 {
    if !(v.is_finite() && v > 0.0) {
        return 1.0;
    }
    let mag = 10f64.powf(v.log10().floor());
    let m = v / mag;
    let n = [1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0].into_iter().find(|n| m <= *n).unwrap_or(10.0);
    n * mag
}

/// Pixels for a logical size at a device-pixel scale (the page draws at devicePixelRatio × the CSS size).
pub(crate) fn px(scale: f64, v: f64) -> u32 {
    (v * scale).round().max(1.0) as u32
}

/// How a legend entry shows its series.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Swatch {
    /// A line of this colour and logical width.
    Line(RGBAColor, f64),
    /// A dashed line.
    Dashed(RGBAColor, f64),
    /// A dotted line.
    Dotted(RGBAColor, f64),
    /// A ring (the operating point).
    Ring(RGBAColor),
    /// A cross (a measured point).
    Cross(RGBAColor),
    /// A filled box (a band).
    Fill(RGBAColor),
}

/// One entry of a chart's legend.
pub(crate) struct LegendEntry {
    pub swatch: Swatch,
    pub label: String,
}

/// Logical size of the legend's text, px.
const LEGEND_FONT: f64 = 12.0;
/// Logical height of one legend row, px.
const LEGEND_ROW: f64 = 18.0;

/// Approximate logical width of an entry: swatch, label (about 0.56 em per character of the sans-serif face)
/// and the gap to the next one.
fn entry_width(e: &LegendEntry) -> f64 {
    26.0 + e.label.chars().count() as f64 * LEGEND_FONT * 0.56 + 16.0
}

/// Lays the entries out in rows that fit `width` logical px: the (row, x) of each entry and the row count.
fn legend_rows(entries: &[LegendEntry], width: f64) -> (Vec<(usize, f64)>, usize) {
    let (mut row, mut x) = (0usize, 8.0);
    let mut at = Vec::with_capacity(entries.len());
    for e in entries {
        let w = entry_width(e);
        if x > 8.0 && x + w > width {
            row += 1;
            x = 8.0;
        }
        at.push((row, x));
        x += w;
    }
    (at, if entries.is_empty() { 0 } else { row + 1 })
}

/// Splits `root` into the plot (top) and a legend strip (bottom) tall enough for the entries' rows, so the
/// legend never covers data (a box inside the plot hid measured points and line ends).
pub(crate) fn split_legend<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    entries: &[LegendEntry],
    scale: f64,
) -> (DrawingArea<DB, Shift>, DrawingArea<DB, Shift>) {
    let (w, h) = root.dim_in_pixel();
    let (_, rows) = legend_rows(entries, f64::from(w) / scale.max(1e-9));
    let strip = ((rows as f64 * LEGEND_ROW + 6.0) * scale).round() as u32;
    root.split_vertically(h.saturating_sub(strip.min(h / 2)))
}

/// Draws the legend entries in their strip (from [`split_legend`]).
pub(crate) fn draw_legend_strip<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[LegendEntry],
    scale: f64,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let (w, _) = area.dim_in_pixel();
    let (at, _) = legend_rows(entries, f64::from(w) / scale.max(1e-9));
    let p = |v: f64| (v * scale).round() as i32;
    let font = (SANS, LEGEND_FONT * scale).into_font().color(&RGBColor(51, 65, 85));
    for (e, (row, x)) in entries.iter().zip(at) {
        let (x0, y) = (p(x), p(row as f64 * LEGEND_ROW + LEGEND_ROW / 2.0 + 3.0));
        let x1 = x0 + p(20.0);
        match e.swatch {
            Swatch::Line(c, wd) => area.draw(&PathElement::new([(x0, y), (x1, y)], c.stroke_width(px(scale, wd))))?,
            Swatch::Dashed(c, wd) => {
                for k in 0..3 {
                    let a = x0 + k * p(8.0);
                    area.draw(&PathElement::new([(a, y), ((a + p(5.0)).min(x1), y)], c.stroke_width(px(scale, wd))))?;
                }
            }
            Swatch::Dotted(c, wd) => {
                for k in 0..5 {
                    let a = x0 + k * p(4.5);
                    area.draw(&PathElement::new([(a, y), (a + p(2.0), y)], c.stroke_width(px(scale, wd))))?;
                }
            }
            Swatch::Ring(c) => area.draw(&Circle::new(((x0 + x1) / 2, y), px(scale, 5.0), c.stroke_width(px(scale, 2.0))))?,
            Swatch::Cross(c) => area.draw(&Cross::new(((x0 + x1) / 2, y), px(scale, 5.0) as i32, c.stroke_width(px(scale, 2.0))))?,
            Swatch::Fill(c) => area.draw(&Rectangle::new([(x0, y - p(5.0)), (x1, y + p(5.0))], c.filled()))?,
        }
        area.draw(&Text::new(e.label.clone(), (x1 + p(6.0), y - p(LEGEND_FONT / 2.0 + 1.0)), font.clone()))?;
    }
    Ok(())
}

/// A y-axis tick: whole numbers from 10 up, else up to two decimals without trailing zeros.
fn y_tick(v: &f64) -> String {
    if *v >= 10.0 || *v == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.2}").trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// How many ticks a linear axis of this drawing area takes: one per ~36 logical px, 3 to 10 (a phone's short
/// panels had 11 labels in 90 px, touching).
fn y_labels<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, scale: f64) -> usize {
    (f64::from(root.dim_in_pixel().1) / scale / 36.0).clamp(3.0, 10.0) as usize
}

/// The builder both kinds of chart start from: margins, the left label area and the load axis's label area
/// (`x_area` logical px: none for the upper of two stacked panels, whose load axis is the lower one's).
fn builder<'a, 'b, DB: DrawingBackend>(root: &'a DrawingArea<DB, Shift>, scale: f64, x_area: f64, right: f64) -> ChartBuilder<'a, 'b, DB> {
    let mut b = ChartBuilder::on(root);
    b.margin(px(scale, 12.0)).margin_bottom(px(scale, if x_area > 0.0 { 12.0 } else { 4.0 })).y_label_area_size(px(scale, 56.0));
    // An area of size 0 is left out (plotters would otherwise draw that axis's labels in it).
    if x_area > 0.0 {
        b.x_label_area_size(px(scale, x_area));
    }
    if right > 0.0 {
        b.right_y_label_area_size(px(scale, right));
    }
    b
}

/// Draws the mesh: the load axis described `x_desc`, the left axis `y_desc` with its ticks formatted by `y_fmt`.
fn mesh<DB: DrawingBackend, X, Y>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<X, Y>>,
    scale: f64,
    (x_desc, y_desc): (&str, &str),
    (y_fmt, y_labels): (&dyn Fn(&f64) -> String, usize),
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>>
where
    X: Ranged<ValueType = f64> + plotters::coord::ranged1d::ValueFormatter<f64>,
    Y: Ranged<ValueType = f64> + plotters::coord::ranged1d::ValueFormatter<f64>,
{
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc(y_desc)
        .label_style((SANS, 12.0 * scale))
        .axis_desc_style((SANS, 13.0 * scale))
        .x_label_formatter(&load_tick)
        .y_label_formatter(y_fmt)
        .y_labels(y_labels)
        .light_line_style(RGBColor(238, 238, 238))
        .draw()
}

/// One panel of stacked panels sharing the load axis: log-scaled load on x, a left axis up to `ymax`. Only
/// the panel given an `x_desc` (the lowest) labels the load axis; the panels line up because every one has the
/// same margins and left label area.
pub(crate) fn panel<'a, DB: DrawingBackend>(
    root: &'a DrawingArea<DB, Shift>,
    scale: f64,
    (xlo, xhi): (f64, f64),
    ymax: f64,
    (x_desc, y_desc): (Option<&str>, &str),
) -> Result<ChartContext<'a, DB, LogLin>, DrawingAreaErrorKind<DB::ErrorType>> {
    // The right label area the latency chart's TPOT axis takes, kept empty: the two charts' load axes line up (a
    // teacher's trial found 100 users 48 px apart on the two).
    let mut chart = builder(root, scale, if x_desc.is_some() { 40.0 } else { 0.0 }, 64.0).build_cartesian_2d((xlo..xhi).log_scale(), 0.0..ymax)?;
    mesh(&mut chart, scale, (x_desc.unwrap_or(""), y_desc), (&y_tick, y_labels(root, scale)))?;
    Ok(chart)
}

/// A chart with log-scaled load on x, a left axis up to `ymax` and a right axis up to `y2max`, its mesh drawn.
pub(crate) fn dual_axis_chart<'a, DB: DrawingBackend>(
    root: &'a DrawingArea<DB, Shift>,
    scale: f64,
    (xlo, xhi): (f64, f64),
    (ymax, y2max): (f64, f64),
    descs: (&str, &str),
) -> Result<DualCoordChartContext<'a, DB, LogLin, LogLin>, DrawingAreaErrorKind<DB::ErrorType>> {
    let mut chart = builder(root, scale, 40.0, 64.0)
        .build_cartesian_2d((xlo..xhi).log_scale(), 0.0..ymax)?
        .set_secondary_coord((xlo..xhi).log_scale(), 0.0..y2max);
    mesh(&mut chart, scale, descs, (&y_tick, y_labels(root, scale)))?;
    Ok(chart)
}

#[cfg(test)]
mod tests {
    use plotters::prelude::*;

    #[test]
    fn charts_draw_to_svg() {
        let s = crate::scenario::Scenario::from_json(
            r#"{"hardware":{"preset":"h100-sxm"},"model":{"preset":"llama-3.1-8b"},"workload":{"requests":200}}"#,
        )
        .unwrap();
        let r = crate::plan::evaluate(&s).unwrap();
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (800, 400)).into_drawing_area();
            super::throughput::draw(&root, &crate::plan::charts::throughput(&r), 1.0).unwrap();
        }
        assert!(svg.contains("<polyline") && svg.contains("system tok/s"), "{}", &svg[..200.min(svg.len())]);
        let mut svg2 = String::new();
        {
            let root = SVGBackend::with_string(&mut svg2, (800, 400)).into_drawing_area();
            super::latency::draw(&root, &crate::plan::charts::latency(&r), 1.0).unwrap();
        }
        assert!(svg2.contains("TTFT P99"));
    }

    #[test]
    fn the_per_user_band_stops_at_the_single_stream_ceiling() {
        // A 70B model at 4 bits on one L40S (a new user's review: the band reached ~29 tok/s over a 23.8 tok/s
        // ceiling). No user decodes faster than bandwidth ÷ bytes per token.
        let s = crate::scenario::Scenario::from_json(
            r#"{"hardware":{"preset":"l40s"},"model":{"preset":"llama-3.1-70b"},"quantization":{"weights":"awq"},"workload":{"requests":100}}"#,
        )
        .unwrap();
        let r = crate::plan::evaluate(&s).unwrap();
        let d = crate::plan::charts::throughput(&r);
        let passes = (0..d.per_user.len()).any(|i| d.per_user[i] * (1.0 + d.band_at(i)) > d.ceiling);
        assert!(d.ceiling > 0.0 && passes, "the unclipped band passes the ceiling: {d:?}");
        for i in 0..d.per_user.len() {
            assert!(d.band_top(i) <= d.ceiling && d.band_top(i) >= d.per_user[i].min(d.ceiling), "level {i}: {} vs {}", d.band_top(i), d.ceiling);
        }
    }

    #[test]
    fn log_axes_label_one_two_and_five_times_a_power_of_ten() {
        let ticks: Vec<String> =
            [0.5, 1.0, 2.0, 3.0, 10.0, 20.0, 40.0, 50.0, 70.0, 100.0, 200.0, 300.0, 1000.0, 0.25].iter().map(super::load_tick).collect();
        assert_eq!(ticks, ["0.5", "1", "2", "", "10", "20", "", "50", "", "100", "200", "", "1000", ""]);
    }

    /// The evaluation of Llama-3.1-8B on an H100 SXM with this workload (JSON).
    fn h100_8b(workload: &str) -> crate::scenario::Report {
        let json = format!(r#"{{"hardware":{{"preset":"h100-sxm"}},"model":{{"preset":"llama-3.1-8b"}},"workload":{workload}}}"#);
        crate::plan::evaluate(&crate::scenario::Scenario::from_json(&json).unwrap()).unwrap()
    }

    #[test]
    fn the_load_scale_maps_pixels_back_to_loads_and_the_pick_is_drawn_on_both_charts() {
        let r = h100_8b(r#"{"requests":200,"load":{"concurrency":[1,4,16,64]}}"#);
        let mut t = crate::plan::charts::throughput(&r);
        let mut l = crate::plan::charts::latency(&r);
        let polylines = |svg: &str| svg.matches("<polyline").count();
        let (plain_t, plain_l) = (super::throughput::to_svg(&t, (900, 420)).unwrap(), super::latency::to_svg(&l, (900, 420)).unwrap());
        let (mut s1, mut s2) = (String::new(), String::new());
        for scale in [
            super::throughput::draw(&SVGBackend::with_string(&mut s1, (900, 420)).into_drawing_area(), &t, 1.0).unwrap(),
            super::latency::draw(&SVGBackend::with_string(&mut s2, (900, 420)).into_drawing_area(), &l, 1.0).unwrap(),
        ] {
            let (a, b) = scale.px;
            assert!(a > 50.0 && b < 900.0 && b > a + 400.0, "axis at {a}..{b} px");
            assert_eq!(scale.load, (1.0, 64.0));
            assert!((scale.load_at(a) - 1.0).abs() < 1e-9 && (scale.load_at(b) - 64.0).abs() < 1e-6);
            // Logarithmic: the middle of the axis is the geometric mean (8); beyond the ends, the ends.
            assert!((scale.load_at((a + b) / 2.0) - 8.0).abs() < 1e-6, "{}", scale.load_at((a + b) / 2.0));
            assert!((scale.load_at(0.0) - 1.0).abs() < 1e-9 && (scale.load_at(2000.0) - 64.0).abs() < 1e-6);
        }
        t.marker = Some(16.0);
        l.marker = Some(16.0);
        // One more line on each of the throughput chart's two panels, one more on the latency chart.
        assert_eq!(polylines(&super::throughput::to_svg(&t, (900, 420)).unwrap()), polylines(&plain_t) + 2);
        assert_eq!(polylines(&super::latency::to_svg(&l, (900, 420)).unwrap()), polylines(&plain_l) + 1);
        // A load outside the axis is not drawn.
        t.marker = Some(1000.0);
        assert_eq!(polylines(&super::throughput::to_svg(&t, (900, 420)).unwrap()), polylines(&plain_t));
    }

    #[test]
    fn the_trade_off_chart_draws_per_user_against_per_gpu_with_the_floor_and_the_operating_point() {
        let json = r#"{"hardware":{"preset":"h100-sxm","devices":2},"model":{"preset":"llama-3.1-8b"},"workload":{"requests":200}}"#;
        let r = crate::plan::evaluate(&crate::scenario::Scenario::from_json(json).unwrap()).unwrap();
        let mut d = crate::plan::charts::pareto(&r);
        let op = r.operating_point.as_ref().unwrap();
        assert_eq!(d.operating, Some((op.per_user_tps, op.system_tps / 2.0)));
        // One point per level: per-user tok/s, and the system's tok/s shared by the server's two GPUs; and the
        // operating point between two levels (the curve passes through its ring).
        let mut levels = d.points.clone();
        if !r.sweep.iter().any(|l| l.concurrency == op.concurrency) {
            let i = levels.iter().position(|p| Some(*p) == d.operating).expect("the operating point on the curve");
            levels.remove(i);
        }
        assert_eq!(levels.len(), r.sweep.len());
        for (p, l) in levels.iter().zip(&r.sweep) {
            assert_eq!(*p, (l.per_user_tps, l.system_tps / 2.0));
        }
        assert_eq!(d.floor, Some(25.0), "reader target: 40 ms TPOT = 25 tok/s each");
        let svg = |d: &super::pareto::ParetoData| {
            let mut s = String::new();
            let drawn = super::pareto::draw(&SVGBackend::with_string(&mut s, (900, 450)).into_drawing_area(), d, 1.0);
            drawn.map(|_| s)
        };
        let plain = svg(&d).unwrap();
        for label in ["output tok/s per user", "output tok/s per GPU", "under the target floor (25 tok/s each)", "operating point"] {
            assert!(plain.contains(label), "{label} missing");
        }
        assert!(plain.matches("<circle").count() > d.points.len(), "a dot per level and the operating point's ring");
        // Levels failing the target (256 users break 40 ms) are ringed red and named in the legend.
        assert_eq!(d.fails.len(), d.points.len());
        let failing = d.fails.iter().filter(|f| **f).count();
        assert!(failing > 0 && plain.contains("fails the target"), "{failing} failing");
        let mut none = d.clone();
        none.fails.iter_mut().for_each(|f| *f = false);
        let clear = svg(&none).unwrap();
        // (Two circles a failing level, one more for the legend's ring.)
        assert!(!clear.contains("fails the target") && clear.matches("<circle").count() == plain.matches("<circle").count() - 2 * failing - 1);
        assert!(!plain.contains("level picked below"));
        d.marker = d.points.get(2).copied();
        let picked = svg(&d).unwrap();
        assert!(picked.contains("level picked below") && picked.matches("<circle").count() == plain.matches("<circle").count() + 2);
        // A CPU's figure is per CPU, an Apple chip's per chip (an operations trial: "per GPU" under a server without one).
        for (preset, noun) in [("epyc-9004-genoa", "CPU"), ("m3-ultra", "chip")] {
            let json = format!(r#"{{"hardware":{{"preset":"{preset}"}},"model":{{"preset":"llama-3.1-8b"}},"workload":{{"requests":100}}}}"#);
            let r = crate::plan::evaluate(&crate::scenario::Scenario::from_json(&json).unwrap()).unwrap();
            let drawn = svg(&crate::plan::charts::pareto(&r)).unwrap();
            assert!(drawn.contains(&format!("output tok/s per {noun}")) && !drawn.contains("per GPU"), "{preset}");
        }
        d.points.clear();
        assert!(svg(&d).is_err(), "nothing to draw is an error, not a panic");
    }

    #[test]
    fn the_roofline_puts_decode_on_the_slope_and_prefill_under_the_flat_roof() {
        let r = h100_8b(r#"{"prompt_tokens":1024,"output_tokens":256,"requests":200,"load":{"concurrency":[1,8,64,256]}}"#);
        let mut d = crate::plan::charts::roofline(&r);
        // H100 SXM at BF16: 989 TFLOP/s over 3.35 TB/s, the ridge at 295 FLOP/byte.
        assert_eq!((d.peak_tflops, d.bandwidth_gbps), (989.0, 3350.0));
        assert!((r.roofline.ridge - 989e12 / 3350e9).abs() < 1e-9);
        assert_eq!(d.decode.len(), r.sweep.len(), "one step per level, aligned with the sweep");
        // One stream at 16 bits: about 1 FLOP per byte (2 FLOPs per 2-byte weight); a batch reuses the weights,
        // so intensity and attained compute rise with the load, but the KV cache keeps decode left of the ridge.
        assert!((d.decode[0].0 - 1.0).abs() < 0.1, "{:?}", d.decode[0]);
        assert!(d.decode.windows(2).all(|w| w[1].0 > w[0].0 && w[1].1 > w[0].1), "{:?}", d.decode);
        assert!(d.decode.iter().all(|p| p.0 < r.roofline.ridge));
        // Every step sits under the engine's roof: min(η_fl · peak, η_bw · bandwidth · intensity).
        let (fl, bw) = d.efficiency;
        for p in d.decode.iter().chain(d.prefill.map(|p| (p.0, p.1)).as_ref()) {
            assert!(p.1 <= (fl * 989.0).min(bw * 3.35 * p.0) * (1.0 + 1e-9), "{p:?}");
        }
        // A 1,024-token prefill chunk is past the ridge: compute-bound.
        let pre = d.prefill.unwrap();
        assert_eq!(pre.2, 1024.0);
        assert!(pre.0 > r.roofline.ridge && pre.1 > d.decode[3].1, "{pre:?}");
        let svg = |d: &super::roofline::RooflineData| {
            let mut s = String::new();
            let drawn = super::roofline::draw(&SVGBackend::with_string(&mut s, (900, 500)).into_drawing_area(), d, 1.0);
            drawn.map(|_| s)
        };
        let plain = svg(&d).unwrap();
        for label in ["ridge: 295 FLOP/byte", "arithmetic intensity (FLOPs per byte moved)", "prefill, 1024 prompt tokens", "operating point"] {
            assert!(plain.contains(label), "{label} missing");
        }
        // The hardware's slope rises one decade of TFLOP/s per decade of intensity (bandwidth × intensity), from
        // where it enters the plot: regression — it started at the plot's corner, below the axis, clamped onto
        // it, which bent it (0.86 decades per decade, 7 TFLOP/s drawn at 1 FLOP/byte for 3.35).
        let ticks = |label: &str| -> Vec<(f64, f64)> {
            plain
                .split("<text")
                .filter(|t| t.contains(&format!(">\n{label}\n</text>")) || t.contains(&format!(">{label}</text>")))
                .filter_map(|t| {
                    let attr = |a: &str| t.split(&format!(" {a}=\"")).nth(1)?.split('"').next()?.parse::<f64>().ok();
                    Some((attr("x")?, attr("y")?))
                })
                .collect()
        };
        let (t10, t100) = (ticks("10"), ticks("100"));
        assert!(t10.len() == 2 && t100.len() == 2, "{t10:?} {t100:?}");
        // The last decade's label is whole, inside the 900-px drawing (its half, ~7 px a digit at 12 px, was clipped).
        let last = ticks("1000").into_iter().chain(ticks("10000")).map(|t| t.0).fold(0.0, f64::max);
        assert!(last > 700.0 && last + 5.0 * 7.0 / 2.0 <= 900.0, "the x axis's last label centred at {last} px of 900");
        // The x axis's labels are the lower pair, the y axis's the left pair.
        let (x10, y10) = if t10[0].1 > t10[1].1 { (t10[0], t10[1]) } else { (t10[1], t10[0]) };
        let (x100, y100) = if t100[0].1 > t100[1].1 { (t100[0], t100[1]) } else { (t100[1], t100[0]) };
        let (px_x, px_y) = (x100.0 - x10.0, y10.1 - y100.1);
        let roof = plain
            .split("<polyline")
            .filter_map(|l| l.split("points=\"").nth(1)?.split('"').next())
            .map(|pts| {
                pts.split(' ')
                    .filter_map(|p| p.split_once(','))
                    .map(|(a, b)| (a.parse::<f64>().unwrap(), b.parse::<f64>().unwrap()))
                    .collect::<Vec<_>>()
            })
            .find(|p| p.len() == 3 && (p[1].1 - p[2].1).abs() < 0.5 && p[0].1 > p[1].1 + 50.0)
            .expect("the hardware roof: a slope, then flat");
        let slope = ((roof[0].1 - roof[1].1) / px_y) / ((roof[1].0 - roof[0].0) / px_x);
        assert!((slope - 1.0).abs() < 0.03, "the roof rises {slope:.2} decades per decade: {roof:?}, px per decade {px_x} × {px_y}");
        d.marker = d.decode.get(1).copied();
        assert!(svg(&d).unwrap().contains("level picked below"));
        d.decode.clear();
        assert!(svg(&d).is_err(), "nothing to draw is an error, not a panic");
    }

    /// The y coordinate of the SVG `<text>` whose content is `label`.
    fn text_y(svg: &str, label: &str) -> Option<f64> {
        let end = svg.find(&format!(">\n{label}\n</text>")).or_else(|| svg.find(&format!(">{label}</text>")))?;
        let start = svg[..end].rfind("<text")?;
        let tag = &svg[start..end];
        let y = tag.split(" y=\"").nth(1)?.split('"').next()?;
        y.parse().ok()
    }

    /// The heights of the horizontal 1-px strokes of this colour (`#rrggbb`) in an SVG: the target lines' dashes.
    fn rule_heights(svg: &str, colour: &str) -> Vec<f64> {
        let mut out: Vec<f64> = svg
            .split("<polyline")
            .skip(1)
            .filter(|p| p.contains(&format!("stroke=\"{colour}\"")) && p.contains("stroke-width=\"1\""))
            .filter_map(|p| {
                let pts = p.split("points=\"").nth(1)?.split('"').next()?;
                let ys: Vec<f64> = pts.split_whitespace().filter_map(|xy| xy.split(',').nth(1)?.parse().ok()).collect();
                (ys.len() >= 2 && ys.iter().all(|y| (y - ys[0]).abs() < 0.5)).then(|| ys[0])
            })
            .collect();
        out.dedup();
        out
    }

    #[test]
    fn the_two_target_lines_lie_apart_when_both_set_their_axes() {
        // One user on an H100 is far under both targets (2 s TTFT, 40 ms TPOT): each target sets its axis, and a
        // trial read the two dashed lines at one height as one.
        let r = h100_8b(r#"{"requests":50,"load":{"concurrency":[1]}}"#);
        let mut d = crate::plan::charts::latency(&r);
        assert!(d.ttft[2].iter().all(|t| *t < 0.5 * d.ttft_target.unwrap()) && d.tpot[2].iter().all(|t| *t < 0.5 * d.tpot_target.unwrap()), "{d:?}");
        // Targets more than 3 × above the data stay off the axes, named above the plot (2 s over a TTFT of ~40 ms
        // had put the curves in the plot's bottom fiftieth).
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (900, 420)).into_drawing_area();
            super::latency::draw(&root, &d, 1.0).unwrap();
        }
        assert!(rule_heights(&svg, "#7C3AED").is_empty() && rule_heights(&svg, "#0D9488").is_empty());
        assert!(svg.contains("TTFT target 2 s, TPOT target 40 ms: above the plot"), "{svg}");
        // Within 3 ×, each sets its axis.
        d.ttft_target = Some(2.5 * d.ttft[2][0]);
        d.tpot_target = Some(2.5 * d.tpot[2][0]);
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (900, 420)).into_drawing_area();
            super::latency::draw(&root, &d, 1.0).unwrap();
        }
        let (ttft, tpot) = (rule_heights(&svg, "#7C3AED"), rule_heights(&svg, "#0D9488"));
        assert!(!ttft.is_empty() && !tpot.is_empty(), "target lines not found: {ttft:?} {tpot:?}");
        assert!((ttft[0] - tpot[0]).abs() > 20.0, "TTFT target at y={}, TPOT target at y={}", ttft[0], tpot[0]);
    }

    /// The x and y of the SVG text element whose content is `text`.
    fn text_at(svg: &str, text: &str) -> Option<(f64, f64)> {
        let tag = svg.split("<text").find(|t| t.split('>').nth(1).is_some_and(|c| c.split('<').next().is_some_and(|c| c.trim() == text)))?;
        let attr = |n: &str| tag.split(&format!(" {n}=\"")).nth(1)?.split('"').next()?.parse::<f64>().ok();
        Some((attr("x")?, attr("y")?))
    }

    #[test]
    fn the_latency_axes_hold_the_levels_up_to_the_first_failing_one_or_all() {
        let d = |fails: Vec<bool>| super::latency::LatencyData {
            x: vec![1.0, 10.0, 100.0, 1000.0],
            ttft: [vec![100.0, 200.0, 3000.0, 60000.0], vec![100.0, 200.0, 3000.0, 60000.0], vec![100.0, 200.0, 3000.0, 60000.0]],
            tpot: [vec![7.0, 9.0, 20.0, 90.0], vec![7.0, 9.0, 20.0, 90.0], vec![7.0, 9.0, 20.0, 90.0]],
            saturated: vec![false; 4],
            fails,
            ..Default::default()
        };
        let svg = |d: &super::latency::LatencyData| {
            let mut svg = String::new();
            {
                let root = SVGBackend::with_string(&mut svg, (900, 420)).into_drawing_area();
                super::latency::draw(&root, d, 1.0).unwrap();
            }
            svg
        };
        // The third level fails: the TTFT axis ends at 3.45 s (3 s × 1.15), the fourth level's 60 s clipped.
        let third = svg(&d(vec![false, false, true, true]));
        assert!(text_at(&third, "3").is_some() && text_at(&third, "60").is_none(), "{third}");
        // Every level fails (a review: axes scaled to the lightest level alone, two flat lines at the top): all count.
        let all = svg(&d(vec![true; 4]));
        assert!(text_at(&all, "60").is_some() || text_at(&all, "50").is_some(), "{all}");
    }

    #[test]
    fn target_lines_at_one_height_are_moved_apart() {
        // The default page: 2 s of an 8-s TTFT axis and 40 ms of a 160-ms TPOT axis lay at one height, and a
        // teacher's trial read them as one line in two colours even with each named. TPOT's axis takes more room,
        // which moves its line down; each is named on the plot in its colour, above its line.
        let d = super::latency::LatencyData {
            x: vec![1.0, 10.0, 100.0],
            ttft: [vec![100.0, 300.0, 6957.0], vec![110.0, 320.0, 6957.0], vec![120.0, 340.0, 6957.0]],
            tpot: [vec![7.0, 20.0, 139.0], vec![7.0, 21.0, 139.0], vec![7.0, 22.0, 139.0]],
            ttft_target: Some(2000.0),
            tpot_target: Some(40.0),
            saturated: vec![false; 3],
            ..Default::default()
        };
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (900, 420)).into_drawing_area();
            super::latency::draw(&root, &d, 1.0).unwrap();
        }
        let (ttft, tpot) = (rule_heights(&svg, "#7C3AED"), rule_heights(&svg, "#0D9488"));
        assert!(tpot[0] - ttft[0] > 20.0, "TPOT's line below TTFT's, apart: {ttft:?} {tpot:?}");
        let a = text_at(&svg, "TTFT target 2 s").expect("TTFT's line named");
        let b = text_at(&svg, "TPOT target 40 ms").expect("TPOT's line named");
        assert!(a.1 < ttft[0] && b.1 < tpot[0] && b.1 > ttft[0], "each above its own line: {a:?} {b:?} {ttft:?} {tpot:?}");
    }

    #[test]
    fn legends_sit_below_the_plot_not_on_the_data() {
        // Regression: the legend box sat in the plot's upper right and hid the measured cross at 128 users.
        let r = h100_8b(r#"{"requests":200,"prompt_tokens":1024,"output_tokens":128}"#);
        let mut data = crate::plan::charts::throughput(&r);
        let peak = data.system.iter().copied().fold(0.0, f64::max);
        data.measured.push((128.0, Some(20.0), Some(peak)));
        for width in [900u32, 420] {
            let mut svg = String::new();
            {
                let root = SVGBackend::with_string(&mut svg, (width, 420)).into_drawing_area();
                super::throughput::draw(&root, &data, 1.0).unwrap();
            }
            let axis = text_y(&svg, super::LoadAxis::Users.label())
                .unwrap_or_else(|| panic!("x-axis description in {}", &svg[svg.find("<text").unwrap_or(0)..][..600]));
            for label in ["measured system", "system (all users)", "operating point"] {
                let y = text_y(&svg, label).unwrap_or_else(|| panic!("legend entry {label} missing at width {width}"));
                assert!(y > axis, "legend entry {label} at y={y} is inside the plot (x-axis description at y={axis}), width {width}");
            }
        }
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (900, 420)).into_drawing_area();
            super::latency::draw(&root, &crate::plan::charts::latency(&r), 1.0).unwrap();
        }
        let axis = text_y(&svg, super::LoadAxis::Users.label()).expect("x-axis description");
        let y = text_y(&svg, "TTFT P99").expect("legend entry TTFT P99");
        assert!(y > axis, "latency legend inside the plot");
    }

    #[test]
    fn a_pinned_scenario_is_drawn_dashed_on_both_charts() {
        let eval = |json: &str| crate::plan::evaluate_analytic(&crate::scenario::Scenario::from_json(json).unwrap()).unwrap();
        let b = eval(r#"{"hardware":{"preset":"h200-sxm"},"model":{"preset":"llama-3.1-70b"},"quantization":{"weights":"fp8"}}"#);
        let a = eval(r#"{"hardware":{"preset":"h100-sxm","devices":2},"model":{"preset":"llama-3.1-70b"},"quantization":{"weights":"fp8"}}"#);
        let mut t = crate::plan::charts::throughput(&b);
        let plain = super::throughput::to_svg(&t, (900, 420)).unwrap();
        t.compare = crate::plan::charts::throughput_overlay(&a, t.x_axis);
        assert!(t.compare.is_some());
        let svg = super::throughput::to_svg(&t, (900, 420)).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("A: per user") && svg.contains("A: system"), "legend of A missing");
        assert!(!plain.contains("A: per user"));
        // A's top (2 × H100 reaches a higher system throughput) widens the right axis: the SVG differs beyond the legend.
        assert!(
            svg.matches("<polyline").count() > plain.matches("<polyline").count()
                || svg.matches("<path").count() > plain.matches("<path").count()
                || svg.len() > plain.len() + 500
        );
        let mut l = crate::plan::charts::latency(&b);
        l.compare = crate::plan::charts::latency_overlay(&a, l.x_axis);
        let svg = super::latency::to_svg(&l, (900, 420)).unwrap();
        assert!(svg.contains("A: TTFT P99") && svg.contains("A: TPOT P99"));
        // Another load axis (request rates) is not overlaid on users.
        let r = eval(r#"{"hardware":{"preset":"h100-sxm"},"model":{"preset":"llama-3.1-8b"},"workload":{"load":{"request_rate":[1,2]}}}"#);
        assert!(crate::plan::charts::throughput_overlay(&r, super::LoadAxis::Users).is_none());
        assert!(crate::plan::charts::latency_overlay(&r, super::LoadAxis::Users).is_none());
    }

    #[test]
    fn per_user_and_system_are_stacked_panels_sharing_the_load_axis() {
        // Issue 9: two y-axes on one plot made the lines cross at a meaningless point; now per-user is drawn
        // above system, each with its own axis, the load axis labelled once (under the lower panel), and the
        // knee, the capacity and the operating point marked in both.
        let s = crate::scenario::Scenario::from_json(r#"{"hardware":{"preset":"h100-sxm"},"model":{"preset":"llama-3.1-8b"}}"#).unwrap();
        let r = crate::plan::evaluate_analytic(&s).unwrap();
        let mut d = crate::plan::charts::throughput(&r);
        assert!(d.capacity_x.is_some() && d.knee_x.is_some() && d.operating.is_some());
        d.marker = d.operating.map(|o| o.0);
        let svg = super::throughput::to_svg(&d, (900, 520)).unwrap();
        let (user, system) = (text_y(&svg, "per-user tok/s"), text_y(&svg, "system tok/s"));
        let axis = text_y(&svg, super::LoadAxis::Users.label()).expect("load axis");
        assert!(user.zip(system).is_some_and(|(u, s)| u < s && s < axis), "panels: per-user {user:?}, system {system:?}, axis {axis}");
        assert_eq!(svg.matches(super::LoadAxis::Users.label()).count(), 1, "the load axis is described once");
        assert!(svg.contains("capacity at the target") && svg.contains("operating point") && svg.contains("saturation knee"));
        // Both panels draw the operating point's ring (radius 7).
        assert_eq!(svg.matches(r#"r="7""#).count(), 2, "operating point ring on both panels");
        let l = super::latency::to_svg(&crate::plan::charts::latency(&r), (900, 420)).unwrap();
        assert!(l.contains("TTFT P95") && l.contains("TPOT P99"));
    }

    #[test]
    fn empty_data_is_an_error_not_a_panic() {
        let mut svg = String::new();
        let root = SVGBackend::with_string(&mut svg, (200, 100)).into_drawing_area();
        assert!(super::throughput::draw(&root, &Default::default(), 1.0).is_err());
        assert!(super::latency::draw(&root, &Default::default(), 2.0).is_err());
    }
}
