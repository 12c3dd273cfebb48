//! Adaptive self-play: games go where the verdict is still open.
//!
//! A run with a rule plays `games_per_position` games from every position
//! (round 0), then round after round: each position's White scores, in game
//! order, give an anytime-valid confidence sequence
//! ([`c960_balance::sequential`]); a position stays **open** while its
//! interval is wider than the target half width and still overlaps an edge
//! of the balance band around the all-position mean
//! ([`c960_balance::adaptive::StoppingRule`]). The next round gives
//! `round_games` more games to each open position, widest interval first
//! when the budget cannot cover them all, until no position is open or the
//! budget (total games) is spent.
//!
//! Because a confidence sequence holds at every number of games at once,
//! the intervals stay valid under this data-dependent stopping; fixed-n
//! intervals would not, so an adaptive run's position table reports the
//! confidence sequences (`interval` = `anytime`).
//!
//! Each round's allocation is appended to `rounds.jsonl` before its games
//! are played, so a killed run resumes the round it was in and replays the
//! same decisions: the games, and therefore the rounds, replay exactly
//! under node limits. Raising `--budget` continues a finished run.
//!
//! The rule's settings ([`Adaptive`]) and how a run ended
//! ([`AdaptiveRecord`]) are data of the run's manifest, modelled in
//! c960-store; this module holds what is done with them.

use std::{
    collections::{BTreeMap, HashSet},
    path::Path,
    sync::atomic::{AtomicBool, Ordering},
};

use c960_balance::adaptive::{StoppingRule, Tracker};
use c960_core::{GameKey, RoundTarget, Setup};
use c960_store::{
    Journal,
    manifest::{Adaptive, AdaptiveRecord, FailedGame, RunTiming},
};
use serde::{Deserialize, Serialize};

use crate::{
    Progress, SelfplayConfig, SelfplayError,
    prepared::{Prepared, Scores},
};

/// The journal of round decisions.
pub const ROUNDS_FILE: &str = "rounds.jsonl";

/// Default half width of the balanced band for White's score (the same as
/// the verdicts').
pub const DEFAULT_BAND: f64 = 0.02;

/// Default error rate of the confidence sequences (95%).
pub const DEFAULT_ALPHA: f64 = 0.05;

/// What a journal of rounds is tied to: the rule and the positions its
/// rounds are decided over, not the budget (which may be raised to
/// continue a run, and is checked against the rounds decided).
#[derive(Serialize)]
pub(crate) struct RoundSettings {
    target_half_width: f64,
    band_half_width: f64,
    alpha: f64,
    round_games: u32,
    initial_games: u32,
    seed: u64,
    /// Absent in journals of rounds written before the positions were
    /// part of their settings; those are read as they were written.
    #[serde(skip_serializing_if = "Option::is_none")]
    positions: Option<String>,
}

/// One round's decision: the games each extended position will have.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Round {
    /// Round number (1 is the first after the initial games).
    pub round: u32,
    /// Positions open when the round was decided.
    pub open: u32,
    /// Each extended position's SP and its games once the round is played.
    pub targets: Vec<RoundTarget>,
}

/// The stopping rule of a position under `rule`.
#[must_use]
pub(crate) fn stopping_rule(rule: &Adaptive) -> StoppingRule {
    StoppingRule {
        target_half_width: rule.target_half_width,
        alpha: rule.alpha,
        band_half_width: rule.band_half_width,
    }
}

/// The settings of the journal of rounds at `path` for `config`: with
/// its positions, unless the journal there was written before they
/// were recorded.
pub(crate) fn round_settings(
    rule: &Adaptive,
    config: &SelfplayConfig,
    path: &Path,
) -> RoundSettings {
    let legacy =
        Journal::<Round>::read_header(path).is_ok_and(|(_, settings)| !settings.has("positions"));
    RoundSettings {
        target_half_width: rule.target_half_width,
        band_half_width: rule.band_half_width,
        alpha: rule.alpha,
        round_games: rule.round_games,
        initial_games: config.games_per_position.get(),
        seed: config.seed,
        positions: (!legacy).then(|| Setup::format_set(&config.positions)),
    }
}

/// Refuses a budget below the games the rounds decided so far
/// (`targets`): the run has them, so its manifest cannot say less.
pub(crate) fn check_budget(
    rule: &Adaptive,
    targets: &BTreeMap<u32, u32>,
) -> Result<(), SelfplayError> {
    let planned: u64 = targets.values().map(|g| u64::from(*g)).sum();
    match rule.budget {
        Some(budget) if budget < planned => Err(SelfplayError::Invalid(format!(
            "--budget {budget} is below the {planned} games this run's rounds have already \
             given its positions ({ROUNDS_FILE}); give at least {planned}"
        ))),
        _ => Ok(()),
    }
}

/// `rule` in words.
#[must_use]
pub(crate) fn describe(rule: &Adaptive, initial_games: u32) -> String {
    let budget = rule.budget.map_or_else(
        || "no budget cap".to_owned(),
        |b| format!("a budget of {b} games"),
    );
    format!(
        "{initial_games} games per position, then rounds of {} games for each position whose \
         {:.0}% anytime-valid confidence sequence (predictable-plug-in empirical Bernstein, \
         over White's scores in game order) is wider than +-{} and overlaps an edge of the \
         band +-{} around the all-position mean; widest first within {budget}",
        rule.round_games,
        100.0 * (1.0 - rule.alpha),
        rule.target_half_width,
        rule.band_half_width,
    )
}

/// Each position's games once the rounds of `rounds` are played: the
/// initial games, raised by every round in turn.
pub(crate) fn targets_after(
    config: &SelfplayConfig,
    rounds: impl IntoIterator<Item = Round>,
) -> (u32, BTreeMap<u32, u32>) {
    let mut targets: BTreeMap<u32, u32> = config
        .positions
        .iter()
        .map(|p| (p.id(), config.games_per_position.get()))
        .collect();
    let mut round = 0;
    for r in rounds {
        targets.extend(r.targets.iter().map(|t| (t.setup, t.games)));
        round = r.round;
    }
    (round, targets)
}

/// The rounds decided so far in the journal of rounds of the run directory
/// `dir`, read without changing it (a shard of an adaptive run reads its
/// run's): the last round and each position's games after it. The journal
/// must belong to the same rule, initial games and seed.
pub(crate) fn read_rounds(
    dir: &Path,
    config: &SelfplayConfig,
    rule: &Adaptive,
) -> Result<(u32, BTreeMap<u32, u32>), SelfplayError> {
    let path = dir.join(ROUNDS_FILE);
    if !path.is_file() {
        return Err(SelfplayError::Invalid(format!(
            "{} does not exist: the rounds of a sharded adaptive run are decided in its run              directory (c960 slurm selfplay writes it)",
            path.display()
        )));
    }
    let settings = c960_store::Settings::of(&round_settings(rule, config, &path))
        .map_err(|e| SelfplayError::Io(std::io::Error::other(e)))?;
    let mut rounds = Vec::new();
    Journal::<Round>::read_records(&path, &settings, &|_| Ok(()), |round, _, _| {
        rounds.push(round);
        Ok(())
    })?;
    Ok(targets_after(config, rounds))
}

/// The games of this run's shard up to each position's target.
pub(crate) fn games_up_to(config: &SelfplayConfig, targets: &BTreeMap<u32, u32>) -> u64 {
    targets
        .iter()
        .map(|(&sp, &target)| {
            (0..target)
                .filter(|&g| config.shard.contains(sp, g))
                .count() as u64
        })
        .sum()
}

/// The running intervals of `positions` from their scores in game order.
pub(crate) fn tracker(adaptive: &Adaptive, positions: &[Setup], scores: &Scores) -> Tracker {
    let mut tracker = Tracker::new(stopping_rule(adaptive), positions.len());
    for (i, p) in positions.iter().enumerate() {
        for score in scores.get(&p.id()).into_iter().flat_map(BTreeMap::values) {
            tracker.push(i, *score);
        }
    }
    tracker
}

/// What to do after a round.
pub(crate) enum Next {
    /// Play this round.
    Play(Round),
    /// Stop, for this reason.
    Stop(String),
}

/// Decides the round after `round` - 1 rounds given the scores so far and
/// each position's planned games.
pub(crate) fn next_round(
    adaptive: &Adaptive,
    positions: &[Setup],
    scores: &Scores,
    targets: &BTreeMap<u32, u32>,
    round: u32,
) -> Next {
    let tracker = tracker(adaptive, positions, scores);
    let open = tracker.open();
    if open.is_empty() {
        return Next::Stop(if adaptive.target_half_width > 0.0 {
            "every position is decided or within the target half width".to_owned()
        } else {
            "every position is decided".to_owned()
        });
    }
    let planned: u64 = targets.values().map(|g| u64::from(*g)).sum();
    let mut remaining = adaptive
        .budget
        .map_or(u64::MAX, |b| b.saturating_sub(planned));
    if remaining == 0 {
        return Next::Stop(format!(
            "the budget of {} games is spent",
            adaptive.budget.unwrap_or_default()
        ));
    }
    // Widest interval first; ties by SP.
    let mut order: Vec<(f64, usize)> = open
        .iter()
        .map(|&i| (tracker.sequence(i).half_width(), i))
        .collect();
    order.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut extended = Vec::new();
    for (_, i) in order {
        if remaining == 0 {
            break;
        }
        let extra = u32::try_from(remaining.min(u64::from(adaptive.round_games)))
            .unwrap_or(adaptive.round_games);
        remaining -= u64::from(extra);
        let sp = positions[i].id();
        extended.push(RoundTarget::new(
            sp,
            targets.get(&sp).copied().unwrap_or(0) + extra,
        ));
    }
    extended.sort_unstable();
    Next::Play(Round {
        round,
        open: u32::try_from(open.len()).unwrap_or(u32::MAX),
        targets: extended,
    })
}

/// What the rounds of a run played.
pub(crate) struct Played {
    /// Games that failed in this run.
    pub(crate) failed: Vec<FailedGame>,
    /// What this run played.
    pub(crate) timing: RunTiming,
    /// How the run ended; `None` when it was stopped before.
    pub(crate) record: Option<AdaptiveRecord>,
}

impl Prepared {
    /// Plays the initial games and then round after round until the rule
    /// stops, resuming from the journal of rounds; `on_progress` follows
    /// each game (its total grows with the rounds).
    pub(crate) fn play_adaptive(
        &mut self,
        config: &SelfplayConfig,
        rule: &Adaptive,
        stop: &AtomicBool,
        on_progress: &mut impl FnMut(Progress),
    ) -> Result<Played, SelfplayError> {
        let path = config.out.join(ROUNDS_FILE);
        let (mut journal, rounds) =
            Journal::<Round>::open(&path, &round_settings(rule, config, &path))?;
        let (mut round, mut targets) = targets_after(config, rounds);
        check_budget(rule, &targets)?;
        let resumed = self.done.len() as u64;
        let mut played = Played {
            failed: Vec::new(),
            timing: RunTiming::default(),
            record: None,
        };
        // Games that failed in this run wait for the next run.
        let mut failed_keys: HashSet<GameKey> = HashSet::new();
        loop {
            let jobs = round_jobs(config, &targets, &self.done, &failed_keys);
            if !jobs.is_empty() {
                let total: u64 = targets.values().map(|g| u64::from(*g)).sum();
                let (games_before, failed_before) =
                    (played.timing.games, played.failed.len() as u64);
                let (failed, timing) = self.play(config, &jobs, stop, |games, failed| {
                    on_progress(Progress {
                        done: resumed + games_before + games,
                        failed: failed_before + failed,
                        total,
                        resumed,
                    });
                })?;
                failed_keys.extend(failed.iter().map(FailedGame::key));
                played.failed.extend(failed);
                played.timing.games += timing.games;
                played.timing.moves += timing.moves;
                played.timing.search_seconds += timing.search_seconds;
                let finished = jobs.iter().all(|(p, g)| {
                    self.done.contains(&GameKey::new(p.id(), *g))
                        || failed_keys.contains(&GameKey::new(p.id(), *g))
                });
                if !finished || stop.load(Ordering::SeqCst) {
                    return Ok(played);
                }
            }
            match next_round(rule, &config.positions, &self.scores, &targets, round + 1) {
                Next::Stop(reason) => {
                    played.record = Some(self.record(config, rule, round, reason));
                    played.failed.sort_by_key(FailedGame::key);
                    return Ok(played);
                }
                Next::Play(next) => {
                    journal.append(&next)?;
                    targets.extend(next.targets.iter().map(|t| (t.setup, t.games)));
                    round = next.round;
                }
            }
        }
    }

    /// How the run ended.
    pub(crate) fn record(
        &self,
        config: &SelfplayConfig,
        rule: &Adaptive,
        rounds: u32,
        stopped: String,
    ) -> AdaptiveRecord {
        let tracker = tracker(rule, &config.positions, &self.scores);
        let games: Vec<u64> = config
            .positions
            .iter()
            .map(|p| self.scores.get(&p.id()).map_or(0, |g| g.len() as u64))
            .collect();
        AdaptiveRecord {
            rule: describe(rule, config.games_per_position.get()),
            settings: *rule,
            initial_games: config.games_per_position.get(),
            rounds,
            stopped,
            open: tracker.open().len(),
            widest_half_width: (0..config.positions.len())
                .map(|i| tracker.sequence(i).half_width())
                .fold(0.0, f64::max),
            games_min: games.iter().copied().min().unwrap_or(0),
            games_max: games.iter().copied().max().unwrap_or(0),
        }
    }
}

/// The games of this run's shard still to play up to each position's
/// target, game by game across positions, skipping those that failed in
/// this run.
pub(crate) fn round_jobs(
    config: &SelfplayConfig,
    targets: &BTreeMap<u32, u32>,
    done: &HashSet<GameKey>,
    failed: &HashSet<GameKey>,
) -> Vec<(Setup, u32)> {
    let most = targets.values().copied().max().unwrap_or(0);
    (0..most)
        .flat_map(|g| {
            config
                .positions
                .iter()
                .filter(move |p| g < targets.get(&p.id()).copied().unwrap_or(0))
                .map(move |p| (*p, g))
        })
        .filter(|(p, g)| {
            config.shard.contains(p.id(), *g)
                && !done.contains(&GameKey::new(p.id(), *g))
                && !failed.contains(&GameKey::new(p.id(), *g))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn positions(n: u32) -> Vec<Setup> {
        (0..n)
            .map(|sp| Setup::new(c960_core::Variant::Chess960, sp).unwrap())
            .collect()
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
    fn rounds_go_to_open_positions_widest_first_within_the_budget() {
        let ps = positions(3);
        let mut scores = Scores::new();
        // SP 0: 400 draws (narrow: done); SP 1 and 2: mixed games (open),
        // SP 2 with fewer games the wider.
        scores.insert(0, (0..400).map(|g| (g, 0.5)).collect());
        scores.insert(1, (0..60).map(|g| (g, f64::from(g % 2))).collect());
        scores.insert(2, (0..30).map(|g| (g, f64::from(g % 2))).collect());
        let targets: BTreeMap<u32, u32> = [(0, 400), (1, 60), (2, 30)].into();
        let rule = |budget| Adaptive {
            target_half_width: 0.1,
            ..adaptive(budget)
        };
        let Next::Play(round) = next_round(&rule(None), &ps, &scores, &targets, 1) else {
            panic!("positions are open")
        };
        assert_eq!(
            round.targets,
            [RoundTarget::new(1, 64), RoundTarget::new(2, 34)]
        );
        assert_eq!(round.open, 2);
        // A budget for 5 more games: the widest (SP 2) gets 4, SP 1 gets 1.
        let Next::Play(round) = next_round(&rule(Some(495)), &ps, &scores, &targets, 1) else {
            panic!("budget left")
        };
        assert_eq!(
            round.targets,
            [RoundTarget::new(1, 61), RoundTarget::new(2, 34)]
        );
        assert!(matches!(
            next_round(&rule(Some(490)), &ps, &scores, &targets, 1),
            Next::Stop(reason) if reason.contains("budget")
        ));
    }
}
