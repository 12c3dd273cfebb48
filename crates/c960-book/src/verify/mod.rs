//! `c960 book --verify`: a book checked line by line, as an engine
//! tester's runner will read it.
//!
//! Each line must be a position (a six-field FEN, or a four-field EPD
//! with or without opcodes after it; castling as X-FEN/`KQkq` or
//! Shredder-FEN) that:
//! - parses and is legal in Chess960 castling mode (shakmaty's checks);
//! - has castling rights naming real rooks: each right a rook of its
//!   colour on its back rank, with the king on the back rank;
//! - means the same to fastchess and cutechess: `KQkq` whose
//!   nearest-rook reading (fastchess) and outermost-rook reading
//!   (cutechess, X-FEN) differ is ambiguous;
//! - is not game over (checkmate, stalemate, insufficient material);
//! - is not a duplicate of an earlier line: the same placement, side to
//!   move, castling rooks and legal en-passant square (the move counters
//!   are not compared). Positions are compared by their 128-bit Zobrist
//!   key with the castling rooks' squares beside it, so a 921,600-line
//!   book is checked in a few dozen megabytes.
//!
//! The report counts each kind of defect, names every bad line, and says
//! which castling notation the book uses.

mod castling;

use std::{
    collections::HashMap,
    io::{self, BufRead},
};

use serde::Serialize;
use shakmaty::{
    Bitboard, CastlingMode, Chess, EnPassantMode, FromSetup, Position, PositionErrorKinds,
    fen::Fen, zobrist::Zobrist128,
};

use castling::LineNotation;

/// A kind of defect.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum DefectKind {
    /// Not a FEN or EPD line (field count, syntax, encoding).
    Malformed,
    /// Castling rights that name no rook, or with the king off its back
    /// rank.
    WrongRights,
    /// Parses, but is not a legal Chess960 position.
    Illegal,
    /// `KQkq` that fastchess and cutechess read as different rooks.
    AmbiguousKqkq,
    /// Checkmate, stalemate or insufficient material.
    GameOver,
    /// The same position as an earlier line.
    Duplicate,
}

impl DefectKind {
    /// Every kind, in the order reports list them.
    pub const ALL: [DefectKind; 6] = [
        DefectKind::Malformed,
        DefectKind::WrongRights,
        DefectKind::Illegal,
        DefectKind::AmbiguousKqkq,
        DefectKind::GameOver,
        DefectKind::Duplicate,
    ];

    /// The kind in words, as reports name it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            DefectKind::Malformed => "malformed",
            DefectKind::WrongRights => "wrong castling rights",
            DefectKind::Illegal => "illegal",
            DefectKind::AmbiguousKqkq => "ambiguous KQkq",
            DefectKind::GameOver => "game over",
            DefectKind::Duplicate => "duplicate",
        }
    }
}

/// One defect of one line.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Defect {
    /// Which kind.
    pub kind: DefectKind,
    /// Why, in words.
    pub reason: String,
}

/// A line with one defect or more.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BadLine {
    /// The line number (1-based).
    pub line: u64,
    /// Its defects.
    pub defects: Vec<Defect>,
}

impl BadLine {
    /// The defects in words, `; `-separated.
    #[must_use]
    pub fn reasons(&self) -> String {
        self.defects
            .iter()
            .map(|d| d.reason.as_str())
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// How many lines write their castling rights which way.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Notations {
    /// Rook files (Shredder-FEN).
    pub shredder: u64,
    /// `KQkq`.
    pub kqkq: u64,
    /// Both in one line.
    pub mixed: u64,
    /// No castling rights (`-`).
    pub none: u64,
}

impl Notations {
    /// The book's notation in words: `Shredder-FEN`, `KQkq`, `mixed`
    /// (lines of both kinds, or lines mixing them) or `none`.
    #[must_use]
    pub fn describe(&self) -> &'static str {
        match (self.shredder > 0, self.kqkq > 0, self.mixed > 0) {
            (true, false, false) => "Shredder-FEN",
            (false, true, false) => "KQkq",
            (false, false, false) => "none (no castling rights)",
            _ => "mixed",
        }
    }
}

/// What checking a book found.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Report {
    /// Lines read.
    pub lines: u64,
    /// The bad lines, in file order.
    pub bad_lines: Vec<BadLine>,
    /// Defects by kind (a line may have more than one).
    pub counts: Vec<(DefectKind, u64)>,
    /// How the lines write castling rights.
    pub castling: Notations,
    /// Lines carrying a `;` (EPD opcodes, or a stray one).
    pub with_semicolon: u64,
    /// Lines ending in CR LF.
    pub crlf: u64,
}

impl Report {
    /// Defects of `kind`.
    #[must_use]
    pub fn count(&self, kind: DefectKind) -> u64 {
        self.counts
            .iter()
            .find(|(k, _)| *k == kind)
            .map_or(0, |(_, n)| *n)
    }
}

/// Checks a book line by line, remembering what duplicates need.
#[derive(Default)]
pub struct Checker {
    report: Report,
    seen: HashMap<(Zobrist128, Bitboard), u64>,
}

impl Checker {
    /// A checker that has seen no line.
    #[must_use]
    pub fn new() -> Checker {
        Checker::default()
    }

    /// Checks the next line (its bytes without the line feed).
    pub fn line(&mut self, bytes: &[u8]) {
        self.report.lines += 1;
        let number = self.report.lines;
        let bytes = match bytes.strip_suffix(b"\r") {
            Some(rest) => {
                self.report.crlf += 1;
                rest
            }
            None => bytes,
        };
        let defects = match std::str::from_utf8(bytes) {
            Ok(text) => self.check(number, text),
            Err(_) => vec![Defect {
                kind: DefectKind::Malformed,
                reason: "not UTF-8 text".to_owned(),
            }],
        };
        if !defects.is_empty() {
            self.report.bad_lines.push(BadLine {
                line: number,
                defects,
            });
        }
    }

    /// Counts the next line as malformed: `length` bytes, more than
    /// [`MAX_LINE`].
    pub fn overlong(&mut self, length: usize) {
        self.report.lines += 1;
        self.report.bad_lines.push(BadLine {
            line: self.report.lines,
            defects: vec![Defect {
                kind: DefectKind::Malformed,
                reason: format!("{length} bytes, longer than any book line ({MAX_LINE} at most)"),
            }],
        });
    }

    /// The report of every line checked.
    #[must_use]
    pub fn finish(mut self) -> Report {
        self.report.counts = DefectKind::ALL
            .into_iter()
            .map(|kind| {
                let n = self
                    .report
                    .bad_lines
                    .iter()
                    .flat_map(|b| &b.defects)
                    .filter(|d| d.kind == kind)
                    .count();
                (kind, n as u64)
            })
            .collect();
        self.report
    }

    fn check(&mut self, number: u64, text: &str) -> Vec<Defect> {
        let defect = |kind, reason: String| vec![Defect { kind, reason }];
        if text.contains(';') {
            self.report.with_semicolon += 1;
        }
        let fields = match split(text) {
            Ok(fields) => fields,
            Err(reason) => return defect(DefectKind::Malformed, reason),
        };
        let fen = format!(
            "{} {} - {} {} {}",
            fields.placement, fields.turn, fields.en_passant, fields.halfmoves, fields.fullmoves
        );
        let mut setup = match fen.parse::<Fen>() {
            Ok(fen) => fen.into_setup(),
            Err(e) => return defect(DefectKind::Malformed, format!("not a FEN: {e}")),
        };
        let rights = match castling::read(&setup.board, fields.castling) {
            Ok(rights) => rights,
            Err(reason) => return defect(DefectKind::WrongRights, reason),
        };
        let notation = &mut self.report.castling;
        *match rights.notation {
            LineNotation::None => &mut notation.none,
            LineNotation::Shredder => &mut notation.shredder,
            LineNotation::Kqkq => &mut notation.kqkq,
            LineNotation::Mixed => &mut notation.mixed,
        } += 1;
        setup.castling_rights = rights.outermost;
        let position = match Chess::from_setup(setup, CastlingMode::Chess960) {
            Ok(position) => position,
            Err(e) if e.kinds() == PositionErrorKinds::INVALID_CASTLING_RIGHTS => {
                return defect(
                    DefectKind::WrongRights,
                    format!(
                        "castling rights {} do not fit the position",
                        fields.castling
                    ),
                );
            }
            Err(e) => {
                let text = e.to_string();
                let why = text.strip_prefix("illegal position: ").unwrap_or(&text);
                return defect(DefectKind::Illegal, format!("illegal position: {why}"));
            }
        };
        let mut defects = Vec::new();
        if rights.outermost != rights.nearest {
            defects.push(Defect {
                kind: DefectKind::AmbiguousKqkq,
                reason: format!(
                    "castling {} is ambiguous: cutechess (outermost rook) reads {}, fastchess \
                     (rook nearest the king) reads {}",
                    fields.castling,
                    castling::letters(rights.outermost),
                    castling::letters(rights.nearest)
                ),
            });
        }
        if let Some(end) = game_over(&position) {
            defects.push(Defect {
                kind: DefectKind::GameOver,
                reason: format!("game over: {end}"),
            });
        }
        let key = (
            position.zobrist_hash::<Zobrist128>(EnPassantMode::Legal),
            position.castles().castling_rights(),
        );
        if let Some(first) = self.seen.get(&key) {
            defects.push(Defect {
                kind: DefectKind::Duplicate,
                reason: format!("duplicate of line {first}"),
            });
        } else {
            self.seen.insert(key, number);
        }
        defects
    }
}

/// The longest line a book may have, in bytes: a FEN is under 100, an
/// EPD line with opcodes a few hundred. A longer line is malformed, and
/// only its length is kept, so memory stays bounded on input without line
/// ends (`/dev/zero`).
pub const MAX_LINE: usize = 64 * 1024;

/// Checks every line of `reader`, each held up to [`MAX_LINE`] bytes.
///
/// # Errors
/// When reading fails.
pub fn check_book(mut reader: impl BufRead) -> io::Result<Report> {
    let mut checker = Checker::new();
    let mut line = Vec::new();
    loop {
        line.clear();
        let mut length = 0_usize;
        let mut read = false;
        loop {
            let buf = reader.fill_buf()?;
            if buf.is_empty() {
                break;
            }
            read = true;
            let end = buf.iter().position(|&b| b == b'\n');
            let take = end.unwrap_or(buf.len());
            length = length.saturating_add(take);
            if length <= MAX_LINE {
                line.extend_from_slice(&buf[..take]);
            } else {
                line.clear();
            }
            reader.consume(take + usize::from(end.is_some()));
            if end.is_some() {
                break;
            }
        }
        if !read {
            break;
        }
        if length > MAX_LINE {
            checker.overlong(length);
        } else {
            checker.line(&line);
        }
    }
    Ok(checker.finish())
}

/// The fields of a line.
struct Fields<'a> {
    placement: &'a str,
    turn: &'a str,
    castling: &'a str,
    en_passant: &'a str,
    halfmoves: u32,
    fullmoves: u32,
}

/// A line's fields: six (a FEN), four (an EPD), or four followed by EPD
/// opcodes (`hmvc`/`fmvn` give the counters; a FEN's counters followed by
/// a stray `;` are read as counters too).
fn split(text: &str) -> Result<Fields<'_>, String> {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    if tokens.is_empty() {
        return Err("empty line".to_owned());
    }
    if tokens.len() < 4 {
        return Err(format!(
            "{} field{}: a book line is a FEN (six fields) or an EPD (four, then opcodes)",
            tokens.len(),
            if tokens.len() == 1 { "" } else { "s" }
        ));
    }
    let mut fields = Fields {
        placement: tokens[0],
        turn: tokens[1],
        castling: tokens[2].trim_end_matches(';'),
        en_passant: tokens[3].trim_end_matches(';'),
        halfmoves: 0,
        fullmoves: 1,
    };
    let rest = &tokens[4..];
    let number = |token: &str| token.trim_end_matches(';').parse::<u32>().ok();
    if !text.contains(';') {
        match rest {
            [] => {}
            [half, full] => {
                let (Some(half), Some(full)) = (number(half), number(full)) else {
                    return Err(format!(
                        "move counters {half:?} {full:?} are not whole numbers"
                    ));
                };
                fields.halfmoves = half;
                fields.fullmoves = full;
            }
            _ => {
                return Err(format!(
                    "{} fields: a FEN has six, an EPD four (then opcodes, each ending in ;)",
                    tokens.len()
                ));
            }
        }
        return Ok(fields);
    }
    if let [half, full, ..] = rest
        && let (Some(half), Some(full)) = (number(half), number(full))
    {
        fields.halfmoves = half;
        fields.fullmoves = full;
        return Ok(fields);
    }
    for pair in rest.windows(2) {
        match (pair[0], number(pair[1])) {
            ("hmvc", Some(n)) => fields.halfmoves = n,
            ("fmvn", Some(n)) => fields.fullmoves = n,
            _ => {}
        }
    }
    Ok(fields)
}

/// How the game is over at `position`, if it is.
fn game_over(position: &Chess) -> Option<&'static str> {
    if position.legal_moves().is_empty() {
        Some(if position.is_check() {
            "checkmate"
        } else {
            "stalemate"
        })
    } else if position.is_insufficient_material() {
        Some("insufficient material")
    } else {
        None
    }
}

#[cfg(test)]
mod tests;
