//! Self-play games as PGN that other tools read, through c960-core's one
//! PGN writer (`c960_core::pgn`): the seven-tag roster, `[Variant
//! "Chess960"]`, `[SetUp "1"]`, the start position's X-FEN, a standard
//! `[Termination]`, SAN with `O-O` / `O-O-O`, and the run's own tags.

use std::io;

use c960_core::{
    Setup, Variant,
    pgn::{self, PgnGame, UNKNOWN_DATE},
};

use crate::GameRecord;

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

/// Writes one game as PGN with the run's extras (see [`write_game`]), by
/// c960-core's one PGN writer.
pub fn write_game_with(
    out: &mut dyn io::Write,
    game: &GameRecord,
    extras: &PgnExtras,
) -> io::Result<()> {
    let position = Setup::new(extras.variant, game.sp)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))?;
    let mut before_termination = Vec::new();
    if let Some([white, black]) = &game.time_controls {
        if white == black {
            before_termination.push(("TimeControl", white.clone()));
        } else {
            before_termination.push(("WhiteTimeControl", white.clone()));
            before_termination.push(("BlackTimeControl", black.clone()));
        }
    }
    let mut own = vec![
        ("C960Termination", game.termination.name().to_owned()),
        ("C960Limit", game.limit.clone()),
        ("C960Seed", game.seed.to_string()),
    ];
    if extras.variant == Variant::Dfrc {
        own.push(("C960Setup", format!("DFRC {}", game.sp)));
    }
    if !extras.processes.is_empty() {
        own.push(("C960Processes", extras.processes.to_owned()));
    }
    if let Some(line) = game.opening {
        own.push((
            "C960Opening",
            format!("line {line}, {} book plies", game.book_plies),
        ));
    }
    if game.time_controls.is_some() {
        own.push(("C960Replay", "no: played on the clock".to_owned()));
    }
    // Each engine move carries its evaluation; book moves carry none.
    let comments = if extras.scores {
        (0..game.moves.len())
            .map(|ply| {
                let engine_ply = ply.checked_sub(game.book_plies as usize)?;
                game.scores
                    .as_ref()
                    .and_then(|s| s.get(engine_ply))
                    .map(|v| pawns(*v))
            })
            .collect()
    } else {
        Vec::new()
    };
    let pgn = PgnGame {
        event: "c960 self-play".to_owned(),
        site: "c960".to_owned(),
        date: UNKNOWN_DATE.to_owned(),
        round: format!("{}.{}", game.sp, game.game + 1),
        white: game.white.clone(),
        black: game.black.clone(),
        result: game.result.pgn().to_owned(),
        start: position,
        before_termination,
        termination: pgn::Termination::of(game.termination.name(), true),
        ply_count: Some(game.plies as usize),
        own,
        moves: &game.moves,
        comments,
    };
    let text = pgn.write().map_err(|e| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "game {}.{}: move {} is not legal",
                game.sp, game.game, e.uci
            ),
        )
    })?;
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
