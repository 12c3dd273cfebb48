//! The self-play runner: engines started once and identified, the journal
//! opened and aggregated game by game, the games still to play handed to
//! the job runner (one engine process per side and worker), and the
//! outputs written from the journal in (SP, game) order.

use std::{
    collections::{BTreeMap, HashMap, HashSet},
    sync::atomic::AtomicBool,
};

use c960_core::{GameKey, Setup, Variant, shakmaty::ByColor};
use c960_engine::{AnyEngine, Engine, EngineError, EngineInfo, pool::PoolOptions};
use c960_runner::{Flow, Spare, run_journaled};
use c960_store::Journal;
use serde::Serialize;

use crate::{
    Book, Control, FailedGame, GameRecord, GameSpec, JOURNAL_FILE, Manifest, PROCESS_PER_SIDE,
    PairTally, PgnExtras, PositionStats, PositionSummary, Progress, Rules, RunTiming,
    SelfplayConfig, SelfplayError, SelfplayOutcome, adaptive, checks, game_seed, now, play,
    processes_label, validate, write_run_outputs,
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

/// Runs (or resumes) self-play. `stop`, once set, lets games in progress
/// finish and starts no new one; `on_progress` follows each game.
pub fn run(
    config: &SelfplayConfig,
    stop: &AtomicBool,
    on_progress: impl FnMut(Progress),
) -> Result<SelfplayOutcome, SelfplayError> {
    validate(config)?;
    let dir = c960_store::RunDir::hold(&config.out, &[JOURNAL_FILE, crate::ROUNDS_FILE])?;
    // Outputs that cannot be replaced are refused before any work.
    let result = dir
        .check_outputs(&[
            crate::GAMES_FILE,
            crate::MANIFEST_FILE,
            crate::PGN_FILE,
            crate::POSITIONS_CSV,
            crate::POSITIONS_PARQUET,
            JOURNAL_FILE,
        ])
        .map_err(SelfplayError::from)
        .and_then(|()| run_locked(config, stop, on_progress));
    // A refused run (an engine that does not start or ignores its limit)
    // leaves the directory as it was.
    dir.release(result)
}

fn run_locked(
    config: &SelfplayConfig,
    stop: &AtomicBool,
    mut on_progress: impl FnMut(Progress),
) -> Result<SelfplayOutcome, SelfplayError> {
    let started = now();
    let clock = std::time::Instant::now();
    let mut state = Prepared::new(config)?;
    refuse_mixed_kinds(config, state.done.len())?;
    let (jobs, slots) = if state.sprt_decided(config) {
        (Vec::new(), slots(config))
    } else {
        (jobs(config, &state.done), slots(config))
    };
    let mut total = games_in_shard(config, &slots);
    // A shard of an adaptive run plays its part of the rounds decided so far.
    let shard_round = match (&config.options.adaptive, &config.options.rounds_from) {
        (Some(rule), Some(dir)) => Some(adaptive::read_rounds(dir, config, rule)?),
        _ => None,
    };
    let jobs = match &shard_round {
        Some((_, targets)) => {
            total = adaptive::games_up_to(config, targets);
            adaptive::round_jobs(config, targets, &state.done, &HashSet::new())
        }
        None => jobs,
    };
    let resumed = state.done.len() as u64;
    let mut progress = Progress {
        done: resumed,
        failed: 0,
        total,
        resumed,
    };
    on_progress(progress);
    let whole_adaptive = config.options.adaptive.filter(|_| shard_round.is_none());
    let (failed, mut timing, adaptive) = if let Some(rule) = &whole_adaptive {
        let played = state.play_adaptive(config, rule, stop, &mut on_progress)?;
        (played.failed, played.timing, Some(played.record))
    } else {
        let (failed, timing) = state.play(config, &jobs, stop, |games, failed| {
            progress.done = resumed + games;
            progress.failed = failed;
            on_progress(progress);
        })?;
        (failed, timing, None)
    };

    let paired = state.engine_b.is_some();
    let positions = state.summaries(config);
    let games: u64 = positions.iter().map(|p| p.games).sum();
    let match_stats = paired.then(|| state.pairs.stats(config.options.sprt));
    let sprt_stopped = state.sprt_decided(config);
    let interrupted = match &adaptive {
        Some(record) => record.is_none(),
        None => !sprt_stopped && games + (failed.len() as u64) < total,
    };
    let engines: Vec<_> = std::iter::once(state.engine_a)
        .chain(state.engine_b)
        .collect();
    timing.wall_seconds = clock.elapsed().as_secs_f64();
    let outcome = SelfplayOutcome {
        engines,
        positions,
        games,
        failed,
        resumed,
        interrupted,
        timing,
        journal: state.journal.path().to_owned(),
        match_stats,
        sprt_stopped,
        adaptive: adaptive.flatten(),
        round: shard_round.map(|(round, _)| round),
    };
    if !interrupted {
        crate::manifest::write_finished(config, &outcome, started)?;
    }
    Ok(outcome)
}

/// Refuses to mix adaptive and uniform self-play in one directory: an
/// adaptive run's directory has its journal of rounds from its first game
/// on, so games without it were played uniformly (`games` is how many
/// the journal holds). A shard of an adaptive run keeps its rounds in the
/// run directory, not its own.
fn refuse_mixed_kinds(config: &SelfplayConfig, games: usize) -> Result<(), SelfplayError> {
    let rounds = config.out.join(crate::ROUNDS_FILE).exists();
    let whole_adaptive = config.options.adaptive.is_some() && config.options.rounds_from.is_none();
    let dir = config.out.display();
    if whole_adaptive && !rounds && games > 0 {
        return Err(SelfplayError::Invalid(format!(
            "{dir} holds {} of uniform self-play (it has no {}); adaptive self-play needs a \
             directory of its own",
            c960_core::plural(games, "game", "games"),
            crate::ROUNDS_FILE
        )));
    }
    if config.options.adaptive.is_none() && rounds {
        return Err(SelfplayError::Invalid(format!(
            "{dir} holds an adaptive run ({}): resume it with its --target-halfwidth or \
             --budget, or play uniform self-play in another directory",
            crate::ROUNDS_FILE
        )));
    }
    Ok(())
}

/// Where each position's or opening's games are numbered from: without a
/// book each position numbers its own games; with one, the games of the
/// k-th opening are k·G .. k·G + G − 1 (G games each).
fn slots(config: &SelfplayConfig) -> Vec<(Setup, u32)> {
    match &config.options.openings {
        Some(book) => book
            .openings
            .iter()
            .zip(0u32..)
            .map(|(o, k)| (Setup::from(o.position), k * config.games_per_position.get()))
            .collect(),
        None => config.positions.iter().map(|p| (*p, 0)).collect(),
    }
}

/// The games still to play, round by round (a round is one game, or one
/// colour-reversed pair, from every position or opening), so an interrupted
/// run covers all of them evenly.
fn jobs(config: &SelfplayConfig, done: &HashSet<GameKey>) -> Vec<(Setup, u32)> {
    let round: u32 = if config.engine_b.is_some() { 2 } else { 1 };
    let slots = slots(config);
    (0..config.games_per_position.get())
        .step_by(round as usize)
        .flat_map(|first| {
            slots.iter().flat_map(move |(p, base)| {
                (first..(first + round).min(config.games_per_position.get()))
                    .map(move |g| (*p, base + g))
            })
        })
        .filter(|(p, g)| in_shard(config, p.id(), *g) && !done.contains(&GameKey::new(p.id(), *g)))
        .collect()
}

/// The games of `slots` in this run's shard.
fn games_in_shard(config: &SelfplayConfig, slots: &[(Setup, u32)]) -> u64 {
    slots
        .iter()
        .map(|(p, base)| {
            (0..config.games_per_position.get())
                .filter(|g| in_shard(config, p.id(), base + g))
                .count() as u64
        })
        .sum()
}

/// Whether game `game` of position `sp` is in this run's shard: both games
/// of a colour-reversed pair are one unit.
fn in_shard(config: &SelfplayConfig, sp: u32, game: u32) -> bool {
    let unit = if config.engine_b.is_some() {
        game / 2
    } else {
        game
    };
    config.shard.contains(sp, unit)
}

/// A run ready to play: engines checked, the journal open and aggregated.
/// Engines started to identify a run (A, and B when it plays), kept for
/// the first worker.
type Identifying = Spare<(AnyEngine, Option<AnyEngine>)>;

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
    pub(crate) scores: adaptive::Scores,
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
        let mut scores = adaptive::Scores::new();
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
        failed.sort_by_key(crate::FailedGame::key);
        Ok((failed, timing))
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
fn wanted(config: &SelfplayConfig, sp: u32, game: u32) -> bool {
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

/// Writes games (PGN, Parquet) in (SP, game) order straight from the
/// journal, the position table (Parquet, CSV) and the manifest.
pub(crate) fn write_outputs(
    config: &SelfplayConfig,
    outcome: &SelfplayOutcome,
    manifest: &Manifest,
) -> Result<(), SelfplayError> {
    let extras = PgnExtras {
        scores: config.keep_scores,
        processes: processes_label(config.options.shared_process),
        variant: config.variant(),
    };
    write_run_outputs(
        &config.out,
        &outcome.journal,
        &|key| wanted(config, key.setup, key.game),
        &extras,
        &outcome.positions,
        &manifest.to_json()?,
        manifest.match_json()?.as_deref(),
    )
}
