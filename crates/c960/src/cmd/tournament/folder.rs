//! The kit's folder, owned by the kit: built whole beside its target
//! (`.NAME.build.PID`) under a lock (`.NAME.lock`), then swapped in, so a
//! new draw never leaves a file of an earlier one behind, two runs into
//! one folder cannot mix their files, and a run that fails (a full disk, a
//! kill, Chromium refusing to print) leaves the previous kit as it was. A
//! folder holding anything the kit does not write is never replaced.

use std::{
    fs, io,
    path::{Path, PathBuf},
};

use anyhow::{Context, Result};

use crate::cli::InputError;

/// The file that keeps the secret of sealed rounds.
pub(super) const SECRET_FILE: &str = "SECRET.txt";

/// Whether `name` is a file a kit writes.
fn written_by_kit(name: &str) -> bool {
    matches!(
        name,
        "announcement.html" | "kit.html" | "kit.pdf" | "draw.json" | "VERIFY.md" | SECRET_FILE
    ) || name
        .strip_prefix("round-")
        .and_then(|rest| rest.strip_suffix(".html"))
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

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
    if let Some(foreign) = names.iter().find(|n| !written_by_kit(n)) {
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

/// A kit being built beside its target.
pub(super) struct KitFolder {
    out: PathBuf,
    temp: PathBuf,
    parent: PathBuf,
    name: String,
    finished: bool,
    _lock: c960_store::DirLock,
}

impl KitFolder {
    /// Locks `out`, cleans what killed runs left beside it, checks again
    /// (now under the lock) that it may be replaced, and makes the
    /// directory to build in. Returns the text of the secret file the
    /// folder holds, if any.
    pub(super) fn begin(out: &Path) -> Result<(KitFolder, Option<String>)> {
        let name = out
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .ok_or_else(|| InputError(format!("cannot write a kit to {}", out.display())))?;
        let parent = match out.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
            _ => PathBuf::from("."),
        };
        fs::create_dir_all(&parent)
            .with_context(|| format!("cannot create {}", parent.display()))?;
        let lock = c960_store::DirLock::exclusive_file(&parent.join(format!(".{name}.lock")), out)?;
        let folder = KitFolder {
            out: out.to_owned(),
            temp: parent.join(format!(".{name}.build.{}", std::process::id())),
            parent,
            name,
            finished: false,
            _lock: lock,
        };
        folder.clean_up();
        let secret = check_replaceable(out)?;
        let _ = fs::remove_dir_all(&folder.temp);
        fs::create_dir(&folder.temp)
            .map_err(|e| c960_store::describe_write_error(&folder.out, &e))?;
        Ok((folder, secret))
    }

    /// Removes what killed runs left (their process is gone); a kit whose
    /// run was killed between its two renames is put back first.
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

    /// The directory the kit is built in.
    pub(super) fn building(&self) -> &Path {
        &self.temp
    }

    /// Writes `name` into the kit being built; errors name the kit's own
    /// path, not the build directory's.
    pub(super) fn write(&self, name: &str, bytes: &[u8]) -> Result<()> {
        c960_store::write_atomically(&self.temp.join(name), |out| {
            io::Write::write_all(out, bytes)
        })
        .map_err(|e| c960_store::describe_write_error(&self.out.join(name), &e))?;
        Ok(())
    }

    /// Puts the built kit in place of the old one.
    pub(super) fn finish(mut self) -> Result<()> {
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
            return Err(e)
                .with_context(|| format!("cannot put the kit in place at {}", self.out.display()));
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

impl Drop for KitFolder {
    /// A kit that was not finished leaves nothing: the target stays as it
    /// was.
    fn drop(&mut self) {
        if !self.finished {
            let _ = fs::remove_dir_all(&self.temp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::written_by_kit;

    #[test]
    fn the_kit_owns_only_its_own_file_names() {
        for name in [
            "kit.pdf",
            "round-1.html",
            "round-12.html",
            "SECRET.txt",
            "VERIFY.md",
        ] {
            assert!(written_by_kit(name), "{name}");
        }
        for name in [
            "round-.html",
            "round-1a.html",
            "notes.txt",
            ".git",
            ".env",
            "positions",
        ] {
            assert!(!written_by_kit(name), "{name}");
        }
    }
}
