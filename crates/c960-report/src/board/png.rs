//! The diagram as a PNG: [`super::drawing`] rendered through plotters.

use std::{io, path::Path};

use c960_core::{Lang, StartPosition};
use plotters::{
    coord::Shift,
    prelude::*,
    style::text_anchor::{HPos, Pos, VPos},
};

use super::{Marks, Rgb, Shape, drawing, height, legend, marked};
use crate::charts::{Chart, write_png};

/// The same diagram as a PNG `pixels` wide (its height in proportion,
/// legend included), written atomically to `path` (pieces and legend drawn
/// with the bundled `DejaVu Sans`).
pub fn write_diagram_png(
    position: StartPosition,
    marks: Marks,
    pixels: u32,
    lang: Lang,
    path: &Path,
) -> io::Result<()> {
    let diagram = Diagram {
        position,
        marks,
        lang,
    };
    write_png(&diagram, path, (pixels, diagram.pixel_height(pixels)))
}

/// A diagram drawn through plotters: [`drawing`] scaled to the bitmap.
pub(super) struct Diagram {
    pub(super) position: StartPosition,
    pub(super) marks: Marks,
    pub(super) lang: Lang,
}

impl Diagram {
    /// Its height at `pixels` wide.
    fn pixel_height(&self, pixels: u32) -> u32 {
        let (weak, targets) = marked(self.position, None, self.marks);
        pixels * height(&legend(weak, targets, self.lang)) / 340
    }
}

impl Chart for Diagram {
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_possible_wrap,
        clippy::cast_sign_loss
    )]
    fn draw<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> Result<(), String> {
        let (w, _) = area.dim_in_pixel();
        let k = f64::from(w) / 340.0;
        let at = |x: u32, y: u32| {
            (
                (f64::from(x) * k).round() as i32,
                (f64::from(y) * k).round() as i32,
            )
        };
        let scaled = |n: u32| (f64::from(n) * k).round().max(1.0) as u32;
        let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
        area.fill(&WHITE).map_err(err)?;
        let marked = marked(self.position, None, self.marks);
        for shape in drawing(self.position, marked, self.lang) {
            match shape {
                Shape::Square { x, y, fill } => area.draw(&Rectangle::new(
                    [at(x, y), at(x + 40, y + 40)],
                    fill.plotters().filled(),
                )),
                Shape::Outline {
                    x,
                    y,
                    size,
                    colour,
                    width,
                    ..
                } => area.draw(&Rectangle::new(
                    [at(x, y), at(x + size, y + size)],
                    colour.plotters().stroke_width(scaled(width)),
                )),
                Shape::Ring {
                    cx,
                    cy,
                    r,
                    colour,
                    width,
                    ..
                } => area.draw(&Circle::new(
                    at(cx, cy),
                    (f64::from(r) * k).round() as i32,
                    colour.plotters().stroke_width(scaled(width)),
                )),
                Shape::Text {
                    x,
                    middle,
                    size,
                    centred,
                    fill,
                    text,
                    ..
                } => {
                    let anchor = if centred { HPos::Center } else { HPos::Left };
                    let colour = fill.map_or(BLACK, Rgb::plotters);
                    let font = ("sans-serif", f64::from(size) * k)
                        .into_font()
                        .color(&colour)
                        .pos(Pos::new(anchor, VPos::Center));
                    area.draw(&Text::new(text, at(x, middle), font))
                }
                Shape::Legend | Shape::LegendEnd => Ok(()),
            }
            .map_err(err)?;
        }
        Ok(())
    }
}
