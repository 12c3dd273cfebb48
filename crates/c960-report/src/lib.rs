//! c960-report: the data behind reports. Loads the static features of all
//! 960 positions, any number of sweep and self-play runs, and joins them on
//! SP with polars' lazy API into one tidy per-position table. Runs are kept
//! apart by provenance: each run's columns carry a label made from its
//! engine and limit, and two runs with the same label are refused.

pub mod charts;
mod features;

use std::{
    collections::BTreeSet,
    fmt::Write as _,
    fs, io,
    path::{Path, PathBuf},
};

use c960_store::write_atomically;
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
    #[error(transparent)]
    Polars(#[from] PolarsError),
    /// Writing files failed.
    #[error(transparent)]
    Io(#[from] io::Error),
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
const SELFPLAY_COLUMNS: [&str; 15] = [
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
        other => return Err(bad(format!("unknown run kind {other:?} in manifest.json"))),
    };
    let kind_name = match kind {
        RunKind::Sweep => "sweep",
        RunKind::Selfplay => "selfplay",
    };
    let mut label = format!("{kind_name} {} {limit}", engines.join(" vs "));
    if kind == RunKind::Sweep
        && let Some(k) = manifest["multipv"].as_u64()
        && k > 1
    {
        let _ = write!(label, " mpv{k}");
    }
    Ok(Source {
        kind,
        label: slug(&label),
        dir: dir.to_owned(),
        manifest,
    })
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
        };
        let path = source.dir.join(file);
        if !path.is_file() {
            return Err(ReportError::BadRun {
                dir: source.dir.clone(),
                reason: format!("{file} is missing"),
            });
        }
        let run = LazyFrame::scan_parquet(
            PlRefPath::from(path.to_string_lossy().as_ref()),
            ScanArgsParquet::default(),
        )?;
        let mut exprs = vec![col("sp").cast(DataType::UInt32)];
        exprs.extend(
            columns
                .iter()
                .map(|c| col(*c).alias(format!("{}__{c}", source.label))),
        );
        table = table.left_join(run.select(exprs), col("sp"), col("sp"));
    }
    let frame = table
        .sort(["sp"], SortMultipleOptions::default())
        .collect()?;
    Ok((frame, sources))
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
        ParquetWriter::new(out)
            .with_key_value_metadata(Some(KeyValueMetadata::from_static(vec![(
                "c960.sources".to_owned(),
                provenance.clone(),
            )])))
            .finish(&mut frame)
            .map(|_| ())
            .map_err(io::Error::other)
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
