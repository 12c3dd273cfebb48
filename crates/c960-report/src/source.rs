//! The report's inputs: each run directory read through its typed manifest
//! ([`c960_store::RunManifest`]) and given a label made from its engine and
//! limit (an import from its directory's name). The label prefixes the
//! run's columns in the per-position table, so two runs with the same label
//! are refused (see [`crate::per_position`]). What a manifest does not
//! record is said in words here, never shown as a placeholder.

use std::{
    collections::BTreeSet,
    fmt::Write as _,
    path::{Path, PathBuf},
};

use c960_store::{RunKind, RunManifest};
use serde::Serialize;

use crate::ReportError;

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
    pub manifest: RunManifest,
    /// Units that failed in the run (SP and reason, one per failed
    /// position or game): the table has no numbers for them.
    pub failed: Vec<(u16, String)>,
}

/// Reads the manifest of the run in `dir` and labels it.
pub fn source(dir: &Path) -> Result<Source, ReportError> {
    let manifest = RunManifest::read(dir).map_err(|e| ReportError::BadRun {
        dir: dir.to_owned(),
        reason: e.to_string(),
    })?;
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
    let failed = manifest
        .failed
        .iter()
        .map(|f| {
            let reason = f.reason.as_deref().unwrap_or("reason not recorded");
            (f.sp, reason.to_owned())
        })
        .collect();
    Ok(Source {
        kind,
        label: slug(&label),
        dir: dir.to_owned(),
        manifest,
        failed,
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
