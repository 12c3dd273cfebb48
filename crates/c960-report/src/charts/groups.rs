//! Means by group: bars, group means with their intervals, and
//! per-position intervals.

// Chart coordinates: at most 960 positions and scores within a few thousand
// centipawns convert between integers and floats without loss.
#![allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss
)]

use c960_verdict::figures::GroupMean;
use plotters::{coord::Shift, prelude::*};

use super::{Chart, PALETTE, caption, category_axes, hotspot, legend, range, range_by};

/// Bars for categories, one colour per series (e.g. positions with an
/// undefended or a king-only pawn, by file).
#[derive(Clone, Debug)]
pub struct Bars {
    /// Chart title.
    pub title: String,
    /// Provenance line.
    pub provenance: String,
    /// Category labels along the x axis.
    pub categories: Vec<String>,
    /// `(series name, one value per category)`.
    pub series: Vec<(String, Vec<f64>)>,
    /// x axis description.
    pub x_desc: String,
    /// y axis description, with unit.
    pub y_desc: String,
}

/// Group means with 95% intervals (e.g. White's advantage by number of
/// weak pawns); `groups` are `(label, mean)`, each mean computed by
/// [`GroupMean::of`].
#[derive(Clone, Debug)]
pub struct GroupMeans {
    /// Chart title.
    pub title: String,
    /// Provenance line.
    pub provenance: String,
    /// `(group label, its mean with the interval's half-width)`.
    pub groups: Vec<(String, GroupMean)>,
    /// x axis description.
    pub x_desc: String,
    /// y axis description, with unit.
    pub y_desc: String,
}

/// One value per position with its 95% interval, sorted by value, with a
/// reference line (e.g. the mean of all positions) and the classical setup
/// marked; `points` are `(sp, value, low, high)`.
#[derive(Clone, Debug)]
pub struct Intervals {
    /// Chart title.
    pub title: String,
    /// Provenance line.
    pub provenance: String,
    /// `(sp, value, low, high)`.
    pub points: Vec<(u32, f64, f64, f64)>,
    /// y axis description, with unit.
    pub y_desc: String,
    /// A horizontal line: `(legend label, value)`.
    pub reference: Option<(String, f64)>,
}

impl Chart for Bars {
    fn draw<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> Result<(), String> {
        let area = caption(area, &self.title, &self.provenance)?;
        let top = self
            .series
            .iter()
            .flat_map(|(_, v)| v.iter().copied())
            .fold(1.0f64, f64::max)
            * 1.15;
        let groups = self.categories.len() as f64;
        let mut chart = category_axes(
            &area,
            self.categories.clone(),
            groups,
            (0.0, top),
            (&self.x_desc, &self.y_desc),
        )?;
        let width = 0.8 / self.series.len().max(1) as f64;
        for (k, (name, values)) in self.series.iter().enumerate() {
            let color = PALETTE[k % PALETTE.len()];
            chart
                .draw_series(values.iter().enumerate().map(|(i, v)| {
                    let x0 = i as f64 + 0.1 + k as f64 * width;
                    Rectangle::new([(x0, 0.0), (x0 + width * 0.95, *v)], color.filled())
                }))
                .map_err(|e| e.to_string())?
                .label(name.as_str())
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 14, y + 5)], color.filled())
                });
        }
        legend(&mut chart, SeriesLabelPosition::UpperRight)
    }
}

impl Chart for GroupMeans {
    fn draw<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> Result<(), String> {
        let area = caption(area, &self.title, &self.provenance)?;
        let stats: Vec<(f64, f64)> = self
            .groups
            .iter()
            .map(|(_, g)| (g.mean, g.half_width))
            .collect();
        let (low, high) = range(stats.iter().flat_map(|(m, h)| [m - h, m + h]));
        let labels: Vec<String> = self
            .groups
            .iter()
            .map(|(label, g)| format!("{label} (n={})", g.n))
            .collect();
        let width = labels.len() as f64;
        let mut chart = category_axes(
            &area,
            labels,
            width,
            (low, high),
            (&self.x_desc, &self.y_desc),
        )?;
        let color = PALETTE[0];
        chart
            .draw_series(stats.iter().enumerate().map(|(i, (mean, half))| {
                let x = i as f64 + 0.5;
                ErrorBar::new_vertical(
                    x,
                    mean - half,
                    *mean,
                    mean + half,
                    color.stroke_width(2),
                    12,
                )
            }))
            .map_err(|e| e.to_string())?
            .label("mean with 95% interval")
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], color.stroke_width(2)));
        legend(&mut chart, SeriesLabelPosition::UpperRight)
    }
}

impl Chart for Intervals {
    fn draw<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> Result<(), String> {
        let area = caption(area, &self.title, &self.provenance)?;
        let mut sorted = self.points.clone();
        sorted.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
        let (low, high) = range_by(sorted.iter().flat_map(|p| [p.2, p.3]), 0.02);
        let mut chart = ChartBuilder::on(&area)
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(-0.5f64..sorted.len().max(1) as f64 - 0.5, low..high)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc("positions, sorted by value")
            .y_desc(self.y_desc.as_str())
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| format!("{y:.2}"))
            .draw()
            .map_err(|e| e.to_string())?;
        for (i, p) in sorted.iter().enumerate() {
            hotspot(
                p.0,
                chart.backend_coord(&(i as f64, p.1)),
                format!("{:.3} (95% interval {:.3} to {:.3})", p.1, p.2, p.3),
            );
        }
        let bar = PALETTE[0].mix(0.35);
        chart
            .draw_series(sorted.iter().enumerate().map(|(i, p)| {
                PathElement::new([(i as f64, p.2), (i as f64, p.3)], bar.stroke_width(1))
            }))
            .map_err(|e| e.to_string())?
            .label("95% interval")
            .legend(move |(x, y)| PathElement::new([(x + 10, y - 6), (x + 10, y + 6)], bar));
        chart
            .draw_series(LineSeries::new(
                sorted.iter().enumerate().map(|(i, p)| (i as f64, p.1)),
                PALETTE[0].stroke_width(2),
            ))
            .map_err(|e| e.to_string())?
            .label("per position")
            .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], PALETTE[0].stroke_width(2)));
        if let Some((label, value)) = &self.reference {
            let end = sorted.len().max(1) as f64 - 0.5;
            chart
                .draw_series(LineSeries::new(
                    [(-0.5, *value), (end, *value)],
                    BLACK.mix(0.6).stroke_width(1),
                ))
                .map_err(|e| e.to_string())?
                .label(label.as_str())
                .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], BLACK.mix(0.6)));
        }
        if let Some(rank) = sorted.iter().position(|p| p.0 == 518) {
            let p = sorted[rank];
            chart
                .draw_series(std::iter::once(Circle::new(
                    (rank as f64, p.1),
                    6,
                    RED.filled(),
                )))
                .map_err(|e| e.to_string())?
                .label(format!(
                    "SP 518 (classical): {:.3} [{:.3}, {:.3}]",
                    p.1, p.2, p.3
                ))
                .legend(|(x, y)| Circle::new((x + 10, y), 5, RED.filled()));
        }
        legend(&mut chart, SeriesLabelPosition::UpperLeft)
    }
}
