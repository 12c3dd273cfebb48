//! Games as PGN, written one way for every game c960 writes (self-play's
//! `games.pgn` and the report's samples): the seven-tag roster in its
//! order, `[Variant "Chess960"]`, `[SetUp "1"]` and the start position's
//! X-FEN, a standard `[Termination]` value, then c960's own tags; moves in
//! SAN with check and mate marks (castling `O-O` / `O-O-O`), lines of at
//! most 79 characters (PGN standard, sections 8.1.1, 9.8.1 and 8.2.6).
//! Nothing in it depends on the clock, so the same games give the same
//! bytes.

use std::fmt::{self, Write as _};

use shakmaty::{Chess, san::SanPlus, uci::UciMove};

use crate::Setup;

/// A standard value of the `Termination` tag (PGN standard 9.8.1).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// Abandoned game.
    Abandoned,
    /// Result due to third-party adjudication (c960's adjudication rules
    /// and ply cap are that).
    Adjudication,
    /// Ended in a normal fashion: mate, stalemate, a draw by the rules or
    /// by agreement, a resignation by a player.
    Normal,
    /// Administrative forfeit due to losing player's failure to observe the
    /// Laws of Chess or the event regulations.
    RulesInfraction,
    /// Loss due to losing player's failure to meet time control
    /// requirements.
    TimeForfeit,
    /// Game not terminated.
    Unterminated,
}

impl Termination {
    /// The tag's value: `normal`, `adjudication`, `time forfeit`, ...
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Termination::Abandoned => "abandoned",
            Termination::Adjudication => "adjudication",
            Termination::Normal => "normal",
            Termination::RulesInfraction => "rules infraction",
            Termination::TimeForfeit => "time forfeit",
            Termination::Unterminated => "unterminated",
        }
    }

    /// The standard value for a c960 termination name (the game tables'
    /// `termination` column). A resignation is an adjudication where c960
    /// resigned for an engine (self-play), a player's act in human games.
    /// `None` for a name c960 does not write.
    #[must_use]
    pub fn of(name: &str, resignation_adjudicated: bool) -> Option<Termination> {
        Some(match name {
            "resignation" if resignation_adjudicated => Termination::Adjudication,
            "checkmate"
            | "stalemate"
            | "insufficient-material"
            | "threefold-repetition"
            | "fifty-moves"
            | "draw-agreed"
            | "resignation" => Termination::Normal,
            "draw-adjudication" | "ply-cap" => Termination::Adjudication,
            "time-forfeit" => Termination::TimeForfeit,
            "abandoned" => Termination::Abandoned,
            "rules-infraction" => Termination::RulesInfraction,
            "unterminated" => Termination::Unterminated,
            _ => return None,
        })
    }
}

/// The unknown date of the seven-tag roster.
pub const UNKNOWN_DATE: &str = "????.??.??";

/// `date` if it is a PGN date (`YYYY.MM.DD`, unknown parts as `?`), else
/// [`UNKNOWN_DATE`].
#[must_use]
pub fn pgn_date(date: Option<&str>) -> String {
    match date {
        Some(d)
            if d.len() == 10
                && d.bytes().enumerate().all(|(i, b)| {
                    if i == 4 || i == 7 {
                        b == b'.'
                    } else {
                        b.is_ascii_digit() || b == b'?'
                    }
                }) =>
        {
            d.to_owned()
        }
        _ => UNKNOWN_DATE.to_owned(),
    }
}

/// One game to write.
#[derive(Clone, Debug)]
pub struct PgnGame<'a> {
    /// `Event`.
    pub event: String,
    /// `Site`.
    pub site: String,
    /// `Date`, `YYYY.MM.DD` ([`UNKNOWN_DATE`] when not known).
    pub date: String,
    /// `Round`.
    pub round: String,
    /// `White`.
    pub white: String,
    /// `Black`.
    pub black: String,
    /// `Result`: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    /// The start position (its X-FEN is the `FEN` tag).
    pub start: Setup,
    /// Tags between the FEN and the termination, such as `TimeControl`.
    pub before_termination: Vec<(&'static str, String)>,
    /// `Termination`, when known.
    pub termination: Option<Termination>,
    /// `PlyCount`, when given.
    pub ply_count: Option<usize>,
    /// c960's own tags, last.
    pub own: Vec<(&'static str, String)>,
    /// The moves in UCI (Chess960 castling: king takes rook).
    pub moves: &'a [String],
    /// A comment after each ply's move (`None`, or a shorter list, for
    /// none).
    pub comments: Vec<Option<String>>,
}

/// A move that is not legal where the game has it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// The ply, from 1.
    pub ply: usize,
    /// The move as given.
    pub uci: String,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "move {} ({}) is not legal", self.ply, self.uci)
    }
}

impl std::error::Error for IllegalMove {}

/// A tag value with quotes and backslashes escaped (PGN standard 7).
fn escaped(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

impl PgnGame<'_> {
    /// The game as PGN, with a blank line after it; an illegal move is an
    /// error.
    pub fn write(&self) -> Result<String, IllegalMove> {
        self.render(false)
    }

    /// The game as PGN; at an illegal move (a damaged table) the movetext
    /// stops with a comment saying which move, and the result follows.
    #[must_use]
    pub fn write_lenient(&self) -> String {
        self.render(true).unwrap_or_default()
    }

    fn render(&self, lenient: bool) -> Result<String, IllegalMove> {
        let mut text = String::new();
        let mut tag = |name: &str, value: &str| {
            let _ = writeln!(text, "[{name} \"{}\"]", escaped(value));
        };
        tag("Event", &self.event);
        tag("Site", &self.site);
        tag("Date", &self.date);
        tag("Round", &self.round);
        tag("White", &self.white);
        tag("Black", &self.black);
        tag("Result", &self.result);
        tag("Variant", "Chess960");
        tag("SetUp", "1");
        tag("FEN", &self.start.to_xfen());
        for (name, value) in &self.before_termination {
            tag(name, value);
        }
        if let Some(termination) = self.termination {
            tag("Termination", termination.as_str());
        }
        if let Some(plies) = self.ply_count {
            tag("PlyCount", &plies.to_string());
        }
        for (name, value) in &self.own {
            tag(name, value);
        }
        text.push('\n');
        let mut board: Chess = self.start.to_position();
        let mut line = String::new();
        let mut push = |token: &str, text: &mut String| {
            if !line.is_empty() && line.len() + 1 + token.len() > 79 {
                text.push_str(&line);
                text.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(token);
        };
        for (ply, uci) in self.moves.iter().enumerate() {
            let Some(m) = uci
                .parse::<UciMove>()
                .ok()
                .and_then(|u| u.to_move(&board).ok())
            else {
                if !lenient {
                    return Err(IllegalMove {
                        ply: ply + 1,
                        uci: uci.clone(),
                    });
                }
                push(&format!("{{unreadable move {uci}}}"), &mut text);
                break;
            };
            if ply % 2 == 0 {
                push(&format!("{}.", ply / 2 + 1), &mut text);
            }
            let san = SanPlus::from_move_and_play_unchecked(&mut board, m).to_string();
            push(&san, &mut text);
            if let Some(Some(comment)) = self.comments.get(ply) {
                push(&format!("{{{comment}}}"), &mut text);
            }
        }
        push(&self.result, &mut text);
        text.push_str(&line);
        text.push_str("\n\n");
        Ok(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::StartPosition;

    fn game(moves: &[String]) -> PgnGame<'_> {
        PgnGame {
            event: "E \"x\"".to_owned(),
            site: "c960".to_owned(),
            date: pgn_date(None),
            round: "1".to_owned(),
            white: "A".to_owned(),
            black: "B".to_owned(),
            result: "1-0".to_owned(),
            start: StartPosition::new(518).unwrap().into(),
            before_termination: Vec::new(),
            termination: Termination::of("checkmate", true),
            ply_count: Some(moves.len()),
            own: vec![("C960Seed", "7".to_owned())],
            moves,
            comments: Vec::new(),
        }
    }

    #[test]
    fn the_roster_comes_first_and_checks_are_marked() {
        let moves: Vec<String> = ["f2f3", "e7e5", "g2g4", "d8h4"].map(str::to_owned).to_vec();
        let text = game(&moves).write().unwrap();
        let tags: Vec<&str> = text
            .lines()
            .take_while(|l| l.starts_with('['))
            .map(|l| l[1..].split(' ').next().unwrap())
            .collect();
        assert_eq!(
            tags,
            [
                "Event",
                "Site",
                "Date",
                "Round",
                "White",
                "Black",
                "Result",
                "Variant",
                "SetUp",
                "FEN",
                "Termination",
                "PlyCount",
                "C960Seed"
            ]
        );
        assert!(text.contains("[Event \"E \\\"x\\\"\"]"));
        assert!(text.contains("[Date \"????.??.??\"]"));
        assert!(text.contains("[Termination \"normal\"]"));
        assert!(text.contains("1. f3 e5 2. g4 Qh4# 1-0"), "{text}");
    }

    #[test]
    fn terminations_take_standard_values() {
        assert_eq!(
            Termination::of("resignation", true),
            Some(Termination::Adjudication)
        );
        assert_eq!(
            Termination::of("resignation", false),
            Some(Termination::Normal)
        );
        assert_eq!(
            Termination::of("time-forfeit", false).map(Termination::as_str),
            Some("time forfeit")
        );
        assert_eq!(
            Termination::of("rules-infraction", false).map(Termination::as_str),
            Some("rules infraction")
        );
        assert_eq!(
            Termination::of("ply-cap", true),
            Some(Termination::Adjudication)
        );
        assert_eq!(Termination::of("whatever", true), None);
    }

    #[test]
    fn an_illegal_move_is_an_error_or_a_comment() {
        let moves: Vec<String> = ["e2e4", "e2e4"].map(str::to_owned).to_vec();
        assert_eq!(
            game(&moves).write(),
            Err(IllegalMove {
                ply: 2,
                uci: "e2e4".to_owned()
            })
        );
        assert!(
            game(&moves)
                .write_lenient()
                .contains("1. e4 {unreadable move e2e4} 1-0")
        );
    }

    #[test]
    fn dates_are_pgn_dates_or_unknown() {
        assert_eq!(pgn_date(Some("2023.11.01")), "2023.11.01");
        assert_eq!(pgn_date(Some("2023.??.??")), "2023.??.??");
        assert_eq!(pgn_date(Some("2023-11-01")), UNKNOWN_DATE);
        assert_eq!(pgn_date(None), UNKNOWN_DATE);
    }
}
