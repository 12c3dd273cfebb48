//! c960-report: the data behind reports. Loads the static features of all
//! 960 positions, any number of sweep and self-play runs, and joins them on
//! SP with polars' lazy API into one tidy per-position table. Runs are kept
//! apart by provenance: each run's columns carry a label made from its
//! engine and limit, and two runs with the same label are refused.

pub mod charts;
mod features;
pub mod site;

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

/// What `build` wrote.
#[derive(Clone, Debug)]
pub struct Built {
    /// The runs, as labelled.
    pub sources: Vec<Source>,
    /// Chart files (SVG and PNG), relative to the output directory.
    pub charts: Vec<PathBuf>,
    /// Pages written.
    pub pages: usize,
}

/// Builds the whole report into `out`: the per-position table
/// (`positions.parquet`, `positions.csv`), the charts (`charts/*.svg` and
/// `*.png`) and the site (`index.html`, `fair.html`, `positions/*.html`).
pub fn build(runs: &[PathBuf], out: &Path) -> Result<Built, ReportError> {
    let (frame, sources) = per_position(runs)?;
    write_table(out, &frame, &sources)?;
    let chart_dir = out.join("charts");
    let mut shown: Vec<(String, PathBuf)> = Vec::new();
    let mut files = Vec::new();
    let mut add = |title: &str,
                   name: &str,
                   chart: &dyn Fn(&Path, &str) -> io::Result<[PathBuf; 2]>|
     -> io::Result<()> {
        let [svg, png] = chart(&chart_dir, name)?;
        for f in [&svg, &png] {
            files.push(f.strip_prefix(out).unwrap_or(f).to_owned());
        }
        shown.push((
            title.to_owned(),
            svg.strip_prefix(out).unwrap_or(&svg).to_owned(),
        ));
        Ok(())
    };
    let weak_by_file = weak_pawns_by_file(&frame)?;
    add("Weak pawns by file", "weak-pawns-by-file", &|d, n| {
        charts::write(&weak_by_file, d, n)
    })?;
    for source in sources.iter().filter(|s| s.kind == RunKind::Sweep) {
        let line = chart_provenance(source);
        let scores = sweep_scores(&frame, source)?;
        let curve = charts::ScoreCurve {
            title: "White's advantage per position".to_owned(),
            provenance: line.clone(),
            scores: scores.clone(),
        };
        add(
            &format!("White's advantage per position ({})", source.label),
            &format!("advantage-{}", source.label),
            &|d, n| charts::write(&curve, d, n),
        )?;
        let histogram = charts::ScoreHistogram {
            title: "Distribution of White's advantage".to_owned(),
            provenance: line.clone(),
            scores: scores.iter().map(|s| s.1).collect(),
            x_desc: "engine score, centipawns (White's view), 10-cp bins".to_owned(),
        };
        add(
            &format!("Distribution of White's advantage ({})", source.label),
            &format!("histogram-{}", source.label),
            &|d, n| charts::write(&histogram, d, n),
        )?;
        let by_weak = charts::GroupMeans {
            title: "White's advantage by number of weak pawns".to_owned(),
            provenance: line.clone(),
            groups: group_by(&frame, "weak_pawns", &scores)?,
            x_desc: "weak pawns per side".to_owned(),
            y_desc: "mean engine score, centipawns (White's view)".to_owned(),
        };
        add(
            &format!("White's advantage by weak pawns ({})", source.label),
            &format!("by-weak-pawns-{}", source.label),
            &|d, n| charts::write(&by_weak, d, n),
        )?;
        let twins = mirror_differences(&frame, &scores)?;
        let mirror = charts::ScoreHistogram {
            title: "Mirror twins: score difference (the castling effect)".to_owned(),
            provenance: line,
            scores: twins,
            x_desc: "score of the lower SP minus its mirror twin's, centipawns, 10-cp bins"
                .to_owned(),
        };
        add(
            &format!("Mirror twins: score differences ({})", source.label),
            &format!("mirror-twins-{}", source.label),
            &|d, n| charts::write(&mirror, d, n),
        )?;
    }
    site::write_site(out, &frame, &sources, &shown)?;
    Ok(Built {
        sources,
        charts: files,
        pages: frame.height() + 2,
    })
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

/// Scores grouped by the integer feature `column` (`"k weak"` labels).
fn group_by(
    frame: &DataFrame,
    column: &str,
    scores: &[(u32, f64)],
) -> Result<Vec<(String, Vec<f64>)>, ReportError> {
    let key = frame.column(column)?.u32()?.clone();
    let mut groups: std::collections::BTreeMap<u32, Vec<f64>> = std::collections::BTreeMap::new();
    for (sp, score) in scores {
        if let Some(k) = key.get(*sp as usize) {
            groups.entry(k).or_default().push(*score);
        }
    }
    Ok(groups
        .into_iter()
        .map(|(k, v)| (format!("{k} weak"), v))
        .collect())
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
