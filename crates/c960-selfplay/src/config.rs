//! What a self-play run plays and how: the configuration, its checks
//! before any engine starts, each game's seed, and how the engine
//! processes are described.

use std::{num::NonZeroU32, path::PathBuf};

use c960_core::{Setup, Shard, Variant, splitmix64};
use c960_engine::{Control, EngineSpec, Limit, Rules};
use c960_store::manifest::{Adaptive, PROCESS_PER_SIDE, SHARED_PROCESS};

use crate::{Book, SelfplayError, Sprt};

/// What to play and how.
#[derive(Clone, Debug)]
pub struct SelfplayConfig {
    /// The engine (both sides, or White in even games against `engine_b`).
    pub engine: EngineSpec,
    /// A second engine: each position is then played in colour-reversed
    /// pairs, A as White in even games and B in odd ones.
    pub engine_b: Option<EngineSpec>,
    /// Limit per move, before jitter.
    pub limit: Limit,
    /// Relative node jitter per move.
    pub jitter: f64,
    /// Game end rules.
    pub rules: Rules,
    /// Games per position.
    pub games_per_position: NonZeroU32,
    /// The positions.
    pub positions: Vec<Setup>,
    /// The run seed; each game's seed derives from it.
    pub seed: u64,
    /// Games played at once.
    pub jobs: usize,
    /// Replays of a game whose engine failed.
    pub retries: u32,
    /// Keep the score after each move (and put it in the PGN).
    pub keep_scores: bool,
    /// The run directory.
    pub out: PathBuf,
    /// How the match is run beyond the per-move limit.
    pub options: MatchOptions,
    /// This run's part of the games ([`Shard::WHOLE`] for all): unit
    /// (SP, game), or (SP, game / 2) for colour-reversed pairs, of
    /// [`Shard::contains`].
    pub shard: Shard,
}

/// How a match is run beyond the per-move limit. The default is what the
/// standard match runners do: one engine process (and hash) per side.
#[derive(Clone, Debug, Default)]
pub struct MatchOptions {
    /// One engine process plays both colours of a game (one engine only):
    /// faster, but each side then searches with the other side's analysis
    /// in its hash. Recorded in the manifest and the PGN.
    pub shared_process: bool,
    /// A clock or a time per move for engine A (and for both sides of one
    /// engine) in place of `limit`.
    pub control: Option<Control>,
    /// Engine B's own control (limit, clock or time per move); engine A's
    /// when not given.
    pub control_b: Option<Control>,
    /// How far past its time a side may answer before it loses on time,
    /// in milliseconds.
    pub time_margin_ms: u64,
    /// Stop an A-vs-B match when this SPRT accepts a hypothesis.
    pub sprt: Option<Sprt>,
    /// Where the engines' UCI logs go (set in the engine specs too), for
    /// the manifest.
    pub log_dir: Option<PathBuf>,
    /// Play these openings (each `games_per_position` times, in
    /// colour-reversed pairs against a second engine) instead of the bare
    /// start positions; `positions` must hold their start positions.
    pub openings: Option<Book>,
    /// Play adaptively: `games_per_position` games each, then rounds for
    /// the positions whose interval is still open (one engine, no book).
    pub adaptive: Option<Adaptive>,
    /// A shard of an adaptive run (with `adaptive` and a shard): the run
    /// directory whose journal of rounds sets the games to play, this
    /// shard's part of every round decided so far.
    pub rounds_from: Option<PathBuf>,
}

impl SelfplayConfig {
    /// Every position's games at `games_per_position` (before any adaptive
    /// round adds more).
    #[must_use]
    pub fn games(&self) -> u64 {
        self.positions.len() as u64 * u64::from(self.games_per_position.get())
    }

    /// The variant of the run's setups (Chess960 when it has none).
    #[must_use]
    pub fn variant(&self) -> Variant {
        self.positions
            .first()
            .map_or(Variant::Chess960, |p| p.variant())
    }

    /// Engine A's control: its clock or time per move, else its limit.
    #[must_use]
    pub fn control_a(&self) -> Control {
        self.options.control.unwrap_or(Control::Fixed(self.limit))
    }

    /// Engine B's control (engine A's unless set).
    #[must_use]
    pub fn control_b(&self) -> Control {
        self.options.control_b.unwrap_or_else(|| self.control_a())
    }

    /// Whether any side plays on time (its games do not replay exactly).
    #[must_use]
    pub fn timed(&self) -> bool {
        let b = self.engine_b.is_some().then(|| self.control_b());
        std::iter::once(self.control_a())
            .chain(b)
            .any(|c| matches!(c, Control::Clock(_) | Control::PerMove(_)))
    }

    /// Whether the same command replays the same games: every side on a
    /// node or depth limit.
    #[must_use]
    pub fn replays_exactly(&self) -> bool {
        let b = self.engine_b.is_some().then(|| self.control_b());
        std::iter::once(self.control_a())
            .chain(b)
            .all(Control::replays)
    }

    /// Engine B's control for the records, when it differs from A's.
    pub(crate) fn limit_b(&self) -> Option<Control> {
        (self.engine_b.is_some() && self.control_b() != self.control_a()).then(|| self.control_b())
    }
}

/// The seed of game `game` (pair `game / 2` against a second engine, so
/// both colours of a pair share it) of position `sp`: `SplitMix64` of the run
/// seed, mixed with `sp << 32 | index` and mixed again.
#[must_use]
pub fn game_seed(run_seed: u64, sp: u32, index: u32) -> u64 {
    splitmix64(splitmix64(run_seed) ^ ((u64::from(sp) << 32) | u64::from(index)))
}

/// How the processes of a run are described in the manifest and the PGN.
#[must_use]
pub fn processes_label(shared: bool) -> &'static str {
    if shared {
        SHARED_PROCESS
    } else {
        PROCESS_PER_SIDE
    }
}

/// Refuses settings that cannot be played, before any engine starts.
/// Checks a relative node jitter, which must be at least 0 and below one
/// (each move's budget is drawn from `nodes × [1 − jitter, 1 + jitter]`).
/// `name` is what the user gave it as (`--jitter`, or `jitter` in a plan
/// file), and starts the error.
///
/// # Errors
/// The one-line refusal, naming `name` and the value.
pub fn check_jitter(name: &str, jitter: f64) -> Result<(), String> {
    if (0.0..1.0).contains(&jitter) {
        Ok(())
    } else {
        Err(format!("{name} {jitter} must be at least 0 and below 1"))
    }
}

pub(crate) fn validate(config: &SelfplayConfig) -> Result<(), SelfplayError> {
    let invalid = |m: &str| Err(SelfplayError::Invalid(m.to_owned()));
    if config.positions.is_empty() {
        return invalid("no positions to play");
    }
    if config
        .positions
        .iter()
        .any(|p| p.variant() != config.variant())
    {
        return invalid("a run plays setups of one variant (Chess960 or DFRC), not both");
    }
    if config.variant() == Variant::Dfrc && config.options.openings.is_some() {
        return invalid(
            "opening books hold Chess960 positions: play DFRC setups without --openings",
        );
    }
    if config.engine_b.is_some() && config.games_per_position.get() % 2 == 1 {
        return invalid(
            "with two engines, games per position must be even (colour-reversed pairs)",
        );
    }
    check_jitter("jitter", config.jitter).map_err(SelfplayError::Invalid)?;
    if let Some(rule) = &config.options.adaptive {
        if config.engine_b.is_some() || config.options.openings.is_some() {
            return invalid(
                "adaptive self-play is for one engine from the start positions (no --engine-b, no --openings)",
            );
        }
        if !config.shard.is_whole() && config.options.rounds_from.is_none() {
            return invalid(
                "adaptive self-play decides each round from every position's games: run it unsharded (--shard with --target-halfwidth or --budget), or round by round with c960 slurm selfplay",
            );
        }
        if let Err(e) = check_adaptive(
            rule,
            config.games_per_position.get(),
            config.positions.len(),
        ) {
            return Err(SelfplayError::Invalid(e));
        }
    }
    if config.options.rounds_from.is_some() && config.options.adaptive.is_none() {
        return invalid(
            "--rounds-from plays a shard of adaptive self-play: give --target-halfwidth or --budget",
        );
    }
    if !config.shard.is_whole() && config.options.sprt.is_some() {
        return invalid(
            "an SPRT decides on the whole match: run it unsharded (--shard with --sprt)",
        );
    }
    if !config.shard.is_whole() && config.options.openings.is_some() {
        return invalid(
            "shards play the bare start positions: --shard does not combine with --openings",
        );
    }
    if config.engine_b.is_some() && config.options.shared_process {
        return invalid(
            "a shared process is for one engine playing itself, not with a second engine",
        );
    }
    Ok(())
}

/// Checks the adaptive `rule` against the run's initial games.
fn check_adaptive(rule: &Adaptive, initial_games: u32, positions: usize) -> Result<(), String> {
    if !(0.0..0.5).contains(&rule.target_half_width) {
        return Err("--target-halfwidth must be at least 0 and below 0.5".to_owned());
    }
    if !(0.0..0.5).contains(&rule.band_half_width) {
        return Err("the balance band must be at least 0 and below 0.5".to_owned());
    }
    if !(rule.alpha > 0.0 && rule.alpha < 1.0) {
        return Err("the error rate must be between 0 and 1".to_owned());
    }
    if rule.round_games == 0 {
        return Err("--round-games must be at least 1".to_owned());
    }
    if rule.target_half_width == 0.0 && rule.budget.is_none() {
        return Err(
            "adaptive self-play needs --target-halfwidth, --budget or both to stop".to_owned(),
        );
    }
    let initial = u64::from(initial_games) * positions as u64;
    if let Some(budget) = rule.budget
        && budget < initial
    {
        return Err(format!(
            "--budget {budget} is below the first round's {initial} games \
             ({positions} positions x {initial_games})"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_jitter_is_checked_once_naming_what_the_user_gave() {
        assert_eq!(check_jitter("--jitter", 0.0), Ok(()));
        assert_eq!(check_jitter("jitter", 0.99), Ok(()));
        assert_eq!(
            check_jitter("--jitter", -0.5),
            Err("--jitter -0.5 must be at least 0 and below 1".to_owned())
        );
        assert_eq!(
            check_jitter("jitter", 1.0),
            Err("jitter 1 must be at least 0 and below 1".to_owned())
        );
        assert!(check_jitter("jitter", f64::NAN).is_err());
    }

    fn adaptive(budget: Option<u64>) -> Adaptive {
        Adaptive {
            target_half_width: 0.2,
            band_half_width: 0.02,
            alpha: 0.05,
            round_games: 4,
            budget,
        }
    }

    #[test]
    fn settings_that_cannot_stop_or_start_are_refused() {
        let no_stop = Adaptive {
            target_half_width: 0.0,
            ..adaptive(None)
        };
        let check = |rule: &Adaptive| check_adaptive(rule, 2, 10);
        assert!(check(&no_stop).unwrap_err().contains("--budget"));
        assert!(check(&adaptive(Some(5))).unwrap_err().contains("below"));
        assert!(check(&adaptive(Some(20))).is_ok());
    }
}
