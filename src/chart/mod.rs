//! Charts, one per module, each a `draw(area, data)` generic over the plotters backend: the page draws on a
//! canvas, tests draw into an SVG string. Each chart's data type is built from a [`crate::scenario::Report`]
//! and compared by value, so the page redraws only when it changes.

pub mod latency;
pub mod throughput;

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
            super::throughput::draw(&root, &super::throughput::ThroughputData::from_report(&r)).unwrap();
        }
        assert!(svg.contains("<polyline") && svg.contains("system tok/s"), "{}", &svg[..200.min(svg.len())]);
        let mut svg2 = String::new();
        {
            let root = SVGBackend::with_string(&mut svg2, (800, 400)).into_drawing_area();
            super::latency::draw(&root, &super::latency::LatencyData::from_report(&r)).unwrap();
        }
        assert!(svg2.contains("TTFT P99"));
    }

    #[test]
    fn empty_data_is_an_error_not_a_panic() {
        let mut svg = String::new();
        let root = SVGBackend::with_string(&mut svg, (200, 100)).into_drawing_area();
        assert!(super::throughput::draw(&root, &Default::default()).is_err());
        assert!(super::latency::draw(&root, &Default::default()).is_err());
    }
}
