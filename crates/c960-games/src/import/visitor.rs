//! The PGN visitor: reads one game's tags, admits it (a Chess960 game from
//! a known start position that passes the filters) or names why not,
//! replays its moves with shakmaty, and records its result, termination,
//! castling and moves in UCI with Chess960 castling.

use std::{collections::HashMap, ops::ControlFlow};

use c960_core::{
    StartPosition,
    shakmaty::{
        CastlingSide, Chess, Color, KnownOutcome, Move, Outcome, Position, Square, fen::Fen,
    },
};
use pgn_reader::{RawTag, SanPlus, Visitor};

use super::{Filters, ImportedGame, SkipReason};

/// The tags of a game that decide whether it is kept, and what of them
/// the game table keeps.
#[derive(Default)]
pub(super) struct Tags {
    variant: Option<Vec<u8>>,
    fen: Option<String>,
    white: String,
    black: String,
    white_elo: Option<u32>,
    black_elo: Option<u32>,
    time_control: Option<String>,
    date: Option<String>,
    termination: Option<String>,
}

/// A game being replayed: the game so far, its position, and its result.
pub(super) struct Movetext {
    game: ImportedGame,
    position: Chess,
    outcome: Option<Outcome>,
    termination_tag: Option<String>,
}

/// A game read: kept, or skipped for a reason.
pub(super) enum Read1 {
    /// Kept.
    Kept(Box<ImportedGame>),
    /// Skipped, and why.
    Skipped(SkipReason),
}

/// The pgn-reader visitor: reads one game at a time and keeps it or says
/// why not.
pub(super) struct Importer<'a> {
    filters: &'a Filters,
    /// FENs seen before (a dump has at most a few thousand distinct ones).
    fens: HashMap<String, Result<StartPosition, SkipReason>>,
}

impl<'a> Importer<'a> {
    /// A visitor keeping the games that pass `filters`.
    pub(super) fn new(filters: &'a Filters) -> Self {
        Importer {
            filters,
            fens: HashMap::new(),
        }
    }
}

fn text(value: &RawTag<'_>) -> String {
    value.decode_utf8_lossy().into_owned()
}

/// Classifies the FEN of a Chess960 game.
fn start_position(fen: &str) -> Result<StartPosition, SkipReason> {
    let fen = fen.trim();
    if fen == "?" || fen.is_empty() {
        return Err(SkipReason::UnknownFen);
    }
    if let Ok(position) = StartPosition::from_fen(fen) {
        return Ok(position);
    }
    // Tell a bad castling field on a good start board from the rest.
    let board = fen.split_whitespace().next().unwrap_or_default();
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let Ok(parsed_board) = c960_core::shakmaty::Board::from_ascii_board_fen(board.as_bytes())
    else {
        return Err(SkipReason::MalformedFen);
    };
    let start = StartPosition::all().find(|p| p.board() == parsed_board);
    match start {
        Some(position) if fields.len() >= 3 => {
            let mut repaired = fields.clone();
            repaired[2] = "KQkq";
            let rest_ok = fields.len() == 6
                && StartPosition::from_fen(&repaired.join(" ")).ok() == Some(position);
            if rest_ok {
                Err(SkipReason::BadCastlingField)
            } else if Fen::from_ascii(fen.as_bytes()).is_err() {
                Err(SkipReason::MalformedFen)
            } else {
                Err(SkipReason::NotAStartPosition)
            }
        }
        Some(_) => Err(SkipReason::MalformedFen),
        None if Fen::from_ascii(fen.as_bytes()).is_err() => Err(SkipReason::MalformedFen),
        None => Err(SkipReason::NotAStartPosition),
    }
}

impl Importer<'_> {
    fn admit(&mut self, tags: &Tags) -> Result<StartPosition, SkipReason> {
        let chess960 = tags.variant.as_deref().is_some_and(|v| {
            v.eq_ignore_ascii_case(b"chess960")
                || v.eq_ignore_ascii_case(b"fischerandom")
                || v.eq_ignore_ascii_case(b"chess 960")
        });
        if !chess960 {
            return Err(SkipReason::NotChess960);
        }
        // Without a FEN tag a PGN game starts from the standard position.
        let position = match tags.fen.as_deref() {
            Some(fen) => {
                if let Some(known) = self.fens.get(fen) {
                    (*known)?
                } else {
                    let found = start_position(fen);
                    if self.fens.len() < 100_000 {
                        self.fens.insert(fen.to_owned(), found);
                    }
                    found?
                }
            }
            None => StartPosition::new(518).map_err(|_| SkipReason::NotAStartPosition)?,
        };
        let f = self.filters;
        if f.min_rating.is_some() || f.max_rating.is_some() {
            let (Some(w), Some(b)) = (tags.white_elo, tags.black_elo) else {
                return Err(SkipReason::Rating);
            };
            if f.min_rating.is_some_and(|m| w.min(b) < m)
                || f.max_rating.is_some_and(|m| w.max(b) > m)
            {
                return Err(SkipReason::Rating);
            }
        }
        if !f.time_controls.is_empty()
            && !tags
                .time_control
                .as_ref()
                .is_some_and(|t| f.time_controls.iter().any(|k| k == t))
        {
            return Err(SkipReason::TimeControl);
        }
        if f.since.is_some() || f.until.is_some() {
            let Some(date) = tags.date.as_deref() else {
                return Err(SkipReason::Date);
            };
            if f.since.as_deref().is_some_and(|s| date < s)
                || f.until.as_deref().is_some_and(|u| date > u)
            {
                return Err(SkipReason::Date);
            }
        }
        Ok(position)
    }
}

impl Visitor for Importer<'_> {
    type Tags = Tags;
    type Movetext = Movetext;
    type Output = Read1;

    fn begin_tags(&mut self) -> ControlFlow<Read1, Tags> {
        ControlFlow::Continue(Tags::default())
    }

    fn tag(&mut self, tags: &mut Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<Read1> {
        match name {
            b"Variant" => tags.variant = Some(value.decode().into_owned()),
            b"FEN" => tags.fen = Some(text(&value)),
            b"White" => tags.white = text(&value),
            b"Black" => tags.black = text(&value),
            b"WhiteElo" => tags.white_elo = text(&value).trim().parse().ok(),
            b"BlackElo" => tags.black_elo = text(&value).trim().parse().ok(),
            b"TimeControl" => tags.time_control = Some(text(&value)),
            b"UTCDate" => tags.date = Some(text(&value)),
            b"Date" if tags.date.is_none() => tags.date = Some(text(&value)),
            b"Termination" => tags.termination = Some(text(&value)),
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Tags) -> ControlFlow<Read1, Movetext> {
        let position = match self.admit(&tags) {
            Ok(position) => position,
            Err(reason) => return ControlFlow::Break(Read1::Skipped(reason)),
        };
        ControlFlow::Continue(Movetext {
            game: ImportedGame {
                sp: position.sp(),
                white: tags.white,
                black: tags.black,
                white_elo: tags.white_elo,
                black_elo: tags.black_elo,
                time_control: tags.time_control,
                date: tags.date,
                moves: String::with_capacity(512),
                ..ImportedGame::default()
            },
            position: position.to_position(),
            outcome: None,
            termination_tag: tags.termination,
        })
    }

    fn san(&mut self, movetext: &mut Movetext, san_plus: SanPlus) -> ControlFlow<Read1> {
        let Ok(mv) = san_plus.san.to_move(&movetext.position) else {
            return ControlFlow::Break(Read1::Skipped(SkipReason::IllegalMove));
        };
        let game = &mut movetext.game;
        game.plies += 1;
        if mv.is_castle() {
            let side = match mv.castling_side() {
                Some(CastlingSide::QueenSide) => 'a',
                _ => 'h',
            };
            let slot = match movetext.position.turn() {
                Color::White => &mut game.white_castling,
                Color::Black => &mut game.black_castling,
            };
            slot.get_or_insert((side, game.plies));
        }
        if !game.moves.is_empty() {
            game.moves.push(' ');
        }
        push_uci(&mut game.moves, mv);
        movetext.position.play_unchecked(mv);
        ControlFlow::Continue(())
    }

    fn outcome(&mut self, movetext: &mut Movetext, outcome: Outcome) -> ControlFlow<Read1> {
        movetext.outcome = Some(outcome);
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, movetext: Movetext) -> Read1 {
        let Some(Outcome::Known(outcome)) = movetext.outcome else {
            return Read1::Skipped(SkipReason::NoResult);
        };
        let mut game = movetext.game;
        (game.result, game.white_score) = match outcome {
            KnownOutcome::Decisive {
                winner: Color::White,
            } => ("1-0", 1.0),
            KnownOutcome::Decisive {
                winner: Color::Black,
            } => ("0-1", 0.0),
            KnownOutcome::Draw => ("1/2-1/2", 0.5),
        };
        let position = &movetext.position;
        let tag = movetext
            .termination_tag
            .as_deref()
            .unwrap_or("")
            .to_ascii_lowercase();
        game.termination = if position.is_checkmate() {
            "checkmate"
        } else if position.is_stalemate() {
            "stalemate"
        } else if position.is_insufficient_material() {
            "insufficient-material"
        } else if tag.contains("time") {
            "time-forfeit"
        } else if tag.contains("abandon") {
            "abandoned"
        } else if tag.contains("infraction") {
            "rules-infraction"
        } else if matches!(outcome, KnownOutcome::Draw) {
            "draw-agreed"
        } else {
            "resignation"
        };
        Read1::Kept(Box::new(game))
    }
}

/// Appends `mv` in UCI with Chess960 castling (king takes rook): the same
/// text as `mv.to_uci(CastlingMode::Chess960)`, without formatting
/// machinery (this runs for every move imported).
fn push_uci(out: &mut String, mv: Move) {
    let square = |out: &mut String, sq: Square| {
        out.push(sq.file().char());
        out.push(sq.rank().char());
    };
    match mv {
        Move::Castle { king, rook } => {
            square(out, king);
            square(out, rook);
        }
        Move::Normal {
            from,
            to,
            promotion,
            ..
        } => {
            square(out, from);
            square(out, to);
            if let Some(role) = promotion {
                out.push(role.char());
            }
        }
        Move::EnPassant { from, to } => {
            square(out, from);
            square(out, to);
        }
        Move::Put { role, to } => {
            out.push(role.upper_char());
            out.push('@');
            square(out, to);
        }
    }
}

#[cfg(test)]
mod tests {
    use c960_core::shakmaty::{CastlingMode, Position};

    use super::*;

    #[test]
    fn push_uci_writes_what_shakmaty_writes() {
        // Every legal move of every start position and of positions a few
        // plies in, castling and promotions included.
        let mut positions: Vec<Chess> = StartPosition::all()
            .map(StartPosition::to_position)
            .collect();
        let promotion: Chess = "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1"
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Chess960)
            .unwrap();
        positions.push(promotion);
        let mut checked = 0;
        for position in positions {
            for mv in position.legal_moves() {
                let mut text = String::new();
                push_uci(&mut text, mv);
                assert_eq!(text, mv.to_uci(CastlingMode::Chess960).to_string());
                checked += 1;
            }
        }
        assert!(checked > 960 * 18);
    }
}
