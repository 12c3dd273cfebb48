//! Charts drawn with plotters, each written as SVG and PNG. Text uses the
//! `DejaVu Sans` font shipped with the crate (see `assets/`), so charts look
//! the same on every machine and need no system fonts.

// Chart coordinates: at most 960 positions and scores within a few thousand
// centipawns convert between integers and floats without loss.
#![allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss
)]

use std::{
    fs, io,
    path::{Path, PathBuf},
    sync::Once,
};

use plotters::{
    coord::Shift,
    prelude::*,
    style::{FontStyle, register_font},
};

const FONT: &[u8] = include_bytes!("../assets/DejaVuSans.ttf");
const SIZE: (u32, u32) = (960, 540);

fn fonts() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        if register_font("sans-serif", FontStyle::Normal, FONT).is_err() {
            unreachable!("the bundled font is a valid TrueType font");
        }
    });
}

/// White's engine score for every position, sorted, with the classical
/// setup marked; `scores` are `(sp, centipawns)`.
#[derive(Clone, Debug)]
pub struct ScoreCurve {
    /// Chart title.
    pub title: String,
    /// Provenance line under the title (engine, limit, date).
    pub provenance: String,
    /// `(sp, centipawns)` for the positions that have a score.
    pub scores: Vec<(u32, f64)>,
}

/// Histogram of White's engine score in 10-centipawn bins.
#[derive(Clone, Debug)]
pub struct ScoreHistogram {
    /// Chart title.
    pub title: String,
    /// Provenance line.
    pub provenance: String,
    /// Centipawns per position.
    pub scores: Vec<f64>,
}

/// A chart that can draw itself on any plotters backend.
pub trait Chart {
    /// Draws the chart on `area`.
    fn draw<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> Result<(), String>;
}

/// Writes `chart` as `name.svg` and `name.png` in `dir` (each atomically)
/// and returns the two paths.
pub fn write(chart: &impl Chart, dir: &Path, name: &str) -> io::Result<[PathBuf; 2]> {
    fonts();
    fs::create_dir_all(dir)?;
    let svg_path = dir.join(format!("{name}.svg"));
    let png_path = dir.join(format!("{name}.png"));
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        chart.draw(&area).map_err(io::Error::other)?;
        area.present()
            .map_err(|e| io::Error::other(e.to_string()))?;
    }
    c960_store::write_atomically(&svg_path, |out| io::Write::write_all(out, svg.as_bytes()))?;
    // The PNG encoder writes to a path: draw into a temporary file beside
    // the target, then rename it into place.
    let temp = dir.join(format!(".{name}.{}.png", std::process::id()));
    let drawn = (|| {
        let area = BitMapBackend::new(&temp, SIZE).into_drawing_area();
        chart.draw(&area).map_err(io::Error::other)?;
        area.present().map_err(|e| io::Error::other(e.to_string()))
    })();
    match drawn.and_then(|()| fs::rename(&temp, &png_path)) {
        Ok(()) => Ok([svg_path, png_path]),
        Err(e) => {
            let _ = fs::remove_file(&temp);
            Err(e)
        }
    }
}

fn caption<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    provenance: &str,
) -> Result<DrawingArea<DB, Shift>, String> {
    area.fill(&WHITE).map_err(|e| e.to_string())?;
    let area = area
        .titled(title, ("sans-serif", 24))
        .map_err(|e| e.to_string())?;
    let (top, rest) = area.split_vertically(22);
    top.draw(&Text::new(
        provenance.to_owned(),
        (10, 2),
        ("sans-serif", 13).into_font().color(&BLACK.mix(0.6)),
    ))
    .map_err(|e| e.to_string())?;
    Ok(rest)
}

impl Chart for ScoreCurve {
    fn draw<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> Result<(), String> {
        let area = caption(area, &self.title, &self.provenance)?;
        let mut sorted = self.scores.clone();
        sorted.sort_by(|a, b| a.1.total_cmp(&b.1));
        let (low, high) = range(sorted.iter().map(|p| p.1));
        let mut chart = ChartBuilder::on(&area)
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(0f64..sorted.len().max(1) as f64, low..high)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc("positions, sorted by White's score")
            .y_desc("engine score, centipawns (White's view)")
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| format!("{y:.0}"))
            .draw()
            .map_err(|e| e.to_string())?;
        chart
            .draw_series(LineSeries::new(
                sorted.iter().enumerate().map(|(i, p)| (i as f64, p.1)),
                BLUE.stroke_width(2),
            ))
            .map_err(|e| e.to_string())?
            .label("all positions")
            .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], BLUE.stroke_width(2)));
        if let Some(rank) = sorted.iter().position(|p| p.0 == 518) {
            let point = (rank as f64, sorted[rank].1);
            chart
                .draw_series(std::iter::once(Circle::new(point, 6, RED.filled())))
                .map_err(|e| e.to_string())?
                .label(format!("SP 518 (classical): {:+.0} cp", point.1))
                .legend(|(x, y)| Circle::new((x + 10, y), 5, RED.filled()));
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK.mix(0.3))
            .label_font(("sans-serif", 14))
            .draw()
            .map_err(|e| e.to_string())
    }
}

impl Chart for ScoreHistogram {
    fn draw<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> Result<(), String> {
        let area = caption(area, &self.title, &self.provenance)?;
        let bin = |v: f64| (v / 10.0).floor() as i32;
        let low = self.scores.iter().copied().fold(f64::INFINITY, f64::min);
        let high = self
            .scores
            .iter()
            .copied()
            .fold(f64::NEG_INFINITY, f64::max);
        let (first, last) = if low.is_finite() {
            (bin(low), bin(high))
        } else {
            (0, 0)
        };
        let mut counts = vec![0u32; (last - first + 1).max(1) as usize];
        for v in &self.scores {
            counts[(bin(*v) - first) as usize] += 1;
        }
        let top = counts.iter().copied().max().unwrap_or(1) * 11 / 10 + 1;
        let mut chart = ChartBuilder::on(&area)
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d((first..last + 1).into_segmented(), 0u32..top)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_desc("engine score, centipawns (White's view), 10-cp bins")
            .y_desc("positions")
            .x_label_formatter(&|v| match v {
                SegmentValue::CenterOf(b) | SegmentValue::Exact(b) => {
                    format!("{}..{}", b * 10, b * 10 + 9)
                }
                SegmentValue::Last => String::new(),
            })
            .draw()
            .map_err(|e| e.to_string())?;
        chart
            .draw_series(
                Histogram::vertical(&chart)
                    .style(BLUE.mix(0.7).filled())
                    .margin(2)
                    .data(self.scores.iter().map(|v| (bin(*v), 1u32))),
            )
            .map_err(|e| e.to_string())?;
        Ok(())
    }
}

/// A padded value range for an axis.
fn range(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (mut low, mut high) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values {
        low = low.min(v);
        high = high.max(v);
    }
    if !low.is_finite() {
        return (-10.0, 10.0);
    }
    let pad = ((high - low) * 0.05).max(5.0);
    (low - pad, high + pad)
}
