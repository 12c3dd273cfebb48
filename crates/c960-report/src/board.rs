//! Board diagrams as SVG and PNG: the position pages' board (weak pawns
//! ringed, castling targets outlined, with a legend saying so) and the
//! clean diagram of printed round sheets. White's pieces are drawn over a
//! white silhouette, so their hollow glyphs never let a dark square show
//! through.

use std::fmt::Write as _;

use c960_core::{
    Features, Lang, StartPosition,
    shakmaty::{Bitboard, Board, Color, File, Rank, Role, Square},
};

use crate::html::escape;

mod png;

use plotters::prelude::RGBColor;
pub use png::write_diagram_png;

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
        out.push((Mark::Ring, wrap(crate::lang::text(lang, "legend_weak"))));
    }
    if targets.any() {
        out.push((Mark::Square, wrap(crate::lang::text(lang, "legend_target"))));
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

/// A colour of the drawing, as the SVG writes it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Rgb(u8, u8, u8);

const LIGHT: Rgb = Rgb(0xf0, 0xd9, 0xb5);
const DARK: Rgb = Rgb(0xb5, 0x88, 0x63);
const RED: Rgb = Rgb(0xd6, 0x27, 0x28);
const GREEN: Rgb = Rgb(0x2a, 0x9d, 0x3a);
const PAPER: Rgb = Rgb(0xff, 0xff, 0xff);

impl Rgb {
    fn hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }

    fn plotters(self) -> RGBColor {
        RGBColor(self.0, self.1, self.2)
    }
}

/// One element of the drawing, in the diagram's units (340 wide).
#[derive(Clone, Debug)]
enum Shape {
    /// A filled square of the board.
    Square { x: u32, y: u32, fill: Rgb },
    /// An outlined rectangle (a castling target, the legend's sample).
    Outline {
        class: &'static str,
        x: u32,
        y: u32,
        size: u32,
        colour: Rgb,
        width: u32,
    },
    /// An outlined circle (a weak pawn, the legend's sample).
    Ring {
        class: &'static str,
        cx: u32,
        cy: u32,
        r: u32,
        colour: Rgb,
        width: u32,
    },
    /// Text: a piece, a file or rank label, a legend line. `baseline` is
    /// where the SVG sets it, `middle` the height of its visual centre
    /// (where the PNG centres it).
    Text {
        class: Option<&'static str>,
        x: u32,
        baseline: u32,
        middle: u32,
        size: u32,
        centred: bool,
        fill: Option<Rgb>,
        text: String,
    },
    /// The legend's group begins (the SVG groups it; the PNG does not
    /// need to).
    Legend,
    /// The legend's group ends.
    LegendEnd,
}

/// The one drawing of a diagram, which both the SVG and the PNG render:
/// the squares with their marks and pieces, the file and rank labels, and
/// the legend of the marks shown.
fn drawing(position: StartPosition, marks: (Bitboard, Bitboard), lang: Lang) -> Vec<Shape> {
    let board = position.board();
    let mut shapes = Vec::new();
    for rank in Rank::ALL {
        for file in File::ALL {
            square_shapes(&mut shapes, &board, Square::from_coords(file, rank), marks);
        }
    }
    let label = |x: u32, baseline: u32, text: char| Shape::Text {
        class: None,
        x,
        baseline,
        middle: baseline - 4,
        size: 12,
        centred: true,
        fill: None,
        text: text.to_string(),
    };
    for (i, file) in (0u32..).zip(File::ALL) {
        shapes.push(label(40 + 40 * i, 354, file.char()));
    }
    for (i, rank) in (0u32..).zip(Rank::ALL) {
        shapes.push(label(8, 44 + 40 * (7 - i), rank.char()));
    }
    let (weak, targets) = marks;
    legend_shapes(&mut shapes, legend(weak, targets, lang));
    shapes
}

/// One square of the board: its colour, the castling target's outline,
/// the weak pawn's ring and the piece on it.
fn square_shapes(
    shapes: &mut Vec<Shape>,
    board: &Board,
    sq: Square,
    (weak, targets): (Bitboard, Bitboard),
) {
    let (file, rank) = (sq.file(), sq.rank());
    let x = 20 + 40 * u32::from(file);
    let y = 20 + 40 * (7 - u32::from(rank));
    let light = (u32::from(file) + u32::from(rank)) % 2 == 1;
    shapes.push(Shape::Square {
        x,
        y,
        fill: if light { LIGHT } else { DARK },
    });
    if targets.contains(sq) {
        shapes.push(Shape::Outline {
            class: "castle-target",
            x: x + 2,
            y: y + 2,
            size: 36,
            colour: GREEN,
            width: 3,
        });
    }
    let Some(p) = board.piece_at(sq) else {
        return;
    };
    if weak.contains(sq) {
        shapes.push(Shape::Ring {
            class: "weak",
            cx: x + 20,
            cy: y + 20,
            r: 17,
            colour: RED,
            width: 3,
        });
    }
    let piece = |class, fill, glyph: char| Shape::Text {
        class,
        x: x + 20,
        baseline: y + 31,
        middle: y + 21,
        size: 32,
        centred: true,
        fill,
        text: glyph.to_string(),
    };
    if p.color == Color::White {
        // The solid glyph in white under the hollow one fills the piece's
        // inside.
        shapes.push(piece(
            Some("fill"),
            Some(PAPER),
            glyph(Color::Black, p.role),
        ));
    }
    shapes.push(piece(None, None, glyph(p.color, p.role)));
}

/// The legend under the board: a sample of each mark and its meaning.
fn legend_shapes(shapes: &mut Vec<Shape>, legend: Vec<(Mark, Vec<String>)>) {
    if legend.is_empty() {
        return;
    }
    shapes.push(Shape::Legend);
    let mut y = BOARD_HEIGHT + 6;
    for (mark, lines) in legend {
        shapes.push(match mark {
            Mark::Ring => Shape::Ring {
                class: "legend-ring",
                cx: 27,
                cy: y + 6,
                r: 5,
                colour: RED,
                width: 2,
            },
            Mark::Square => Shape::Outline {
                class: "legend-square",
                x: 22,
                y: y + 1,
                size: 10,
                colour: GREEN,
                width: 2,
            },
        });
        for line in lines {
            shapes.push(Shape::Text {
                class: None,
                x: 40,
                baseline: y + 10,
                middle: y + 6,
                size: 10,
                centred: false,
                fill: None,
                text: line,
            });
            y += LEGEND_LINE;
        }
    }
    shapes.push(Shape::LegendEnd);
}

fn svg(
    position: StartPosition,
    marked: (Bitboard, Bitboard),
    width: Option<u32>,
    lang: Lang,
) -> String {
    let full = height(&legend(marked.0, marked.1, lang));
    let size = width.map_or_else(String::new, |w| {
        format!(" width=\"{w}\" height=\"{}\"", w * full / 340)
    });
    let mut svg = format!(
        "<svg class=\"board\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 340 {full}\"{size} role=\"img\" aria-label=\"SP {} {}\">",
        position.sp(),
        position.placement()
    );
    for shape in drawing(position, marked, lang) {
        let _ = match shape {
            Shape::Square { x, y, fill } => write!(
                svg,
                "<rect x=\"{x}\" y=\"{y}\" width=\"40\" height=\"40\" fill=\"{}\"/>",
                fill.hex()
            ),
            Shape::Outline {
                class,
                x,
                y,
                size,
                colour,
                width,
            } => write!(
                svg,
                "<rect class=\"{class}\" x=\"{x}\" y=\"{y}\" width=\"{size}\" height=\"{size}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{width}\"/>",
                colour.hex()
            ),
            Shape::Ring {
                class,
                cx,
                cy,
                r,
                colour,
                width,
            } => write!(
                svg,
                "<circle class=\"{class}\" cx=\"{cx}\" cy=\"{cy}\" r=\"{r}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{width}\"/>",
                colour.hex()
            ),
            Shape::Text {
                class,
                x,
                baseline,
                size,
                centred,
                fill,
                text,
                ..
            } => write!(
                svg,
                "<text{} x=\"{x}\" y=\"{baseline}\" font-size=\"{size}\"{}{}>{}</text>",
                class.map_or_else(String::new, |c| format!(" class=\"{c}\"")),
                if centred {
                    " text-anchor=\"middle\""
                } else {
                    ""
                },
                fill.map_or_else(String::new, |f| format!(" fill=\"{}\"", f.hex())),
                escape(&text)
            ),
            Shape::Legend => write!(svg, "<g class=\"legend\">"),
            Shape::LegendEnd => write!(svg, "</g>"),
        };
    }
    svg.push_str("</svg>");
    // One element a line: a page that holds the board keeps short lines.
    svg.replace("><", ">\n<")
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::Chart;
    use plotters::prelude::*;
    use png::Diagram;

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
