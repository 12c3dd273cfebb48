//! A run directory as it was before a run began, put back when the run is
//! refused or fails before it has finished any work: a sweep refused
//! because its engine ignores the limit, or an engine that does not start,
//! leaves no journal (whose settings would refuse the corrected command),
//! no lock file and no empty directory behind.

use std::{
    fs,
    io::{BufRead, BufReader},
    path::{Path, PathBuf},
};

use crate::LOCK_FILE;

/// What a run directory held before a run: see the module documentation.
#[derive(Debug)]
pub struct Untouched {
    dir: PathBuf,
    existed: bool,
    lock_existed: bool,
    /// The journals the run may create, and whether each was there.
    journals: Vec<(PathBuf, bool)>,
}

impl Untouched {
    /// Notes what `dir` holds of its lock file and of `journals` (file
    /// names in it), before a run that may create them.
    #[must_use]
    pub fn note(dir: &Path, journals: &[&str]) -> Untouched {
        let exists = |path: &Path| fs::symlink_metadata(path).is_ok();
        Untouched {
            dir: dir.to_owned(),
            existed: exists(dir),
            lock_existed: exists(&dir.join(LOCK_FILE)),
            journals: journals
                .iter()
                .map(|name| {
                    let path = dir.join(name);
                    let there = exists(&path);
                    (path, there)
                })
                .collect(),
        }
    }

    /// Puts the directory back as it was if the run finished no work: each
    /// journal it created holds its header only. Removes those journals,
    /// the lock file it created (call this while still holding the lock,
    /// so no other run can have taken it meanwhile) and the directory if
    /// it made it and it is empty now. Returns whether it put it back.
    pub fn put_back(&self) -> bool {
        let created: Vec<&PathBuf> = self
            .journals
            .iter()
            .filter(|(path, there)| !there && path.is_file())
            .map(|(path, _)| path)
            .collect();
        if created.iter().any(|path| records(path) != Some(0)) {
            return false;
        }
        for path in created {
            let _ = fs::remove_file(path);
        }
        if !self.lock_existed {
            let _ = fs::remove_file(self.dir.join(LOCK_FILE));
        }
        if !self.existed {
            // Only if empty: anything else there is not ours to remove.
            let _ = fs::remove_dir(&self.dir);
        }
        true
    }
}

impl Untouched {
    /// Notes again which journals are there, once the run holds the
    /// directory's lock: a journal another run made meanwhile is not this
    /// run's to remove.
    pub fn holding_lock(&mut self) {
        for (path, there) in &mut self.journals {
            *there = fs::symlink_metadata(&*path).is_ok();
        }
    }

    /// Removes the directory if this run made it and it is still empty:
    /// all that may be undone when the run did not get the lock (another
    /// run holds the directory, and its files are not this run's to remove).
    pub fn remove_if_made_and_empty(&self) {
        if !self.existed {
            let _ = fs::remove_dir(&self.dir);
        }
    }
}

/// The number of record lines after the header of the journal at `path`
/// (a last line without newline counts), `None` if it cannot be read.
fn records(path: &Path) -> Option<usize> {
    let file = fs::File::open(path).ok()?;
    let mut lines = 0usize;
    for line in BufReader::new(file).split(b'\n') {
        if !line.ok()?.is_empty() {
            lines += 1;
        }
    }
    Some(lines.saturating_sub(1))
}
