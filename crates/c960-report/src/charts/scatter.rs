//! One score against another, per position, with the least-squares line
//! and Pearson's correlation.

// Chart coordinates: at most 960 positions and scores within a few thousand
// centipawns convert between integers and floats without loss.
#![allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss
)]

use plotters::{coord::Shift, prelude::*};

use super::{Chart, PALETTE, caption, hotspot, legend, range, range_by};

/// A scatter plot with its least-squares line and Pearson correlation in
/// the legend; `points` are `(sp, x, y)`.
#[derive(Clone, Debug)]
pub struct Scatter {
    /// Chart title.
    pub title: String,
    /// Provenance line.
    pub provenance: String,
    /// `(sp, x, y)`.
    pub points: Vec<(u32, f64, f64)>,
    /// x axis description, with unit.
    pub x_desc: String,
    /// y axis description, with unit.
    pub y_desc: String,
}

/// Slope and intercept of the least-squares line through `points`.
fn least_squares(points: &[(f64, f64)]) -> Option<(f64, f64)> {
    if points.len() < 3 {
        return None;
    }
    let n = points.len() as f64;
    let mean_x = points.iter().map(|p| p.0).sum::<f64>() / n;
    let mean_y = points.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = points.iter().map(|p| (p.0 - mean_x).powi(2)).sum();
    let sxy: f64 = points.iter().map(|p| (p.0 - mean_x) * (p.1 - mean_y)).sum();
    (sxx > 0.0).then(|| {
        let slope = sxy / sxx;
        (slope, mean_y - slope * mean_x)
    })
}

impl Chart for Scatter {
    fn draw<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> Result<(), String> {
        let area = caption(area, &self.title, &self.provenance)?;
        let (x_low, x_high) = range(self.points.iter().map(|p| p.1));
        let (y_low, y_high) = range_by(self.points.iter().map(|p| p.2), 0.02);
        let mut chart = ChartBuilder::on(&area)
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(x_low..x_high, y_low..y_high)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc(self.x_desc.as_str())
            .y_desc(self.y_desc.as_str())
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| format!("{y:.2}"))
            .draw()
            .map_err(|e| e.to_string())?;
        for p in &self.points {
            hotspot(
                p.0,
                chart.backend_coord(&(p.1, p.2)),
                format!("{:.0}, {:.3}", p.1, p.2),
            );
        }
        let xy: Vec<(f64, f64)> = self.points.iter().map(|p| (p.1, p.2)).collect();
        let color = PALETTE[0].mix(0.6);
        chart
            .draw_series(xy.iter().map(|p| Circle::new(*p, 3, color.filled())))
            .map_err(|e| e.to_string())?
            .label(format!("{} positions", xy.len()))
            .legend(move |(x, y)| Circle::new((x + 10, y), 3, color.filled()));
        if let (Some((slope, intercept)), Some(r)) = (least_squares(&xy), correlation(&xy)) {
            let line = PALETTE[1].stroke_width(2);
            chart
                .draw_series(LineSeries::new(
                    [x_low, x_high].map(|x| (x, intercept + slope * x)),
                    line,
                ))
                .map_err(|e| e.to_string())?
                .label(format!("least squares; Pearson r = {r:.2}"))
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], line));
        }
        legend(&mut chart, SeriesLabelPosition::UpperLeft)
    }
}

/// Pearson's correlation of `points` (`None` for fewer than three points
/// or a constant coordinate).
#[must_use]
pub fn correlation(points: &[(f64, f64)]) -> Option<f64> {
    if points.len() < 3 {
        return None;
    }
    let (x, y): (Vec<f64>, Vec<f64>) = points.iter().copied().unzip();
    c960_balance::reliability::pearson(&x, &y)
}
