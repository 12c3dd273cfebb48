//! An output directory replaced as a whole: built beside its target
//! (`.NAME.build.PID` in the target's parent) under a lock (`.NAME.lock`),
//! then renamed over it. A build that fails or is killed leaves the
//! previous output as it was, two builds into one target cannot mix their
//! files, and the next build cleans up what a killed one left (putting
//! back an output killed between its two renames). The report's site and
//! the tournament kit are written this way; which files a target may hold
//! before it is replaced is each caller's rule.

use std::{
    fs, io,
    path::{Path, PathBuf},
};

use thiserror::Error;

use crate::{DirLock, LockError};

/// Why a directory could not be prepared or put in place.
#[derive(Debug, Error)]
pub enum SwapError {
    /// Another process is building the same output, or its lock failed.
    #[error("{0}")]
    Lock(#[from] LockError),
    /// Making, reading or renaming a directory failed (the error names
    /// it); bad input (see [`crate::bad_input`]) where `--out` cannot be a
    /// directory.
    #[error("{0}")]
    Io(#[from] io::Error),
}

/// An output directory being built beside its target. Dropped before
/// [`DirSwap::finish`], it removes what it built and leaves the target.
#[derive(Debug)]
pub struct DirSwap {
    out: PathBuf,
    temp: PathBuf,
    parent: PathBuf,
    name: String,
    /// What is built, for messages: `the report`, `the kit`.
    what: &'static str,
    finished: bool,
    _lock: DirLock,
}

impl DirSwap {
    /// Locks `out`, cleans what killed builds left beside it and makes the
    /// directory to build in. `what` names the output in messages (`the
    /// report`). The caller checks, now under the lock, that what stands
    /// at `out` may be replaced.
    pub fn begin(out: &Path, what: &'static str) -> Result<DirSwap, SwapError> {
        let name = out
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .ok_or_else(|| crate::bad_input(format!("cannot write {what} to {}", out.display())))?;
        let parent = match out.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
            _ => PathBuf::from("."),
        };
        crate::create_dir(&parent)?;
        let lock = DirLock::exclusive_file(&parent.join(format!(".{name}.lock")), out)?;
        let swap = DirSwap {
            out: out.to_owned(),
            temp: parent.join(format!(".{name}.build.{}", std::process::id())),
            parent,
            name,
            what,
            finished: false,
            _lock: lock,
        };
        swap.clean_up();
        let _ = fs::remove_dir_all(&swap.temp);
        fs::create_dir(&swap.temp).map_err(|e| crate::describe_write_error(&swap.out, &e))?;
        Ok(swap)
    }

    /// Removes what killed builds left (their process is gone); an output
    /// killed between its two renames is put back first.
    fn clean_up(&self) {
        let Ok(entries) = fs::read_dir(&self.parent) else {
            return;
        };
        let prefix = format!(".{}.", self.name);
        for entry in entries.flatten() {
            let file = entry.file_name().to_string_lossy().into_owned();
            let Some((stage, pid)) = file
                .strip_prefix(&prefix)
                .and_then(|rest| rest.split_once('.'))
            else {
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

    /// The target: where the output is put once built.
    #[must_use]
    pub fn target(&self) -> &Path {
        &self.out
    }

    /// Where the output is built.
    #[must_use]
    pub fn building(&self) -> &Path {
        &self.temp
    }

    /// Puts the built output in place of the old one; on failure the old
    /// one stays (or is put back) and what was built is removed.
    pub fn finish(mut self) -> io::Result<()> {
        let old = self
            .parent
            .join(format!(".{}.old.{}", self.name, std::process::id()));
        let had_old = self.out.exists();
        let moved = (|| {
            // What was built is durable before it is put in place: its
            // files were written without syncs of their own.
            sync_tree(&self.temp)?;
            if had_old {
                fs::rename(&self.out, &old)?;
            }
            fs::rename(&self.temp, &self.out)
        })();
        if let Err(e) = moved {
            if had_old && !self.out.exists() {
                let _ = fs::rename(&old, &self.out);
            }
            return Err(io::Error::new(
                e.kind(),
                format!(
                    "cannot put {} in place at {}: {e}",
                    self.what,
                    self.out.display()
                ),
            ));
        }
        self.finished = true;
        if let Ok(dir) = fs::File::open(&self.parent) {
            let _ = dir.sync_all();
        }
        if had_old {
            let _ = fs::remove_dir_all(&old);
        }
        Ok(())
    }
}

/// Makes every file and directory under `dir` durable: on Linux with one
/// `syncfs` of its file system (one flush instead of a sync per file),
/// elsewhere by syncing each of them.
fn sync_tree(dir: &Path) -> io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        let dir = fs::File::open(dir)?;
        rustix::fs::syncfs(&dir).map_err(io::Error::from)
    }
    #[cfg(not(target_os = "linux"))]
    {
        for entry in fs::read_dir(dir)? {
            let entry = entry?;
            if entry.file_type()?.is_dir() {
                sync_tree(&entry.path())?;
            } else {
                fs::File::open(entry.path())?.sync_all()?;
            }
        }
        fs::File::open(dir)?.sync_all()
    }
}

impl Drop for DirSwap {
    fn drop(&mut self) {
        if !self.finished {
            let _ = fs::remove_dir_all(&self.temp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_finished_build_replaces_the_target_and_an_abandoned_one_leaves_it() {
        let dir = std::env::temp_dir().join(format!("c960-swap-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let out = dir.join("site");
        fs::create_dir_all(&out).unwrap();
        fs::write(out.join("old.txt"), "old").unwrap();

        let swap = DirSwap::begin(&out, "the report").unwrap();
        fs::write(swap.building().join("new.txt"), "new").unwrap();
        drop(swap);
        assert!(out.join("old.txt").exists());
        assert_eq!(
            fs::read_dir(&dir).unwrap().count(),
            2,
            "the site and its lock"
        );

        let swap = DirSwap::begin(&out, "the report").unwrap();
        fs::write(swap.building().join("new.txt"), "new").unwrap();
        swap.finish().unwrap();
        assert!(!out.join("old.txt").exists());
        assert_eq!(fs::read_to_string(out.join("new.txt")).unwrap(), "new");

        // An output killed between its renames (only `.site.old.PID` of a
        // process that is gone is left) is put back by the next build.
        fs::rename(&out, dir.join(".site.old.4000000000")).unwrap();
        let swap = DirSwap::begin(&out, "the report").unwrap();
        assert_eq!(fs::read_to_string(out.join("new.txt")).unwrap(), "new");
        drop(swap);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn built_files_are_written_in_place_and_a_failed_one_is_removed() {
        let dir = std::env::temp_dir().join(format!("c960-swap-built-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let out = dir.join("site");
        let swap = DirSwap::begin(&out, "the report").unwrap();
        let page = swap.building().join("page.html");
        crate::write_built(&page, |o| io::Write::write_all(o, b"first")).unwrap();
        // Written again (shorter): the file holds only the second text.
        crate::write_built(&page, |o| io::Write::write_all(o, b"2nd")).unwrap();
        let failed = swap.building().join("failed.html");
        let e = crate::write_built(&failed, |o| {
            io::Write::write_all(o, b"half")?;
            Err(io::Error::other("the page could not be made"))
        })
        .unwrap_err();
        assert!(e.to_string().contains("failed.html"), "{e}");
        assert!(!failed.exists(), "a failed file is removed");
        // No temporary file: each page is its one file.
        let names: Vec<String> = fs::read_dir(swap.building())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["page.html"]);
        swap.finish().unwrap();
        assert_eq!(fs::read_to_string(out.join("page.html")).unwrap(), "2nd");
        fs::remove_dir_all(&dir).unwrap();
    }
}
