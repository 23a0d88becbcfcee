//! One plotters backend for the page: the canvas on screen, or an SVG document for export. Each chart's
//! generic `draw` is compiled once, for this backend, instead of once per backend (the SVG export would
//! otherwise carry a second copy of both charts' drawing code, about 16 KB of gzipped wasm).

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters_backend::{BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind};
use plotters_canvas::CanvasBackend;

/// The canvas on the page, or an SVG document being written.
pub enum PageBackend<'a> {
    Canvas(CanvasBackend),
    Svg(SVGBackend<'a>),
}

/// A backend's error, as text.
#[derive(Debug)]
pub struct PageError(String);

impl std::fmt::Display for PageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PageError {}

fn map<E: std::error::Error + Send + Sync>(e: DrawingErrorKind<E>) -> DrawingErrorKind<PageError> {
    match e {
        DrawingErrorKind::DrawingError(e) => DrawingErrorKind::DrawingError(PageError(e.to_string())),
        DrawingErrorKind::FontError(f) => DrawingErrorKind::FontError(f),
    }
}

/// Forwards a call to whichever backend this is, mapping its error.
macro_rules! both {
    ($self:ident, $b:ident => $call:expr) => {
        match $self {
            PageBackend::Canvas($b) => $call.map_err(map),
            PageBackend::Svg($b) => $call.map_err(map),
        }
    };
}

impl DrawingBackend for PageBackend<'_> {
    type ErrorType = PageError;

    fn get_size(&self) -> (u32, u32) {
        match self {
            PageBackend::Canvas(b) => b.get_size(),
            PageBackend::Svg(b) => b.get_size(),
        }
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<PageError>> {
        both!(self, b => b.ensure_prepared())
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<PageError>> {
        both!(self, b => b.present())
    }

    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Result<(), DrawingErrorKind<PageError>> {
        both!(self, b => b.draw_pixel(point, color))
    }

    fn draw_line<S: BackendStyle>(&mut self, from: BackendCoord, to: BackendCoord, style: &S) -> Result<(), DrawingErrorKind<PageError>> {
        both!(self, b => b.draw_line(from, to, style))
    }

    fn draw_rect<S: BackendStyle>(&mut self, ul: BackendCoord, br: BackendCoord, style: &S, fill: bool) -> Result<(), DrawingErrorKind<PageError>> {
        both!(self, b => b.draw_rect(ul, br, style, fill))
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(&mut self, path: I, style: &S) -> Result<(), DrawingErrorKind<PageError>> {
        both!(self, b => b.draw_path(path, style))
    }

    fn draw_circle<S: BackendStyle>(&mut self, center: BackendCoord, radius: u32, style: &S, fill: bool) -> Result<(), DrawingErrorKind<PageError>> {
        both!(self, b => b.draw_circle(center, radius, style, fill))
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(&mut self, vert: I, style: &S) -> Result<(), DrawingErrorKind<PageError>> {
        both!(self, b => b.fill_polygon(vert, style))
    }

    fn draw_text<T: BackendTextStyle>(&mut self, text: &str, style: &T, pos: BackendCoord) -> Result<(), DrawingErrorKind<PageError>> {
        both!(self, b => b.draw_text(text, style, pos))
    }

    fn estimate_text_size<T: BackendTextStyle>(&self, text: &str, style: &T) -> Result<(u32, u32), DrawingErrorKind<PageError>> {
        both!(self, b => b.estimate_text_size(text, style))
    }
}

/// A chart the page draws, with its data: one type for all of them, so the page's canvas component and its
/// memos exist once in the wasm, not once per chart (each copy cost ~2 KB gzipped).
#[derive(Debug, Clone, PartialEq)]
pub enum PageChart {
    Throughput(crate::chart::throughput::ThroughputData),
    Latency(crate::chart::latency::LatencyData),
    Pareto(crate::chart::pareto::ParetoData),
    Roofline(crate::chart::roofline::RooflineData),
}

impl PageChart {
    /// Draws onto the page's backend with the chart module's generic `draw`; where the load axis lies (for the
    /// pointer's read-out).
    ///
    /// # Errors
    /// As the chart's `draw`.
    pub fn draw_on(&self, area: &DrawingArea<PageBackend<'_>, Shift>, scale: f64) -> Result<crate::chart::LoadScale, String> {
        match self {
            PageChart::Throughput(d) => crate::chart::throughput::draw(area, d, scale),
            PageChart::Latency(d) => crate::chart::latency::draw(area, d, scale),
            PageChart::Pareto(d) => crate::chart::pareto::draw(area, d, scale),
            PageChart::Roofline(d) => crate::chart::roofline::draw(area, d, scale),
        }
    }

    /// The chart as an SVG document of `size` logical pixels.
    ///
    /// # Errors
    /// As the chart's `draw`.
    pub fn svg(&self, size: (u32, u32)) -> Result<String, String> {
        let mut out = String::new();
        {
            let area = PageBackend::Svg(SVGBackend::with_string(&mut out, size)).into_drawing_area();
            self.draw_on(&area, 1.0)?;
        }
        Ok(out)
    }
}
