//! A report built beside its target and swapped in whole: a report that
//! fails or is killed leaves the previous one as it was, and the next
//! report cleans up what a killed one left. A directory that holds files
//! the report did not write is never replaced.

use std::{
    fs, io,
    path::{Path, PathBuf},
};

use c960_store::{POSITIONS_CSV, POSITIONS_TABLE};

use crate::{
    balance::{BALANCE_CSV, BALANCE_JSON},
    dfrc::{DFRC_GROUPS_CSV, DFRC_JSON, DFRC_REGRESSION_CSV, DFRC_SETUPS_CSV},
};

/// A report being built beside its target: `.NAME.build.PID` in the
/// target's parent, renamed over the target once complete.
pub(crate) struct Swap {
    out: PathBuf,
    temp: PathBuf,
    parent: PathBuf,
    name: String,
    _lock: c960_store::DirLock,
}

/// Whether `name`, at the top of a report directory, is something a
/// report writes (anything else is someone's own file, which a report
/// must not delete): its pages, tables and the two directories it fills.
fn written_by_report(name: &str, is_dir: bool) -> bool {
    if is_dir {
        return matches!(name, "charts" | "positions");
    }
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
    ) || (name.starts_with("first-moves-") && has_extension(name, "csv"))
        || is_temporary(name)
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
    for entry in fs::read_dir(out)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let kind = entry.file_type()?;
        if kind.is_symlink() || !written_by_report(&name, kind.is_dir()) {
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

impl Swap {
    /// Locks `out`, cleans what killed reports left beside it, checks that
    /// it may be replaced, and makes the directory to build in.
    pub(crate) fn begin(out: &Path) -> Result<Swap, crate::ReportError> {
        let bad = |reason: String| crate::ReportError::Io(c960_store::bad_input(reason));
        let name = out
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .ok_or_else(|| bad(format!("cannot write a report to {}", out.display())))?;
        let parent = match out.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
            _ => PathBuf::from("."),
        };
        c960_store::create_dir(&parent)?;
        let lock = c960_store::DirLock::exclusive_file(&parent.join(format!(".{name}.lock")), out)?;
        let swap = Swap {
            out: out.to_owned(),
            temp: parent.join(format!(".{name}.build.{}", std::process::id())),
            parent,
            name,
            _lock: lock,
        };
        swap.clean_up();
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
        let _ = fs::remove_dir_all(&swap.temp);
        fs::create_dir(&swap.temp).map_err(|e| c960_store::describe_write_error(&swap.temp, &e))?;
        Ok(swap)
    }

    /// Removes directories of killed reports (their process is gone); a
    /// report killed between its two renames is put back first.
    fn clean_up(&self) {
        let Ok(entries) = fs::read_dir(&self.parent) else {
            return;
        };
        let prefix = format!(".{}.", self.name);
        for entry in entries.flatten() {
            let file = entry.file_name().to_string_lossy().into_owned();
            let Some(rest) = file.strip_prefix(&prefix) else {
                continue;
            };
            let Some((stage, pid)) = rest.split_once('.') else {
                continue;
            };
            let Ok(pid) = pid.parse::<u32>() else {
                continue;
            };
            if pid == std::process::id() || Path::new(&format!("/proc/{pid}")).exists() {
                continue;
            }
            match stage {
                "old" if !self.out.exists() => {
                    let _ = fs::rename(entry.path(), &self.out);
                }
                "old" | "build" => {
                    let _ = fs::remove_dir_all(entry.path());
                }
                _ => {}
            }
        }
    }

    /// Where the report is built.
    pub(crate) fn building(&self) -> &Path {
        &self.temp
    }

    /// Gives up: the target stays as it was.
    pub(crate) fn abandon(self) {
        let _ = fs::remove_dir_all(&self.temp);
    }

    /// Puts the built report in place of the old one.
    pub(crate) fn finish(self) -> io::Result<()> {
        let old = self
            .parent
            .join(format!(".{}.old.{}", self.name, std::process::id()));
        let had_old = self.out.exists();
        let moved = (|| {
            if had_old {
                fs::rename(&self.out, &old)?;
            }
            fs::rename(&self.temp, &self.out)
        })();
        if let Err(e) = moved {
            if had_old && !self.out.exists() {
                let _ = fs::rename(&old, &self.out);
            }
            let _ = fs::remove_dir_all(&self.temp);
            return Err(io::Error::new(
                e.kind(),
                format!(
                    "cannot put the report in place at {}: {e}",
                    self.out.display()
                ),
            ));
        }
        if let Ok(dir) = fs::File::open(&self.parent) {
            let _ = dir.sync_all();
        }
        if had_old {
            let _ = fs::remove_dir_all(&old);
        }
        Ok(())
    }
}
