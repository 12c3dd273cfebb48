//! Charts drawn with plotters, each written as SVG and PNG. Text uses the
//! `DejaVu Sans` font shipped with the crate (see `assets/`), so charts look
//! the same on every machine and need no system fonts.
//!
//! This module holds what every chart shares (the [`Chart`] trait, writing
//! SVG and PNG atomically, captions, legends, hotspots, axis ranges); the
//! chart kinds are in `distribution` (score curve and histogram), `groups`
//! (bars, group means, intervals) and `scatter`.

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

mod distribution;
mod groups;
mod scatter;

pub use distribution::{ScoreCurve, ScoreHistogram};
pub use groups::{Bars, GroupMeans, Intervals};
pub use scatter::Scatter;

/// A chart shown on the index, with its points a reader can hover and
/// click.
#[derive(Clone, Debug)]
pub struct Shown {
    /// Its title.
    pub title: String,
    /// The chart file, relative to the site.
    pub file: PathBuf,
    /// Its per-position points.
    pub hotspots: Vec<Hotspot>,
}

const FONT: &[u8] = include_bytes!("../../assets/DejaVuSans.ttf");

const SIZE: (u32, u32) = (960, 540);

pub(crate) fn fonts() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        if register_font("sans-serif", FontStyle::Normal, FONT).is_err() {
            unreachable!("the bundled font is a valid TrueType font");
        }
    });
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
pub(super) fn hotspot(sp: u32, (x, y): (i32, i32), value: String) {
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
    // Checked first: the PNG encoder reports a missing directory as a chain
    // of its own error types.
    c960_store::check_output(&[path])?;
    if !dir.is_dir() {
        return Err(c960_store::describe_write_error(
            path,
            &io::Error::new(
                io::ErrorKind::NotFound,
                format!("the directory {} does not exist", dir.display()),
            ),
        ));
    }
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
            } else if let Some(os) = os_error(&text) {
                // The operating system's error, not the encoder's wrapping.
                os
            } else {
                io::Error::new(e.kind(), e.to_string())
            };
            Err(c960_store::describe_write_error(path, &e))
        }
    }
}

/// The operating system error inside an encoder's error, from its
/// `Os { code: N, .. }` in the debug text.
fn os_error(debug: &str) -> Option<io::Error> {
    let code = debug.split("Os { code: ").nth(1)?;
    let digits: String = code.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok().map(io::Error::from_raw_os_error)
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

/// Axes for categories along x, one unit each (`0..width`) and labelled
/// at their centres, against values `low..high` labelled in whole units,
/// with their descriptions; no vertical grid lines.
pub(crate) fn category_axes<'a, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, Shift>,
    labels: Vec<String>,
    width: f64,
    (low, high): (f64, f64),
    (x_desc, y_desc): (&str, &str),
) -> Result<ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>, String> {
    let mut chart = ChartBuilder::on(area)
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(0f64..width, low..high)
        .map_err(|e| e.to_string())?;
    let ticks = labels.len() * 2 + 1;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc(x_desc)
        .y_desc(y_desc)
        .x_labels(ticks)
        .x_label_formatter(&move |x| category_label(&labels, *x))
        .y_label_formatter(&|y| format!("{y:.0}"))
        .draw()
        .map_err(|e| e.to_string())?;
    Ok(chart)
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
pub(super) fn range(values: impl Iterator<Item = f64>) -> (f64, f64) {
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
