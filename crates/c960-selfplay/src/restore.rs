//! `c960 restore`: a self-play run directory rebuilt from the game table
//! it published (`games.parquet`, which carries the run's manifest in its
//! metadata).
//!
//! A published dataset ships the game table, not the journal. From the
//! table alone this writes what the run itself wrote: the journal (with
//! the settings line `c960 selfplay` writes for those settings, so the
//! same command adds games to the restored run), the PGN, the game and
//! position tables and the manifest, unchanged. The report then reads the
//! restored directory as it read the original one.
//!
//! Every game is checked as a resume checks a journaled game (a real
//! start position, legal moves, an ending that follows from them, the
//! run's limit), and the table must hold the number of games its manifest
//! states. The games are read a row group (2,048 games) at a time, twice
//! (checked and counted, then copied into the journal), so memory holds
//! one chunk however large the table. Runs whose table does not hold
//! everything their outputs were made from are refused: adaptive runs
//! (their rounds), runs from an opening book (the book lines) and runs on
//! the clock (the time controls).

use std::{collections::BTreeMap, io, path::Path};

use c960_core::{Setup, Variant};
use c960_store::{
    GameSlices, Journal, PARQUET_MANIFEST_KEY, RunDir, RunKind, RunManifest, check_parquet,
    manifest::{PROCESS_PER_SIDE, SHARED_PROCESS, SelfplayManifest},
    polars_reason,
};
use polars::prelude::*;

use crate::{
    Castling, GameRecord, JOURNAL_FILE, MANIFEST_FILE, Outcome, PairTally, PgnExtras,
    PositionStats, PositionSummary, SelfplayError, Termination,
    checks::{check_game, game_limits},
    prepared::Settings,
    tables::MatchRun,
    write_run_outputs,
};

/// What a restore wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RestoreOutcome {
    /// Games in the restored run.
    pub games: u64,
    /// Positions in its position table.
    pub positions: usize,
    /// The engines, as the manifest names them.
    pub engines: Vec<String>,
}

/// Rebuilds the self-play run directory `out` from the game table at
/// `table` (see the module documentation). `out` must not hold a run.
///
/// # Errors
/// [`SelfplayError::Invalid`] for a table that is not a c960 self-play
/// game table, one whose games do not check, or a run it cannot restore;
/// I/O errors otherwise.
pub fn restore(table: &Path, out: &Path) -> Result<RestoreOutcome, SelfplayError> {
    let invalid = |reason: String| SelfplayError::Invalid(format!("{}: {reason}", table.display()));
    let Table {
        manifest_json,
        plan,
        positions,
        stats,
        pairs,
        keep_scores,
    } = read_table(table).map_err(invalid)?;

    c960_store::create_dir(out)?;
    let _dir = RunDir::lock(out).map_err(io::Error::other)?;
    for existing in [JOURNAL_FILE, MANIFEST_FILE] {
        if out.join(existing).exists() {
            return Err(SelfplayError::Invalid(format!(
                "{} already holds a run ({existing}); restore into a new directory",
                out.display()
            )));
        }
    }

    let paired = plan.engines.len() > 1;
    let shared = plan.processes == SHARED_PROCESS;
    let settings = Settings {
        engine: &plan.engines[0],
        engine_b: plan.engines.get(1),
        limit: plan.limit,
        jitter: plan.jitter,
        rules: plan.rules,
        seed: plan.seed,
        keep_scores,
        processes: (!paired && !shared).then_some(PROCESS_PER_SIDE),
        limit_b: plan.limit_b,
        time_margin_ms: None,
        openings: None,
        variant: plan.variant,
    };
    // The games a second time, a row group at a time, into the journal.
    let journal = out.join(JOURNAL_FILE);
    Journal::write_whole_with(&journal, &settings, |append| {
        for_each_chunk(table, plan.variant, |games| {
            games.iter().try_for_each(&mut *append)
        })
    })?;
    let match_json = paired.then(|| match_json(&plan, &pairs)).transpose()?;
    let summaries: Vec<PositionSummary> = PositionStats::rows(&positions, &stats, paired);
    let extras = PgnExtras {
        scores: settings.keep_scores,
        processes: crate::processes_label(shared),
        variant: plan.variant,
    };
    write_run_outputs(
        out,
        &journal,
        &|_| true,
        &extras,
        &summaries,
        &manifest_json,
        match_json.as_deref(),
    )?;
    Ok(RestoreOutcome {
        games: plan.games,
        positions: summaries.len(),
        engines: plan.engines.iter().map(|e| e.name.clone()).collect(),
    })
}

/// The `match.json` of a paired run, from its manifest and its games'
/// tally.
fn match_json(plan: &SelfplayManifest, pairs: &PairTally) -> io::Result<String> {
    let sprt = plan
        .match_stats
        .as_ref()
        .and_then(|m| m.sprt.as_ref())
        .map(|s| s.settings);
    let run = MatchRun {
        c960_version: &plan.c960_version,
        engines: &plan.engines,
        limit: plan.limit,
        limit_b: plan.limit_b,
        positions: &plan.positions,
        seed: plan.seed,
        replays_exactly: plan.replays_exactly,
        finished: &plan.finished,
    };
    run.render(&pairs.stats(sprt))
}

/// A game table read and checked, with its games' statistics.
struct Table {
    /// Its manifest, as written.
    manifest_json: String,
    plan: SelfplayManifest,
    /// The run's positions.
    positions: Vec<Setup>,
    /// Per-position statistics of the games.
    stats: BTreeMap<u32, PositionStats>,
    /// Engine A's pairs against B (two engines).
    pairs: PairTally,
    /// Whether the games carry their scores.
    keep_scores: bool,
}

/// Games read at a time: one of the game table's row groups of 2,048 (a
/// game record holds every move, so slices stay small).
const CHUNK: usize = 2_048;

/// Hands the games of `table` to `each` a chunk at a time, in row order,
/// so memory holds one chunk however large the table.
fn for_each_chunk(
    table: &Path,
    variant: Variant,
    mut each: impl FnMut(&[GameRecord]) -> io::Result<()>,
) -> io::Result<()> {
    let invalid = |reason: String| io::Error::new(io::ErrorKind::InvalidData, reason);
    let slices = GameSlices::open(table).map_err(|e| invalid(polars_reason(&e)))?;
    for slice in slices.slices(None, CHUNK) {
        let (offset, frame) = slice.map_err(|e| invalid(polars_reason(&e)))?;
        each(&games_of(&frame, variant, offset).map_err(invalid)?)?;
    }
    Ok(())
}

/// The manifest of the game table at `table` (as written, and read),
/// refused unless it is a self-play run this can restore whose games the
/// table holds.
fn read_plan(table: &Path) -> Result<(String, SelfplayManifest), String> {
    let info = check_parquet(table).map_err(|e| e.reason)?;
    let manifest_json = info
        .get(PARQUET_MANIFEST_KEY)
        .ok_or("no c960 manifest in its metadata: not a c960 game table")?
        .to_owned();
    // The store's typed reader says what kind of run wrote the table.
    let kind = RunManifest::parse(&manifest_json)
        .map_err(|e| format!("its manifest cannot be read: {e}"))?
        .kind;
    if kind != RunKind::Selfplay {
        return Err(format!(
            "a {} table, not a self-play game table",
            kind.name()
        ));
    }
    let plan: SelfplayManifest = serde_json::from_str(&manifest_json)
        .map_err(|e| format!("its manifest cannot be read: {e}"))?;
    refuse_unrestorable(&plan)?;
    // A table without the game columns is refused as such before its rows
    // are counted.
    let first = GameSlices::open(table)
        .and_then(|t| t.read(None, 0, 1))
        .map_err(|e| polars_reason(&e))?;
    games_of(&first, plan.variant, 0)?;
    if info.rows as u64 != plan.games {
        return Err(format!(
            "{} games, but its manifest says the run has {}",
            info.rows, plan.games
        ));
    }
    Ok((manifest_json, plan))
}

/// Reads the game table at `table` with its manifest and checks every
/// game; says in words why a table cannot be restored.
fn read_table(table: &Path) -> Result<Table, String> {
    let (manifest_json, plan) = read_plan(table)?;
    let limits = game_limits(plan.limit, plan.limit_b);
    let paired = plan.engines.len() > 1;
    let positions = Setup::parse_set(plan.variant, &plan.positions)
        .map_err(|e| format!("manifest positions {:?}: {e}", plan.positions))?;
    let sps: std::collections::BTreeSet<u32> = positions.iter().map(|p| p.id()).collect();
    let per_position = Some(plan.games_per_position)
        .filter(|n| *n > 0)
        .ok_or("its manifest says no games_per_position")?;
    let mut seen = std::collections::BTreeSet::new();
    let mut stats: BTreeMap<u32, PositionStats> = BTreeMap::new();
    let mut pairs = PairTally::default();
    let mut keep_scores = None;
    let mut problem = None;
    let read = for_each_chunk(table, plan.variant, |games| {
        for game in games {
            let checked = check_game(game, &limits, plan.variant).and_then(|()| {
                let label = || format!("{} game {}", plan.variant.label(game.sp), game.game);
                if !seen.insert((game.sp, game.game)) {
                    return Err(format!("{} appears twice", label()));
                }
                // A row must be a game of the run its manifest describes.
                if !sps.contains(&game.sp) {
                    return Err(format!(
                        "{} is not among the run's positions {}",
                        label(),
                        plan.positions
                    ));
                }
                if game.game >= per_position {
                    return Err(format!(
                        "{} is beyond the run's {per_position} games per position",
                        label()
                    ));
                }
                if *keep_scores.get_or_insert(game.scores.is_some()) != game.scores.is_some() {
                    return Err(format!(
                        "{} has scores where the others have none, or none where they have",
                        label()
                    ));
                }
                Ok(())
            });
            if let Err(reason) = checked {
                problem = Some(reason);
                return Err(io::Error::other("a game does not check"));
            }
            stats.entry(game.sp).or_default().add(game, paired);
            if paired {
                pairs.add(game);
            }
        }
        Ok(())
    });
    if let Some(reason) = problem {
        return Err(reason);
    }
    read.map_err(|e| e.to_string())?;
    Ok(Table {
        manifest_json,
        plan,
        positions,
        stats,
        pairs,
        keep_scores: keep_scores.unwrap_or(false),
    })
}

/// Why a run cannot be restored from its game table, if it cannot.
fn refuse_unrestorable(plan: &SelfplayManifest) -> Result<(), String> {
    if plan.engines.is_empty() || plan.engines.len() > 2 {
        return Err(format!(
            "its manifest names {} engines; a self-play run has one or two",
            plan.engines.len()
        ));
    }
    let missing = if plan.adaptive.is_some() || plan.round.is_some() {
        Some("an adaptive run: its rounds (rounds.jsonl) and anytime intervals")
    } else if plan.openings.is_some() {
        Some("a run from an opening book: the book's lines")
    } else if plan.time_margin_ms.is_some() {
        Some("a run on the clock: each game's time controls")
    } else {
        None
    };
    match missing {
        Some(what) => Err(format!(
            "{what} are not in a game table, so the run cannot be restored from it; \
             use its published position table"
        )),
        None => Ok(()),
    }
}

/// A side's castling from its table cells: none, or a side (`a` or `h`)
/// at a ply; `at` places a refusal.
fn castling_of(
    side: Option<&str>,
    ply: Option<u64>,
    at: &dyn Fn(&str) -> String,
) -> Result<Option<Castling>, String> {
    match (side, ply) {
        (None, None) => Ok(None),
        (Some("a"), Some(ply)) => Ok(Some(Castling {
            ply: u32::try_from(ply).map_err(|e| at(&e.to_string()))?,
            side: 'a',
        })),
        (Some("h"), Some(ply)) => Ok(Some(Castling {
            ply: u32::try_from(ply).map_err(|e| at(&e.to_string()))?,
            side: 'h',
        })),
        (side, ply) => Err(at(&format!("castling side {side:?} at ply {ply:?}"))),
    }
}

/// The games of a slice of the table that starts at row `offset`, in row
/// order.
fn games_of(frame: &DataFrame, variant: Variant, offset: usize) -> Result<Vec<GameRecord>, String> {
    let column = |name: &str| {
        frame
            .column(name)
            .map_err(|_| format!("no {name} column: not a self-play game table"))
    };
    let numbers = |name: &str| -> Result<Vec<Option<u64>>, String> {
        let c = column(name)?
            .cast(&DataType::UInt64)
            .map_err(|e| format!("column {name}: {e}"))?;
        Ok(c.u64().map_err(|e| e.to_string())?.iter().collect())
    };
    let texts = |name: &str| -> Result<Vec<Option<String>>, String> {
        let c = column(name)?
            .cast(&DataType::String)
            .map_err(|e| format!("column {name}: {e}"))?;
        Ok(c.str()
            .map_err(|e| e.to_string())?
            .iter()
            .map(|v| v.map(str::to_owned))
            .collect())
    };
    let id = numbers(variant.id_column())?;
    let (game, seed, plies) = (numbers("game")?, numbers("seed")?, numbers("plies")?);
    let (white, black, limit) = (texts("white")?, texts("black")?, texts("limit")?);
    let (result, termination, moves) = (texts("result")?, texts("termination")?, texts("moves")?);
    let castle_side = [texts("white_castle_side")?, texts("black_castle_side")?];
    let castle_ply = [numbers("white_castle_ply")?, numbers("black_castle_ply")?];
    let scores = texts("scores")?;
    // Tables written before opening books have no book_plies: all zero.
    let book_plies = match frame.column("book_plies") {
        Ok(_) => numbers("book_plies")?,
        Err(_) => vec![Some(0); frame.height()],
    };
    (0..frame.height())
        .map(|i| {
            let at = |what: &str| format!("row {}: {what}", offset + i);
            let number = |c: &[Option<u64>], name: &str| -> Result<u32, String> {
                c[i].and_then(|v| u32::try_from(v).ok())
                    .ok_or_else(|| at(&format!("no {name}")))
            };
            let text = |c: &[Option<String>], name: &str| -> Result<String, String> {
                c[i].clone().ok_or_else(|| at(&format!("no {name}")))
            };
            let castling =
                |k: usize| castling_of(castle_side[k][i].as_deref(), castle_ply[k][i], &at);
            let result = text(&result, "result")?;
            let termination = text(&termination, "termination")?;
            let moves = text(&moves, "moves")?;
            Ok(GameRecord {
                sp: number(&id, variant.id_column())?,
                game: number(&game, "game")?,
                seed: seed[i].ok_or_else(|| at("no seed"))?,
                white: text(&white, "white")?,
                black: text(&black, "black")?,
                limit: text(&limit, "limit")?,
                result: Outcome::from_pgn(&result)
                    .ok_or_else(|| at(&format!("result {result:?}")))?,
                termination: Termination::from_name(&termination)
                    .ok_or_else(|| at(&format!("termination {termination:?}")))?,
                plies: number(&plies, "plies")?,
                moves: moves.split_whitespace().map(str::to_owned).collect(),
                white_castling: castling(0)?,
                black_castling: castling(1)?,
                scores: scores[i]
                    .as_deref()
                    .map(|s| {
                        s.split_whitespace()
                            .map(|v| v.parse::<i32>().map_err(|_| at(&format!("score {v:?}"))))
                            .collect::<Result<Vec<_>, _>>()
                    })
                    .transpose()?,
                time_controls: None,
                book_plies: number(&book_plies, "book_plies")?,
                opening: None,
                search_time: std::time::Duration::ZERO,
            })
        })
        .collect()
}
