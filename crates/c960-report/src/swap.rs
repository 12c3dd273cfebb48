//! A report built beside its target and swapped in whole: a report that
//! fails or is killed leaves the previous one as it was, and the next
//! report cleans up what a killed one left. A directory that holds
//! anything the report did not write (by name, and by type: only regular
//! files and the report's two directories) is never replaced.

use std::{
    collections::BTreeSet,
    fs,
    io::{self, BufRead as _},
    path::Path,
};

use c960_store::{POSITIONS_CSV, POSITIONS_TABLE};

use crate::{
    balance::{BALANCE_CSV, BALANCE_JSON},
    dfrc::{DFRC_GROUPS_CSV, DFRC_JSON, DFRC_REGRESSION_CSV, DFRC_SETUPS_CSV},
};

/// The column of the per-position table that a self-play run's first-move
/// table goes with: `{label}__first_moves`.
const FIRST_MOVES_SUFFIX: &str = "__first_moves";

/// Whether the file `name`, at the top of a report directory, is one a
/// report writes (anything else is someone's own file, which a report must
/// not delete): its pages and tables, and `first-moves-{label}.csv` for
/// the self-play runs in `runs` (those the report's own table has
/// first-move columns for).
fn written_by_report(name: &str, runs: &BTreeSet<String>) -> bool {
    matches!(
        name,
        "index.html"
            | "fair.html"
            | "style.css"
            | "table.js"
            | POSITIONS_TABLE
            | POSITIONS_CSV
            | BALANCE_CSV
            | BALANCE_JSON
            | crate::agreement::AGREEMENT_CSV
            | crate::agreement::AGREEMENT_JSON
            | DFRC_JSON
            | DFRC_SETUPS_CSV
            | DFRC_GROUPS_CSV
            | DFRC_REGRESSION_CSV
    ) || name
        .strip_prefix("first-moves-")
        .and_then(|rest| rest.strip_suffix(".csv"))
        .is_some_and(|label| runs.contains(label))
        || is_temporary(name)
}

/// The self-play runs of the report in `out`: the labels of its table's
/// `{label}__first_moves` columns (the header of its `positions.csv`, if
/// that is a regular file).
fn first_move_runs(out: &Path) -> io::Result<BTreeSet<String>> {
    let table = out.join(POSITIONS_CSV);
    match fs::symlink_metadata(&table) {
        Ok(meta) if meta.is_file() => {}
        Ok(_) => return Ok(BTreeSet::new()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(BTreeSet::new()),
        Err(e) => return Err(e),
    }
    let mut header = String::new();
    io::BufReader::new(fs::File::open(&table)?).read_line(&mut header)?;
    Ok(header
        .trim_end()
        .split(',')
        .filter_map(|column| {
            column
                .trim_matches('"')
                .strip_suffix(FIRST_MOVES_SUFFIX)
                .map(str::to_owned)
        })
        .collect())
}

/// Whether `name`, inside the report's directory `dir` (`charts` or
/// `positions`), is a file a report writes there: charts as SVG and PNG,
/// per position a page, its diagram (SVG), its table row (JSON) and a
/// sample of games (PGN).
fn written_in(dir: &str, name: &str) -> bool {
    if is_temporary(name) {
        return true;
    }
    match dir {
        "charts" => {
            !name.starts_with('.') && (has_extension(name, "svg") || has_extension(name, "png"))
        }
        _ => name.split_once('.').is_some_and(|(sp, kind)| {
            !sp.is_empty()
                && sp.bytes().all(|b| b.is_ascii_digit())
                && matches!(kind, "html" | "pgn" | "svg" | "json")
        }),
    }
}

fn has_extension(name: &str, extension: &str) -> bool {
    Path::new(name)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case(extension))
}

/// A temporary file of an atomic write (`.NAME.PID.N.tmp`, a chart's
/// `.NAME.PID.png`): what a report killed while writing in place left.
fn is_temporary(name: &str) -> bool {
    let Some(rest) = name.strip_prefix('.') else {
        return false;
    };
    let mut parts = rest.rsplit('.');
    let (Some(last), Some(before)) = (parts.next(), parts.next()) else {
        return false;
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (last == "tmp" && digits(before) && parts.next().is_some_and(digits))
        || (last == "png" && digits(before))
}

/// The first entry of the directory `out` that a report did not write
/// (its path relative to `out`), looking into `charts/` and `positions/`:
/// anything else there, hidden files included, is kept by refusing.
fn foreign_entry(out: &Path) -> io::Result<Option<String>> {
    let runs = first_move_runs(out)?;
    for entry in fs::read_dir(out)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let kind = entry.file_type()?;
        let ours = if kind.is_dir() {
            matches!(name.as_str(), "charts" | "positions")
        } else {
            kind.is_file() && written_by_report(&name, &runs)
        };
        if !ours {
            return Ok(Some(name));
        }
        if kind.is_dir() {
            for inner in fs::read_dir(entry.path())? {
                let inner = inner?;
                let file = inner.file_name().to_string_lossy().into_owned();
                if !inner.file_type()?.is_file() || !written_in(&name, &file) {
                    return Ok(Some(format!("{name}/{file}")));
                }
            }
        }
    }
    Ok(None)
}

/// A report being built beside its target ([`c960_store::DirSwap`]),
/// renamed over the target once complete.
pub(crate) struct Swap(c960_store::DirSwap);

impl Swap {
    /// Locks `out`, cleans what killed reports left beside it, checks that
    /// it may be replaced, and makes the directory to build in.
    pub(crate) fn begin(out: &Path) -> Result<Swap, crate::ReportError> {
        let bad = |reason: String| crate::ReportError::Io(c960_store::bad_input(reason));
        let swap = c960_store::DirSwap::begin(out, "the report").map_err(|e| match e {
            c960_store::SwapError::Lock(e) => crate::ReportError::Lock(e),
            c960_store::SwapError::Io(e) => crate::ReportError::Io(e),
        })?;
        match fs::symlink_metadata(out) {
            Err(_) => {}
            Ok(meta) if meta.is_dir() => {
                if let Some(entry) = foreign_entry(out)? {
                    return Err(bad(format!(
                        "cannot replace {}: it holds {entry}, which c960 report did not write; \
                         give a new or empty directory",
                        out.display()
                    )));
                }
            }
            Ok(_) => {
                return Err(bad(format!(
                    "cannot write a report to {}: it is not a directory",
                    out.display()
                )));
            }
        }
        Ok(Swap(swap))
    }

    /// Where the report is built.
    pub(crate) fn building(&self) -> &Path {
        self.0.building()
    }

    /// Gives up: the target stays as it was.
    pub(crate) fn abandon(self) {
        drop(self.0);
    }

    /// Puts the built report in place of the old one.
    pub(crate) fn finish(self) -> io::Result<()> {
        self.0.finish()
    }
}
