//! Reading the run tables the verdicts are computed from: each game's
//! White score by position, and every search of a sweep.

use std::{
    collections::BTreeMap,
    io,
    path::{Path, PathBuf},
};

use c960_balance::consensus::MAX_SCORE;
use c960_core::POSITION_COUNT;
use polars::prelude::*;

use crate::VerdictError;

/// Reads the columns `needs` (and `optional` where present) of a table,
/// after checking it: its seal (if any) matches, it has the columns, and
/// it is a Chess960 table (positions in a column `sp`), not a Double
/// Fischer Random one.
pub(super) fn open_checked(
    path: &Path,
    needs: &[&str],
    optional: &[&str],
) -> Result<DataFrame, VerdictError> {
    c960_store::check_parquet(path)?;
    let names = c960_store::parquet_column_names(path)?;
    if !names.iter().any(|n| n == "sp") && names.iter().any(|n| n == "setup") {
        return Err(bad(
            path,
            "a Double Fischer Random table (it names setups, not SPs): c960 balance reads \
             Chess960 tables"
                .to_owned(),
        ));
    }
    if let Some(missing) = needs.iter().find(|c| !names.iter().any(|n| n == *c)) {
        return Err(bad(
            path,
            format!("not a table c960 balance reads: it has no column {missing}"),
        ));
    }
    let columns = needs
        .iter()
        .chain(optional.iter().filter(|c| names.iter().any(|n| n == *c)))
        .map(|c| (*c).to_owned())
        .collect();
    Ok(c960_store::parquet_columns(path, columns)?)
}

/// Scores of a games table per position, in game order.
pub(super) fn read_games(path: &Path) -> Result<BTreeMap<u16, Vec<f64>>, VerdictError> {
    let frame = open_checked(path, &["sp", "game", "white_score"], &[])?;
    let sp = frame.column("sp")?.cast(&DataType::UInt32)?;
    let game = frame.column("game")?.cast(&DataType::UInt64)?;
    let score = frame.column("white_score")?.cast(&DataType::Float64)?;
    let (sp, game, score) = (sp.u32()?, game.u64()?, score.f64()?);
    let mut rows: Vec<(u16, u64, f64)> = Vec::with_capacity(frame.height());
    for i in 0..frame.height() {
        if let (Some(s), Some(g), Some(x)) = (sp.get(i), game.get(i), score.get(i)) {
            let s = u16::try_from(s)
                .ok()
                .filter(|s| *s < POSITION_COUNT)
                .ok_or_else(|| bad(path, format!("row {i} has SP {s}, outside 0..=959")))?;
            if ![0.0, 0.5, 1.0].contains(&x) {
                return Err(bad(
                    path,
                    format!("row {i} has White's score {x}, not 0, ½ or 1"),
                ));
            }
            rows.push((s, g, x));
        }
    }
    rows.sort_by_key(|r| (r.0, r.1));
    if let Some(twice) = rows
        .windows(2)
        .find(|w| (w[0].0, w[0].1) == (w[1].0, w[1].1))
    {
        return Err(bad(
            path,
            format!("game {} of SP {} appears twice", twice[0].1, twice[0].0),
        ));
    }
    let mut out: BTreeMap<u16, Vec<f64>> = BTreeMap::new();
    for (s, _, x) in rows {
        out.entry(s).or_default().push(x);
    }
    Ok(out)
}

/// Options every c960 search sets the same way, left out of a rater's
/// name: one thread, the default hash, Chess960 mode, WDL output, and
/// contempt at 0.
const ROUTINE_OPTIONS: [&str; 7] = [
    "Threads=1",
    "Hash=16",
    "UCI_Chess960=true",
    "UCI_ShowWDL=true",
    "Contempt=0",
    "ContemptDrawPenalty=0",
    "ContemptComplexity=0",
];

/// Whether an option is one every c960 search sets the same way.
pub fn is_routine(name: &str, value: &str) -> bool {
    ROUTINE_OPTIONS.contains(&format!("{name}={value}").as_str())
}

/// A rater's name: engine and limit, with the options that set it apart
/// (`Stockfish 19 WASM nodes 1000000 (MultiPV=3, Hash=64)`).
pub(super) fn rater_name(engine: &str, limit: &str, options: &str) -> String {
    let distinct: Vec<&str> = options
        .split(", ")
        .map(str::trim)
        .filter(|o| !o.is_empty() && !ROUTINE_OPTIONS.contains(o))
        .collect();
    if distinct.is_empty() {
        format!("{engine} {limit}")
    } else {
        format!("{engine} {limit} ({})", distinct.join(", "))
    }
}

/// The centipawns a mate counts as (and the most any score counts as):
/// a mate in a start position is out of reach of any real search.
const MATE_CP: f64 = 1000.0;

/// The column `name` of `frame` as `to`; a cell that is not a number of
/// that type (text such as "abc", which a cast would make empty and so
/// drop its position) is bad input naming its row.
fn numbers(
    path: &Path,
    frame: &DataFrame,
    name: &str,
    to: &DataType,
) -> Result<Column, VerdictError> {
    let column = frame.column(name)?;
    let cast = column.cast(to)?;
    if cast.null_count() > column.null_count() {
        let text = column.cast(&DataType::String)?;
        let text = text.str()?;
        if let Some(i) = (0..cast.len())
            .find(|&i| cast.get(i).is_ok_and(|v| v.is_null()) && text.get(i).is_some())
        {
            return Err(bad(
                path,
                format!(
                    "row {i} has {name} {:?}, not a number",
                    text.get(i).unwrap_or_default()
                ),
            ));
        }
    }
    Ok(cast)
}

/// A sweep's rows: (rater name, SP, repeat, centipawns), and the WDL of
/// the searches that report one (rater name, SP, win, draw and loss per
/// mille). Each rater's positions appear once per repeat; scores must be
/// finite and within ±[`MAX_SCORE`]; a WDL must be three numbers in
/// 0..=1000 that sum to 1000.
pub(super) fn read_sweep(path: &Path, run: usize) -> Result<SweepRead, VerdictError> {
    let frame = open_checked(
        path,
        &[
            "sp",
            "engine",
            "limit",
            "engine_options",
            "score_cp",
            "score_mate",
        ],
        &["repeat", "wdl_win", "wdl_draw", "wdl_loss"],
    )?;
    let text = |name: &str| -> Result<Vec<String>, VerdictError> {
        let c = frame.column(name)?.cast(&DataType::String)?;
        let c = c.str()?;
        Ok((0..c.len())
            .map(|i| c.get(i).unwrap_or_default().to_owned())
            .collect())
    };
    let engine = text("engine")?;
    let limit = text("limit")?;
    let options = text("engine_options")?;
    let numbers = |name: &str, to: &DataType| numbers(path, &frame, name, to);
    let (sp, cp) = (
        numbers("sp", &DataType::UInt32)?,
        numbers("score_cp", &DataType::Float64)?,
    );
    let mate = numbers("score_mate", &DataType::Float64)?;
    let repeat = frame
        .column("repeat")
        .ok()
        .map(|_| numbers("repeat", &DataType::UInt64))
        .transpose()?;
    let (sp, cp, mate) = (sp.u32()?, cp.f64()?, mate.f64()?);
    let wdl_columns = wdl_columns(&frame)?;
    let mut wdl = Vec::new();
    let mut out = Vec::with_capacity(frame.height());
    let mut seen = std::collections::HashSet::new();
    for i in 0..frame.height() {
        let s = sp
            .get(i)
            .and_then(|s| u16::try_from(s).ok())
            .filter(|s| *s < POSITION_COUNT)
            .ok_or_else(|| bad(path, format!("row {i} has no SP in 0..=959")))?;
        // A mate in a start position is out of reach; treat it as ±10 pawns,
        // and a score beyond a mate's as a mate's.
        let value = match (cp.get(i), mate.get(i)) {
            (Some(v), _) if v.is_finite() && v.abs() <= MAX_SCORE => v.clamp(-MATE_CP, MATE_CP),
            (Some(v), _) => {
                return Err(bad(
                    path,
                    format!("row {i} (SP {s}) has the score {v} cp, outside ±{MAX_SCORE}"),
                ));
            }
            (None, Some(m)) => MATE_CP * m.signum(),
            (None, None) => continue,
        };
        let r = repeat
            .as_ref()
            .and_then(|c| c.u64().ok().and_then(|c| c.get(i)));
        let rater = rater_name(&engine[i], &limit[i], &options[i]);
        if !seen.insert((rater.clone(), s, r)) {
            return Err(bad(
                path,
                match r {
                    None => format!(
                        "SP {s} appears twice for {rater} and the table has no repeat column \
                         (a table of repeats numbers them)"
                    ),
                    Some(r) => format!("SP {s} repeat {r} appears twice for {rater}"),
                },
            ));
        }
        if let [Some(w), Some(d), Some(l)] = &wdl_columns
            && let (Some(w), Some(d), Some(l)) = (w[i], d[i], l[i])
        {
            wdl.push((rater.clone(), s, checked_wdl(path, i, s, [w, d, l])?));
        }
        let r = r.map_or_else(|| format!("run{run}"), |r| format!("run{run}.{r}"));
        out.push((rater, s, r, value));
    }
    Ok(SweepRead { rows: out, wdl })
}

/// The table's win, draw and loss columns, where it has them.
fn wdl_columns(frame: &DataFrame) -> Result<[Option<Vec<Option<f64>>>; 3], VerdictError> {
    let column = |name: &str| -> Result<Option<Vec<Option<f64>>>, VerdictError> {
        match frame.column(name) {
            Ok(c) => Ok(Some(c.cast(&DataType::Float64)?.f64()?.iter().collect())),
            Err(_) => Ok(None),
        }
    };
    Ok([column("wdl_win")?, column("wdl_draw")?, column("wdl_loss")?])
}

/// A search's WDL, refused unless it is three shares per mille in
/// 0..=1000 that sum to 1000 (±2 for rounding).
fn checked_wdl(path: &Path, row: usize, sp: u16, wdl: [f64; 3]) -> Result<[f64; 3], VerdictError> {
    let [w, d, l] = wdl;
    if wdl
        .iter()
        .any(|v| !v.is_finite() || !(0.0..=1000.0).contains(v))
        || ((w + d + l) - 1000.0).abs() > 2.0
    {
        return Err(bad(
            path,
            format!(
                "row {row} (SP {sp}) has the WDL {w}/{d}/{l}: not three shares per mille that \
                 sum to 1000"
            ),
        ));
    }
    Ok(wdl)
}

/// What [`read_sweep`] reads.
pub(super) struct SweepRead {
    /// Every search: (rater, SP, repeat, centipawns).
    pub(super) rows: Vec<(String, u16, String, f64)>,
    /// The WDL of the searches that report one.
    pub(super) wdl: Vec<super::outcome::WdlRow>,
}

pub(super) fn io_error(path: &Path, e: &io::Error) -> VerdictError {
    VerdictError::Io(io::Error::new(
        e.kind(),
        format!("cannot read {}: {e}", path.display()),
    ))
}

pub(super) fn bad(path: &Path, reason: String) -> VerdictError {
    VerdictError::BadInput {
        path: path.to_owned(),
        reason,
    }
}

/// The table inside a run directory, or the file itself.
pub(super) fn table(path: &Path, name: &str) -> PathBuf {
    if path.is_dir() {
        path.join(name)
    } else {
        path.to_owned()
    }
}

/// The table of every search of a sweep: a sweep with repeats keeps them
/// in `repeats.parquet` beside its per-position `sweep.parquet`.
pub(super) fn searches(file: &Path) -> PathBuf {
    let repeats = file.with_file_name(c960_store::REPEATS_TABLE);
    if file
        .file_name()
        .is_some_and(|n| n == c960_store::SWEEP_TABLE)
        && repeats.is_file()
    {
        repeats
    } else {
        file.to_owned()
    }
}

/// The inputs read so far, so that none counts twice: one table named
/// twice, or two tables that hold the same rows, would make the same
/// evidence look like twice as much.
#[derive(Default)]
pub(super) struct Seen {
    paths: Vec<(PathBuf, PathBuf)>,
    contents: Vec<(PathBuf, [u8; 32])>,
}

impl Seen {
    pub(super) fn path(&mut self, file: &Path) -> Result<(), VerdictError> {
        let canonical = file.canonicalize().map_err(|e| io_error(file, &e))?;
        if let Some((first, _)) = self.paths.iter().find(|(_, c)| *c == canonical) {
            return Err(VerdictError::BadInput {
                path: file.to_owned(),
                reason: format!(
                    "given twice (also as {}): each table counts once",
                    first.display()
                ),
            });
        }
        self.paths.push((file.to_owned(), canonical));
        Ok(())
    }

    pub(super) fn content(&mut self, file: &Path, rows: &str) -> Result<(), VerdictError> {
        use sha2::{Digest, Sha256};
        let digest: [u8; 32] = Sha256::digest(rows.as_bytes()).into();
        if let Some((first, _)) = self.contents.iter().find(|(_, d)| *d == digest) {
            return Err(VerdictError::BadInput {
                path: file.to_owned(),
                reason: format!(
                    "holds the same rows as {}: the same searches or games would count twice",
                    first.display()
                ),
            });
        }
        self.contents.push((file.to_owned(), digest));
        Ok(())
    }
}
