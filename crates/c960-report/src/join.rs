//! The per-position table: the static features of all 960 positions
//! joined on SP with each run's columns (prefixed with the run's label),
//! one row per SP in order, then the first moves of the game runs and the
//! verdicts. Each run's table is checked before it is used (its seal, and
//! that the manifest inside it is the run's `manifest.json`). Written as
//! `positions.parquet` (with the inputs' provenance) and `positions.csv`,
//! and one `first-moves-{label}.csv` per game run.

use std::{
    collections::BTreeMap,
    fs,
    path::{Path, PathBuf},
};

use c960_store::{
    CorruptFile, Frame, PARQUET_MANIFEST_KEY, POSITIONS_CSV, POSITIONS_TABLE, RunKind, RunManifest,
    SOURCES_KEY, check_parquet, write_atomically,
};
use polars::prelude::*;

use crate::{ReportError, Source, balance, bounds::Bounds, features_frame, source};

// The columns taken from each kind of run, as the writers write them: a
// sweep's search columns (and its means over repeats), a game run's summary
// columns between its game counts and its termination counts.
pub(crate) use c960_store::columns::SWEEP_REPEAT_MEANS as REPEAT_COLUMNS;
use c960_store::columns::{GAME_SUMMARY as GAME_COLUMNS, SWEEP_SEARCH as SWEEP_COLUMNS};
/// The termination columns of position tables, with their names in words.
pub use c960_store::columns::{IMPORT_TERMINATIONS, SELFPLAY_TERMINATIONS as TERMINATIONS};

/// The opening trees of one self-play run, by SP.
pub type Trees = BTreeMap<u16, c960_games::Tree>;

/// Columns taken from a run of `kind`'s table, in table order: a game
/// run's game counts, [`GAME_COLUMNS`], then its termination columns
/// ([`TERMINATIONS`] or [`IMPORT_TERMINATIONS`]) after the three shared.
fn run_columns(kind: RunKind) -> Vec<&'static str> {
    let (counts, terminations): (&[&str], &[(&str, &str)]) = match kind {
        RunKind::Sweep => return SWEEP_COLUMNS.to_vec(),
        RunKind::Selfplay => (&["games", "distinct_games"], &TERMINATIONS),
        RunKind::Import => (&["games"], &IMPORT_TERMINATIONS),
    };
    let mut columns = counts.to_vec();
    columns.extend(GAME_COLUMNS);
    columns.extend(terminations[3..].iter().map(|(column, _)| *column));
    columns
}

/// The per-position table, the runs it was joined from, and each sweep's
/// bounds.
pub type PerPosition = (DataFrame, Vec<Source>, Vec<Bounds>);

/// The per-position table: features, then each run's columns prefixed
/// with its label (`{label}__score_cp`, ...), one row per SP in order;
/// with the runs, and each sweep's `bound` column, read in the same pass.
pub fn per_position(runs: &[PathBuf]) -> Result<PerPosition, ReportError> {
    let mut sources: Vec<Source> = Vec::new();
    let mut bounds = Vec::new();
    for dir in runs {
        let source = source(dir)?;
        if let Some(first) = sources.iter().find(|s| s.label == source.label) {
            return Err(ReportError::Duplicate {
                label: source.label,
                first: first.dir.clone(),
                second: dir.clone(),
            });
        }
        sources.push(source);
    }
    let mut table = features_frame()?;
    for source in &sources {
        let file = source.kind.table();
        let path = source.table.clone();
        // A FIFO there is no table (and would block its read), not a
        // missing one.
        if let Err(e) = c960_store::check_input(&path) {
            return Err(ReportError::BadRun {
                dir: source.dir.clone(),
                reason: if c960_store::is_bad_input(&e) {
                    format!("{file}: {e}")
                } else {
                    format!("{file} is missing")
                },
            });
        }
        check_table(source, &path)?;
        let columns = columns_of(source);
        let mut wanted = vec!["sp".to_owned()];
        wanted.extend(columns.iter().cloned());
        // A table from an older c960 or another tool lacks columns the
        // report shows: refused naming the first, never polars' words.
        let names = c960_store::parquet_column_names(&path)?;
        if let Some(missing) = wanted.iter().find(|c| !names.contains(c)) {
            return Err(ReportError::BadRun {
                dir: source.dir.clone(),
                reason: format!(
                    "{} has no column {missing}: not a {} table this c960 reads (made by an \
                     older c960 or another tool?)",
                    if source.dir == path { "it" } else { file },
                    source.kind.name()
                ),
            });
        }
        // A sweep's `bound` column (whether each score is exact) is read in
        // the same pass, for the pages; it is not one of the table's columns.
        if source.kind == RunKind::Sweep && names.iter().any(|n| n == "bound") {
            wanted.push("bound".to_owned());
        }
        let mut run = c960_store::parquet_columns(&path, wanted)?;
        if source.kind == RunKind::Sweep {
            let (rest, by_sp) = crate::bounds::take(run)?;
            run = rest;
            bounds.push(Bounds {
                label: source.label.clone(),
                by_sp,
            });
        }
        for c in &columns {
            run.rename(c, format!("{}__{c}", source.label).into())?;
        }
        table = join_on_sp(&table, &run)?;
    }
    Ok((sorted_by_sp(&table)?, sources, bounds))
}

/// The columns taken from `source`'s table: [`run_columns`], and a
/// sweep's best moves and means over repeats.
fn columns_of(source: &Source) -> Vec<String> {
    let mut columns: Vec<String> = run_columns(source.kind)
        .into_iter()
        .map(str::to_owned)
        .collect();
    if source.kind == RunKind::Sweep {
        // The engine's best moves, one set of columns per MultiPV line.
        for k in 1..=source.manifest.lines() {
            for field in ["san", "cp", "mate"] {
                columns.push(format!("move{k}_{field}"));
            }
        }
        // With repeats: the means over them, which rankings use.
        if source.manifest.searches() > 1 {
            columns.extend(REPEAT_COLUMNS.map(str::to_owned));
        }
    }
    columns
}

/// Checks a run's table before it is used: it is intact (its seal, if it
/// has one), and the manifest inside it, if any, is the run's
/// `manifest.json` (which labels its columns), with as many rows.
fn check_table(source: &Source, path: &Path) -> Result<(), ReportError> {
    let manifest = crate::manifest_path(&source.dir);
    let manifest = manifest
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let info = check_parquet(path)?;
    let corrupt = |reason: String| CorruptFile {
        path: path.to_owned(),
        reason,
    };
    if let Some(inside) = info.get(PARQUET_MANIFEST_KEY) {
        let inside = RunManifest::parse(inside)
            .map_err(|e| corrupt(format!("the manifest inside it cannot be read ({e})")))?;
        if inside != source.manifest {
            return Err(ReportError::BadRun {
                dir: source.dir.clone(),
                reason: format!(
                    "{manifest} does not match the manifest inside {} (edited?)",
                    path.file_name()
                        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
                ),
            });
        }
    }
    if source.kind == RunKind::Sweep
        && info.get(PARQUET_MANIFEST_KEY).is_none()
        && let Some(limit) = source.manifest.limit.as_deref()
    {
        // The limit labels the run's columns: in a table without its own
        // manifest, every row must have the limit manifest.json says.
        let limits = c960_store::parquet_columns(path, vec!["limit".to_owned()])?;
        let column = limits.column("limit")?.str()?.clone();
        if let Some(other) = column.iter().flatten().find(|l| *l != limit) {
            return Err(ReportError::BadRun {
                dir: source.dir.clone(),
                reason: format!("{manifest} says limit {limit:?} but rows were made at {other:?}"),
            });
        }
    }
    if source.kind == RunKind::Sweep
        && let Some(rows) = source.manifest.rows
        && usize::try_from(rows).ok() != Some(info.rows)
    {
        return Err(corrupt(format!(
            "holds {} rows but its manifest says {rows}",
            info.rows
        ))
        .into());
    }
    Ok(())
}

/// Adds each self-play run's first-move columns to `frame`:
/// `{label}__first_move` (the most played first move, SAN),
/// `{label}__first_move_share` (its share of the position's games) and
/// `{label}__first_moves` (how many different first moves were played).
pub(crate) fn with_first_moves(
    frame: DataFrame,
    trees: &[(String, Trees)],
) -> Result<DataFrame, ReportError> {
    let mut table = frame;
    for (label, by_sp) in trees {
        // SP, the most played first move, its share and how many first
        // moves were played, for each position with games.
        let rows: Vec<(u32, String, f64, u32)> = by_sp
            .iter()
            .filter_map(|(position, tree)| {
                let next = tree.next_moves("");
                let top = next.first()?;
                Some((
                    u32::from(*position),
                    top.san[0].clone(),
                    tree.share(top),
                    u32::try_from(next.len()).unwrap_or(u32::MAX),
                ))
            })
            .collect();
        let columns = Frame::new(&rows)
            .column("sp", |r| r.0)
            .column(format!("{label}__first_move"), |r| r.1.as_str())
            .column(format!("{label}__first_move_share"), |r| r.2)
            .column(format!("{label}__first_moves"), |r| r.3)
            .build()?;
        table = join_on_sp(&table, &columns)?;
    }
    sorted_by_sp(&table)
}

/// The verdict columns joined to the table on SP: the verdict, its
/// q-value, the published estimate with its interval, and the method.
pub(crate) fn with_verdicts(
    frame: &DataFrame,
    balance: &balance::Balance,
) -> Result<DataFrame, ReportError> {
    use c960_store::columns::balance as column;
    let frame_of = balance.frame()?;
    // The draw chance and expected score where the raters report WDL.
    let outcome = [
        column::DRAW_CHANCE,
        column::DRAW_CHANCE_LOW,
        column::DRAW_CHANCE_HIGH,
        column::WHITE_EXPECTED,
        column::WHITE_EXPECTED_LOW,
        column::WHITE_EXPECTED_HIGH,
    ];
    let names: Vec<&str> = [
        column::SP,
        column::VERDICT,
        column::Q_VALUE,
        column::ESTIMATE,
        column::LOW,
        column::HIGH,
        column::METHOD,
    ]
    .into_iter()
    .chain(
        outcome
            .into_iter()
            .chain(c960_store::columns::difficulty::MEASURES)
            .filter(|c| frame_of.column(c).is_ok()),
    )
    .collect();
    let verdicts = frame_of.select(names)?;
    sorted_by_sp(&join_on_sp(frame, &verdicts)?)
}

/// `base` left-joined with `other` on `sp`: every row of `base` in its
/// order, each followed by `other`'s columns for every row with the same
/// SP (in `other`'s order), or nulls where there is none.
fn join_on_sp(base: &DataFrame, other: &DataFrame) -> Result<DataFrame, ReportError> {
    let sps = |frame: &DataFrame| -> PolarsResult<Vec<Option<u32>>> {
        Ok(frame
            .column("sp")?
            .cast(&DataType::UInt32)?
            .u32()?
            .iter()
            .collect())
    };
    let mut rows: std::collections::HashMap<u32, Vec<IdxSize>> = std::collections::HashMap::new();
    for (i, sp) in sps(other)?.into_iter().enumerate() {
        if let Some(sp) = sp {
            rows.entry(sp).or_default().push(i as IdxSize);
        }
    }
    let (mut left, mut right) = (Vec::new(), Vec::new());
    for (i, sp) in sps(base)?.into_iter().enumerate() {
        if let Some(matches) = sp.and_then(|sp| rows.get(&sp)) {
            for &j in matches {
                left.push(i as IdxSize);
                right.push(Some(j));
            }
        } else {
            left.push(i as IdxSize);
            right.push(None);
        }
    }
    let mut joined = base.take(&IdxCa::from_vec("left".into(), left))?;
    let columns = other.drop("sp")?;
    let columns = columns.take(&IdxCa::from_iter_options("right".into(), right.into_iter()))?;
    joined.hstack_mut(columns.columns())?;
    Ok(joined)
}

/// `frame` in SP order (rows of one SP keep their order).
fn sorted_by_sp(frame: &DataFrame) -> Result<DataFrame, ReportError> {
    Ok(frame.sort(
        ["sp"],
        SortMultipleOptions::default().with_maintain_order(true),
    )?)
}

/// Writes the table as `positions.parquet` (sources in the metadata) and
/// `positions.csv` into `dir`, atomically.
pub fn write_table(dir: &Path, frame: &DataFrame, sources: &[Source]) -> Result<(), ReportError> {
    fs::create_dir_all(dir)?;
    let provenance = serde_json::json!({
        "c960_version": env!("CARGO_PKG_VERSION"),
        "sources": sources,
    })
    .to_string();
    let mut frame = frame.clone();
    write_atomically(&dir.join(POSITIONS_TABLE), |out| {
        c960_store::write_sealed(
            out,
            &mut frame,
            vec![(SOURCES_KEY.to_owned(), provenance.clone())],
        )
    })?;
    write_atomically(&dir.join(POSITIONS_CSV), |out| {
        c960_store::write_csv(out, &mut frame)
    })?;
    Ok(())
}

/// Writes `first-moves-{label}.csv`: every first move played in a
/// self-play run, per position, with its games, share and White's score,
/// and the first sweep's best first move beside it (`engine_best_move`).
pub(crate) fn write_first_moves(
    out: &Path,
    frame: &DataFrame,
    label: &str,
    trees: &Trees,
    sources: &[Source],
) -> Result<(), ReportError> {
    // The trees hold every first move already: no second read of the games.
    let rows = c960_games::first_moves_of(trees);
    let mut table = c960_games::first_moves_frame(&rows)?;
    let best = match sources.iter().find(|s| s.kind == RunKind::Sweep) {
        Some(sweep) => Some(
            frame
                .column(&format!("{}__best_move_san", sweep.label))?
                .str()?
                .clone(),
        ),
        None => None,
    };
    Frame::new(&rows)
        .column("engine_best_move", |r| {
            best.as_ref()
                .and_then(|b| b.get(usize::from(r.sp)))
                .map(str::to_owned)
        })
        .append_to(&mut table)?;
    write_atomically(&out.join(format!("first-moves-{label}.csv")), |file| {
        c960_store::write_csv(file, &mut table)
    })?;
    Ok(())
}
