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
    coord::{Shift, types::RangedCoordf64},
    prelude::*,
    style::{FontStyle, register_font},
};

const FONT: &[u8] = include_bytes!("../assets/DejaVuSans.ttf");
const SIZE: (u32, u32) = (960, 540);

pub(crate) fn fonts() {
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
    /// x axis description, with unit.
    pub x_desc: String,
}

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
/// weak pawns); `groups` are `(label, values)`.
#[derive(Clone, Debug)]
pub struct GroupMeans {
    /// Chart title.
    pub title: String,
    /// Provenance line.
    pub provenance: String,
    /// `(group label, values)`.
    pub groups: Vec<(String, Vec<f64>)>,
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

/// Pearson's correlation of `points` (`None` for fewer than three points
/// or a constant coordinate).
#[must_use]
pub fn correlation(points: &[(f64, f64)]) -> Option<f64> {
    let (slope, _) = least_squares(points)?;
    let n = points.len() as f64;
    let mean_x = points.iter().map(|p| p.0).sum::<f64>() / n;
    let mean_y = points.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = points.iter().map(|p| (p.0 - mean_x).powi(2)).sum();
    let syy: f64 = points.iter().map(|p| (p.1 - mean_y).powi(2)).sum();
    (syy > 0.0).then(|| slope * (sxx / syy).sqrt())
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

/// Mean and half-width of the normal 95% interval of `values` (0 for fewer
/// than two values).
#[must_use]
pub fn mean_interval(values: &[f64]) -> (f64, f64) {
    let n = values.len() as f64;
    if values.is_empty() {
        return (0.0, 0.0);
    }
    let mean = values.iter().sum::<f64>() / n;
    if values.len() < 2 {
        return (mean, 0.0);
    }
    let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, 1.96 * (variance / n).sqrt())
}

/// Colours of successive series.
pub(crate) const PALETTE: [RGBColor; 4] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
];

/// A point of a per-position chart that a reader can hover and click: the
/// position and its value at pixel `(x, y)` of the chart as written.
#[derive(Clone, Debug, PartialEq)]
pub struct Hotspot {
    /// Scharnagl number.
    pub sp: u32,
    /// Pixel column.
    pub x: i32,
    /// Pixel row.
    pub y: i32,
    /// The value, as the chart's tooltip says it.
    pub value: String,
}

thread_local! {
    /// Where the drawing of a chart puts its hotspots, while one is wanted.
    static HOTSPOTS: std::cell::RefCell<Option<Vec<Hotspot>>> = const { std::cell::RefCell::new(None) };
}

/// Records a hotspot if the chart being drawn is collecting them.
fn hotspot(sp: u32, (x, y): (i32, i32), value: String) {
    HOTSPOTS.with(|h| {
        if let Some(list) = h.borrow_mut().as_mut() {
            list.push(Hotspot { sp, x, y, value });
        }
    });
}

/// The chart size in pixels (SVG and PNG alike).
#[must_use]
pub const fn size() -> (u32, u32) {
    SIZE
}

/// A chart that can draw itself on any plotters backend.
pub trait Chart {
    /// Draws the chart on `area`.
    fn draw<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> Result<(), String>;
}

/// Writes `chart` as `name.svg` and `name.png` in `dir` (each atomically)
/// and returns the two paths.
pub fn write(chart: &impl Chart, dir: &Path, name: &str) -> io::Result<[PathBuf; 2]> {
    write_with_hotspots(chart, dir, name).map(|(paths, _)| paths)
}

/// [`write`], also returning the chart's hotspots (the points of
/// per-position charts, in the pixels of the written chart).
pub fn write_with_hotspots(
    chart: &impl Chart,
    dir: &Path,
    name: &str,
) -> io::Result<([PathBuf; 2], Vec<Hotspot>)> {
    fonts();
    fs::create_dir_all(dir)?;
    let svg_path = dir.join(format!("{name}.svg"));
    let png_path = dir.join(format!("{name}.png"));
    let mut svg = String::new();
    HOTSPOTS.with(|h| *h.borrow_mut() = Some(Vec::new()));
    let drawn = (|| {
        let area = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        chart.draw(&area).map_err(io::Error::other)?;
        area.present().map_err(|e| io::Error::other(e.to_string()))
    })();
    let spots = HOTSPOTS.with(|h| h.borrow_mut().take()).unwrap_or_default();
    drawn?;
    c960_store::write_atomically(&svg_path, |out| io::Write::write_all(out, svg.as_bytes()))?;
    write_png(chart, &png_path, SIZE)?;
    Ok(([svg_path, png_path], spots))
}

/// Writes `chart` as a PNG of `size` pixels at `path`, atomically.
pub fn write_png(chart: &impl Chart, path: &Path, size: (u32, u32)) -> io::Result<()> {
    fonts();
    // The PNG encoder writes to a path: draw into a temporary file beside
    // the target, then rename it into place.
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_owned(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let temp = dir.join(format!(".{name}.{}.png", std::process::id()));
    let drawn = (|| {
        let area = BitMapBackend::new(&temp, size).into_drawing_area();
        chart.draw(&area).map_err(io::Error::other)?;
        area.present().map_err(|e| io::Error::other(e.to_string()))
    })();
    match drawn.and_then(|()| fs::rename(&temp, path)) {
        Ok(()) => Ok(()),
        Err(e) => {
            let _ = fs::remove_file(&temp);
            // The encoder wraps I/O errors in its own; a full disk is said
            // as such.
            let text = format!("{e:?}");
            let full = e.kind() == io::ErrorKind::StorageFull
                || text.contains("StorageFull")
                || text.contains("os error 28");
            let e = if full {
                io::Error::from(io::ErrorKind::StorageFull)
            } else {
                io::Error::new(e.kind(), e.to_string())
            };
            Err(c960_store::describe_write_error(path, &e))
        }
    }
}

pub(crate) fn caption<DB: DrawingBackend>(
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
        let mut chart = ChartBuilder::on(&area)
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(0f64..groups, 0f64..top)
            .map_err(|e| e.to_string())?;
        let categories = self.categories.clone();
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_desc(self.x_desc.as_str())
            .y_desc(self.y_desc.as_str())
            .x_labels(self.categories.len() * 2 + 1)
            .x_label_formatter(&move |x| category_label(&categories, *x))
            .y_label_formatter(&|y| format!("{y:.0}"))
            .draw()
            .map_err(|e| e.to_string())?;
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
        let stats: Vec<(f64, f64)> = self.groups.iter().map(|(_, v)| mean_interval(v)).collect();
        let (low, high) = range(stats.iter().flat_map(|(m, h)| [m - h, m + h]));
        let labels: Vec<String> = self
            .groups
            .iter()
            .map(|(label, values)| format!("{label} (n={})", values.len()))
            .collect();
        let mut chart = ChartBuilder::on(&area)
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(0f64..labels.len() as f64, low..high)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_desc(self.x_desc.as_str())
            .y_desc(self.y_desc.as_str())
            .x_labels(labels.len() * 2 + 1)
            .x_label_formatter(&move |x| category_label(&labels, *x))
            .y_label_formatter(&|y| format!("{y:.0}"))
            .draw()
            .map_err(|e| e.to_string())?;
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

/// Draws the series legend of `chart` at `position`.
pub(crate) fn legend<'a, DB: DrawingBackend + 'a>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    position: SeriesLabelPosition,
) -> Result<(), String> {
    chart
        .configure_series_labels()
        .position(position)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK.mix(0.3))
        .label_font(("sans-serif", 14))
        .draw()
        .map_err(|e| e.to_string())
}

/// The label of the category whose column is centred on `x` (categories
/// sit at 0.5, 1.5, ...), or nothing between them.
pub(crate) fn category_label(categories: &[String], x: f64) -> String {
    if (x - x.floor() - 0.5).abs() < 0.01 {
        categories
            .get(x.floor() as usize)
            .cloned()
            .unwrap_or_default()
    } else {
        String::new()
    }
}

/// A padded value range for an axis (at least 5 units of padding).
fn range(values: impl Iterator<Item = f64>) -> (f64, f64) {
    range_by(values, 5.0)
}

/// A value range padded by 5%, and at least `min_pad`.
pub(crate) fn range_by(values: impl Iterator<Item = f64>, min_pad: f64) -> (f64, f64) {
    let (mut low, mut high) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values {
        low = low.min(v);
        high = high.max(v);
    }
    if !low.is_finite() {
        return (-2.0 * min_pad, 2.0 * min_pad);
    }
    let pad = ((high - low) * 0.05).max(min_pad);
    (low - pad, high + pad)
}
