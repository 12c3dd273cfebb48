//! Board diagrams as SVG and PNG: the position pages' board (weak pawns
//! ringed, castling targets outlined, with a legend saying so) and the
//! clean diagram of printed round sheets. White's pieces are drawn over a
//! white silhouette, so their hollow glyphs never let a dark square show
//! through.

use std::{fmt::Write as _, io, path::Path};

use c960_core::{
    Features, Lang, StartPosition,
    shakmaty::{Bitboard, Color, File, Rank, Role, Square},
};
use plotters::{
    coord::Shift,
    prelude::*,
    style::{
        Color as _,
        text_anchor::{HPos, Pos, VPos},
    },
};

use crate::{
    charts::{Chart, write_png},
    html::escape,
};

/// What a diagram marks besides the pieces.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Marks {
    /// Ring weak pawns (undefended or defended only by the king) in red.
    pub weak_pawns: bool,
    /// Outline the castling targets c1, g1, c8 and g8 in green.
    pub castling_targets: bool,
}

impl Marks {
    /// Everything marked, as on position pages.
    pub const ALL: Marks = Marks {
        weak_pawns: true,
        castling_targets: true,
    };
    /// Pieces only: a clean diagram, as on a printed round sheet.
    pub const NONE: Marks = Marks {
        weak_pawns: false,
        castling_targets: false,
    };
}

/// The squares marked on a diagram: weak pawns (from `features` when
/// already computed) and castling targets.
fn marked(
    position: StartPosition,
    features: Option<&Features>,
    marks: Marks,
) -> (Bitboard, Bitboard) {
    let weak = if marks.weak_pawns {
        let weak =
            features.map_or_else(|| Features::of(position).weak_pawns(), Features::weak_pawns);
        weak.white | weak.black
    } else {
        Bitboard::EMPTY
    };
    let targets = if marks.castling_targets {
        Bitboard::from(Square::C1)
            | Bitboard::from(Square::G1)
            | Bitboard::from(Square::C8)
            | Bitboard::from(Square::G8)
    } else {
        Bitboard::EMPTY
    };
    (weak, targets)
}

/// The board's height in the diagram's units (the width is 340).
const BOARD_HEIGHT: u32 = 360;
/// Height of one legend line.
const LEGEND_LINE: u32 = 14;
/// Characters per legend line: the legend's font (10 units) fits about
/// this many across the diagram.
const LEGEND_WIDTH: usize = 50;

/// What a legend line explains.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Mark {
    Ring,
    Square,
}

/// The legend of the marks a diagram shows, one entry per kind of mark,
/// each wrapped into lines of at most [`LEGEND_WIDTH`] characters.
fn legend(weak: Bitboard, targets: Bitboard, lang: Lang) -> Vec<(Mark, Vec<String>)> {
    let mut out = Vec::new();
    if weak.any() {
        out.push((Mark::Ring, wrap(crate::sheet::text(lang, "legend_weak"))));
    }
    if targets.any() {
        out.push((
            Mark::Square,
            wrap(crate::sheet::text(lang, "legend_target")),
        ));
    }
    out
}

fn wrap(text: &str) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split(' ') {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= LEGEND_WIDTH => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_owned()),
        }
    }
    lines
}

/// The diagram's height in its units: the board and the legend.
fn height(legend: &[(Mark, Vec<String>)]) -> u32 {
    let lines: usize = legend.iter().map(|(_, l)| l.len()).sum();
    if lines == 0 {
        BOARD_HEIGHT
    } else {
        BOARD_HEIGHT + 6 + LEGEND_LINE * u32::try_from(lines).unwrap_or(8)
    }
}

/// The start position as an SVG board (viewBox 340 wide, scaled by its
/// container): White at the bottom, files and ranks labelled, and under
/// the board a legend in `lang` of the marks it shows. With `width` the
/// element gets that fixed width in pixels.
#[must_use]
pub fn diagram_svg(
    position: StartPosition,
    marks: Marks,
    width: Option<u32>,
    lang: Lang,
) -> String {
    svg(position, marked(position, None, marks), width, lang)
}

/// [`diagram_svg`] for features already computed.
#[must_use]
pub fn diagram_svg_of(features: &Features, marks: Marks, width: Option<u32>, lang: Lang) -> String {
    let position = features.position;
    svg(
        position,
        marked(position, Some(features), marks),
        width,
        lang,
    )
}

fn svg(
    position: StartPosition,
    (weak, targets): (Bitboard, Bitboard),
    width: Option<u32>,
    lang: Lang,
) -> String {
    let board = position.board();
    let legend = legend(weak, targets, lang);
    let full = height(&legend);
    let size = width.map_or_else(String::new, |w| {
        format!(" width=\"{w}\" height=\"{}\"", w * full / 340)
    });
    let mut svg = format!(
        "<svg class=\"board\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 340 {full}\"{size} role=\"img\" aria-label=\"SP {} {}\">",
        position.sp(),
        position.placement()
    );
    for rank in Rank::ALL {
        for file in File::ALL {
            let sq = Square::from_coords(file, rank);
            let x = 20 + 40 * u32::from(file);
            let y = 20 + 40 * (7 - u32::from(rank));
            let light = (u32::from(file) + u32::from(rank)) % 2 == 1;
            let _ = write!(
                svg,
                "<rect x=\"{x}\" y=\"{y}\" width=\"40\" height=\"40\" fill=\"{}\"/>",
                if light { "#f0d9b5" } else { "#b58863" }
            );
            if targets.contains(sq) {
                let _ = write!(
                    svg,
                    "<rect class=\"castle-target\" x=\"{}\" y=\"{}\" width=\"36\" height=\"36\" fill=\"none\" stroke=\"#2a9d3a\" stroke-width=\"3\"/>",
                    x + 2,
                    y + 2
                );
            }
            if let Some(piece) = board.piece_at(sq) {
                if weak.contains(sq) {
                    let _ = write!(
                        svg,
                        "<circle class=\"weak\" cx=\"{}\" cy=\"{}\" r=\"17\" fill=\"none\" stroke=\"#d62728\" stroke-width=\"3\"/>",
                        x + 20,
                        y + 20
                    );
                }
                if piece.color == Color::White {
                    // The solid glyph in white under the hollow one fills
                    // the piece's inside.
                    let _ = write!(
                        svg,
                        "<text class=\"fill\" x=\"{}\" y=\"{}\" font-size=\"32\" text-anchor=\"middle\" fill=\"#ffffff\">{}</text>",
                        x + 20,
                        y + 31,
                        glyph(Color::Black, piece.role)
                    );
                }
                let _ = write!(
                    svg,
                    "<text x=\"{}\" y=\"{}\" font-size=\"32\" text-anchor=\"middle\">{}</text>",
                    x + 20,
                    y + 31,
                    glyph(piece.color, piece.role)
                );
            }
        }
    }
    for (i, file) in File::ALL.iter().enumerate() {
        let _ = write!(
            svg,
            "<text x=\"{}\" y=\"354\" font-size=\"12\" text-anchor=\"middle\">{}</text>",
            40 + 40 * i,
            file.char()
        );
    }
    for (i, rank) in Rank::ALL.iter().enumerate() {
        let _ = write!(
            svg,
            "<text x=\"8\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\">{}</text>",
            44 + 40 * (7 - i),
            rank.char()
        );
    }
    legend_svg(&mut svg, &legend);
    svg.push_str("</svg>");
    // One element a line: a page that holds the board keeps short lines.
    svg.replace("><", ">\n<")
}

/// The legend under the board: a sample of each mark and its meaning.
fn legend_svg(svg: &mut String, legend: &[(Mark, Vec<String>)]) {
    if !legend.is_empty() {
        svg.push_str("<g class=\"legend\">");
        let mut y = BOARD_HEIGHT + 6;
        for (mark, lines) in legend {
            let _ = match mark {
                Mark::Ring => write!(
                    svg,
                    "<circle class=\"legend-ring\" cx=\"27\" cy=\"{}\" r=\"5\" fill=\"none\" stroke=\"#d62728\" stroke-width=\"2\"/>",
                    y + 6
                ),
                Mark::Square => write!(
                    svg,
                    "<rect class=\"legend-square\" x=\"22\" y=\"{}\" width=\"10\" height=\"10\" fill=\"none\" stroke=\"#2a9d3a\" stroke-width=\"2\"/>",
                    y + 1
                ),
            };
            for line in lines {
                let _ = write!(
                    svg,
                    "<text x=\"40\" y=\"{}\" font-size=\"10\">{}</text>",
                    y + 10,
                    escape(line)
                );
                y += LEGEND_LINE;
            }
        }
        svg.push_str("</g>");
    }
}

/// The Unicode chess symbol of a piece.
const fn glyph(color: Color, role: Role) -> char {
    match (color, role) {
        (Color::White, Role::King) => '♔',
        (Color::White, Role::Queen) => '♕',
        (Color::White, Role::Rook) => '♖',
        (Color::White, Role::Bishop) => '♗',
        (Color::White, Role::Knight) => '♘',
        (Color::White, Role::Pawn) => '♙',
        (Color::Black, Role::King) => '♚',
        (Color::Black, Role::Queen) => '♛',
        (Color::Black, Role::Rook) => '♜',
        (Color::Black, Role::Bishop) => '♝',
        (Color::Black, Role::Knight) => '♞',
        (Color::Black, Role::Pawn) => '♟',
    }
}

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

/// A diagram drawn through plotters, on the SVG's grid scaled.
struct Diagram {
    position: StartPosition,
    marks: Marks,
    lang: Lang,
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
        clippy::cast_sign_loss,
        clippy::too_many_lines
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
        let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
        area.fill(&WHITE).map_err(err)?;
        let (weak, targets) = marked(self.position, None, self.marks);
        let board = self.position.board();
        let light = RGBColor(0xf0, 0xd9, 0xb5);
        let dark = RGBColor(0xb5, 0x88, 0x63);
        let red = RGBColor(0xd6, 0x27, 0x28);
        let green = RGBColor(0x2a, 0x9d, 0x3a);
        let piece_font = ("sans-serif", 32.0 * k).into_font();
        for rank in Rank::ALL {
            for file in File::ALL {
                let sq = Square::from_coords(file, rank);
                let x = 20 + 40 * u32::from(file);
                let y = 20 + 40 * (7 - u32::from(rank));
                let colour = if (u32::from(file) + u32::from(rank)) % 2 == 1 {
                    light
                } else {
                    dark
                };
                area.draw(&Rectangle::new(
                    [at(x, y), at(x + 40, y + 40)],
                    colour.filled(),
                ))
                .map_err(err)?;
                if targets.contains(sq) {
                    area.draw(&Rectangle::new(
                        [at(x + 2, y + 2), at(x + 38, y + 38)],
                        green.stroke_width((3.0 * k).round() as u32),
                    ))
                    .map_err(err)?;
                }
                if let Some(piece) = board.piece_at(sq) {
                    if weak.contains(sq) {
                        area.draw(&Circle::new(
                            at(x + 20, y + 20),
                            (17.0 * k).round() as i32,
                            red.stroke_width((3.0 * k).round() as u32),
                        ))
                        .map_err(err)?;
                    }
                    let centre = Pos::new(HPos::Center, VPos::Center);
                    if piece.color == Color::White {
                        area.draw(&Text::new(
                            glyph(Color::Black, piece.role).to_string(),
                            at(x + 20, y + 21),
                            piece_font.clone().color(&WHITE).pos(centre),
                        ))
                        .map_err(err)?;
                    }
                    area.draw(&Text::new(
                        glyph(piece.color, piece.role).to_string(),
                        at(x + 20, y + 21),
                        piece_font.clone().color(&BLACK).pos(centre),
                    ))
                    .map_err(err)?;
                }
            }
        }
        let label = ("sans-serif", 12.0 * k)
            .into_font()
            .color(&BLACK)
            .pos(Pos::new(HPos::Center, VPos::Center));
        for (i, file) in File::ALL.iter().enumerate() {
            area.draw(&Text::new(
                file.char().to_string(),
                at(40 + 40 * i as u32, 350),
                label.clone(),
            ))
            .map_err(err)?;
        }
        for (i, rank) in Rank::ALL.iter().enumerate() {
            area.draw(&Text::new(
                rank.char().to_string(),
                at(8, 40 + 40 * (7 - i as u32)),
                label.clone(),
            ))
            .map_err(err)?;
        }
        let small = ("sans-serif", 10.0 * k)
            .into_font()
            .color(&BLACK)
            .pos(Pos::new(HPos::Left, VPos::Center));
        let mut y = BOARD_HEIGHT + 6;
        for (mark, lines) in legend(weak, targets, self.lang) {
            match mark {
                Mark::Ring => area.draw(&Circle::new(
                    at(27, y + 6),
                    (5.0 * k).round() as i32,
                    red.stroke_width((2.0 * k).round().max(1.0) as u32),
                )),
                Mark::Square => area.draw(&Rectangle::new(
                    [at(22, y + 1), at(32, y + 11)],
                    green.stroke_width((2.0 * k).round().max(1.0) as u32),
                )),
            }
            .map_err(err)?;
            for line in lines {
                area.draw(&Text::new(line, at(40, y + 6), small.clone()))
                    .map_err(err)?;
                y += LEGEND_LINE;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_legend_comes_with_the_marks_and_only_then() {
        let sp91 = StartPosition::new(91).unwrap();
        let marked = diagram_svg(sp91, Marks::ALL, None, Lang::En);
        assert!(marked.contains("red ring: weak pawn"), "{marked}");
        assert!(marked.contains("green square: castling target"));
        assert_eq!(marked.matches("class=\"weak\"").count(), 6);
        let clean = diagram_svg(sp91, Marks::NONE, None, Lang::En);
        assert!(!clean.contains("legend") && !clean.contains("castle-target"));
        assert!(clean.contains("viewBox=\"0 0 340 360\""));
        let german = diagram_svg(sp91, Marks::ALL, None, Lang::De);
        assert!(german.contains("roter Ring: schwacher Bauer"), "{german}");
    }

    #[test]
    fn white_pieces_are_filled() {
        let svg = diagram_svg(
            StartPosition::new(518).unwrap(),
            Marks::NONE,
            None,
            Lang::En,
        );
        assert_eq!(
            svg.matches("class=\"fill\"").count(),
            16,
            "one per white piece"
        );
        // In the PNG, the inside of White's pawn on d2 (a light square) and
        // of the king on e1 (a dark square) is white, not the square.
        crate::charts::fonts();
        let (w, h) = (340, 360);
        let mut pixels = vec![0u8; w * h * 3];
        {
            let area = BitMapBackend::with_buffer(&mut pixels, (340, 360)).into_drawing_area();
            Diagram {
                position: StartPosition::new(518).unwrap(),
                marks: Marks::NONE,
                lang: Lang::En,
            }
            .draw(&area)
            .unwrap();
            area.present().unwrap();
        }
        // e1's square is x 180..220, y 300..340; the king's body is about
        // its middle, a little low.
        let white_inside = (300..340)
            .flat_map(|y| (180..220).map(move |x| (x, y)))
            .filter(|&(x, y)| {
                let i = (y * w + x) * 3;
                pixels[i] > 240 && pixels[i + 1] > 240 && pixels[i + 2] > 240
            })
            .count();
        // A hollow glyph would leave none: the square is dark, the outline black.
        assert!(
            white_inside > 40,
            "{white_inside} white pixels in the king on e1"
        );
    }
}
