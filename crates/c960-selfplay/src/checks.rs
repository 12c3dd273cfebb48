//! What a trustworthy game record looks like, checked when a self-play
//! journal is read back: a real start position, legal moves, a ply count
//! and an ending that agree with the moves, this run's limit, and one
//! content per game.

use c960_core::{
    Setup, Variant,
    shakmaty::{CastlingMode, Chess, Position, uci::UciMove},
};
use c960_store::{DroppedLine, Journal, Validation};

use crate::{
    Control, GameRecord, JOURNAL_FILE, Outcome, SelfplayConfig, SelfplayError, Termination,
};

/// Checks one game of a run whose games are labelled with one of
/// `limits` (one label, or White's and Black's controls either way round
/// when two engines play with different ones), over setups of `variant`.
pub fn check_game(game: &GameRecord, limits: &[String], variant: Variant) -> Result<(), String> {
    let at = format!("{} game {}", variant.label(game.sp), game.game);
    let start = Setup::new(variant, game.sp).map_err(|e| format!("{at}: {e}"))?;
    if !limits.contains(&game.limit) {
        return Err(format!(
            "{at}: limit {:?}, but this run's is {:?}",
            game.limit,
            limits.join(" or ")
        ));
    }
    if game.plies as usize != game.moves.len() {
        return Err(format!(
            "{at}: {} plies recorded for {} moves",
            game.plies,
            game.moves.len()
        ));
    }
    if let Some(scores) = &game.scores
        && scores.len() != game.moves.len()
    {
        return Err(format!(
            "{at}: {} scores for {} moves",
            scores.len(),
            game.moves.len()
        ));
    }
    let mut position: Chess = start.to_position();
    for (ply, text) in game.moves.iter().enumerate() {
        let legal = text
            .parse::<UciMove>()
            .ok()
            .and_then(|m| m.to_move(&position).ok())
            .filter(|m| UciMove::from_move(*m, CastlingMode::Chess960).to_string() == *text);
        let Some(m) = legal else {
            return Err(format!("{at}: move {} ({text:?}) is not legal", ply + 1));
        };
        position.play_unchecked(m);
    }
    let mated = position.is_checkmate();
    let consistent = match game.termination {
        Termination::Checkmate => {
            mated
                && game.result
                    == if position.turn().is_white() {
                        Outcome::BlackWins
                    } else {
                        Outcome::WhiteWins
                    }
        }
        Termination::Stalemate => position.is_stalemate() && game.result == Outcome::Draw,
        Termination::InsufficientMaterial
        | Termination::ThreefoldRepetition
        | Termination::FiftyMoves
        | Termination::PlyCap
        | Termination::DrawAdjudication => !mated && game.result == Outcome::Draw,
        Termination::Resignation => !mated && game.result != Outcome::Draw,
        // A loss on time, or a draw when the other side cannot mate.
        Termination::TimeForfeit => !mated,
    };
    if !consistent {
        return Err(format!(
            "{at}: result {} by {:?} does not follow from the moves",
            game.result.pgn(),
            game.termination
        ));
    }
    Ok(())
}

/// The limit labels a game of a run carries: engine A's `limit`, or, when
/// engine B has its own `limit_b`, White's and Black's either way round.
pub(crate) fn game_limits(limit: Control, limit_b: Option<Control>) -> Vec<String> {
    match limit_b {
        None => vec![limit.to_string()],
        Some(b) => vec![
            format!("white: {limit}; black: {b}"),
            format!("white: {b}; black: {limit}"),
        ],
    }
}

/// The checks of a run's journal.
pub fn validation(config: &SelfplayConfig) -> Validation<'static, GameRecord> {
    let variant = config.variant();
    let (a, b) = (config.control_a(), config.control_b());
    let limits = game_limits(a, (a != b).then_some(b));
    Validation {
        check: Box::new(move |game| check_game(game, &limits, variant)),
        key: Box::new(|game| Some(format!("SP {} game {}", game.sp, game.game))),
    }
}

/// Drops the journal lines of the run in `config.out` that cannot be
/// trusted (`--repair`) and returns them; the next run replays those games.
pub fn repair(config: &SelfplayConfig) -> Result<Vec<DroppedLine>, SelfplayError> {
    Ok(Journal::repair(
        &config.out.join(JOURNAL_FILE),
        &validation(config),
    )?)
}
