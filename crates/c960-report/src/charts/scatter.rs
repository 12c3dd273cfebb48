//! One score against another, per position, with the least-squares line
//! and Pearson's correlation (computed by `c960-verdict`'s [`Fit`]).

// Chart coordinates: at most 960 positions and scores within a few thousand
// centipawns convert between integers and floats without loss.
#![allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss
)]

use c960_verdict::figures::Fit;
use plotters::{coord::Shift, prelude::*};

use super::{Chart, PALETTE, caption, hotspot, legend, range_by};

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
    /// One position drawn apart and named in the legend (the classical
    /// setup, say): its SP and label.
    pub marked: Option<(u32, String)>,
}

/// The spread of x values from which an axis is taken to be in
/// centipawns (whole-number labels, padded by at least 5 cp).
const CENTIPAWN_SPAN: f64 = 20.0;

/// Highest minus lowest of `values` (0 for none).
fn spread(values: impl Iterator<Item = f64>) -> f64 {
    let (low, high) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), v| {
        (l.min(v), h.max(v))
    });
    if low.is_finite() { high - low } else { 0.0 }
}

/// Decimals for an axis whose values spread over `span`: none for
/// centipawns, more for standard deviations and expected scores.
fn decimals(span: f64) -> usize {
    if span >= CENTIPAWN_SPAN {
        0
    } else if span >= 2.0 {
        1
    } else {
        2
    }
}

/// The part of the line `y = intercept + slope x` inside the plot: its
/// ends where it leaves the x range or the y range, whichever comes first
/// (the backend clamps points outside the plot to its edge, which would
/// bend a line that leaves through the top or bottom).
fn clipped_line(
    slope: f64,
    intercept: f64,
    (x_low, x_high): (f64, f64),
    (y_low, y_high): (f64, f64),
) -> Vec<(f64, f64)> {
    let (mut from, mut to) = (x_low, x_high);
    if slope == 0.0 && !(y_low..=y_high).contains(&intercept) {
        return Vec::new();
    }
    if slope != 0.0 {
        let at = |y: f64| (y - intercept) / slope;
        let (a, b) = (at(y_low), at(y_high));
        from = from.max(a.min(b));
        to = to.min(a.max(b));
    }
    if from >= to {
        return Vec::new();
    }
    vec![
        (from, intercept + slope * from),
        (to, intercept + slope * to),
    ]
}

impl Chart for Scatter {
    fn draw<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> Result<(), String> {
        let area = caption(area, &self.title, &self.provenance)?;
        // x may be in centipawns, standard deviations or expected scores:
        // a centipawn axis is padded by at least 5 cp, a narrower one by 5%
        // of its spread.
        let span = spread(self.points.iter().map(|p| p.1));
        let pad = if span >= CENTIPAWN_SPAN { 5.0 } else { 0.01 };
        let (x_low, x_high) = range_by(self.points.iter().map(|p| p.1), pad);
        let (y_low, y_high) = range_by(self.points.iter().map(|p| p.2), 0.02);
        let y_span = spread(self.points.iter().map(|p| p.2));
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
            .x_label_formatter(&|x| format!("{x:.digits$}", digits = decimals(span)))
            .y_label_formatter(&|y| format!("{y:.digits$}", digits = decimals(y_span).max(1)))
            .draw()
            .map_err(|e| e.to_string())?;
        for p in &self.points {
            hotspot(
                p.0,
                chart.backend_coord(&(p.1, p.2)),
                format!(
                    "{:.digits$}, {:.3}",
                    p.1,
                    p.2,
                    digits = decimals(span) + usize::from(span < CENTIPAWN_SPAN)
                ),
            );
        }
        let xy: Vec<(f64, f64)> = self.points.iter().map(|p| (p.1, p.2)).collect();
        let color = PALETTE[0].mix(0.6);
        chart
            .draw_series(xy.iter().map(|p| Circle::new(*p, 3, color.filled())))
            .map_err(|e| e.to_string())?
            .label(format!("{} positions", xy.len()))
            .legend(move |(x, y)| Circle::new((x + 10, y), 3, color.filled()));
        if let Some((sp, label)) = &self.marked
            && let Some(p) = self.points.iter().find(|p| p.0 == *sp)
        {
            let mark = PALETTE[2].stroke_width(3);
            chart
                .draw_series(std::iter::once(Cross::new((p.1, p.2), 8, mark)))
                .map_err(|e| e.to_string())?
                .label(label.clone())
                .legend(move |(x, y)| Cross::new((x + 10, y), 6, mark));
        }
        if let Some(Fit {
            slope,
            intercept,
            r,
        }) = Fit::of(&xy)
        {
            let line = PALETTE[1].stroke_width(2);
            chart
                .draw_series(LineSeries::new(
                    clipped_line(slope, intercept, (x_low, x_high), (y_low, y_high)),
                    line,
                ))
                .map_err(|e| e.to_string())?
                .label(format!("least squares; Pearson r = {r:.2}"))
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], line));
        }
        legend(&mut chart, SeriesLabelPosition::UpperLeft)
    }
}

#[cfg(test)]
mod tests {
    use super::clipped_line;

    #[test]
    fn a_steep_line_ends_where_it_leaves_the_plot_and_stays_on_itself() {
        // y = 26 + 10 x over x in [-3, 5], y in [0, 60]: it leaves through
        // the bottom at x = -2.6 and through the top at x = 3.4.
        let line = clipped_line(10.0, 26.0, (-3.0, 5.0), (0.0, 60.0));
        assert_eq!(line.len(), 2);
        for &(x, y) in &line {
            assert!(
                (y - (26.0 + 10.0 * x)).abs() < 1e-9,
                "({x}, {y}) is off the line"
            );
            assert!(
                (-1e-9..=60.0 + 1e-9).contains(&y),
                "({x}, {y}) is outside the plot"
            );
        }
        assert!((line[0].0 + 2.6).abs() < 1e-9 && (line[1].0 - 3.4).abs() < 1e-9);
        // A falling line, a shallow one that spans the x range, and lines
        // that miss the plot.
        let falling = clipped_line(-10.0, 26.0, (-3.0, 5.0), (0.0, 60.0));
        assert!((falling[0].0 + 3.0).abs() < 1e-9 && (falling[1].0 - 2.6).abs() < 1e-9);
        assert_eq!(
            clipped_line(1.0, 30.0, (-3.0, 5.0), (0.0, 60.0)),
            [(-3.0, 27.0), (5.0, 35.0)]
        );
        assert!(clipped_line(0.0, 70.0, (-3.0, 5.0), (0.0, 60.0)).is_empty());
        assert!(clipped_line(1.0, 100.0, (-3.0, 5.0), (0.0, 60.0)).is_empty());
    }
}
