//! A run ready to play: its engines started once and identified, its
//! journal opened, checked and aggregated game by game, and its games
//! handed to the job runner (one engine process per side and worker).

use std::{
    collections::{BTreeMap, HashMap, HashSet},
    sync::atomic::AtomicBool,
};

use c960_balance::sequential::ConfidenceState;
use c960_core::{GameKey, Setup, Variant, shakmaty::ByColor};
use c960_engine::{AnyEngine, Control, Engine, EngineError, EngineInfo, Rules, pool::PoolOptions};
use c960_runner::{Flow, Spare, run_journaled};
use c960_store::{
    Journal,
    manifest::{FailedGame, PROCESS_PER_SIDE, RunTiming},
};
use serde::Serialize;

use crate::{
    Book, GameRecord, GameSpec, Interval, JOURNAL_FILE, PairTally, PositionStats, PositionSummary,
    SelfplayConfig, SelfplayError, checks, game_seed, play,
};

/// The settings a journal belongs to: games are only mixed when these are
/// equal. The positions and the number of games are not among them, so a
/// later run can add positions or games.
#[derive(Serialize)]
pub(crate) struct Settings<'a> {
    pub(crate) engine: &'a EngineInfo,
    pub(crate) engine_b: Option<&'a EngineInfo>,
    pub(crate) limit: Control,
    pub(crate) jitter: f64,
    pub(crate) rules: Rules,
    pub(crate) seed: u64,
    pub(crate) keep_scores: bool,
    /// `one per side` when one engine plays itself with a process per side;
    /// absent when it shares one process (how journals were written before
    /// the sides got their own processes) and between two engines (always
    /// one process each), so those journals stay resumable.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) processes: Option<&'static str>,
    /// Engine B's control when it differs from A's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) limit_b: Option<Control>,
    /// The time margin, for runs on the clock.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) time_margin_ms: Option<u64>,
    /// The opening book: its openings, order and fingerprint.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) openings: Option<String>,
    /// Absent for Chess960, so its journals stay what they were.
    #[serde(skip_serializing_if = "Variant::is_chess960")]
    pub(crate) variant: Variant,
}

/// The engine processes of one worker.
enum Players {
    /// One process plays both colours (`--shared-process`).
    Shared(AnyEngine),
    /// One process per side: two of the same engine, or engines A and B.
    Sides {
        /// Engine A (White in even games against B; White against itself).
        a: AnyEngine,
        /// Engine B, or a second process of engine A.
        b: AnyEngine,
    },
}

impl Players {
    /// The UCI logs of the processes.
    fn logs(&self) -> Vec<String> {
        let engines: Vec<&AnyEngine> = match self {
            Players::Shared(a) => vec![a],
            Players::Sides { a, b } => vec![a, b],
        };
        engines
            .iter()
            .filter_map(|e| e.log_path())
            .map(|p| p.display().to_string())
            .collect()
    }
}

/// Per position, White's score in each finished game, by game index.
pub(crate) type Scores = BTreeMap<u32, BTreeMap<u32, f64>>;

/// Engines started to identify a run (A, and B when it plays), kept for
/// the first worker.
type Identifying = Spare<(AnyEngine, Option<AnyEngine>)>;

/// A run ready to play: engines checked, the journal open and aggregated.
pub(crate) struct Prepared {
    pub(crate) engine_a: EngineInfo,
    pub(crate) engine_b: Option<EngineInfo>,
    /// The engines started to identify the run (A, and B when it plays),
    /// until the first worker takes them.
    pub(crate) spare: Identifying,
    pub(crate) journal: Journal<GameRecord>,
    pub(crate) stats: BTreeMap<u32, PositionStats>,
    pub(crate) done: HashSet<GameKey>,
    /// White's score of every finished game (adaptive runs only).
    pub(crate) scores: Scores,
    /// Engine A's colour-reversed pairs against B.
    pub(crate) pairs: PairTally,
}

impl Prepared {
    /// Whether the match's SPRT has accepted a hypothesis.
    pub(crate) fn sprt_decided(&self, config: &SelfplayConfig) -> bool {
        self.engine_b.is_some()
            && config.options.sprt.is_some()
            && self
                .pairs
                .stats(config.options.sprt)
                .sprt
                .is_some_and(|s| s.accepted.is_some())
    }

    pub(crate) fn new(config: &SelfplayConfig) -> Result<Prepared, SelfplayError> {
        // Start the engines once up front: a wrong engine is reported before
        // any work, their identities label the journal, and the first
        // worker plays with them.
        let started_a = config.engine.start()?;
        let started_b = match &config.engine_b {
            Some(b) => Some(b.start()?),
            None => None,
        };
        let engine_a = started_a.info().clone();
        let engine_b = started_b.as_ref().map(|b| b.info().clone());
        let checks = [
            (Some(&engine_a), config.control_a()),
            (engine_b.as_ref(), config.control_b()),
        ];
        for (info, control) in checks {
            if let (Some(info), Control::Fixed(limit)) = (info, control)
                && let Some(problem) = info.unsupported_limit(limit)
            {
                return Err(SelfplayError::Invalid(problem));
            }
        }
        let paired = engine_b.is_some();
        let settings = Settings {
            engine: &engine_a,
            engine_b: engine_b.as_ref(),
            limit: config.control_a(),
            jitter: config.jitter,
            rules: config.rules,
            seed: config.seed,
            keep_scores: config.keep_scores,
            limit_b: config.limit_b(),
            time_margin_ms: config.timed().then_some(config.options.time_margin_ms),
            openings: config.options.openings.as_ref().map(Book::describe),
            processes: (!paired && !config.options.shared_process).then_some(PROCESS_PER_SIDE),
            variant: config.variant(),
        };
        let mut stats: BTreeMap<u32, PositionStats> = BTreeMap::new();
        let mut done = HashSet::new();
        let mut scores = Scores::new();
        let keep_scores = config.options.adaptive.is_some();
        let mut pairs = PairTally::default();
        let journal = Journal::<GameRecord>::open_streaming_checked(
            &config.out.join(JOURNAL_FILE),
            &settings,
            &checks::validation(config),
            |game| {
                if wanted(config, game.sp, game.game) && done.insert(game.key()) {
                    stats.entry(game.sp).or_default().add(&game, paired);
                    if keep_scores {
                        scores
                            .entry(game.sp)
                            .or_default()
                            .insert(game.game, game.result.white_score());
                    }
                    if paired {
                        pairs.add(&game);
                    }
                }
            },
        )?;
        Ok(Prepared {
            engine_a,
            engine_b,
            spare: Spare::new((started_a, started_b)),
            journal,
            stats,
            done,
            scores,
            pairs,
        })
    }

    /// Plays `jobs` on the pool, journaling and counting each game as it
    /// finishes; `on_finished(games, failed)` (this run's counts) follows
    /// each. Returns the failed games and this run's timing.
    /// Each position's summary of its games: with anytime-valid intervals
    /// in an adaptive run.
    pub(crate) fn summaries(&self, config: &SelfplayConfig) -> Vec<PositionSummary> {
        let rows = PositionStats::rows(&config.positions, &self.stats, self.engine_b.is_some());
        match &config.options.adaptive {
            Some(rule) => rows
                .into_iter()
                .map(|row| self.anytime_summary(row, rule.alpha))
                .collect(),
            None => rows,
        }
    }

    /// One worker's engines: the identifying engines (`spare`) first, then
    /// new ones.
    fn players(spare: &Identifying, config: &SelfplayConfig) -> Result<Players, EngineError> {
        let (a, b) = match spare.take() {
            Some((a, b)) => (a, b),
            None => (config.engine.start()?, None),
        };
        Ok(match &config.engine_b {
            Some(spec) => Players::Sides {
                a,
                b: match b {
                    Some(b) => b,
                    None => spec.start()?,
                },
            },
            None if config.options.shared_process => Players::Shared(a),
            None => Players::Sides {
                b: config.engine.start()?,
                a,
            },
        })
    }

    pub(crate) fn play(
        &mut self,
        config: &SelfplayConfig,
        jobs: &[(Setup, u32)],
        stop: &AtomicBool,
        mut on_finished: impl FnMut(u64, u64),
    ) -> Result<(Vec<FailedGame>, RunTiming), SelfplayError> {
        let paired = self.engine_b.is_some();
        let failed_logs = FailedLogs::default();
        let spare = &self.spare;
        let start = || Prepared::players(spare, config);
        let work = |players: &mut Players, job: &(Setup, u32)| {
            play_job(config, paired, players, *job, &failed_logs)
        };
        let mut failed = Vec::new();
        let mut timing = RunTiming::default();
        let (stats, pairs) = (&mut self.stats, &mut self.pairs);
        let (done, scores) = (&mut self.done, &mut self.scores);
        let keep_scores = config.options.adaptive.is_some();
        let sprt = config.options.sprt.filter(|_| paired);
        run_journaled(
            &mut self.journal,
            &start,
            jobs,
            &work,
            PoolOptions {
                workers: config.jobs,
                retries: config.retries,
            },
            stop,
            |finished, journal| {
                let (position, index) = jobs[finished.index];
                let mut flow = Flow::Go;
                match finished.outcome {
                    Ok(game) => {
                        if !journal.append(&game) {
                            return Flow::Halt;
                        }
                        stats.entry(game.sp).or_default().add(&game, paired);
                        done.insert(game.key());
                        if keep_scores {
                            scores
                                .entry(game.sp)
                                .or_default()
                                .insert(game.game, game.result.white_score());
                        }
                        // An SPRT that accepted a hypothesis ends the match.
                        if paired
                            && pairs.add(&game)
                            && sprt.is_some()
                            && pairs.stats(sprt).sprt.is_some_and(|s| s.accepted.is_some())
                        {
                            flow = Flow::Halt;
                        }
                        timing.games += 1;
                        timing.moves += u64::from(game.plies);
                        timing.search_seconds += game.search_time.as_secs_f64();
                    }
                    Err(failure) => failed.push(FailedGame {
                        sp: position.id(),
                        game: index,
                        reason: failure.reason,
                        logs: failed_logs
                            .lock()
                            .ok()
                            .and_then(|mut m| m.remove(&GameKey::new(position.id(), index)))
                            .unwrap_or_default(),
                    }),
                }
                on_finished(timing.games, failed.len() as u64);
                flow
            },
        )?;
        failed.sort_by_key(FailedGame::key);
        Ok((failed, timing))
    }

    /// `summary` with White's score and its anytime-valid interval.
    fn anytime_summary(&self, mut summary: PositionSummary, alpha: f64) -> PositionSummary {
        if let Some(games) = self.scores.get(&summary.sp).filter(|g| !g.is_empty()) {
            let (mean, low, high) = sequence(alpha, games);
            summary.white_score = Some(Interval { mean, low, high });
        }
        summary.interval_method = "anytime";
        summary
    }
}

/// Plays job (`position`, `index`) with `players`; a failed game's engine
/// logs go to `failed_logs`.
fn play_job(
    config: &SelfplayConfig,
    paired: bool,
    players: &mut Players,
    (position, index): (Setup, u32),
    failed_logs: &FailedLogs,
) -> Result<GameRecord, EngineError> {
    let spec = game_spec(config, paired, position, index);
    let result = match players {
        Players::Sides { a, b } if paired && index % 2 == 1 => play(&spec, b, Some(a)),
        Players::Sides { a, b } => play(&spec, a, Some(b)),
        Players::Shared(a) => play(&spec, a, None),
    };
    if result.is_err() {
        let logs = players.logs();
        if !logs.is_empty()
            && let Ok(mut map) = failed_logs.lock()
        {
            map.insert(GameKey::new(position.id(), index), logs);
        }
    }
    result
}

/// The engine logs of failed games, by game.
type FailedLogs = std::sync::Mutex<HashMap<GameKey, Vec<String>>>;

/// The game to play for job (`position`, `index`): its seed, each side's
/// control (A is White in even games against B) and its opening.
fn game_spec(config: &SelfplayConfig, paired: bool, position: Setup, index: u32) -> GameSpec {
    let opening = config.options.openings.as_ref().and_then(|b| {
        b.openings
            .get((index / config.games_per_position.get()) as usize)
    });
    let seed_index = if paired { index / 2 } else { index };
    let seed = game_seed(config.seed, position.id(), seed_index);
    let (a, b) = (config.control_a(), config.control_b());
    let (white, black) = if paired && index % 2 == 1 {
        (b, a)
    } else if paired {
        (a, b)
    } else {
        (a, a)
    };
    let controls = ByColor { white, black };
    GameSpec {
        jitter: config.jitter,
        rules: config.rules,
        keep_scores: config.keep_scores,
        controls,
        time_margin_ms: config.options.time_margin_ms,
        book: opening.map(|o| o.moves.clone()).unwrap_or_default(),
        opening: opening.map(|o| o.line),
        ..GameSpec::from_start(position, index, seed, config.limit)
    }
}

/// Whether game `game` of position `sp` belongs to this run: adaptive
/// runs take any number of games from their positions.
pub(crate) fn wanted(config: &SelfplayConfig, sp: u32, game: u32) -> bool {
    if !in_shard(config, sp, game) {
        return false;
    }
    if config.options.adaptive.is_some() {
        return config.positions.iter().any(|p| p.id() == sp);
    }
    if let Some(book) = &config.options.openings {
        let k = (game / config.games_per_position.get()) as usize;
        return book
            .openings
            .get(k)
            .is_some_and(|o| u32::from(o.position.sp()) == sp);
    }
    game < config.games_per_position.get() && config.positions.iter().any(|p| p.id() == sp)
}

/// Whether game `game` of position `sp` is in this run's shard: both games
/// of a colour-reversed pair are one unit.
pub(crate) fn in_shard(config: &SelfplayConfig, sp: u32, game: u32) -> bool {
    let unit = if config.engine_b.is_some() {
        game / 2
    } else {
        game
    };
    config.shard.contains(sp, unit)
}

/// Each position's anytime-valid interval over its games in game order:
/// `(mean, low, high)`.
fn sequence(alpha: f64, games: &BTreeMap<u32, f64>) -> (f64, f64, f64) {
    let mut state = ConfidenceState::new(alpha);
    for score in games.values() {
        state.push(*score);
    }
    let s = state.sequence();
    (s.mean, s.low, s.high)
}
