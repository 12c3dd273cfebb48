//! Castling rules for one start position, as data and in plain words.
//!
//! [`CastlingRule`] says, for one colour and one side, where king and rook
//! start and land, which squares must be empty, which squares the king
//! crosses (none of them may be attacked) and whether castling is possible
//! on the first move; everything is read off shakmaty's board and castling
//! rights in Chess960 mode. [`CastlingText`] turns a rule into sentences in
//! one of the languages of `lang/castling.toml` (English, German, Dutch,
//! Turkish), so the same words appear on `c960 show`, position pages and
//! tournament round sheets.

use std::sync::OnceLock;

use shakmaty::{
    Bitboard, ByCastlingSide, ByColor, CastlingSide, Color, Move, Position, Role, Square,
};

use crate::{CastlingKind, Lang, StartPosition, TextTable};

/// One colour's castling on one side of one start position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CastlingRule {
    /// Whose castling.
    pub color: Color,
    /// Which side: `QueenSide` is the a-side (king to the c-file),
    /// `KingSide` the h-side (king to the g-file).
    pub side: CastlingSide,
    /// The king's start square.
    pub king_from: Square,
    /// The king's square after castling (c or g file).
    pub king_to: Square,
    /// The rook's start square.
    pub rook_from: Square,
    /// The rook's square after castling (d or f file).
    pub rook_to: Square,
    /// How king and rook move.
    pub kind: CastlingKind,
    /// Squares that must be empty, apart from this king and rook.
    pub must_be_empty: Bitboard,
    /// The squares the king stands on, crosses and lands on, in order; none
    /// may be attacked.
    pub king_path: Vec<Square>,
    /// Pieces of the start position standing on squares that must be empty.
    pub in_the_way: Vec<(Square, Role)>,
    /// Whether castling is possible on this colour's first move (for Black:
    /// after any first move of White, which can neither block nor attack
    /// the back rank).
    pub first_move: bool,
}

impl CastlingRule {
    /// The standard notation: `O-O-O` for the a-side, `O-O` for the h-side.
    #[must_use]
    pub const fn notation(&self) -> &'static str {
        match self.side {
            CastlingSide::QueenSide => "O-O-O",
            CastlingSide::KingSide => "O-O",
        }
    }
}

/// All four castling rules of `position`.
///
/// # Examples
///
/// ```
/// use c960_core::{CastlingKind, StartPosition, castling_rules};
/// use c960_core::shakmaty::{Color, Square};
///
/// // BBQNNRKR: the king already stands on g1, so h-side castling moves only the rook.
/// let rules = castling_rules(StartPosition::new(0)?);
/// let h = &rules.get(Color::White).king_side;
/// assert_eq!(h.kind, CastlingKind::RookOnly);
/// assert_eq!((h.rook_from, h.rook_to), (Square::H1, Square::F1));
/// // f1, where the rook must land, holds White's other rook.
/// assert_eq!(h.in_the_way, vec![(Square::F1, c960_core::shakmaty::Role::Rook)]);
/// assert!(!h.first_move);
/// # Ok::<(), c960_core::StartPositionError>(())
/// ```
#[must_use]
pub fn castling_rules(position: StartPosition) -> ByColor<ByCastlingSide<CastlingRule>> {
    let start = position.to_position();
    let board = start.board().clone();
    let castles = start.castles().clone();
    let white_moves = start.legal_moves();
    // Black's first move, after a White first move (any: none reaches or
    // attacks the back rank, which the tests check for every one of them).
    let after = {
        let mut p = start.clone();
        p.play_unchecked(white_moves[0]);
        p
    };
    let black_moves = after.legal_moves();
    ByColor::new_with(|color| {
        let king_from = board.king_of(color).expect("each side has a king");
        let moves = match color {
            Color::White => &white_moves,
            Color::Black => &black_moves,
        };
        ByCastlingSide::new_with(|side| {
            let rook_from = castles
                .rook(color, side)
                .expect("a start position has every castling right");
            let king_to = side.king_to(color);
            let rook_to = side.rook_to(color);
            let kind = if king_from == king_to {
                CastlingKind::RookOnly
            } else if rook_from == rook_to {
                CastlingKind::KingOnly
            } else if king_from == rook_to && rook_from == king_to {
                CastlingKind::Swap
            } else {
                CastlingKind::Normal
            };
            let must_be_empty = castles.path(color, side);
            let in_the_way = (must_be_empty & board.occupied())
                .into_iter()
                .map(|sq| (sq, board.role_at(sq).expect("occupied")))
                .collect();
            let mut king_path: Vec<Square> = (shakmaty::attacks::between(king_from, king_to)
                | Bitboard::from(king_from)
                | Bitboard::from(king_to))
            .into_iter()
            .collect();
            if king_to < king_from {
                king_path.reverse();
            }
            CastlingRule {
                color,
                side,
                king_from,
                king_to,
                rook_from,
                rook_to,
                kind,
                must_be_empty,
                king_path,
                in_the_way,
                first_move: moves
                    .iter()
                    .any(|m| matches!(m, Move::Castle { rook, .. } if *rook == rook_from)),
            }
        })
    })
}

/// The words of `lang/castling.toml`.
impl Lang {
    /// The fixed text `key` of `lang/castling.toml`.
    ///
    /// # Panics
    /// Panics if the table lacks the key (a test checks every key in
    /// every language).
    #[must_use]
    pub fn text(self, key: &str) -> &'static str {
        table().get(self, key)
    }

    /// The name of a piece.
    #[must_use]
    pub fn piece(self, role: Role) -> &'static str {
        self.text(match role {
            Role::King => "king",
            Role::Queen => "queen",
            Role::Rook => "rook",
            Role::Bishop => "bishop",
            Role::Knight => "knight",
            Role::Pawn => "pawn",
        })
    }

    /// The name of a colour.
    #[must_use]
    pub fn color(self, color: Color) -> &'static str {
        self.text(match color {
            Color::White => "white",
            Color::Black => "black",
        })
    }

    /// `a, b and c` in this language.
    #[must_use]
    pub fn list(self, items: &[String]) -> String {
        match items {
            [] => String::new(),
            [one] => one.clone(),
            [rest @ .., last] => format!("{} {} {last}", rest.join(", "), self.text("and")),
        }
    }
}

/// The parsed language table.
fn table() -> &'static TextTable {
    static TABLE: OnceLock<TextTable> = OnceLock::new();
    TABLE.get_or_init(|| {
        TextTable::parse("lang/castling.toml", include_str!("../lang/castling.toml"))
    })
}

/// Fills `{name}` placeholders.
fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = template.to_owned();
    for (name, value) in values {
        out = out.replace(&format!("{{{name}}}"), value);
    }
    out
}

/// One castling rule in words: a title and four sentences.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CastlingText {
    /// E.g. `White: a-side castling (king to the c-file), O-O-O`.
    pub title: String,
    /// Where king and rook go (normal, king-only, rook-only or swap).
    pub movement: String,
    /// Which squares must be empty.
    pub empty: String,
    /// Check and attacked squares.
    pub safety: String,
    /// Whether it is possible on the first move, and what is in the way.
    pub first_move: String,
}

impl CastlingText {
    /// The rule in `lang`.
    #[must_use]
    pub fn new(rule: &CastlingRule, lang: Lang) -> CastlingText {
        let (kf, kt, rf, rt) = (
            rule.king_from.to_string(),
            rule.king_to.to_string(),
            rule.rook_from.to_string(),
            rule.rook_to.to_string(),
        );
        let squares = [
            ("kf", kf.as_str()),
            ("kt", kt.as_str()),
            ("rf", rf.as_str()),
            ("rt", rt.as_str()),
        ];
        let side = lang.text(match rule.side {
            CastlingSide::QueenSide => "side_a",
            CastlingSide::KingSide => "side_h",
        });
        let title = fill(
            lang.text("title"),
            &[
                ("color", lang.color(rule.color)),
                ("side", side),
                ("notation", rule.notation()),
            ],
        );
        let movement = fill(
            lang.text(match rule.kind {
                CastlingKind::Normal => "normal",
                CastlingKind::KingOnly => "king_only",
                CastlingKind::RookOnly => "rook_only",
                CastlingKind::Swap => "swap",
            }),
            &squares,
        );
        let empty = empty_text(rule, lang);
        let path: Vec<String> = rule.king_path.iter().map(ToString::to_string).collect();
        let safety = if path.len() == 1 {
            fill(lang.text("safe_one"), &squares)
        } else {
            fill(lang.text("safe_many"), &[("squares", &lang.list(&path))])
        };
        let first_move = first_move_text(rule, lang);
        CastlingText {
            title,
            movement,
            empty,
            safety,
            first_move,
        }
    }

    /// The four sentences as one paragraph.
    #[must_use]
    pub fn sentences(&self) -> String {
        format!(
            "{} {} {} {}",
            self.movement, self.empty, self.safety, self.first_move
        )
    }
}

/// Every castling rule of `position` in `lang`, White first, a-side first.
#[must_use]
pub fn castling_texts(position: StartPosition, lang: Lang) -> Vec<CastlingText> {
    let rules = castling_rules(position);
    [Color::White, Color::Black]
        .into_iter()
        .flat_map(|color| {
            let sides = rules.get(color);
            [&sides.queen_side, &sides.king_side]
                .into_iter()
                .map(|rule| CastlingText::new(rule, lang))
                .collect::<Vec<_>>()
        })
        .collect()
}
/// The sentence on whether castling is possible on the first move, and
/// what is in the way.
fn first_move_text(rule: &CastlingRule, lang: Lang) -> String {
    if rule.first_move {
        lang.text("first_yes").to_owned()
    } else {
        let blockers: Vec<String> = rule
            .in_the_way
            .iter()
            .map(|(sq, role)| {
                fill(
                    lang.text("piece_on"),
                    &[("piece", lang.piece(*role)), ("square", &sq.to_string())],
                )
            })
            .collect();
        fill(
            lang.text(if blockers.len() == 1 {
                "first_no_one"
            } else {
                "first_no_many"
            }),
            &[("blockers", &lang.list(&blockers))],
        )
    }
}

/// The sentence on the squares that must be empty.
fn empty_text(rule: &CastlingRule, lang: Lang) -> String {
    let empty_squares: Vec<String> = rule
        .must_be_empty
        .into_iter()
        .map(|s| s.to_string())
        .collect();
    match empty_squares.len() {
        0 => lang.text("empty_none").to_owned(),
        n => fill(
            lang.text(if n == 1 { "empty_one" } else { "empty_many" }),
            &[("squares", &lang.list(&empty_squares))],
        ),
    }
}
