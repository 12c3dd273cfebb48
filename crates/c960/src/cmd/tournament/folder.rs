//! The kit's folder, owned by the kit: built whole beside its target
//! (`.NAME.build.PID`) under a lock (`.NAME.lock`), then swapped in, so a
//! new draw never leaves a file of an earlier one behind, two runs into
//! one folder cannot mix their files, and a run that fails (a full disk, a
//! kill, Chromium refusing to print) leaves the previous kit as it was. A
//! folder holding anything the kit does not write is never replaced.

use std::{fs, io, path::Path};

use anyhow::{Context, Result};
use c960_report::kit::{SECRET_FILE, is_kit_file};

use crate::cli::InputError;

/// What stands at `out` before the kit is made: nothing, or a folder of
/// kit files (with the secret of its sealed rounds, if it has any).
/// Anything else is refused, before anything is written.
pub(super) fn check_replaceable(out: &Path) -> Result<Option<String>> {
    let meta = match fs::symlink_metadata(out) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", out.display())),
        Ok(meta) => meta,
    };
    if !meta.is_dir() {
        return Err(InputError(format!(
            "--out {} exists and is not a directory",
            out.display()
        ))
        .into());
    }
    let mut names: Vec<String> = fs::read_dir(out)
        .with_context(|| format!("cannot read {}", out.display()))?
        .map(|entry| entry.map(|e| e.file_name().to_string_lossy().into_owned()))
        .collect::<io::Result<_>>()
        .with_context(|| format!("cannot read {}", out.display()))?;
    names.sort();
    if let Some(foreign) = names.iter().find(|n| !is_kit_file(n)) {
        return Err(InputError(format!(
            "cannot replace {}: it holds {foreign}, which c960 tournament did not write; \
             give a new or empty directory",
            out.display()
        ))
        .into());
    }
    let secret = out.join(SECRET_FILE);
    if names.iter().any(|n| n == SECRET_FILE) {
        let text = fs::read_to_string(&secret)
            .with_context(|| format!("cannot read {}", secret.display()))?;
        return Ok(Some(text));
    }
    Ok(None)
}

/// A kit being built beside its target ([`c960_store::DirSwap`]).
pub(super) struct KitFolder(c960_store::DirSwap);

impl KitFolder {
    /// Locks `out`, cleans what killed runs left beside it, checks again
    /// (now under the lock) that it may be replaced, and makes the
    /// directory to build in. Returns the text of the secret file the
    /// folder holds, if any.
    pub(super) fn begin(out: &Path) -> Result<(KitFolder, Option<String>)> {
        let swap = c960_store::DirSwap::begin(out, "the kit")?;
        let secret = check_replaceable(out)?;
        Ok((KitFolder(swap), secret))
    }

    /// The directory the kit is built in.
    pub(super) fn building(&self) -> &Path {
        self.0.building()
    }

    /// Writes `name` into the kit being built; errors name the kit's own
    /// path, not the build directory's.
    pub(super) fn write(&self, name: &str, bytes: &[u8]) -> Result<()> {
        c960_store::write_atomically(&self.building().join(name), |out| {
            io::Write::write_all(out, bytes)
        })
        .map_err(|e| c960_store::describe_write_error(&self.0.target().join(name), &e))?;
        Ok(())
    }

    /// Puts the built kit in place of the old one.
    pub(super) fn finish(self) -> Result<()> {
        Ok(self.0.finish()?)
    }
}
