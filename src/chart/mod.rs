//! Charts, one per module, each a `draw(area, data)` generic over the plotters backend: the page draws on a
//! canvas, tests draw into an SVG string. Each chart's data type is built from a [`crate::scenario::Report`]
//! and compared by value, so the page redraws only when it changes.

pub mod latency;
pub mod throughput;

use plotters::coord::types::RangedCoordf64;
use plotters::chart::DualCoordChartContext;
use plotters::coord::Shift;
use plotters::prelude::*;

/// The coordinate system both charts use: log-scaled load on x, linear y.
pub(crate) type LogLin = Cartesian2d<LogCoord<f64>, RangedCoordf64>;

/// The x range covering the given loads (a single load is widened to a factor of two each side).
pub(crate) fn load_range(xs: impl Iterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) = xs.fold((f64::INFINITY, 0.0_f64), |(lo, hi), x| (lo.min(x), hi.max(x)));
    if hi > lo { (lo, hi) } else { (lo * 0.5, lo * 2.0) }
}

/// Formats a load tick: whole numbers from 10 up, else up to three decimals without trailing zeros.
pub(crate) fn load_tick(v: &f64) -> String {
    if *v >= 10.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.3}").trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// Pixels for a logical size at a device-pixel scale (the page draws at devicePixelRatio × the CSS size).
pub(crate) fn px(scale: f64, v: f64) -> u32 {
    (v * scale).round().max(1.0) as u32
}

/// Draws the series legend at `pos`, on a translucent white box — unless the chart is narrower than 560
/// logical pixels (a phone), where the box would cover the lines; the page's caption names the colours.
pub(crate) fn draw_legend<'a, DB: DrawingBackend + 'a>(
    chart: &mut DualCoordChartContext<'a, DB, LogLin, LogLin>,
    pos: SeriesLabelPosition,
    scale: f64,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let width = f64::from(chart.plotting_area().dim_in_pixel().0) / scale.max(1e-9);
    if width < 400.0 {
        return Ok(());
    }
    chart
        .configure_series_labels()
        .label_font(("sans-serif", 12.0 * scale))
        .legend_area_size(px(scale, 24.0))
        .position(pos)
        .background_style(WHITE.mix(0.85))
        .border_style(RGBColor(203, 213, 225))
        .draw()
}

/// A chart with log-scaled load on x, a left axis up to `ymax` and a right axis up to `y2max`, its mesh drawn.
pub(crate) fn dual_axis_chart<'a, DB: DrawingBackend>(
    root: &'a DrawingArea<DB, Shift>,
    scale: f64,
    (xlo, xhi): (f64, f64),
    (ymax, y2max): (f64, f64),
    (x_desc, y_desc): (&str, &str),
) -> Result<DualCoordChartContext<'a, DB, LogLin, LogLin>, DrawingAreaErrorKind<DB::ErrorType>> {
    let mut chart = ChartBuilder::on(root)
        .margin(px(scale, 12.0))
        .x_label_area_size(px(scale, 40.0))
        .y_label_area_size(px(scale, 56.0))
        .right_y_label_area_size(px(scale, 64.0))
        .build_cartesian_2d((xlo..xhi).log_scale(), 0.0..ymax)?
        .set_secondary_coord((xlo..xhi).log_scale(), 0.0..y2max);
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc(y_desc)
        .label_style(("sans-serif", 12.0 * scale))
        .axis_desc_style(("sans-serif", 13.0 * scale))
        .x_label_formatter(&load_tick)
        .y_label_formatter(&|v| if *v >= 10.0 || *v == 0.0 { format!("{v:.0}") } else { format!("{v:.2}").trim_end_matches('0').trim_end_matches('.').to_string() })
        .light_line_style(RGBColor(238, 238, 238))
        .draw()?;
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
            super::throughput::draw(&root, &super::throughput::ThroughputData::from_report(&r), 1.0).unwrap();
        }
        assert!(svg.contains("<polyline") && svg.contains("system tok/s"), "{}", &svg[..200.min(svg.len())]);
        let mut svg2 = String::new();
        {
            let root = SVGBackend::with_string(&mut svg2, (800, 400)).into_drawing_area();
            super::latency::draw(&root, &super::latency::LatencyData::from_report(&r), 1.0).unwrap();
        }
        assert!(svg2.contains("TTFT P99"));
    }

    #[test]
    fn empty_data_is_an_error_not_a_panic() {
        let mut svg = String::new();
        let root = SVGBackend::with_string(&mut svg, (200, 100)).into_drawing_area();
        assert!(super::throughput::draw(&root, &Default::default(), 1.0).is_err());
        assert!(super::latency::draw(&root, &Default::default(), 2.0).is_err());
    }
}
