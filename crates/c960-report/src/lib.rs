//! c960-report: the data behind reports. Loads the static features of all
//! 960 positions, any number of sweep and self-play runs, and joins them on
//! SP with polars' lazy API into one tidy per-position table. Runs are kept
//! apart by provenance: each run's columns carry a label made from its
//! engine and limit, and two runs with the same label are refused.

pub mod balance;
pub mod board;
pub mod charts;
pub mod downloads;
mod features;
pub mod html;
pub mod sheet;
pub mod site;

use std::{
    collections::{BTreeMap, BTreeSet},
    fmt::Write as _,
    fs, io,
    path::{Path, PathBuf},
};

use c960_store::{CorruptFile, DirLock, LockError, check_parquet, quietly, write_atomically};
use polars::prelude::*;
use serde::Serialize;
use serde_json::Value;
use thiserror::Error;

pub use features::features_frame;

/// What kind of run a directory holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RunKind {
    /// `c960 sweep`: one engine evaluation per position.
    Sweep,
    /// `c960 selfplay`: games per position.
    Selfplay,
    /// `c960 import`: human games per position.
    Import,
}

impl RunKind {
    /// Whether the run holds games (self-play or imported).
    #[must_use]
    pub fn has_games(self) -> bool {
        matches!(self, RunKind::Selfplay | RunKind::Import)
    }
}

/// One input run and how it is labelled in the table.
#[derive(Clone, Debug, Serialize)]
pub struct Source {
    /// Sweep or self-play.
    pub kind: RunKind,
    /// Prefix of its columns, e.g. `sweep_stockfish_15_1_nodes_1000000`.
    pub label: String,
    /// The run directory.
    pub dir: PathBuf,
    /// Its manifest, as written by the run.
    pub manifest: Value,
    /// Units that failed in the run (SP and reason, one per failed
    /// position or game): the table has no numbers for them.
    pub failed: Vec<(u16, String)>,
}

impl Source {
    /// The run's failures in one line, if it has any: `2 failed positions
    /// (SP 5, 7)`.
    #[must_use]
    pub fn failures(&self) -> Option<String> {
        if self.failed.is_empty() {
            return None;
        }
        let unit = match self.kind {
            RunKind::Sweep => "position",
            RunKind::Selfplay | RunKind::Import => "game",
        };
        let sps: BTreeSet<u16> = self.failed.iter().map(|(sp, _)| *sp).collect();
        let mut listed: Vec<String> = sps.iter().take(10).map(|sp| format!("SP {sp}")).collect();
        if sps.len() > 10 {
            listed.push(format!("{} more", sps.len() - 10));
        }
        Some(format!(
            "{} failed {unit}{} ({})",
            self.failed.len(),
            if self.failed.len() == 1 { "" } else { "s" },
            listed.join(", ")
        ))
    }
}

/// Why the table cannot be made.
#[derive(Debug, Error)]
pub enum ReportError {
    /// A run directory that is missing files or is not a finished run.
    #[error("{}: {reason}", dir.display())]
    BadRun {
        /// The directory.
        dir: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// Two runs with the same engine and limit.
    #[error("{} and {} have the same provenance ({label}); give only one", first.display(), second.display())]
    Duplicate {
        /// The label both would get.
        label: String,
        /// The first run.
        first: PathBuf,
        /// The second run.
        second: PathBuf,
    },
    /// Reading or writing tables failed.
    #[error("{}", c960_store::polars_reason(.0))]
    Polars(#[from] PolarsError),
    /// Writing files failed.
    #[error(transparent)]
    Io(#[from] io::Error),
    /// A game table that cannot be replayed.
    #[error(transparent)]
    Openings(#[from] c960_openings::TreeError),
    /// An input table that is damaged or does not match its manifest.
    #[error(transparent)]
    Corrupt(#[from] CorruptFile),
    /// A run or the output is in use by another process.
    #[error(transparent)]
    Lock(#[from] LockError),
    /// Reading the inputs failed inside a dependency (damaged data).
    #[error("cannot read the inputs: {0}")]
    Unreadable(String),
}

impl ReportError {
    /// Whether the inputs (not the machine) are at fault: missing,
    /// damaged or inconsistent runs.
    #[must_use]
    pub fn is_bad_input(&self) -> bool {
        matches!(
            self,
            ReportError::BadRun { .. }
                | ReportError::Duplicate { .. }
                | ReportError::Corrupt(_)
                | ReportError::Unreadable(_)
        ) || matches!(self, ReportError::Io(e) if e.kind() == io::ErrorKind::InvalidInput)
    }
}

/// Plies of the opening trees in the report.
pub const TREE_PLIES: usize = 12;

/// The report's opening trees go below lines reached by at least this share
/// of a position's games (and list every first move).
pub const TREE_SHARE: f64 = 0.05;

/// The opening trees of one self-play run, by SP.
pub type Trees = BTreeMap<u16, c960_openings::Tree>;

/// Adds each self-play run's first-move columns to `frame`:
/// `{label}__first_move` (the most played first move, SAN),
/// `{label}__first_move_share` (its share of the position's games) and
/// `{label}__first_moves` (how many different first moves were played).
fn with_first_moves(frame: DataFrame, trees: &[(String, Trees)]) -> Result<DataFrame, ReportError> {
    let mut table = frame.lazy();
    for (label, by_sp) in trees {
        let mut sp = Vec::new();
        let mut first = Vec::new();
        let mut share = Vec::new();
        let mut distinct = Vec::new();
        for (position, tree) in by_sp {
            let next = tree.next_moves("");
            let Some(top) = next.first() else { continue };
            sp.push(u32::from(*position));
            first.push(top.san[0].clone());
            share.push(tree.share(top));
            distinct.push(u32::try_from(next.len()).unwrap_or(u32::MAX));
        }
        let columns = DataFrame::new(
            sp.len(),
            vec![
                Column::new("sp".into(), sp),
                Column::new(format!("{label}__first_move").into(), first),
                Column::new(format!("{label}__first_move_share").into(), share),
                Column::new(format!("{label}__first_moves").into(), distinct),
            ],
        )?;
        table = table.left_join(columns.lazy(), col("sp"), col("sp"));
    }
    Ok(table
        .sort(["sp"], SortMultipleOptions::default())
        .collect()?)
}

/// Columns taken from a sweep's table.
const SWEEP_COLUMNS: [&str; 10] = [
    "score_cp",
    "score_mate",
    "wdl_win",
    "wdl_draw",
    "wdl_loss",
    "depth",
    "nodes",
    "best_move_uci",
    "best_move_san",
    "pv_san",
];

/// Columns taken from a self-play run's position table.
const SELFPLAY_COLUMNS: [&str; 24] = [
    "games",
    "distinct_games",
    "white_wins",
    "draws",
    "black_wins",
    "white_score",
    "white_score_low",
    "white_score_high",
    "interval",
    "draw_rate",
    "white_castled_a",
    "white_castled_h",
    "black_castled_a",
    "black_castled_h",
    "white_median_castle_ply",
    "black_median_castle_ply",
    "checkmate",
    "stalemate",
    "insufficient_material",
    "threefold_repetition",
    "fifty_moves",
    "ply_cap",
    "resignation",
    "draw_adjudication",
];

/// Columns taken from an import's position table.
const IMPORT_COLUMNS: [&str; 23] = [
    "games",
    "white_wins",
    "draws",
    "black_wins",
    "white_score",
    "white_score_low",
    "white_score_high",
    "interval",
    "draw_rate",
    "white_castled_a",
    "white_castled_h",
    "black_castled_a",
    "black_castled_h",
    "white_median_castle_ply",
    "black_median_castle_ply",
    "checkmate",
    "stalemate",
    "insufficient_material",
    "resignation",
    "time_forfeit",
    "draw_agreed",
    "abandoned",
    "rules_infraction",
];

/// The termination columns among [`IMPORT_COLUMNS`], with their names.
pub const IMPORT_TERMINATIONS: [(&str, &str); 8] = [
    ("checkmate", "checkmate"),
    ("stalemate", "stalemate"),
    ("insufficient_material", "insufficient material"),
    ("resignation", "resignation"),
    ("time_forfeit", "time forfeit"),
    ("draw_agreed", "draw agreed"),
    ("abandoned", "abandoned"),
    ("rules_infraction", "rules infraction"),
];

/// The termination columns among [`SELFPLAY_COLUMNS`], with their names.
pub const TERMINATIONS: [(&str, &str); 8] = [
    ("checkmate", "checkmate"),
    ("stalemate", "stalemate"),
    ("insufficient_material", "insufficient material"),
    ("threefold_repetition", "threefold repetition"),
    ("fifty_moves", "fifty-move rule"),
    ("ply_cap", "ply cap"),
    ("resignation", "resignation"),
    ("draw_adjudication", "draw adjudication"),
];

/// Reads the manifest of the run in `dir` and labels it.
pub fn source(dir: &Path) -> Result<Source, ReportError> {
    let bad = |reason: String| ReportError::BadRun {
        dir: dir.to_owned(),
        reason,
    };
    let text = fs::read_to_string(dir.join("manifest.json")).map_err(|e| {
        bad(format!(
            "no manifest.json ({e}); is this a finished sweep or self-play run?"
        ))
    })?;
    let manifest: Value =
        serde_json::from_str(&text).map_err(|e| bad(format!("manifest.json is not JSON: {e}")))?;
    check_manifest(&manifest).map_err(|reason| bad(format!("manifest.json: {reason}")))?;
    let limit = manifest["limit"].as_str().unwrap_or("unknown limit");
    let (kind, engines) = match manifest["kind"].as_str() {
        Some("sweep") => (
            RunKind::Sweep,
            vec![manifest["engine"]["name"].as_str().unwrap_or("engine")],
        ),
        Some("selfplay") => (
            RunKind::Selfplay,
            manifest["engines"]
                .as_array()
                .map(|a| a.iter().filter_map(|e| e["name"].as_str()).collect())
                .unwrap_or_default(),
        ),
        Some("import") => (RunKind::Import, Vec::new()),
        other => return Err(bad(format!("unknown run kind {other:?} in manifest.json"))),
    };
    let mut label = match kind {
        RunKind::Sweep => format!("sweep {} {limit}", engines.join(" vs ")),
        RunKind::Selfplay => format!("selfplay {} {limit}", engines.join(" vs ")),
        RunKind::Import => format!(
            "import {}",
            dir.file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
        ),
    };
    if kind == RunKind::Sweep
        && let Some(k) = manifest["multipv"].as_u64()
        && k > 1
    {
        let _ = write!(label, " mpv{k}");
    }
    let failed = manifest["failed"]
        .as_array()
        .map(|failed| {
            failed
                .iter()
                .filter_map(|f| {
                    let sp = u16::try_from(f["sp"].as_u64()?).ok()?;
                    Some((sp, f["reason"].as_str().unwrap_or("failed").to_owned()))
                })
                .collect()
        })
        .unwrap_or_default();
    Ok(Source {
        kind,
        label: slug(&label),
        dir: dir.to_owned(),
        manifest,
        failed,
    })
}

/// Checks the fields a manifest's kind must have, with their types: they
/// label the run's columns, so a manifest without them cannot be used.
fn check_manifest(manifest: &Value) -> Result<(), String> {
    let text = |field: &str, value: &Value| match value {
        Value::String(s) if !s.is_empty() => Ok(()),
        _ => Err(format!("{field} must be a non-empty string")),
    };
    let number = |field: &str, value: &Value| match value {
        Value::Null => Ok(()),
        v if v.as_u64().is_some() => Ok(()),
        _ => Err(format!("{field} must be a whole number")),
    };
    match manifest["kind"].as_str() {
        Some("sweep") => {
            text("limit", &manifest["limit"])?;
            text("engine.name", &manifest["engine"]["name"])?;
            number("multipv", &manifest["multipv"])?;
            number("rows", &manifest["rows"])?;
            if manifest["multipv"].as_u64() == Some(0) {
                return Err("multipv must be at least 1".to_owned());
            }
        }
        Some("selfplay") => {
            text("limit", &manifest["limit"])?;
            let engines = manifest["engines"]
                .as_array()
                .filter(|a| !a.is_empty())
                .ok_or("engines must be a list of engines")?;
            for engine in engines {
                text("engines[].name", &engine["name"])?;
            }
        }
        _ => {}
    }
    if !manifest["failed"].is_null() && !manifest["failed"].is_array() {
        return Err("failed must be a list".to_owned());
    }
    Ok(())
}

/// Lower-case letters and digits joined by `_`.
fn slug(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('_') && !out.is_empty() {
            out.push('_');
        }
    }
    out.trim_end_matches('_').to_owned()
}

/// The per-position table: features, then each run's columns prefixed
/// with its label (`{label}__score_cp`, ...), one row per SP in order.
pub fn per_position(runs: &[PathBuf]) -> Result<(DataFrame, Vec<Source>), ReportError> {
    let mut sources: Vec<Source> = Vec::new();
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
    let mut table = features_frame()?.lazy();
    for source in &sources {
        let (file, columns): (&str, &[&str]) = match source.kind {
            RunKind::Sweep => ("sweep.parquet", &SWEEP_COLUMNS),
            RunKind::Selfplay => ("positions.parquet", &SELFPLAY_COLUMNS),
            RunKind::Import => ("positions.parquet", &IMPORT_COLUMNS),
        };
        let path = source.dir.join(file);
        if !path.is_file() {
            return Err(ReportError::BadRun {
                dir: source.dir.clone(),
                reason: format!("{file} is missing"),
            });
        }
        check_table(source, &path)?;
        let run = LazyFrame::scan_parquet(
            PlRefPath::from(path.to_string_lossy().as_ref()),
            ScanArgsParquet::default(),
        )?;
        let mut columns: Vec<String> = columns.iter().map(|c| (*c).to_owned()).collect();
        if source.kind == RunKind::Sweep {
            // The engine's best moves, one set of columns per MultiPV line.
            for k in 1..=source.manifest["multipv"].as_u64().unwrap_or(1) {
                for field in ["san", "cp", "mate"] {
                    columns.push(format!("move{k}_{field}"));
                }
            }
        }
        let mut exprs = vec![col("sp").cast(DataType::UInt32)];
        exprs.extend(
            columns
                .iter()
                .map(|c| col(c.as_str()).alias(format!("{}__{c}", source.label))),
        );
        table = table.left_join(run.select(exprs), col("sp"), col("sp"));
    }
    let frame = table
        .sort(["sp"], SortMultipleOptions::default())
        .collect()?;
    Ok((frame, sources))
}

/// Checks a run's table before it is used: it is intact (its seal, if it
/// has one), and the manifest inside it, if any, is the run's
/// `manifest.json` (which labels its columns), with as many rows.
fn check_table(source: &Source, path: &Path) -> Result<(), ReportError> {
    let info = check_parquet(path)?;
    let corrupt = |reason: String| CorruptFile {
        path: path.to_owned(),
        reason,
    };
    if let Some(inside) = info.get("c960.manifest") {
        let inside: Value = serde_json::from_str(inside)
            .map_err(|e| corrupt(format!("its manifest is not JSON: {e}")))?;
        if inside != source.manifest {
            return Err(ReportError::BadRun {
                dir: source.dir.clone(),
                reason: format!(
                    "manifest.json does not match the manifest inside {} (edited?)",
                    path.file_name()
                        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
                ),
            });
        }
    }
    if source.kind == RunKind::Sweep
        && info.get("c960.manifest").is_none()
        && let Some(limit) = source.manifest["limit"].as_str()
    {
        // The limit labels the run's columns: in a table without its own
        // manifest, every row must have the limit manifest.json says.
        let limits = LazyFrame::scan_parquet(
            PlRefPath::from(path.to_string_lossy().as_ref()),
            ScanArgsParquet::default(),
        )?
        .select([col("limit").unique()])
        .collect()?;
        let column = limits.column("limit")?.str()?.clone();
        if let Some(other) = column.iter().flatten().find(|l| *l != limit) {
            return Err(ReportError::BadRun {
                dir: source.dir.clone(),
                reason: format!(
                    "manifest.json says limit {limit:?} but rows were made at {other:?}"
                ),
            });
        }
    }
    if source.kind == RunKind::Sweep
        && let Some(rows) = source.manifest["rows"].as_u64()
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
    write_atomically(&dir.join("positions.parquet"), |out| {
        c960_store::write_sealed(
            out,
            &mut frame,
            vec![("c960.sources".to_owned(), provenance.clone())],
        )
    })?;
    write_atomically(&dir.join("positions.csv"), |out| {
        CsvWriter::new(out)
            .include_header(true)
            .finish(&mut frame)
            .map_err(io::Error::other)
    })?;
    Ok(())
}

/// Labels of the runs of `kind`, in input order.
#[must_use]
pub fn labels(sources: &[Source], kind: RunKind) -> BTreeSet<String> {
    sources
        .iter()
        .filter(|s| s.kind == kind)
        .map(|s| s.label.clone())
        .collect()
}

/// What `build` wrote.
#[derive(Clone, Debug)]
pub struct Built {
    /// The runs, as labelled.
    pub sources: Vec<Source>,
    /// Chart files (SVG and PNG), relative to the output directory.
    pub charts: Vec<PathBuf>,
    /// Pages written.
    pub pages: usize,
    /// The verdicts and each method's reliability, when the runs have
    /// games or sweeps.
    pub verdicts: Option<balance::Balance>,
}

/// Builds the whole report into `out`: the per-position table
/// (`positions.parquet`, `positions.csv`), the charts (`charts/*.svg` and
/// `*.png`) and the site (`index.html`, `fair.html`, `positions/*.html`).
///
/// The report is built in a temporary directory beside `out` and swapped
/// in as a whole: a report that fails or is killed leaves the previous
/// one as it was. The inputs are locked for reading and `out` for writing
/// meanwhile.
pub fn build(runs: &[PathBuf], out: &Path) -> Result<Built, ReportError> {
    let mut locks = Vec::new();
    for dir in runs {
        locks.push(DirLock::shared(dir)?);
    }
    let swap = site::Swap::begin(out)?;
    let built = match quietly(|| build_into(runs, swap.building())) {
        Ok(Ok(built)) => built,
        Ok(Err(e)) => {
            let building = swap.building().display().to_string();
            swap.abandon();
            // Name the files where they were going, not where they were built.
            return Err(match e {
                ReportError::Io(e) => ReportError::Io(io::Error::new(
                    e.kind(),
                    e.to_string().replace(&building, &out.display().to_string()),
                )),
                e => e,
            });
        }
        Err(panic) => {
            swap.abandon();
            return Err(ReportError::Unreadable(panic));
        }
    };
    swap.finish()?;
    drop(locks);
    Ok(built)
}

/// Builds the report into `out` (the directory that is swapped in).
fn build_into(runs: &[PathBuf], out: &Path) -> Result<Built, ReportError> {
    let (frame, sources) = per_position(runs)?;
    let mut trees: Vec<(String, Trees)> = Vec::new();
    let mut samples: Vec<(String, site::Samples)> = Vec::new();
    for source in sources.iter().filter(|s| s.kind.has_games()) {
        let games = source.dir.join("games.parquet");
        check_parquet(&games)?;
        trees.push((
            source.label.clone(),
            c960_openings::frequent_trees(&games, TREE_PLIES, TREE_SHARE)?,
        ));
        samples.push((
            source.label.clone(),
            downloads::sample_games(&games, downloads::PGN_SAMPLE, 0)?,
        ));
    }
    let frame = with_first_moves(frame, &trees)?;
    // Verdicts with error control from the same runs (balance.csv and
    // balance.json beside the table; their columns join the table).
    let games: Vec<PathBuf> = sources
        .iter()
        .filter(|s| s.kind.has_games())
        .map(|s| s.dir.join("games.parquet"))
        .collect();
    let sweeps: Vec<PathBuf> = sources
        .iter()
        .filter(|s| s.kind == RunKind::Sweep)
        .map(|s| s.dir.join("sweep.parquet"))
        .collect();
    let verdicts = if games.is_empty() && sweeps.is_empty() {
        None
    } else {
        let b = balance::compute(&games, &sweeps, balance::Settings::default())?;
        b.write(out)?;
        Some(b)
    };
    let frame = match &verdicts {
        Some(b) => with_verdicts(frame, b)?,
        None => frame,
    };
    write_table(out, &frame, &sources)?;
    for (label, by_sp) in &trees {
        write_first_moves(out, &frame, label, by_sp, &sources)?;
    }
    let mut shelf = Shelf {
        out: out.to_owned(),
        shown: Vec::new(),
        files: Vec::new(),
    };
    let weak_by_file = weak_pawns_by_file(&frame)?;
    shelf.add("Weak pawns by file", "weak-pawns-by-file", &weak_by_file)?;
    let castling = castling_opportunities(&frame)?;
    shelf.add(
        "Castling opportunities",
        "castling-opportunities",
        &castling,
    )?;
    for source in sources.iter().filter(|s| s.kind == RunKind::Sweep) {
        sweep_charts(&mut shelf, &frame, source)?;
    }
    for source in sources.iter().filter(|s| s.kind.has_games()) {
        selfplay_charts(&mut shelf, &frame, source, &sources)?;
    }
    site::write_site(
        out,
        &frame,
        &sources,
        &shelf.shown,
        &trees,
        &samples,
        verdicts.as_ref(),
    )?;
    Ok(Built {
        sources,
        charts: shelf.files,
        pages: frame.height() + 2,
        verdicts,
    })
}

/// The verdict columns joined to the table on SP: `verdict`, `q_value`,
/// `balance_estimate`, `balance_low`, `balance_high`, `verdict_method`.
fn with_verdicts(frame: DataFrame, balance: &balance::Balance) -> Result<DataFrame, ReportError> {
    let verdicts = balance.frame()?.lazy().select([
        col("sp").cast(DataType::UInt32),
        col("verdict"),
        col("q_value"),
        col("balance_estimate"),
        col("balance_low"),
        col("balance_high"),
        col("verdict_method"),
    ]);
    Ok(frame
        .lazy()
        .left_join(verdicts, col("sp"), col("sp"))
        .sort(["sp"], SortMultipleOptions::default())
        .collect()?)
}

/// Writes `first-moves-{label}.csv`: every first move played in a
/// self-play run, per position, with its games, share and White's score,
/// and the first sweep's best first move beside it (`engine_best_move`).
fn write_first_moves(
    out: &Path,
    frame: &DataFrame,
    label: &str,
    trees: &Trees,
    sources: &[Source],
) -> Result<(), ReportError> {
    // The trees hold every first move already: no second read of the games.
    let rows = c960_openings::first_moves_of(trees);
    let mut table = c960_openings::first_moves_frame(&rows)?;
    let best = match sources.iter().find(|s| s.kind == RunKind::Sweep) {
        Some(sweep) => Some(
            frame
                .column(&format!("{}__best_move_san", sweep.label))?
                .str()?
                .clone(),
        ),
        None => None,
    };
    let engine: Vec<Option<String>> = rows
        .iter()
        .map(|r| {
            best.as_ref()
                .and_then(|b| b.get(usize::from(r.sp)))
                .map(str::to_owned)
        })
        .collect();
    table.with_column(Column::new("engine_best_move".into(), engine))?;
    write_atomically(&out.join(format!("first-moves-{label}.csv")), |file| {
        CsvWriter::new(file)
            .include_header(true)
            .finish(&mut table)
            .map_err(io::Error::other)
    })?;
    Ok(())
}

/// Charts written so far: files and the titles the index shows.
struct Shelf {
    out: PathBuf,
    shown: Vec<site::Shown>,
    files: Vec<PathBuf>,
}

impl Shelf {
    /// Writes `chart` as `charts/{name}.svg` and `.png` and lists it.
    fn add(&mut self, title: &str, name: &str, chart: &impl charts::Chart) -> io::Result<()> {
        let ([svg, png], hotspots) =
            charts::write_with_hotspots(chart, &self.out.join("charts"), name)?;
        let relative = |f: &Path| f.strip_prefix(&self.out).unwrap_or(f).to_owned();
        self.files.push(relative(&svg));
        self.files.push(relative(&png));
        self.shown.push(site::Shown {
            title: title.to_owned(),
            file: relative(&svg),
            hotspots,
        });
        Ok(())
    }
}

/// The charts of one sweep.
fn sweep_charts(shelf: &mut Shelf, frame: &DataFrame, source: &Source) -> Result<(), ReportError> {
    let line = chart_provenance(source);
    let scores = sweep_scores(frame, source)?;
    let curve = charts::ScoreCurve {
        title: "White's advantage per position".to_owned(),
        provenance: line.clone(),
        scores: scores.clone(),
    };
    shelf.add(
        &format!("White's advantage per position ({})", source.label),
        &format!("advantage-{}", source.label),
        &curve,
    )?;
    let histogram = charts::ScoreHistogram {
        title: "Distribution of White's advantage".to_owned(),
        provenance: line.clone(),
        scores: scores.iter().map(|s| s.1).collect(),
        x_desc: "engine score, centipawns (White's view), 10-cp bins".to_owned(),
    };
    shelf.add(
        &format!("Distribution of White's advantage ({})", source.label),
        &format!("histogram-{}", source.label),
        &histogram,
    )?;
    // White's advantage grouped by a feature: (chart title, index title,
    // file name, grouping, x axis).
    let groupings: [(&str, &str, &str, GroupKey, &str); 3] = [
        (
            "White's advantage by number of weak pawns",
            "White's advantage by weak pawns",
            "by-weak-pawns",
            &|row| weak_group(frame, row),
            "weak pawns per side",
        ),
        (
            "White's advantage by castling legal on move 1",
            "White's advantage by castling on move 1",
            "by-castling",
            &|row| castling_group(frame, row),
            "castling legal on move 1 (each side has the same)",
        ),
        (
            "White's advantage by pieces in the way of castling",
            "White's advantage by pieces in the way",
            "by-castling-blockers",
            &|row| blockers_group(frame, row),
            "pieces between king and rook and on their target squares, both sides together",
        ),
    ];
    for (title, shown, name, key, x_desc) in groupings {
        let chart = charts::GroupMeans {
            title: title.to_owned(),
            provenance: line.clone(),
            groups: group_by(frame, &scores, key)?,
            x_desc: x_desc.to_owned(),
            y_desc: "mean engine score, centipawns (White's view)".to_owned(),
        };
        shelf.add(
            &format!("{shown} ({})", source.label),
            &format!("{name}-{}", source.label),
            &chart,
        )?;
    }
    let twins = mirror_differences(frame, &scores)?;
    let mirror = charts::ScoreHistogram {
        title: "Mirror twins: score difference (the castling effect)".to_owned(),
        provenance: line,
        scores: twins,
        x_desc: "score of the lower SP minus its mirror twin's, centipawns, 10-cp bins".to_owned(),
    };
    shelf.add(
        &format!("Mirror twins: score differences ({})", source.label),
        &format!("mirror-twins-{}", source.label),
        &mirror,
    )?;
    Ok(())
}

/// The charts of one self-play run, and of it against each sweep.
fn selfplay_charts(
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
        &format!("White's score per position in {what} ({})", source.label),
        &format!("selfplay-score-{}", source.label),
        &intervals,
    )?;
    let (sides, timing) = selfplay_castling(source, &line, what)?;
    shelf.add(
        &format!("Castling in {what} ({})", source.label),
        &format!("selfplay-castling-{}", source.label),
        &sides,
    )?;
    shelf.add(
        &format!("When castling happens in {what} ({})", source.label),
        &format!("selfplay-castling-timing-{}", source.label),
        &timing,
    )?;
    for sweep in sources.iter().filter(|s| s.kind == RunKind::Sweep) {
        let scores: std::collections::HashMap<u32, f64> =
            sweep_scores(frame, sweep)?.into_iter().collect();
        let scatter = charts::Scatter {
            title: format!("Engine score against the score in {what}"),
            provenance: pair_provenance(sweep, &line),
            points: points
                .iter()
                .filter_map(|p| Some((p.0, *scores.get(&p.0)?, p.1)))
                .collect(),
            x_desc: "engine score, centipawns (White's view)".to_owned(),
            y_desc: format!("White's score in {what}"),
        };
        shelf.add(
            &format!(
                "Engine score against the score in {what} ({} × {})",
                sweep.label, source.label
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
            provenance: pair_provenance(sweep, &line),
            points: (0..frame.height())
                .filter_map(|row| {
                    let sp = u32::try_from(row).ok()?;
                    Some((sp, *scores.get(&sp)?, share.get(row)?))
                })
                .collect(),
            x_desc: "engine score, centipawns (White's view)".to_owned(),
            y_desc: "share of the most played first move".to_owned(),
        };
        shelf.add(
            &format!(
                "Most played first move's share against engine score ({} × {})",
                sweep.label, source.label
            ),
            &format!("first-move-concentration-{}-{}", sweep.label, source.label),
            &concentration,
        )?;
    }
    Ok(())
}

fn chart_provenance(source: &Source) -> String {
    let m = &source.manifest;
    format!(
        "{}, {}, finished {} (c960 {})",
        m["engine"]["name"].as_str().unwrap_or("engine"),
        m["limit"].as_str().unwrap_or("?"),
        m["finished"].as_str().unwrap_or("?"),
        m["c960_version"].as_str().unwrap_or("?"),
    )
}

/// `(sp, centipawns)` of a sweep, for positions with a centipawn score.
fn sweep_scores(frame: &DataFrame, source: &Source) -> Result<Vec<(u32, f64)>, ReportError> {
    let sp = frame.column("sp")?.u32()?.clone();
    let cp = frame
        .column(&format!("{}__score_cp", source.label))?
        .cast(&DataType::Float64)?;
    let cp = cp.f64()?.clone();
    Ok((0..frame.height())
        .filter_map(|i| Some((sp.get(i)?, cp.get(i)?)))
        .collect())
}

/// Scores grouped by `key(row)`, which gives a group's order and label
/// (rows are SPs); groups come out in order.
fn group_by(
    frame: &DataFrame,
    scores: &[(u32, f64)],
    key: impl Fn(usize) -> Result<Option<(u32, String)>, ReportError>,
) -> Result<Vec<(String, Vec<f64>)>, ReportError> {
    let mut groups: BTreeMap<(u32, String), Vec<f64>> = BTreeMap::new();
    for (sp, score) in scores {
        let row = *sp as usize;
        if row < frame.height()
            && let Some(k) = key(row)?
        {
            groups.entry(k).or_default().push(*score);
        }
    }
    Ok(groups.into_iter().map(|((_, k), v)| (k, v)).collect())
}

/// A grouping of rows (SPs) for [`group_by`].
type GroupKey<'a> = &'a dyn Fn(usize) -> Result<Option<(u32, String)>, ReportError>;

/// The group "k weak" of a row.
fn weak_group(frame: &DataFrame, row: usize) -> Result<Option<(u32, String)>, ReportError> {
    Ok(frame
        .column("weak_pawns")?
        .u32()?
        .get(row)
        .map(|k| (k, format!("{k} weak"))))
}

/// Which castlings are legal on move 1 in a row's position.
fn castling_group(frame: &DataFrame, row: usize) -> Result<Option<(u32, String)>, ReportError> {
    let a = frame.column("castle_a_first_move")?.bool()?.get(row);
    let h = frame.column("castle_h_first_move")?.bool()?.get(row);
    Ok(match (a, h) {
        (Some(false), Some(false)) => Some((0, "neither".to_owned())),
        (Some(true), Some(false)) => Some((1, "a-side only".to_owned())),
        (Some(false), Some(true)) => Some((2, "h-side only".to_owned())),
        (Some(true), Some(true)) => Some((3, "both".to_owned())),
        _ => None,
    })
}

/// Pieces in the way of castling, both sides together, in a row's position.
fn blockers_group(frame: &DataFrame, row: usize) -> Result<Option<(u32, String)>, ReportError> {
    let a = frame.column("castle_a_blockers")?.u32()?.get(row);
    let h = frame.column("castle_h_blockers")?.u32()?.get(row);
    Ok(a.zip(h).map(|(a, h)| (a + h, format!("{}", a + h))))
}

/// Positions by the number of pieces in the way of each castling (0 means
/// the castling is legal on move 1).
pub fn castling_opportunities(frame: &DataFrame) -> Result<charts::Bars, ReportError> {
    let a = frame.column("castle_a_blockers")?.u32()?.clone();
    let h = frame.column("castle_h_blockers")?.u32()?.clone();
    let most = a.max().unwrap_or(0).max(h.max().unwrap_or(0));
    let count = |values: &UInt32Chunked, k: u32| {
        let n = (0..values.len())
            .filter(|i| values.get(*i) == Some(k))
            .count();
        f64::from(u32::try_from(n).unwrap_or(u32::MAX))
    };
    let categories = (0..=most)
        .map(|k| {
            if k == 0 {
                "0 (legal on move 1)".to_owned()
            } else {
                k.to_string()
            }
        })
        .collect();
    Ok(charts::Bars {
        title: "Castling opportunities: pieces in the way on move 1".to_owned(),
        provenance: "all 960 positions; c960 static features (Black's are the same by symmetry)"
            .to_owned(),
        categories,
        series: vec![
            (
                "a-side (O-O-O)".to_owned(),
                (0..=most).map(|k| count(&a, k)).collect(),
            ),
            (
                "h-side (O-O)".to_owned(),
                (0..=most).map(|k| count(&h, k)).collect(),
            ),
        ],
        x_desc: "pieces between king and rook or on their target squares".to_owned(),
        y_desc: "positions".to_owned(),
    })
}

/// A count as a float (counts here are far below 2^32).
fn count(n: usize) -> f64 {
    f64::from(u32::try_from(n).unwrap_or(u32::MAX))
}

/// The provenance line of a chart that sets a sweep (x) against games (y,
/// `games_line` as [`selfplay_provenance`] writes it).
fn pair_provenance(sweep: &Source, games_line: &str) -> String {
    format!(
        "x: {}, {}; y: {}",
        sweep.manifest["engine"]["name"]
            .as_str()
            .unwrap_or("engine"),
        sweep.manifest["limit"].as_str().unwrap_or("?"),
        games_line.split(", finished").next().unwrap_or(games_line)
    )
}

fn selfplay_provenance(source: &Source) -> String {
    let m = &source.manifest;
    if source.kind == RunKind::Import {
        let files: Vec<&str> = m["files"]
            .as_array()
            .map(|a| a.iter().filter_map(|f| f.as_str()).collect())
            .unwrap_or_default();
        return format!(
            "{} imported games from {}, finished {} (c960 {})",
            m["games"].as_u64().unwrap_or(0),
            files.join(", "),
            m["finished"].as_str().unwrap_or("?"),
            m["c960_version"].as_str().unwrap_or("?"),
        );
    }
    let engines: Vec<&str> = m["engines"]
        .as_array()
        .map(|a| a.iter().filter_map(|e| e["name"].as_str()).collect())
        .unwrap_or_default();
    format!(
        "{}, {} per move, {} games, finished {} (c960 {})",
        engines.join(" vs "),
        m["limit"].as_str().unwrap_or("?"),
        m["games"].as_u64().unwrap_or(0),
        m["finished"].as_str().unwrap_or("?"),
        m["c960_version"].as_str().unwrap_or("?"),
    )
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

/// White's score over all games of a self-play run.
fn overall_score(frame: &DataFrame, source: &Source) -> Result<Option<f64>, ReportError> {
    let count = |name: &str| -> Result<f64, ReportError> {
        let column = frame
            .column(&format!("{}__{name}", source.label))?
            .cast(&DataType::Float64)?;
        Ok(column.f64()?.sum().unwrap_or(0.0))
    };
    let (wins, draws, losses) = (count("white_wins")?, count("draws")?, count("black_wins")?);
    let games = wins + draws + losses;
    Ok((games > 0.0).then(|| (wins + draws / 2.0) / games))
}

/// Castling sides and timing of a self-play run, from its games table.
fn selfplay_castling(
    source: &Source,
    provenance: &str,
    what: &str,
) -> Result<(charts::Bars, charts::Bars), ReportError> {
    let path = source.dir.join("games.parquet");
    if !path.is_file() {
        return Err(ReportError::BadRun {
            dir: source.dir.clone(),
            reason: "games.parquet is missing".to_owned(),
        });
    }
    let games = LazyFrame::scan_parquet(
        PlRefPath::from(path.to_string_lossy().as_ref()),
        ScanArgsParquet::default(),
    )?
    .select([
        col("white_castle_side"),
        col("white_castle_ply"),
        col("black_castle_side"),
        col("black_castle_ply"),
    ])
    .collect()?;
    let total = count(games.height().max(1));
    let percent = |n: usize| 100.0 * count(n) / total;
    let bins: [(u32, u32, &str); 6] = [
        (1, 5, "1–5"),
        (6, 10, "6–10"),
        (11, 15, "11–15"),
        (16, 20, "16–20"),
        (21, 30, "21–30"),
        (31, u32::MAX, "31 and later"),
    ];
    let mut sides = Vec::new();
    let mut timing = Vec::new();
    for colour in ["white", "black"] {
        let side = games
            .column(&format!("{colour}_castle_side"))?
            .str()?
            .clone();
        let ply = games
            .column(&format!("{colour}_castle_ply"))?
            .u32()?
            .clone();
        let with = |s: Option<&str>| (0..side.len()).filter(|i| side.get(*i) == s).count();
        sides.push(vec![
            percent(with(Some("a"))),
            percent(with(Some("h"))),
            percent(with(None)),
        ]);
        timing.push(
            bins.iter()
                .map(|(first, last, _)| {
                    let moves = (0..ply.len())
                        .filter_map(|i| ply.get(i))
                        .map(|p| p.div_ceil(2));
                    percent(moves.filter(|m| first <= m && m <= last).count())
                })
                .collect::<Vec<_>>(),
        );
    }
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
            categories: bins.iter().map(|b| b.2.to_owned()).collect(),
            series: series(timing),
            x_desc: "move number of the castling move".to_owned(),
            y_desc: "% of games".to_owned(),
        },
    ))
}

/// Score of each position minus its mirror twin's, once per pair.
fn mirror_differences(frame: &DataFrame, scores: &[(u32, f64)]) -> Result<Vec<f64>, ReportError> {
    let twin = frame.column("mirror_sp")?.u32()?.clone();
    let by_sp: std::collections::HashMap<u32, f64> = scores.iter().copied().collect();
    Ok(scores
        .iter()
        .filter_map(|(sp, score)| {
            let t = twin.get(*sp as usize)?;
            (*sp < t)
                .then(|| by_sp.get(&t).map(|other| score - other))
                .flatten()
        })
        .collect())
}

/// Positions with an undefended / king-only pawn on each file.
fn weak_pawns_by_file(frame: &DataFrame) -> Result<charts::Bars, ReportError> {
    let files = ["a", "b", "c", "d", "e", "f", "g", "h"];
    let count = |column: &str| -> Result<Vec<f64>, ReportError> {
        let values = frame.column(column)?.str()?.clone();
        Ok(files
            .iter()
            .map(|f| {
                let n = (0..frame.height())
                    .filter(|i| {
                        values
                            .get(*i)
                            .is_some_and(|v| v.split(' ').any(|x| x == *f))
                    })
                    .count();
                f64::from(u32::try_from(n).unwrap_or(u32::MAX))
            })
            .collect())
    };
    Ok(charts::Bars {
        title: "Weak pawns by file".to_owned(),
        provenance: "all 960 positions; c960 static features".to_owned(),
        categories: files.iter().map(|f| (*f).to_owned()).collect(),
        series: vec![
            ("undefended".to_owned(), count("undefended_files")?),
            (
                "defended by the king only".to_owned(),
                count("king_only_files")?,
            ),
        ],
        x_desc: "file".to_owned(),
        y_desc: "positions with such a pawn on the file".to_owned(),
    })
}
