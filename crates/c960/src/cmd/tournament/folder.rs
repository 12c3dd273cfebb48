//! The kit's folder, owned by the kit: built whole beside its target
//! (`.NAME.build.PID`) under a lock (`.NAME.lock`), then swapped in, so a
//! new draw never leaves a file of an earlier one behind, two runs into
//! one folder cannot mix their files, and a run that fails (a full disk, a
//! kill, Chromium refusing to print) leaves the previous kit as it was. A
//! folder holding anything the kit does not write (by name, or anything
//! but a regular file) is never replaced.

use std::{fs, io, path::Path};

use anyhow::{Context, Result};
use c960_report::kit::{DrawRecord, SECRET_FILE, is_kit_file};

use crate::cli::InputError;

/// What a kit that stands at `--out` holds of its sealed rounds.
#[derive(Debug, Default)]
pub(super) struct OldKit {
    /// The text of its secret file, if it has one.
    pub(super) secret_file: Option<String>,
    /// The fingerprint its `draw.json` publishes for its sealed rounds,
    /// if it has sealed rounds.
    pub(super) commitment: Option<String>,
}

/// What stands at `out` before the kit is made: nothing, or a folder of
/// kit files, each a regular file by a name the kit writes (with the
/// secret and fingerprint of its sealed rounds, if it has any). Anything
/// else is refused, before anything is written.
pub(super) fn check_replaceable(out: &Path) -> Result<OldKit> {
    let meta = match fs::symlink_metadata(out) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(OldKit::default()),
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
    let mut entries: Vec<(String, fs::FileType)> = fs::read_dir(out)
        .with_context(|| format!("cannot read {}", out.display()))?
        .map(|entry| {
            entry.and_then(|e| Ok((e.file_name().to_string_lossy().into_owned(), e.file_type()?)))
        })
        .collect::<io::Result<_>>()
        .with_context(|| format!("cannot read {}", out.display()))?;
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    if let Some((foreign, _)) = entries.iter().find(|(n, _)| !is_kit_file(n)) {
        return Err(InputError(format!(
            "cannot replace {}: it holds {foreign}, which c960 tournament did not write; \
             give a new or empty directory",
            out.display()
        ))
        .into());
    }
    if let Some((name, _)) = entries.iter().find(|(_, kind)| !kind.is_file()) {
        return Err(InputError(format!(
            "cannot replace {}: its {name} is not a regular file, so c960 tournament did not \
             write it; give a new or empty directory",
            out.display()
        ))
        .into());
    }
    let has = |file: &str| entries.iter().any(|(n, _)| n == file);
    let secret_file = if has(SECRET_FILE) {
        let secret = out.join(SECRET_FILE);
        Some(
            fs::read_to_string(&secret)
                .with_context(|| format!("cannot read {}", secret.display()))?,
        )
    } else {
        None
    };
    let commitment = if has("draw.json") {
        let file = out.join("draw.json");
        let text =
            fs::read_to_string(&file).with_context(|| format!("cannot read {}", file.display()))?;
        let record: DrawRecord = serde_json::from_str(&text).map_err(|e| {
            InputError(format!(
                "cannot replace {}: its draw.json is not a draw record of c960 tournament ({e}); \
                 give a new or empty directory",
                out.display()
            ))
        })?;
        record.sealed.map(|seal| seal.commitment)
    } else {
        None
    };
    Ok(OldKit {
        secret_file,
        commitment,
    })
}

/// A kit being built beside its target ([`c960_store::DirSwap`]).
pub(super) struct KitFolder(c960_store::DirSwap);

impl KitFolder {
    /// Locks `out`, cleans what killed runs left beside it, checks again
    /// (now under the lock) that it may be replaced, and makes the
    /// directory to build in. Returns what the folder holds of its
    /// sealed rounds.
    pub(super) fn begin(out: &Path) -> Result<(KitFolder, OldKit)> {
        let swap = c960_store::DirSwap::begin(out, "the kit")?;
        let old = check_replaceable(out)?;
        Ok((KitFolder(swap), old))
    }

    /// The directory the kit is built in.
    pub(super) fn building(&self) -> &Path {
        self.0.building()
    }

    /// Writes `name` into the kit being built; errors name the kit's own
    /// path, not the build directory's.
    pub(super) fn write(&self, name: &str, bytes: &[u8]) -> Result<()> {
        c960_store::write_built(&self.building().join(name), |out| {
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
