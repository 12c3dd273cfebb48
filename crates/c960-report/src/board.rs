//! Board diagrams as SVG: the position pages' board (weak pawns ringed,
//! castling targets outlined) and the plain diagram of printed round sheets.

use std::{fmt::Write as _, io, path::Path};

use c960_core::{
    Features, StartPosition,
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

use crate::charts::{Chart, write_png};

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
    /// Pieces only, as on a printed round sheet.
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

/// The start position as an SVG board (viewBox 340 × 360, scaled by its
/// container): White at the bottom, files and ranks labelled. With
/// `width` the element gets that fixed size in pixels.
#[must_use]
pub fn diagram_svg(position: StartPosition, marks: Marks, width: Option<u32>) -> String {
    svg(position, marked(position, None, marks), width)
}

/// [`diagram_svg`] for features already computed.
#[must_use]
pub fn diagram_svg_of(features: &Features, marks: Marks, width: Option<u32>) -> String {
    let position = features.position;
    svg(position, marked(position, Some(features), marks), width)
}

fn svg(
    position: StartPosition,
    (weak, targets): (Bitboard, Bitboard),
    width: Option<u32>,
) -> String {
    let board = position.board();
    let size = width.map_or_else(String::new, |w| {
        format!(" width=\"{w}\" height=\"{}\"", w * 360 / 340)
    });
    let mut svg = format!(
        "<svg class=\"board\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 340 360\"{size} role=\"img\" aria-label=\"SP {} {}\">",
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
    svg.push_str("</svg>");
    svg
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

/// The same diagram as a PNG of `pixels` × `pixels · 36/34`, written
/// atomically to `path` (pieces drawn with the bundled `DejaVu Sans`).
pub fn write_diagram_png(
    position: StartPosition,
    marks: Marks,
    pixels: u32,
    path: &Path,
) -> io::Result<()> {
    let diagram = Diagram { position, marks };
    write_png(&diagram, path, (pixels, pixels * 360 / 340))
}

/// A diagram drawn through plotters, on the SVG's 340 × 360 grid scaled.
struct Diagram {
    position: StartPosition,
    marks: Marks,
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
        let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
        area.fill(&WHITE).map_err(err)?;
        let (weak, targets) = marked(self.position, None, self.marks);
        let board = self.position.board();
        let light = RGBColor(0xf0, 0xd9, 0xb5);
        let dark = RGBColor(0xb5, 0x88, 0x63);
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
                        RGBColor(0x2a, 0x9d, 0x3a).stroke_width((3.0 * k).round() as u32),
                    ))
                    .map_err(err)?;
                }
                if let Some(piece) = board.piece_at(sq) {
                    if weak.contains(sq) {
                        area.draw(&Circle::new(
                            at(x + 20, y + 20),
                            (17.0 * k).round() as i32,
                            RGBColor(0xd6, 0x27, 0x28).stroke_width((3.0 * k).round() as u32),
                        ))
                        .map_err(err)?;
                    }
                    let style = piece_font
                        .clone()
                        .color(&BLACK)
                        .pos(Pos::new(HPos::Center, VPos::Center));
                    area.draw(&Text::new(
                        glyph(piece.color, piece.role).to_string(),
                        at(x + 20, y + 21),
                        style,
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
        Ok(())
    }
}
