//! The DFRC report's charts: group means with their intervals and `n`
//! (White's advantage by an asymmetry, the symmetric setups against the
//! rest), and the regression's coefficients with their intervals. Drawn
//! with the report's plotters setup ([`crate::charts`]).

// Chart coordinates: a few categories and scores within a few thousand
// centipawns convert between integers and floats without loss.
#![allow(clippy::cast_precision_loss)]

use plotters::{coord::Shift, prelude::*};

use std::{io, path::Path};

use crate::charts::{
    Chart, PALETTE, caption, category_axes, legend, range_by, write as write_chart,
};

use c960_verdict::dfrc::{MeanInterval, Regression};

use super::{Analysis, DfrcRun, FEATURES, FeatureKind};

/// One category of a chart: its label, estimate, 95% interval and the
/// setups behind it.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    /// The category (`-2`, `symmetric`, `white_weak`).
    pub label: String,
    /// The estimate.
    pub value: f64,
    /// The interval, when there is one.
    pub interval: Option<(f64, f64)>,
    /// Setups behind it (shown under the label when given).
    pub n: Option<usize>,
}

/// Estimates with intervals by category, with a reference line (zero, or
/// the mean of all setups).
#[derive(Clone, Debug)]
pub struct Estimates {
    /// Chart title.
    pub title: String,
    /// Provenance line.
    pub provenance: String,
    /// The categories.
    pub bars: Vec<Bar>,
    /// x axis description.
    pub x_desc: String,
    /// y axis description, with unit.
    pub y_desc: String,
    /// A horizontal line: `(legend label, value)`.
    pub reference: Option<(String, f64)>,
}

impl Chart for Estimates {
    fn draw<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> Result<(), String> {
        let area = caption(area, &self.title, &self.provenance)?;
        let (low, high) = range_by(
            self.bars
                .iter()
                .flat_map(|b| {
                    let (l, h) = b.interval.unwrap_or((b.value, b.value));
                    [l, h, b.value]
                })
                .chain(self.reference.iter().map(|r| r.1))
                .filter(|v| v.is_finite()),
            1.0,
        );
        let labels: Vec<String> = self
            .bars
            .iter()
            .map(|b| match b.n {
                Some(n) => format!("{} (n={n})", b.label),
                None => b.label.clone(),
            })
            .collect();
        let width = labels.len().max(1) as f64;
        let mut chart = category_axes(
            &area,
            labels,
            width,
            (low, high),
            (&self.x_desc, &self.y_desc),
        )?;
        if let Some((label, value)) = &self.reference {
            chart
                .draw_series(LineSeries::new(
                    [(0.0, *value), (width, *value)],
                    BLACK.mix(0.6).stroke_width(1),
                ))
                .map_err(|e| e.to_string())?
                .label(label.as_str())
                .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], BLACK.mix(0.6)));
        }
        let color = PALETTE[0];
        chart
            .draw_series(self.bars.iter().enumerate().map(|(i, b)| {
                let (l, h) = b.interval.unwrap_or((b.value, b.value));
                ErrorBar::new_vertical(i as f64 + 0.5, l, b.value, h, color.stroke_width(2), 12)
            }))
            .map_err(|e| e.to_string())?
            .label("estimate with 95% interval")
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], color.stroke_width(2)));
        legend(&mut chart, SeriesLabelPosition::UpperRight)
    }
}

/// The charts of one sweep: `(file relative to the site, title)`.
pub(super) fn write_charts(
    out: &Path,
    run: &DfrcRun,
    analysis: &Analysis,
) -> io::Result<Vec<(String, String)>> {
    let provenance = format!(
        "{}, {}, {} setups, {}",
        run.manifest.engine_names().join(" vs "),
        run.manifest.limit.as_deref().unwrap_or_default(),
        analysis.rows.len(),
        searches_words(analysis.noise.searches)
    );
    let overall = analysis
        .overall
        .map(|m| ("mean of all setups".to_owned(), m.mean));
    let mut shown = Vec::new();
    let dir = out.join("charts");
    let mut chart = |name: &str, chart: Estimates| -> io::Result<()> {
        let file = format!("{}-{name}", run.label);
        write_chart(&chart, &dir, &file)?;
        shown.push((format!("charts/{file}.svg"), chart.title));
        Ok(())
    };
    for feature in FEATURES.iter().filter(|f| f.kind == FeatureKind::Asymmetry) {
        let bars: Vec<Bar> = analysis
            .groups
            .iter()
            .filter(|g| g.feature == feature.name)
            .map(|g| bar(&format!("{:+}", g.value), &g.cp))
            .collect();
        chart(
            feature.name,
            Estimates {
                title: format!("White's advantage by {}", feature.words),
                provenance: provenance.clone(),
                bars,
                x_desc: format!("{} (setups)", feature.words),
                y_desc: "White's advantage, centipawns".to_owned(),
                reference: overall.clone(),
            },
        )?;
    }
    let s = &analysis.symmetric;
    chart(
        "symmetric",
        Estimates {
            title: "Symmetric setups (the Chess960 positions) and the rest".to_owned(),
            provenance: provenance.clone(),
            // A set without symmetric (or without asymmetric) setups has
            // no bar for them.
            bars: [bar("symmetric", &s.symmetric), bar("asymmetric", &s.rest)]
                .into_iter()
                .filter(|b| b.n.is_some_and(|n| n > 0))
                .collect(),
            x_desc: "setups".to_owned(),
            y_desc: "White's advantage, centipawns".to_owned(),
            reference: overall.clone(),
        },
    )?;
    if let Some(r) = &analysis.regression {
        chart("regression", regression_chart(r, provenance))?;
    }
    Ok(shown)
}

/// The chart of a regression's coefficients (the intercept aside).
fn regression_chart(r: &Regression, provenance: String) -> Estimates {
    Estimates {
        title: format!(
            "Centipawns per unit of each side's feature (OLS, HC3, n = {})",
            r.n
        ),
        provenance,
        bars: r
            .coefficients
            .iter()
            .skip(1)
            .map(|c| Bar {
                label: c.name.replace('_', " "),
                value: c.estimate,
                interval: Some((c.low, c.high)),
                n: None,
            })
            .collect(),
        x_desc: "feature".to_owned(),
        y_desc: "centipawns per unit".to_owned(),
        reference: Some(("no effect".to_owned(), 0.0)),
    }
}

fn bar(label: &str, m: &MeanInterval) -> Bar {
    Bar {
        label: label.to_owned(),
        value: m.mean,
        interval: m.low.zip(m.high),
        n: Some(m.n),
    }
}

pub(super) fn searches_words(n: u32) -> String {
    if n > 1 {
        format!("up to {n} searches per setup")
    } else {
        "one search per setup".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chart_names_its_categories_with_their_counts() {
        let dir = tempfile::tempdir().unwrap();
        let chart = Estimates {
            title: "White's advantage by weak-pawn asymmetry".to_owned(),
            provenance: "test".to_owned(),
            bars: vec![
                Bar {
                    label: "-1".to_owned(),
                    value: 30.0,
                    interval: Some((25.0, 35.0)),
                    n: Some(12),
                },
                Bar {
                    label: "0".to_owned(),
                    value: 20.0,
                    interval: None,
                    n: Some(1),
                },
            ],
            x_desc: "weak pawns, White's minus Black's".to_owned(),
            y_desc: "centipawns".to_owned(),
            reference: Some(("all setups".to_owned(), 22.0)),
        };
        let [svg, png] = crate::charts::write(&chart, dir.path(), "weak").unwrap();
        let text = std::fs::read_to_string(svg).unwrap();
        assert!(text.contains("-1 (n=12)") && text.contains("0 (n=1)"));
        assert!(png.exists());
    }
}
