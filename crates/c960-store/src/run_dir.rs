//! A run directory held by one run for its whole life: created, locked
//! against every other run, cleared of the temporary files that killed
//! writes left, and its outputs checked to be files the run may replace,
//! before any work. Every command that writes a run directory (sweeps,
//! self-play, imports, merges, restores) takes it through [`RunDir`].

use std::{
    io,
    path::{Path, PathBuf},
};

use crate::{DirLock, LockError, Untouched, remove_stale_temporaries};

/// A run directory this process holds; see the module documentation. The
/// lock is released when it is dropped (or the process ends).
#[derive(Debug)]
pub struct RunDir {
    path: PathBuf,
    /// What the directory held before a run that journals its work, to
    /// put back if the run is refused before it did any.
    untouched: Option<Untouched>,
    _lock: DirLock,
}

impl RunDir {
    /// Holds `dir` (creating it) for a tool that rebuilds it as a whole
    /// from other directories (a merge, a restore, the rounds of sharded
    /// self-play), and clears the temporaries of killed writes.
    pub fn lock(dir: &Path) -> Result<RunDir, LockError> {
        let lock = DirLock::exclusive(dir)?;
        remove_stale_temporaries(dir);
        Ok(RunDir {
            path: dir.to_owned(),
            untouched: None,
            _lock: lock,
        })
    }

    /// Holds `dir` (creating it) for a run that journals its work in the
    /// files `journals`: what the directory holds is noted first, so that
    /// [`RunDir::release`] of a run that failed before it journaled
    /// anything leaves the directory as it was. Clears the temporaries of
    /// killed writes.
    pub fn hold(dir: &Path, journals: &[&str]) -> Result<RunDir, LockError> {
        let mut untouched = Untouched::note(dir, journals);
        let lock = match DirLock::exclusive(dir) {
            Ok(lock) => lock,
            Err(e) => {
                // Not ours to put back: another run may hold it.
                untouched.remove_if_made_and_empty();
                return Err(e);
            }
        };
        untouched.holding_lock();
        remove_stale_temporaries(dir);
        Ok(RunDir {
            path: dir.to_owned(),
            untouched: Some(untouched),
            _lock: lock,
        })
    }

    /// Refuses the run before any work unless each of the files `outputs`
    /// in the directory is a regular file or absent.
    pub fn check_outputs(&self, outputs: &[&str]) -> io::Result<()> {
        crate::Claim::new()
            .run_dir(&self.path, "the run directory", outputs)
            .take()
            .map(drop)
    }

    /// The directory.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Ends the run with its `result`: a run that failed (an engine that
    /// does not start, or ignores its limit) puts the directory back as it
    /// was before it, when it had journaled nothing; the lock is released.
    pub fn release<T, E>(self, result: Result<T, E>) -> Result<T, E> {
        if result.is_err()
            && let Some(untouched) = &self.untouched
        {
            untouched.put_back();
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_run_leaves_the_directory_as_it_was_and_a_second_holder_is_refused() {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path().join("run");
        let held = RunDir::hold(&dir, &["journal.jsonl"]).unwrap();
        assert!(dir.is_dir());
        let busy = RunDir::lock(&dir).unwrap_err().to_string();
        assert!(busy.contains("is in use by process"), "{busy}");
        std::fs::write(dir.join("journal.jsonl"), "header\n").unwrap();
        let refused: Result<(), &str> = held.release(Err("engine did not start"));
        assert!(refused.is_err());
        assert!(!dir.exists(), "a refused first run leaves no directory");

        // A run that worked keeps what it wrote.
        let held = RunDir::hold(&dir, &["journal.jsonl"]).unwrap();
        std::fs::write(dir.join("journal.jsonl"), "header\nrecord\n").unwrap();
        held.release::<(), ()>(Ok(())).unwrap();
        assert!(dir.join("journal.jsonl").is_file());

        // Outputs that are not regular files are refused before any work.
        std::fs::create_dir(dir.join("sweep.csv")).unwrap();
        let held = RunDir::lock(&dir).unwrap();
        let refused = held.check_outputs(&["sweep.csv"]).unwrap_err().to_string();
        assert!(refused.contains("is a directory"), "{refused}");
        held.check_outputs(&["manifest.json"]).unwrap();
        // A temporary of a killed write goes when the directory is held.
        drop(held);
        std::fs::write(dir.join(".x.json.999999999.0.tmp"), "").unwrap();
        let _held = RunDir::lock(&dir).unwrap();
        assert!(!dir.join(".x.json.999999999.0.tmp").exists());
    }
}
