//! The charts of one game run (self-play or imported games): White's score
//! per position with its interval, castling sides and timing from the game
//! table, and, against each sweep, the engine's score and how concentrated
//! the first moves are.

use c960_store::{GAMES_TABLE, GameSlices, RunKind, SLICE_ROWS};
use polars::prelude::*;

use super::{Shelf, count, pair_provenance, selfplay_provenance, sweep::sweep_scores};
use crate::{ReportError, Source, charts};

/// The charts of one self-play run, and of it against each sweep.
pub(super) fn selfplay_charts(
    shelf: &mut Shelf,
    frame: &DataFrame,
    source: &Source,
    sources: &[Source],
) -> Result<(), ReportError> {
    let line = selfplay_provenance(source);
    let what = if source.kind == RunKind::Import {
        "imported games"
    } else {
        "self-play"
    };
    let points = selfplay_scores(frame, source)?;
    let overall = overall_score(frame, source)?;
    let intervals = charts::Intervals {
        title: format!("White's score per position in {what}"),
        provenance: line.clone(),
        points: points.clone(),
        y_desc: "White's score (win 1, draw ½), with 95% interval".to_owned(),
        reference: overall.map(|v| (format!("all games: {v:.3}"), v)),
    };
    shelf.add(
        &format!(
            "White's score per position in {what} ({})",
            source.shown_name()
        ),
        &format!("selfplay-score-{}", source.label),
        &intervals,
    )?;
    let (sides, timing) = selfplay_castling(source, &line, what)?;
    shelf.add(
        &format!("Castling in {what} ({})", source.shown_name()),
        &format!("selfplay-castling-{}", source.label),
        &sides,
    )?;
    shelf.add(
        &format!("When castling happens in {what} ({})", source.shown_name()),
        &format!("selfplay-castling-timing-{}", source.label),
        &timing,
    )?;
    for sweep in sources.iter().filter(|s| s.kind == RunKind::Sweep) {
        against_sweep(shelf, frame, (source, sweep), &points, what)?;
    }
    Ok(())
}

/// The charts of the self-play run `source` (its scores `points`) against
/// the sweep `sweep`: engine score against game score, and how
/// concentrated the first moves are.
fn against_sweep(
    shelf: &mut Shelf,
    frame: &DataFrame,
    (source, sweep): (&Source, &Source),
    points: &[(u32, f64, f64, f64)],
    what: &str,
) -> Result<(), ReportError> {
    let scores: std::collections::HashMap<u32, f64> =
        sweep_scores(frame, sweep)?.into_iter().collect();
    let scatter = charts::Scatter {
        title: format!("Engine score against the score in {what}"),
        provenance: pair_provenance(sweep, source),
        points: points
            .iter()
            .filter_map(|p| Some((p.0, *scores.get(&p.0)?, p.1)))
            .collect(),
        x_desc: "engine score, centipawns (White's view)".to_owned(),
        y_desc: format!("White's score in {what}"),
        marked: None,
    };
    shelf.add(
        &format!(
            "Engine score against the score in {what} ({} × {})",
            sweep.rater(),
            source.shown_name()
        ),
        &format!("engine-vs-selfplay-{}-{}", sweep.label, source.label),
        &scatter,
    )?;
    let share = frame
        .column(&format!("{}__first_move_share", source.label))?
        .f64()?
        .clone();
    let concentration = charts::Scatter {
        title: "How concentrated play is, against White's advantage".to_owned(),
        provenance: pair_provenance(sweep, source),
        points: (0..frame.height())
            .filter_map(|row| {
                let sp = u32::try_from(row).ok()?;
                Some((sp, *scores.get(&sp)?, share.get(row)?))
            })
            .collect(),
        x_desc: "engine score, centipawns (White's view)".to_owned(),
        y_desc: "share of the most played first move".to_owned(),
        marked: None,
    };
    shelf.add(
        &format!(
            "Most played first move's share against engine score ({} × {})",
            sweep.rater(),
            source.shown_name()
        ),
        &format!("first-move-concentration-{}-{}", sweep.label, source.label),
        &concentration,
    )?;
    Ok(())
}

/// `(sp, score, low, high)` of a self-play run, for positions with games.
fn selfplay_scores(
    frame: &DataFrame,
    source: &Source,
) -> Result<Vec<(u32, f64, f64, f64)>, ReportError> {
    let sp = frame.column("sp")?.u32()?.clone();
    let column = |name: &str| -> Result<Float64Chunked, ReportError> {
        Ok(frame
            .column(&format!("{}__{name}", source.label))?
            .cast(&DataType::Float64)?
            .f64()?
            .clone())
    };
    let (score, low, high) = (
        column("white_score")?,
        column("white_score_low")?,
        column("white_score_high")?,
    );
    Ok((0..frame.height())
        .filter_map(|i| Some((sp.get(i)?, score.get(i)?, low.get(i)?, high.get(i)?)))
        .collect())
}

/// White's score over all games of a self-play run: the games' counts
/// summed over positions, scored by `c960_games::Counts`.
fn overall_score(frame: &DataFrame, source: &Source) -> Result<Option<f64>, ReportError> {
    let count = |name: &str| -> Result<u64, ReportError> {
        let column = frame
            .column(&format!("{}__{name}", source.label))?
            .cast(&DataType::UInt64)?;
        Ok(column.u64()?.sum().unwrap_or(0))
    };
    let (white_wins, draws, black_wins) =
        (count("white_wins")?, count("draws")?, count("black_wins")?);
    let counts = c960_games::Counts {
        games: white_wins + draws + black_wins,
        white_wins,
        draws,
        black_wins,
        anytime: None,
    };
    Ok((counts.games > 0).then(|| counts.white_score()))
}

/// The game table's columns the castling charts count.
const CASTLING_COLUMNS: [&str; 4] = [
    "white_castle_side",
    "white_castle_ply",
    "black_castle_side",
    "black_castle_ply",
];

/// The move bins of the castling timing chart: first and last move, label.
const CASTLING_BINS: [(u32, u32, &str); 6] = [
    (1, 5, "1–5"),
    (6, 10, "6–10"),
    (11, 15, "11–15"),
    (16, 20, "16–20"),
    (21, 30, "21–30"),
    (31, u32::MAX, "31 and later"),
];

/// Games castled per side and per move bin, by colour, and the games in
/// the table at `path`.
type CastlingCounts = ([[usize; 3]; 2], [[usize; 6]; 2], usize);

/// Counts the castling of the game table at `path`.
fn count_castling(path: &std::path::Path) -> Result<CastlingCounts, ReportError> {
    // Per colour: the games castled a-side, h-side and not at all, and
    // those castled at a move in each bin.
    let mut side_games = [[0usize; 3]; 2];
    let mut bin_games = [[0usize; 6]; 2];
    let mut rows = 0;
    let table = GameSlices::open(path)?;
    for slice in table.slices(Some(&CASTLING_COLUMNS), SLICE_ROWS) {
        let (_, games) = slice?;
        rows += games.height();
        for (k, colour) in ["white", "black"].into_iter().enumerate() {
            let side = games.column(&format!("{colour}_castle_side"))?.str()?;
            for s in side.iter() {
                match s {
                    Some("a") => side_games[k][0] += 1,
                    Some("h") => side_games[k][1] += 1,
                    None => side_games[k][2] += 1,
                    Some(_) => {}
                }
            }
            let ply = games.column(&format!("{colour}_castle_ply"))?.u32()?;
            for ply in ply.iter().flatten() {
                let m = ply.div_ceil(2);
                if let Some(bin) = CASTLING_BINS
                    .iter()
                    .position(|(f, l, _)| *f <= m && m <= *l)
                {
                    bin_games[k][bin] += 1;
                }
            }
        }
    }
    Ok((side_games, bin_games, rows))
}

/// Castling sides and timing of a self-play run, from its games table.
fn selfplay_castling(
    source: &Source,
    provenance: &str,
    what: &str,
) -> Result<(charts::Bars, charts::Bars), ReportError> {
    let path = source.dir.join(GAMES_TABLE);
    if let Err(e) = c960_store::check_input(&path) {
        return Err(ReportError::BadRun {
            dir: source.dir.clone(),
            reason: if c960_store::is_bad_input(&e) {
                format!("{GAMES_TABLE}: {e}")
            } else {
                format!("{GAMES_TABLE} is missing")
            },
        });
    }
    let (side_games, bin_games, rows) = count_castling(&path)?;
    let total = count(rows.max(1));
    let percent = |n: &usize| 100.0 * count(*n) / total;
    let sides: Vec<Vec<f64>> = side_games
        .iter()
        .map(|c| c.iter().map(percent).collect())
        .collect();
    let timing: Vec<Vec<f64>> = bin_games
        .iter()
        .map(|c| c.iter().map(percent).collect())
        .collect();
    let series = |values: Vec<Vec<f64>>| {
        ["White".to_owned(), "Black".to_owned()]
            .into_iter()
            .zip(values)
            .collect::<Vec<_>>()
    };
    Ok((
        charts::Bars {
            title: format!("Castling in {what}: which side"),
            provenance: provenance.to_owned(),
            categories: vec![
                "a-side (O-O-O)".to_owned(),
                "h-side (O-O)".to_owned(),
                "did not castle".to_owned(),
            ],
            series: series(sides),
            x_desc: "castling".to_owned(),
            y_desc: "% of games".to_owned(),
        },
        charts::Bars {
            title: format!("Castling in {what}: at which move"),
            provenance: provenance.to_owned(),
            categories: CASTLING_BINS.iter().map(|b| b.2.to_owned()).collect(),
            series: series(timing),
            x_desc: "move number of the castling move".to_owned(),
            y_desc: "% of games".to_owned(),
        },
    ))
}
