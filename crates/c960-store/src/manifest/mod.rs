//! The run-directory contract, as readers see it: the names of the files a
//! run directory holds, the Parquet metadata keys c960 writes, and
//! [`RunManifest`], the typed read model of a run's `manifest.json`.
//!
//! Sweeps, self-play runs and imports each write a `manifest.json` (its
//! provenance: what ran, with what, when). A reader parses it once with
//! [`RunManifest::read`] (serde, over the fields this model names) and then
//! uses named fields; a field of the wrong type is a one-line
//! [`ManifestError`] giving the field's path (`engine.options[0]`), and a
//! field a run's kind needs that is missing names that field. Fields that
//! older versions did not write are `None` (or empty), and fields this
//! model does not name are kept: the manifest's text travels on verbatim
//! (see [`RunManifest::written`]) when a report records its inputs.
//!
//! Each kind's manifest as its writer builds it is modelled here too, one
//! model per file: [`SweepManifest`] (`sweep`), [`SelfplayManifest`]
//! (`selfplay`, with its adaptive rule and record, failed and missing
//! games and timing), [`ImportManifest`] (`import`) and a book's
//! [`BookManifest`] (`book`); no other crate declares a manifest.

pub use c960_core::Variant;
use std::{fs, io, num::NonZeroU32, path::Path};

use serde::{Deserialize, Serialize, Serializer};
use thiserror::Error;

use crate::Verbatim;

mod book;
mod import;
mod selfplay;
mod sweep;
#[cfg(test)]
mod tests;

pub use book::{BookContents, BookKind, BookManifest, book_manifest_path};
pub use import::ImportManifest;
pub use selfplay::{
    Adaptive, AdaptiveRecord, FailedGame, Merged, MissingGame, PROCESS_PER_SIDE, RunTiming,
    SHARED_PROCESS, SelfplayManifest,
};
pub use sweep::{FailedPosition, Sharding, SweepManifest};

/// A run's provenance, in every run directory.
pub const MANIFEST_FILE: &str = "manifest.json";
/// A sweep's or self-play run's journal: one line a finished search or
/// game, what a resume and a merge read.
pub const JOURNAL_FILE: &str = "journal.jsonl";
/// Key of the run's manifest in the key-value metadata of its Parquet
/// tables (sweeps and self-play write it; imports do not).
pub const PARQUET_MANIFEST_KEY: &str = "c960.manifest";
/// Key of a report's inputs (their labels and manifests) in the metadata
/// of its `positions.parquet`.
pub const SOURCES_KEY: &str = "c960.sources";
/// A sweep's table, one row per position.
pub const SWEEP_TABLE: &str = "sweep.parquet";
/// A sweep's table as CSV.
pub const SWEEP_CSV: &str = "sweep.csv";
/// A sweep with repeats: one row per (position, repeat) search.
pub const REPEATS_TABLE: &str = "repeats.parquet";
/// [`REPEATS_TABLE`] as CSV.
pub const REPEATS_CSV: &str = "repeats.csv";
/// The games of a self-play run or an import, one row per game.
pub const GAMES_TABLE: &str = "games.parquet";
/// The per-position table of a self-play run, an import or a report.
pub const POSITIONS_TABLE: &str = "positions.parquet";
/// [`POSITIONS_TABLE`] as CSV.
pub const POSITIONS_CSV: &str = "positions.csv";
/// The per-position verdicts and estimates of `c960 balance`.
pub const BALANCE_CSV: &str = "balance.csv";
/// What an import read, kept and skipped.
pub const IMPORT_SUMMARY_FILE: &str = "import.json";

/// What kind of run a directory holds (the manifest's `kind`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
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

    /// The kind as the manifest spells it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            RunKind::Sweep => "sweep",
            RunKind::Selfplay => "selfplay",
            RunKind::Import => "import",
        }
    }

    /// The table holding the run's per-position numbers.
    #[must_use]
    pub const fn table(self) -> &'static str {
        match self {
            RunKind::Sweep => SWEEP_TABLE,
            RunKind::Selfplay | RunKind::Import => POSITIONS_TABLE,
        }
    }
}

/// An engine as a manifest records it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineRecord {
    /// Its name (`id name`).
    pub name: String,
    /// Its author (`id author`), when it gave one.
    pub author: Option<String>,
    /// The executable (or `builtin`), when recorded.
    pub path: Option<String>,
    /// The options set, in the order set.
    pub options: Vec<(String, String)>,
}

/// A position (sweeps) or game (self-play) that failed in a run.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct FailedUnit {
    /// The setup's number: Scharnagl number, or DFRC index in a DFRC run.
    pub sp: u32,
    /// The game's index, for games.
    pub game: Option<u32>,
    /// Why it failed, when recorded.
    pub reason: Option<String>,
}

/// How well a sweep's per-position means would repeat, as its manifest
/// records it (written by the sweep with repeats).
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Repeatability {
    /// Median correlation between the per-position mean scores (cp) of two
    /// disjoint random halves of the repeats.
    pub split_half: f64,
    /// Its Spearman–Brown projection to all the repeats: the reliability
    /// of the published per-position means.
    pub all_repeats: f64,
    /// Random splits the median is over.
    pub splits: usize,
    /// Positions with two or more repeats.
    pub positions: usize,
    /// The most repeats any position has.
    pub repeats: u32,
}

/// What a self-play run's manifest says of its adaptive stopping rule
/// (`adaptive`), as far as readers of its intervals need it.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct AdaptiveRule {
    /// One minus the level of the rule's anytime-valid intervals, when
    /// recorded.
    pub alpha: Option<f64>,
}

/// The typed read model of a run's `manifest.json`, for all three kinds.
///
/// Fields that a kind does not have, or that the version that wrote the
/// manifest did not record, are `None` or empty. [`RunManifest::parse`]
/// checks the fields a kind needs to be labelled (a sweep's engine and
/// limit, a self-play run's engines and limit).
#[derive(Clone, Debug)]
pub struct RunManifest {
    /// What kind of run.
    pub kind: RunKind,
    /// The setups' variant (absent from the manifest: Chess960).
    pub variant: Variant,
    /// The c960 version that wrote it.
    pub c960_version: Option<String>,
    /// The engines: a sweep's one engine (`engine`), a self-play run's
    /// engines (`engines`), none for an import.
    pub engines: Vec<EngineRecord>,
    /// The search limit (per position for sweeps, per move or the clock
    /// of engine A for self-play); imports have none.
    pub limit: Option<String>,
    /// Engine B's limit, when it differs from A's (self-play).
    pub limit_b: Option<String>,
    /// Principal variations per position (sweeps).
    pub multipv: Option<NonZeroU32>,
    /// Searches per position (sweeps; absent before repeats: one).
    pub repeats: Option<NonZeroU32>,
    /// How a sweep's repeats differ (seed and node-budget rule).
    pub repeat_rule: Option<String>,
    /// How well a sweep's per-position means repeat (sweeps with repeats).
    pub repeatability: Option<Repeatability>,
    /// The positions asked for, as a set (`all`, `0-99,518`).
    pub positions: Option<String>,
    /// The run's seed (self-play; sweeps with repeats).
    pub seed: Option<u64>,
    /// Games asked for per position (self-play).
    pub games_per_position: Option<u32>,
    /// Games in the outputs (self-play and imports).
    pub games: Option<u64>,
    /// The adaptive stopping rule, for adaptive self-play.
    pub adaptive: Option<AdaptiveRule>,
    /// Rows in the table (sweeps).
    pub rows: Option<u64>,
    /// Games read, kept or not (imports).
    pub read: Option<u64>,
    /// The PGN files read (imports).
    pub files: Vec<String>,
    /// Positions or games that failed.
    pub failed: Vec<FailedUnit>,
    /// When the run started (RFC 3339).
    pub started: Option<String>,
    /// When it finished (RFC 3339).
    pub finished: Option<String>,
    /// The manifest as written: every field, in the order written.
    written: Verbatim,
}

/// Why a manifest cannot be read, in one line.
#[derive(Debug, Error)]
pub enum ManifestError {
    /// The run directory has no manifest (or it cannot be read).
    #[error("no {MANIFEST_FILE} ({0}); is this a finished sweep, self-play or import run?")]
    Missing(io::Error),
    /// The text is not a JSON object.
    #[error("{MANIFEST_FILE} is not a JSON object: {0}")]
    NotJson(String),
    /// The manifest names no kind.
    #[error("{MANIFEST_FILE} names no run kind (sweep, selfplay or import)")]
    NoKind,
    /// A field of the wrong type or value, by its path.
    #[error("{MANIFEST_FILE}: {path}: {reason}")]
    Invalid {
        /// The field, as a path (`engine.options[0]`, `failed[2].sp`).
        path: String,
        /// What serde found wrong with it.
        reason: String,
    },
    /// A field the kind needs that is missing, or out of range.
    #[error("{MANIFEST_FILE}: {field} must be {expected}")]
    Field {
        /// The field, as a path (`engine.name`, `failed[2].sp`).
        field: String,
        /// What it must be.
        expected: &'static str,
    },
}

/// The fields of a manifest this model names, as serde reads them; every
/// one may be absent or null.
#[derive(Deserialize)]
struct Wire {
    kind: Option<RunKind>,
    variant: Option<Variant>,
    c960_version: Option<String>,
    engine: Option<EngineWire>,
    engines: Option<Vec<EngineWire>>,
    limit: Option<String>,
    limit_b: Option<String>,
    multipv: Option<NonZeroU32>,
    repeats: Option<NonZeroU32>,
    repeat_rule: Option<String>,
    repeatability: Option<Repeatability>,
    positions: Option<String>,
    seed: Option<u64>,
    games_per_position: Option<u32>,
    games: Option<u64>,
    adaptive: Option<AdaptiveWire>,
    rows: Option<u64>,
    read: Option<u64>,
    files: Option<Vec<String>>,
    failed: Option<Vec<FailedUnit>>,
    started: Option<String>,
    finished: Option<String>,
}

#[derive(Deserialize)]
struct EngineWire {
    name: Option<String>,
    author: Option<String>,
    path: Option<String>,
    options: Option<Vec<(String, String)>>,
}

/// `adaptive`: the rule's settings sit beside its outcome.
#[derive(Deserialize)]
struct AdaptiveWire {
    alpha: Option<f64>,
}

impl EngineWire {
    /// The engine, named `field` in errors (`engine`, `engines[1]`).
    fn record(self, field: &str) -> Result<EngineRecord, ManifestError> {
        Ok(EngineRecord {
            name: self
                .name
                .filter(|n| !n.is_empty())
                .ok_or_else(|| wrong(format!("{field}.name"), "a non-empty string"))?,
            author: self.author,
            path: self.path,
            options: self.options.unwrap_or_default(),
        })
    }
}

fn wrong(field: String, expected: &'static str) -> ManifestError {
    ManifestError::Field { field, expected }
}

impl RunManifest {
    /// Reads `manifest.json` in the run directory `dir`.
    pub fn read(dir: &Path) -> Result<RunManifest, ManifestError> {
        let text = fs::read_to_string(dir.join(MANIFEST_FILE)).map_err(ManifestError::Missing)?;
        RunManifest::parse(&text)
    }

    /// Parses a manifest's text.
    pub fn parse(text: &str) -> Result<RunManifest, ManifestError> {
        if !text.trim_start().starts_with('{') {
            return Err(ManifestError::NotJson(
                "it does not begin with {".to_owned(),
            ));
        }
        let written: Verbatim =
            serde_json::from_str(text).map_err(|e| ManifestError::NotJson(e.to_string()))?;
        let wire: Wire = serde_path_to_error::deserialize(&mut serde_json::Deserializer::from_str(
            written.text(),
        ))
        .map_err(|e| ManifestError::Invalid {
            path: e.path().to_string(),
            reason: without_position(&e.inner().to_string()),
        })?;
        let kind = wire.kind.ok_or(ManifestError::NoKind)?;
        let variant = wire.variant.unwrap_or_default();
        let engines = match kind {
            RunKind::Sweep => vec![
                wire.engine
                    .ok_or_else(|| wrong("engine.name".to_owned(), "a non-empty string"))?
                    .record("engine")?,
            ],
            RunKind::Selfplay => {
                let list = wire
                    .engines
                    .filter(|l| !l.is_empty())
                    .ok_or_else(|| wrong("engines".to_owned(), "a list of one or two engines"))?;
                list.into_iter()
                    .enumerate()
                    .map(|(k, e)| e.record(&format!("engines[{k}]")))
                    .collect::<Result<_, _>>()?
            }
            RunKind::Import => Vec::new(),
        };
        let limit = wire.limit.filter(|l| !l.is_empty());
        if kind != RunKind::Import && limit.is_none() {
            return Err(wrong("limit".to_owned(), "a non-empty string"));
        }
        let failed = wire.failed.unwrap_or_default();
        let (count, range) = match variant {
            Variant::Chess960 => (960, "a start position number (0 to 959)"),
            Variant::Dfrc => (c960_core::DFRC_COUNT, "a DFRC setup index (0 to 921599)"),
        };
        if let Some(k) = failed.iter().position(|f| f.sp >= count) {
            return Err(wrong(format!("failed[{k}].sp"), range));
        }
        Ok(RunManifest {
            kind,
            variant,
            c960_version: wire.c960_version,
            engines,
            limit,
            limit_b: wire.limit_b,
            multipv: wire.multipv,
            repeats: wire.repeats,
            repeat_rule: wire.repeat_rule,
            repeatability: wire.repeatability,
            positions: wire.positions,
            seed: wire.seed,
            games_per_position: wire.games_per_position,
            games: wire.games,
            adaptive: wire.adaptive.map(|a| AdaptiveRule { alpha: a.alpha }),
            rows: wire.rows,
            read: wire.read,
            files: wire.files.unwrap_or_default(),
            failed,
            started: wire.started,
            finished: wire.finished,
            written,
        })
    }

    /// The engines' names, in order.
    #[must_use]
    pub fn engine_names(&self) -> Vec<&str> {
        self.engines.iter().map(|e| e.name.as_str()).collect()
    }

    /// Principal variations per position: 1 when the manifest does not say
    /// (sweeps before `MultiPV` searched one line).
    #[must_use]
    pub fn lines(&self) -> u32 {
        self.multipv.map_or(1, NonZeroU32::get)
    }

    /// Searches per position: 1 when the manifest does not say.
    #[must_use]
    pub fn searches(&self) -> u32 {
        self.repeats.map_or(1, NonZeroU32::get)
    }

    /// The manifest as written, as compact JSON: every field (those this
    /// model does not name too) in its order; what records of provenance
    /// carry forward.
    #[must_use]
    pub fn written(&self) -> &str {
        self.written.text()
    }
}

/// A serde error's message without the JSON parser's `at line L column C` (the
/// position in the compacted text, which is not the file's).
fn without_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(at) => message[..at].to_owned(),
        None => message.to_owned(),
    }
}

/// Two manifests are the same when they hold the same fields with the same
/// values in the same order (the layout of the text aside): a run writes
/// its `manifest.json` and the copy inside its tables from one value.
impl PartialEq for RunManifest {
    fn eq(&self, other: &Self) -> bool {
        self.written == other.written
    }
}

/// A manifest serializes as it was written, field for field.
impl Serialize for RunManifest {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.written.serialize(serializer)
    }
}

/// The `started` and `finished` times a run's manifest records, given
/// this run's: a run that resumes a run that finished before (its
/// `manifest.json` is in `dir`) keeps that run's start, and its finish too
/// when this run found all of its work in the journal (`worked` false), so
/// that rerunning a finished run does not rewrite when it was made.
#[must_use]
pub fn kept_times(dir: &Path, started: String, finished: String, worked: bool) -> (String, String) {
    #[derive(Deserialize)]
    struct Times {
        started: Option<String>,
        finished: Option<String>,
    }
    let earlier = fs::read_to_string(dir.join(MANIFEST_FILE))
        .ok()
        .and_then(|text| serde_json::from_str::<Times>(&text).ok());
    let (then_started, then_finished) = earlier.map_or((None, None), |t| (t.started, t.finished));
    let present = |t: Option<String>| t.filter(|t| !t.is_empty());
    let started = present(then_started).unwrap_or(started);
    let finished = match present(then_finished) {
        Some(then) if !worked => then,
        _ => finished,
    };
    (started, finished)
}
