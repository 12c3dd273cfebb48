//! Games as PGN that other tools read: `[Variant "Chess960"]`,
//! `[SetUp "1"]`, the start position's X-FEN, SAN with `O-O` / `O-O-O`.
//! Nothing in it depends on the clock, so the same games give the same
//! bytes.

use std::{fmt::Write as _, io};

use c960_core::{
    Setup, Variant,
    shakmaty::{Chess, san::SanPlus, uci::UciMove},
};

use crate::{GameRecord, Termination};

/// Writes one game as PGN (with a blank line after it). With `scores`,
/// each move carries the engine's evaluation as a comment, in pawns from
/// White's view.
pub fn write_game(out: &mut dyn io::Write, game: &GameRecord, scores: bool) -> io::Result<()> {
    write_game_with(
        out,
        game,
        &PgnExtras {
            scores,
            ..PgnExtras::default()
        },
    )
}

/// What a run adds to each game's PGN beyond the game itself.
#[derive(Clone, Debug, Default)]
pub struct PgnExtras {
    /// Each move's evaluation as a comment, in pawns from White's view.
    pub scores: bool,
    /// The engine processes (`C960Processes` tag), if given.
    pub processes: &'static str,
    /// The variant of the games' setups (their `sp` is a DFRC index for
    /// DFRC; the PGN says `Chess960` either way, as readers know it).
    pub variant: Variant,
}

/// Writes one game as PGN with the run's extras (see [`write_game`]).
pub fn write_game_with(
    out: &mut dyn io::Write,
    game: &GameRecord,
    extras: &PgnExtras,
) -> io::Result<()> {
    let scores = extras.scores;
    let position = Setup::new(extras.variant, game.sp)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))?;
    let standard_termination = match game.termination {
        Termination::Resignation | Termination::DrawAdjudication | Termination::PlyCap => {
            "adjudication"
        }
        Termination::TimeForfeit => "time forfeit",
        _ => "normal",
    };
    let mut text = String::new();
    let mut tag = |name: &str, value: &str| {
        let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
        let _ = writeln!(text, "[{name} \"{escaped}\"]");
    };
    tag("Event", "c960 self-play");
    tag("Site", "c960");
    tag("Date", "????.??.??");
    tag("Round", &format!("{}.{}", game.sp, game.game + 1));
    tag("White", &game.white);
    tag("Black", &game.black);
    tag("Result", game.result.pgn());
    tag("Variant", "Chess960");
    tag("SetUp", "1");
    tag("FEN", &position.to_xfen());
    if let Some([white, black]) = &game.time_controls {
        if white == black {
            tag("TimeControl", white);
        } else {
            tag("WhiteTimeControl", white);
            tag("BlackTimeControl", black);
        }
    }
    tag("Termination", standard_termination);
    tag("PlyCount", &game.plies.to_string());
    tag("C960Termination", game.termination.name());
    tag("C960Limit", &game.limit);
    tag("C960Seed", &game.seed.to_string());
    if extras.variant == Variant::Dfrc {
        tag("C960Setup", &format!("DFRC {}", game.sp));
    }
    if !extras.processes.is_empty() {
        tag("C960Processes", extras.processes);
    }
    if let Some(line) = game.opening {
        tag(
            "C960Opening",
            &format!("line {line}, {} book plies", game.book_plies),
        );
    }
    if game.time_controls.is_some() {
        tag("C960Replay", "no: played on the clock");
    }
    text.push('\n');

    let mut board: Chess = position.to_position();
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
    for (ply, uci) in game.moves.iter().enumerate() {
        let m = uci
            .parse::<UciMove>()
            .ok()
            .and_then(|u| u.to_move(&board).ok())
            .ok_or_else(|| {
                io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("game {}.{}: move {uci} is not legal", game.sp, game.game),
                )
            })?;
        if ply % 2 == 0 {
            push(&format!("{}.", ply / 2 + 1), &mut text);
        }
        let san = SanPlus::from_move_and_play_unchecked(&mut board, m).to_string();
        push(&san, &mut text);
        let engine_ply = ply.checked_sub(game.book_plies as usize);
        if scores
            && let Some(value) =
                engine_ply.and_then(|p| game.scores.as_ref().and_then(|s| s.get(p)))
        {
            push(&format!("{{{}}}", pawns(*value)), &mut text);
        }
    }
    push(game.result.pgn(), &mut text);
    text.push_str(&line);
    text.push_str("\n\n");
    out.write_all(text.as_bytes())
}

/// `+0.25`, or `#3` / `#-3` for mate scores of the curve.
fn pawns(value: i32) -> String {
    if value >= 90_000 {
        format!("#{}", 100_000 - value)
    } else if value <= -90_000 {
        format!("#-{}", value + 100_000)
    } else {
        format!("{:+.2}", f64::from(value) / 100.0)
    }
}

#[cfg(test)]
mod tests {
    use super::pawns;

    #[test]
    fn evaluation_comments() {
        assert_eq!(pawns(25), "+0.25");
        assert_eq!(pawns(-130), "-1.30");
        assert_eq!(pawns(99_997), "#3");
        assert_eq!(pawns(-99_998), "#-2");
    }
}
