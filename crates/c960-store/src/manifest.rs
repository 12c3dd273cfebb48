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

/// A run's provenance, in every run directory.
pub const MANIFEST_FILE: &str = "manifest.json";
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

/// The fields of one JSON object, read by name; `prefix` names the object
/// in errors (`engine.`).
struct Fields<'a> {
    map: &'a Map<String, Value>,
    prefix: String,
}

impl Fields<'_> {
    fn wrong(&self, field: &str, expected: &'static str) -> ManifestError {
        ManifestError::Field {
            field: format!("{}{field}", self.prefix),
            expected,
        }
    }

    /// A field that may be missing (or null).
    fn present(&self, field: &str) -> Option<&Value> {
        self.map.get(field).filter(|v| !v.is_null())
    }

    fn text(&self, field: &str) -> Result<Option<String>, ManifestError> {
        match self.present(field) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(self.wrong(field, "a string")),
        }
    }

    /// A string the run is labelled by: present and not empty.
    fn required_text(&self, field: &str) -> Result<String, ManifestError> {
        match self.present(field) {
            Some(Value::String(s)) if !s.is_empty() => Ok(s.clone()),
            _ => Err(self.wrong(field, "a non-empty string")),
        }
    }

    fn number<T: TryFrom<u64>>(&self, field: &str) -> Result<Option<T>, ManifestError> {
        match self.present(field) {
            None => Ok(None),
            Some(v) => v
                .as_u64()
                .and_then(|n| T::try_from(n).ok())
                .map(Some)
                .ok_or_else(|| self.wrong(field, "a whole number")),
        }
    }

    fn list(&self, field: &str, expected: &'static str) -> Result<&[Value], ManifestError> {
        match self.present(field) {
            None => Ok(&[]),
            Some(Value::Array(items)) => Ok(items),
            Some(_) => Err(self.wrong(field, expected)),
        }
    }

    fn texts(&self, field: &str) -> Result<Vec<String>, ManifestError> {
        self.list(field, "a list of strings")?
            .iter()
            .map(|v| {
                v.as_str()
                    .map(str::to_owned)
                    .ok_or_else(|| self.wrong(field, "a list of strings"))
            })
            .collect()
    }
}

/// The engine object at `field` (a sweep's `engine`, or an entry of a
/// self-play run's `engines`, then named `engines[]`).
fn engine(parent: &Map<String, Value>, field: &str) -> Result<EngineRecord, ManifestError> {
    let empty = Map::new();
    let map = match parent.get(field) {
        Some(Value::Object(map)) => map,
        _ => &empty,
    };
    engine_of(map, field)
}

fn engine_of(map: &Map<String, Value>, name: &str) -> Result<EngineRecord, ManifestError> {
    let fields = Fields {
        map,
        prefix: format!("{name}."),
    };
    let options = fields
        .list("options", "a list of [name, value] pairs")?
        .iter()
        .map(|pair| match pair.as_array().map(Vec::as_slice) {
            Some([Value::String(k), Value::String(v)]) => Ok((k.clone(), v.clone())),
            _ => Err(fields.wrong("options", "a list of [name, value] pairs")),
        })
        .collect::<Result<_, _>>()?;
    Ok(EngineRecord {
        name: fields.required_text("name")?,
        author: fields.text("author")?,
        path: fields.text("path")?,
        options,
    })
}

/// A self-play run's `engines`: one or two.
fn engine_list(map: &Map<String, Value>) -> Result<Vec<EngineRecord>, ManifestError> {
    let list = match map.get("engines") {
        Some(Value::Array(list)) if !list.is_empty() => list,
        _ => {
            return Err(ManifestError::Field {
                field: "engines".to_owned(),
                expected: "a list of engines",
            });
        }
    };
    let empty = Map::new();
    list.iter()
        .map(|e| engine_of(e.as_object().unwrap_or(&empty), "engines[]"))
        .collect()
}

/// The `failed` list: `{sp, reason}` per position, `{sp, game, reason}`
/// per game.
fn failed(map: &Map<String, Value>, variant: Variant) -> Result<Vec<FailedUnit>, ManifestError> {
    let top = Fields {
        map,
        prefix: String::new(),
    };
    let empty = Map::new();
    top.list("failed", "a list")?
        .iter()
        .enumerate()
        .map(|(k, entry)| {
            let fields = Fields {
                map: entry.as_object().unwrap_or(&empty),
                prefix: format!("failed[{k}]."),
            };
            let sp = match variant {
                Variant::Chess960 => fields
                    .number::<u32>("sp")?
                    .filter(|sp| *sp < 960)
                    .ok_or_else(|| fields.wrong("sp", "a start position number (0 to 959)"))?,
                Variant::Dfrc => fields
                    .number::<u32>("sp")?
                    .filter(|n| *n < c960_core::DFRC_COUNT)
                    .ok_or_else(|| fields.wrong("sp", "a DFRC setup index (0 to 921599)"))?,
            };
            Ok(FailedUnit {
                sp,
                game: fields.number("game")?,
                reason: fields.text("reason")?,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> String {
        RunManifest::parse(text).unwrap_err().to_string()
    }

    #[test]
    fn the_published_sweep_manifest_reads_with_its_fields() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../data/sweep-stockfish-15.1-nodes1000000-mpv3");
        let m = RunManifest::read(&dir).unwrap();
        assert_eq!(m.kind, RunKind::Sweep);
        assert_eq!(m.engine_names(), ["Stockfish 15.1"]);
        assert_eq!(m.engines[0].path.as_deref(), Some("/usr/games/stockfish"));
        assert!(
            m.engines[0]
                .options
                .contains(&("MultiPV".into(), "3".into()))
        );
        assert_eq!(m.limit.as_deref(), Some("nodes 1000000"));
        assert_eq!((m.multipv, m.lines(), m.rows), (Some(3), 3, Some(960)));
        assert_eq!(m.positions.as_deref(), Some("all"));
        assert!(m.failed.is_empty());
        assert_eq!(m.finished.as_deref(), Some("2026-11-22T05:26:49Z"));
        // Fields the model does not name are kept, in order.
        let keys: Vec<&str> = m.as_written().keys().map(String::as_str).collect();
        assert_eq!(keys[..3], ["kind", "c960_version", "engine"]);
        assert!(keys.contains(&"notes") && keys.contains(&"resumed"));
    }

    #[test]
    fn a_manifest_serializes_as_written() {
        let text = r#"{"kind":"selfplay","engines":[{"name":"A"},{"name":"B"}],"limit":"nodes 5","zeta":1,"alpha":[2]}"#;
        let m = RunManifest::parse(text).unwrap();
        assert_eq!(serde_json::to_string(&m).unwrap(), text);
        assert_eq!(m.engine_names(), ["A", "B"]);
        assert_eq!((m.games, m.c960_version.as_deref()), (None, None));
        // The same fields in another order are the same manifest.
        let reordered = r#"{"limit":"nodes 5","alpha":[2],"kind":"selfplay","zeta":1,"engines":[{"name":"A"},{"name":"B"}]}"#;
        assert_eq!(RunManifest::parse(reordered).unwrap(), m);
        let other = text.replace("nodes 5", "nodes 6");
        assert_ne!(RunManifest::parse(&other).unwrap(), m);
    }

    #[test]
    fn an_import_manifest_needs_no_engine() {
        let m = RunManifest::parse(
            r#"{"kind":"import","files":["a.pgn","b.pgn.zst"],"games":4,"read":9,"failed":null}"#,
        )
        .unwrap();
        assert_eq!(m.kind, RunKind::Import);
        assert!(m.engines.is_empty() && m.limit.is_none());
        assert_eq!(m.files, ["a.pgn", "b.pgn.zst"]);
        assert_eq!((m.games, m.read), (Some(4), Some(9)));
    }

    #[test]
    fn failures_are_read_per_unit() {
        let m = RunManifest::parse(
            r#"{"kind":"selfplay","engines":[{"name":"A"}],"limit":"nodes 5",
                "failed":[{"sp":5,"game":3,"reason":"crashed"},{"sp":7}]}"#,
        )
        .unwrap();
        assert_eq!(
            m.failed,
            [
                FailedUnit {
                    sp: 5,
                    game: Some(3),
                    reason: Some("crashed".into())
                },
                FailedUnit {
                    sp: 7,
                    game: None,
                    reason: None
                }
            ]
        );
    }

    #[test]
    fn a_wrong_or_missing_field_is_named() {
        let sweep = |rest: &str| {
            format!(r#"{{"kind":"sweep","engine":{{"name":"E"}},"limit":"nodes 1"{rest}}}"#)
        };
        assert!(RunManifest::parse(&sweep("")).is_ok());
        for (text, said) in [
            (
                r#"{"kind":"sweep","engine":{"name":"E"},"limit":7}"#.to_owned(),
                "manifest.json: limit must be a non-empty string",
            ),
            (
                r#"{"kind":"sweep","engine":{"name":"E"}}"#.to_owned(),
                "limit must be a non-empty string",
            ),
            (
                r#"{"kind":"sweep","limit":"nodes 1"}"#.to_owned(),
                "engine.name must be a non-empty string",
            ),
            (
                r#"{"kind":"selfplay","engines":[],"limit":"nodes 1"}"#.to_owned(),
                "engines must be a list of engines",
            ),
            (
                r#"{"kind":"selfplay","engines":[{"name":""}],"limit":"nodes 1"}"#.to_owned(),
                "engines[].name must be a non-empty string",
            ),
            (sweep(r#","multipv":0"#), "multipv must be at least 1"),
            (sweep(r#","rows":"many""#), "rows must be a whole number"),
            (sweep(r#","failed":{}"#), "failed must be a list"),
            (
                sweep(r#","failed":[{"reason":"x"}]"#),
                "failed[0].sp must be a start position number (0 to 959)",
            ),
            (sweep(r#","finished":5"#), "finished must be a string"),
            (
                sweep(r#","engine":{"name":"E","options":[["a"]]}"#),
                "engine.options must be a list of [name, value] pairs",
            ),
            (
                r#"{"kind":"tournament"}"#.to_owned(),
                "unknown run kind \"tournament\" in manifest.json",
            ),
            ("[1]".to_owned(), "manifest.json is not JSON"),
        ] {
            let found = error(&text);
            assert!(found.contains(said), "{text}: {found}");
        }
    }
}
