//! The report's inputs: each run directory read through its typed manifest
//! ([`c960_store::RunManifest`]) and given a label made from its engine and
//! limit (an import from its directory's name). The label prefixes the
//! run's columns in the per-position table, so two runs with the same label
//! are refused when the table is joined. What a manifest does not
//! record is said in words here, never shown as a placeholder.
//!
//! A sweep is given as its run directory or as its table alone, as
//! datasets publish each rater (`NAME-sweep.parquet` with
//! `NAME-manifest.json` beside it): a file is read where it lies, under
//! the lock of the directory holding it, if that has one.

use std::{
    collections::BTreeSet,
    fmt::Write as _,
    fs,
    path::{Path, PathBuf},
};

use c960_store::{MANIFEST_FILE, RunKind, RunManifest};
use serde::Serialize;

use crate::ReportError;

/// One input run and how it is labelled in the table.
#[derive(Clone, Debug, Serialize)]
pub struct Source {
    /// Sweep, self-play or import.
    pub kind: RunKind,
    /// Prefix of its columns, e.g. `sweep_stockfish_15_1_nodes_1000000`.
    pub label: String,
    /// The run directory, or the sweep table given on its own.
    pub dir: PathBuf,
    /// The run's per-position table (`sweep.parquet` in the directory, or
    /// the table given).
    #[serde(skip)]
    pub table: PathBuf,
    /// Its manifest, as written by the run.
    pub manifest: RunManifest,
    /// Units that failed in the run (SP and reason, one per failed
    /// position or game): the table has no numbers for them.
    pub failed: Vec<(u16, String)>,
}

/// The manifest of the run `input`: `manifest.json` in a run directory;
/// beside a table given on its own, the file named like it
/// (`NAME-manifest.json` for `NAME-sweep.parquet`).
#[must_use]
pub fn manifest_path(input: &Path) -> PathBuf {
    if !input.is_file() {
        return input.join(MANIFEST_FILE);
    }
    let name = input
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let stem = name
        .strip_suffix(RunKind::Sweep.table())
        .unwrap_or_else(|| name.strip_suffix(".parquet").unwrap_or(&name));
    let prefix = if stem.is_empty() || stem.ends_with(['-', '_', '.']) {
        stem.to_owned()
    } else {
        format!("{stem}-")
    };
    input.with_file_name(format!("{prefix}{MANIFEST_FILE}"))
}

/// Reads the manifest of the run `input` (a run directory, or a sweep
/// table given on its own) and labels it.
pub fn source(input: &Path) -> Result<Source, ReportError> {
    let dir = input;
    let manifest = if input.is_file() {
        manifest_beside(input)?
    } else {
        RunManifest::read(dir).map_err(|e| ReportError::BadRun {
            dir: dir.to_owned(),
            reason: e.to_string(),
        })?
    };
    let kind = manifest.kind;
    let mut label = match kind {
        RunKind::Sweep | RunKind::Selfplay => format!(
            "{} {} {}",
            kind.name(),
            manifest.engine_names().join(" vs "),
            manifest.limit.as_deref().unwrap_or_default()
        ),
        RunKind::Import => format!(
            "import {}",
            dir.file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
        ),
    };
    if kind == RunKind::Sweep && manifest.lines() > 1 {
        let _ = write!(label, " mpv{}", manifest.lines());
    }
    // Raters of one engine and limit are told apart by the options that
    // set them apart (a larger hash, say).
    if kind == RunKind::Sweep
        && let Some(engine) = manifest.engines.first()
    {
        for (name, value) in &engine.options {
            if name != "MultiPV" && !crate::balance::is_routine(name, value) {
                let _ = write!(label, " {name}{value}");
            }
        }
    }
    let failed = manifest
        .failed
        .iter()
        .map(|f| {
            let reason = f.reason.as_deref().unwrap_or("reason not recorded");
            // A Chess960 manifest's SPs are below 960 (checked when read).
            (u16::try_from(f.sp).unwrap_or(u16::MAX), reason.to_owned())
        })
        .collect();
    let table = if input.is_file() {
        input.to_owned()
    } else {
        input.join(kind.table())
    };
    Ok(Source {
        kind,
        label: slug(&label),
        dir: dir.to_owned(),
        table,
        manifest,
        failed,
    })
}

/// The manifest beside the table `file` given on its own; only a sweep is
/// one table (a self-play run or an import is read from its directory).
fn manifest_beside(file: &Path) -> Result<RunManifest, ReportError> {
    let path = manifest_path(file);
    let bad = |reason: String| ReportError::BadRun {
        dir: file.to_owned(),
        reason,
    };
    let text = fs::read_to_string(&path).map_err(|e| {
        bad(format!(
            "a sweep table is read with its manifest beside it, and {} cannot be read ({e})",
            path.display()
        ))
    })?;
    let manifest = RunManifest::parse(&text).map_err(|e| ReportError::BadRun {
        dir: path.clone(),
        reason: e
            .to_string()
            .trim_start_matches(&format!("{MANIFEST_FILE}: "))
            .to_owned(),
    })?;
    let what = match manifest.kind {
        RunKind::Sweep => return Ok(manifest),
        RunKind::Selfplay => "a self-play run",
        RunKind::Import => "imported games",
    };
    Err(bad(format!(
        "{} describes {what}; give its run directory (only a sweep is read from its table alone)",
        path.display()
    )))
}

/// Lower-case letters and digits joined by `_`.
pub(crate) fn slug(text: &str) -> String {
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

/// Labels of the runs of `kind`, in input order.
#[must_use]
pub fn labels(sources: &[Source], kind: RunKind) -> BTreeSet<String> {
    sources
        .iter()
        .filter(|s| s.kind == kind)
        .map(|s| s.label.clone())
        .collect()
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

    /// The engines' names, joined by ` vs ` (empty for an import).
    #[must_use]
    pub fn engines(&self) -> String {
        self.manifest.engine_names().join(" vs ")
    }

    /// A sweep's budget: its limit, with the engine options that set it apart
    /// from other raters of the same engine (`nodes 1000000 (MultiPV=3)`).
    #[must_use]
    pub fn budget(&self) -> String {
        let s = self;
        let distinct: Vec<String> = s
            .manifest
            .engines
            .first()
            .map(|e| {
                e.options
                    .iter()
                    .filter(|(name, value)| !crate::balance::is_routine(name, value))
                    .map(|(name, value)| format!("{name}={value}"))
                    .collect()
            })
            .unwrap_or_default();
        if distinct.is_empty() {
            s.limit().to_owned()
        } else {
            format!("{} ({})", s.limit(), distinct.join(", "))
        }
    }

    /// A rater as the pages name it: its engine at its budget
    /// (`Stockfish 15.1 at nodes 1000000 (Hash=64)`).
    #[must_use]
    pub fn rater(&self) -> String {
        format!("{} at {}", self.engines(), self.budget())
    }

    /// The run as captions name it: a sweep or self-play run by its
    /// engines at its budget, an import by its label.
    #[must_use]
    pub fn shown_name(&self) -> String {
        if self.kind == RunKind::Import {
            self.label.clone()
        } else {
            self.rater()
        }
    }

    /// The search limit (sweeps and self-play always record one).
    #[must_use]
    pub fn limit(&self) -> &str {
        self.manifest
            .limit
            .as_deref()
            .unwrap_or("a limit not recorded")
    }

    /// `N games`, for runs with games.
    #[must_use]
    pub fn games(&self) -> String {
        self.manifest
            .games
            .map_or_else(|| "games not counted".to_owned(), |n| format!("{n} games"))
    }

    /// An import's `N games from FILES`.
    #[must_use]
    pub fn imported(&self) -> String {
        let files = &self.manifest.files;
        format!(
            "{} from {}",
            self.games(),
            if files.is_empty() {
                "files not recorded".to_owned()
            } else {
                files.join(", ")
            }
        )
    }

    /// `finished TIME`, or that the time was not recorded.
    #[must_use]
    pub fn finished(&self) -> String {
        self.manifest.finished.as_ref().map_or_else(
            || "finish time not recorded".to_owned(),
            |t| format!("finished {t}"),
        )
    }

    /// `c960 VERSION`, or that the version was not recorded.
    #[must_use]
    pub fn version(&self) -> String {
        self.manifest.c960_version.as_ref().map_or_else(
            || "c960 version not recorded".to_owned(),
            |v| format!("c960 {v}"),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run directory holding only `manifest`.
    fn run(manifest: &str) -> (tempfile::TempDir, Source) {
        let dir = tempfile::tempdir().unwrap();
        let run = dir.path().join("games");
        std::fs::create_dir(&run).unwrap();
        std::fs::write(run.join(c960_store::MANIFEST_FILE), manifest).unwrap();
        let source = source(&run).unwrap();
        (dir, source)
    }

    #[test]
    fn what_a_manifest_does_not_record_is_said_in_words() {
        let (_dir, s) = run(r#"{"kind":"selfplay","engines":[{"name":"A"},{"name":"B"}],
            "limit":"nodes 5","failed":[{"sp":3,"game":1}]}"#);
        assert_eq!(s.label, "selfplay_a_vs_b_nodes_5");
        assert_eq!(s.engines(), "A vs B");
        assert_eq!(s.limit(), "nodes 5");
        assert_eq!(s.games(), "games not counted");
        assert_eq!(s.finished(), "finish time not recorded");
        assert_eq!(s.version(), "c960 version not recorded");
        assert_eq!(s.failed, [(3, "reason not recorded".to_owned())]);
        let (_dir, s) = run(r#"{"kind":"import","files":["a.pgn"],"games":4,
            "finished":"2026-01-01T00:00:00Z","c960_version":"9.9"}"#);
        assert_eq!(s.label, "import_games");
        assert_eq!(s.imported(), "4 games from a.pgn");
        assert_eq!(s.finished(), "finished 2026-01-01T00:00:00Z");
        assert_eq!(s.version(), "c960 9.9");
    }

    #[test]
    fn a_sweep_with_several_lines_is_labelled_with_them() {
        let (_dir, s) = run(
            r#"{"kind":"sweep","engine":{"name":"Stockfish 15.1"},"limit":"nodes 10","multipv":3}"#,
        );
        assert_eq!(s.label, "sweep_stockfish_15_1_nodes_10_mpv3");
    }

    #[test]
    fn a_manifest_field_of_the_wrong_type_is_a_bad_run_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join(c960_store::MANIFEST_FILE),
            r#"{"kind":"sweep","engine":{"name":"E"},"limit":"nodes 1","rows":-1}"#,
        )
        .unwrap();
        let error = source(dir.path()).unwrap_err();
        assert!(error.is_bad_input());
        assert!(
            error
                .to_string()
                .ends_with("manifest.json: rows: invalid value: integer `-1`, expected u64"),
            "{error}"
        );
    }
}
