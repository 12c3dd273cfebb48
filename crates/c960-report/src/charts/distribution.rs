//! The distribution of one engine score over the positions: the sorted
//! score curve and the histogram.

// Chart coordinates: at most 960 positions and scores within a few thousand
// centipawns convert between integers and floats without loss.
#![allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss
)]

use plotters::{coord::Shift, prelude::*};

use super::{Chart, caption, hotspot, legend, range};

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
    /// x axis description, with unit.
    pub x_desc: String,
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
        for (i, p) in sorted.iter().enumerate() {
            hotspot(
                p.0,
                chart.backend_coord(&(i as f64, p.1)),
                format!("{:+.0} cp", p.1),
            );
        }
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
        legend(&mut chart, SeriesLabelPosition::UpperLeft)
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
            .x_desc(self.x_desc.as_str())
            .y_desc("positions")
            .x_label_formatter(&|v| match v {
                SegmentValue::CenterOf(b) | SegmentValue::Exact(b) => {
                    format!("{}..{}", b * 10, b * 10 + 9)
                }
                SegmentValue::Last => String::new(),
            })
            .draw()
            .map_err(|e| e.to_string())?;
        // One bar per non-empty bin, drawn in bin order: the same picture
        // as plotters' `Histogram`, whose bars come out of a hash map in a
        // different order every run (the SVG would never be reproducible).
        let x_spec = chart.as_coord_spec().x_spec().clone();
        let bars = (first..=last).zip(counts).filter(|&(_, n)| n > 0);
        chart
            .draw_series(bars.filter_map(|(b, n)| {
                let i = x_spec.index_of(&SegmentValue::Exact(b))?;
                let next = x_spec.from_index(i + 1)?;
                let mut bar = Rectangle::new(
                    [(SegmentValue::Exact(b), n), (next, 0)],
                    BLUE.mix(0.7).filled(),
                );
                bar.set_margin(0, 0, 2, 2);
                Some(bar)
            }))
            .map_err(|e| e.to_string())?;
        Ok(())
    }
}
