//! The run-directory contract, as readers see it: the names of the files a
//! run directory holds, the Parquet metadata keys c960 writes, and
//! [`RunManifest`], the typed read model of a run's `manifest.json`.
//!
//! Sweeps, self-play runs and imports each write a `manifest.json` (its
//! provenance: what ran, with what, when). A reader parses it once with
//! [`RunManifest::read`] and then uses named fields; a field of the wrong
//! type, or a field a run's kind needs that is missing, is a one-line
//! [`ManifestError`] naming the field. Fields that older versions did not
//! write are `None` (or empty), and fields this model does not name are
//! kept: the manifest as written travels on verbatim (see
//! [`RunManifest::as_written`]) when a report records its inputs.

pub use c960_core::Variant;
use std::{fs, io, path::Path};

use serde::{Deserialize, Serialize, Serializer};
use serde_json::{Map, Value};
use thiserror::Error;

mod fields;
#[cfg(test)]
mod tests;

use fields::{Fields, engine, engine_list, failed};

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
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
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
#[derive(Clone, Debug, PartialEq, Eq)]
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
    pub multipv: Option<u32>,
    /// Searches per position (sweeps; absent before repeats: one).
    pub repeats: Option<u32>,
    /// How well a sweep's per-position means repeat (sweeps with repeats).
    pub repeatability: Option<Repeatability>,
    /// The positions asked for, as a set (`all`, `0-99,518`).
    pub positions: Option<String>,
    /// The run's seed (self-play).
    pub seed: Option<u64>,
    /// Games asked for per position (self-play).
    pub games_per_position: Option<u32>,
    /// Games in the outputs (self-play and imports).
    pub games: Option<u64>,
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
    written: Map<String, Value>,
}

/// Why a manifest cannot be read, in one line.
#[derive(Debug, Error)]
pub enum ManifestError {
    /// The run directory has no manifest (or it cannot be read).
    #[error("no {MANIFEST_FILE} ({0}); is this a finished sweep, self-play or import run?")]
    Missing(io::Error),
    /// The text is not a JSON object.
    #[error("{MANIFEST_FILE} is not JSON: {0}")]
    NotJson(String),
    /// A kind this version does not read.
    #[error("unknown run kind {0} in {MANIFEST_FILE}")]
    UnknownKind(String),
    /// A field of the wrong type, or one the kind needs that is missing.
    #[error("{MANIFEST_FILE}: {field} must be {expected}")]
    Field {
        /// The field, as a path (`engine.name`, `failed[2].sp`).
        field: String,
        /// What it must be.
        expected: &'static str,
    },
}

impl RunManifest {
    /// Reads `manifest.json` in the run directory `dir`.
    pub fn read(dir: &Path) -> Result<RunManifest, ManifestError> {
        let text = fs::read_to_string(dir.join(MANIFEST_FILE)).map_err(ManifestError::Missing)?;
        RunManifest::parse(&text)
    }

    /// Parses a manifest's text.
    pub fn parse(text: &str) -> Result<RunManifest, ManifestError> {
        let written: Map<String, Value> =
            serde_json::from_str(text).map_err(|e| ManifestError::NotJson(e.to_string()))?;
        let fields = Fields {
            map: &written,
            prefix: String::new(),
        };
        let kind = match written.get("kind") {
            Some(Value::String(kind)) => match kind.as_str() {
                "sweep" => RunKind::Sweep,
                "selfplay" => RunKind::Selfplay,
                "import" => RunKind::Import,
                other => return Err(ManifestError::UnknownKind(format!("{other:?}"))),
            },
            None | Some(Value::Null) => {
                return Err(ManifestError::UnknownKind("(none given)".to_owned()));
            }
            Some(_) => return Err(fields.wrong("kind", "a string")),
        };
        let engines = match kind {
            RunKind::Sweep => vec![engine(&written, "engine")?],
            RunKind::Selfplay => engine_list(&written)?,
            RunKind::Import => Vec::new(),
        };
        let limit = match kind {
            RunKind::Sweep | RunKind::Selfplay => Some(fields.required_text("limit")?),
            RunKind::Import => fields.text("limit")?,
        };
        let variant = match fields.text("variant")?.as_deref() {
            None | Some("chess960") => Variant::Chess960,
            Some("dfrc") => Variant::Dfrc,
            Some(_) => return Err(fields.wrong("variant", "chess960 or dfrc")),
        };
        let multipv = fields.number::<u32>("multipv")?;
        if multipv == Some(0) {
            return Err(fields.wrong("multipv", "at least 1"));
        }
        let repeats = fields.number::<u32>("repeats")?;
        if repeats == Some(0) {
            return Err(fields.wrong("repeats", "at least 1"));
        }
        let repeatability = fields
            .present("repeatability")
            .map(|v| {
                serde_json::from_value::<Repeatability>(v.clone()).map_err(|_| {
                    fields.wrong(
                        "repeatability",
                        "an object of split_half, all_repeats, splits, positions and repeats",
                    )
                })
            })
            .transpose()?;
        Ok(RunManifest {
            kind,
            variant,
            c960_version: fields.text("c960_version")?,
            engines,
            limit,
            limit_b: fields.text("limit_b")?,
            multipv,
            repeats,
            repeatability,
            positions: fields.text("positions")?,
            seed: fields.number("seed")?,
            games_per_position: fields.number("games_per_position")?,
            games: fields.number("games")?,
            rows: fields.number("rows")?,
            read: fields.number("read")?,
            files: fields.texts("files")?,
            failed: failed(&written, variant)?,
            started: fields.text("started")?,
            finished: fields.text("finished")?,
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
        self.multipv.unwrap_or(1)
    }

    /// Searches per position: 1 when the manifest does not say.
    #[must_use]
    pub fn searches(&self) -> u32 {
        self.repeats.unwrap_or(1)
    }

    /// The manifest as written, every field (those this model does not name
    /// too) in its order: what records of provenance carry forward.
    #[must_use]
    pub fn as_written(&self) -> &Map<String, Value> {
        &self.written
    }
}

/// Two manifests are the same when they hold the same fields with the same
/// values, whatever their order.
impl PartialEq for RunManifest {
    fn eq(&self, other: &Self) -> bool {
        self.written == other.written
    }
}

/// A manifest serializes as it was written.
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
    let earlier = std::fs::read_to_string(dir.join(MANIFEST_FILE))
        .ok()
        .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok());
    let field = |name: &str| {
        earlier
            .as_ref()
            .and_then(|m| m.get(name))
            .and_then(serde_json::Value::as_str)
            .filter(|t| !t.is_empty())
            .map(str::to_owned)
    };
    let started = field("started").map_or(started, |then| then);
    let finished = match field("finished") {
        Some(then) if !worked => then,
        _ => finished,
    };
    (started, finished)
}
