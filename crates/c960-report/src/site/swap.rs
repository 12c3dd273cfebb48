//! A report built beside its target and swapped in whole: a report that
//! fails or is killed leaves the previous one as it was, and the next
//! report cleans up what a killed one left. A directory that holds files
//! the report did not write is never replaced.

use std::{
    fs, io,
    path::{Path, PathBuf},
};

use c960_store::{POSITIONS_CSV, POSITIONS_TABLE};

use crate::balance::{BALANCE_CSV, BALANCE_JSON};

/// A report being built beside its target: `.NAME.build.PID` in the
/// target's parent, renamed over the target once complete.
pub(crate) struct Swap {
    out: PathBuf,
    temp: PathBuf,
    parent: PathBuf,
    name: String,
    _lock: c960_store::DirLock,
}

/// What a report directory holds (anything else is someone's own file,
/// which a report must not delete).
fn written_by_report(name: &str) -> bool {
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
            | "charts"
            | "positions"
    ) || name.starts_with('.')
        || (name.starts_with("first-moves-")
            && Path::new(name)
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("csv")))
}

impl Swap {
    /// Locks `out`, cleans what killed reports left beside it, checks that
    /// it may be replaced, and makes the directory to build in.
    pub(crate) fn begin(out: &Path) -> Result<Swap, crate::ReportError> {
        let bad = |reason: String| {
            crate::ReportError::Io(io::Error::new(io::ErrorKind::InvalidInput, reason))
        };
        let name = out
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .ok_or_else(|| bad(format!("cannot write a report to {}", out.display())))?;
        let parent = match out.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
            _ => PathBuf::from("."),
        };
        fs::create_dir_all(&parent).map_err(|e| {
            io::Error::new(e.kind(), format!("cannot create {}: {e}", parent.display()))
        })?;
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
                for entry in fs::read_dir(out)? {
                    let entry = entry?.file_name().to_string_lossy().into_owned();
                    if !written_by_report(&entry) {
                        return Err(bad(format!(
                            "cannot replace {}: it holds {entry}, which c960 report did not write; \
                             give a new or empty directory",
                            out.display()
                        )));
                    }
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
