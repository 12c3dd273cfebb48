//! The output contract of every command: its outputs are claimed before
//! any work, then written as a set.
//!
//! A claim checks, before anything is read at length or any engine
//! starts, that each output file is a regular file or absent (never a
//! symbolic link, FIFO, device or directory) in a directory that exists,
//! that no two outputs are one file (a book and its manifest), and that
//! no output is one of the command's inputs, lies inside an input
//! directory, or is a directory that holds an input. Each output file is
//! then locked (an OS lock on `.NAME.lock` beside it, removed again when
//! the claim ends) for the claim's life, so two commands never write one
//! file at once. Output
//! directories are checked here and locked by the run directory
//! ([`crate::RunDir`]) or the swap ([`crate::DirSwap`]) that writes them.
//!
//! [`Claimed::write_set`] writes the files of one result together: each
//! to a temporary file beside it, and only when all are written in full
//! are they renamed into place, one after the other. A write that fails
//! (a full disk, a kill) leaves every output as it was.

use std::{
    fs,
    io::{self, BufWriter},
    path::{Component, Path, PathBuf},
};

use crate::{DirLock, LockError, OutputFile, atomic::Staged};

/// What a claim names: a path, how the user gave it (`--out`, `its
/// manifest`, `--balance`), for messages, and what it is.
#[derive(Debug, Clone)]
struct Named {
    path: PathBuf,
    name: String,
    /// The flag that places it: its name, or for a file named after
    /// another output (`its manifest`) that output's flag (`--out`).
    flag: String,
    kind: Kind,
}

/// What a claimed path is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// An output file, locked by the claim.
    File,
    /// An output file in a run directory, which the directory's own
    /// lock guards.
    FileInRun,
    /// An output directory replaced as a whole: nothing in it may be an
    /// input.
    Replaced,
    /// A run directory written in place: it may hold the inputs it was
    /// made from (shards), not be one or lie in one.
    Run,
    /// An input file, or a directory when one stands there.
    Input,
    /// An input directory.
    InputDir,
}

impl Named {
    fn said(&self) -> String {
        format!("{} {}", self.name, self.path.display())
    }

    /// What to change to place it elsewhere: "choose another --out", and
    /// for a file named after another output, which flag names it.
    fn another(&self) -> String {
        if self.flag == self.name {
            format!("choose another {}", self.flag)
        } else {
            format!(
                "choose another {}, which {} is named after",
                self.flag, self.name
            )
        }
    }
}

/// The outputs and inputs of one command, to be claimed with
/// [`Claim::take`].
#[derive(Debug, Default)]
#[must_use]
pub struct Claim {
    outputs: Vec<Named>,
    inputs: Vec<Named>,
}

/// Outputs claimed by [`Claim::take`]: checked, and each file locked
/// until this is dropped.
#[derive(Debug)]
pub struct Claimed {
    files: Vec<PathBuf>,
    _locks: Vec<DirLock>,
}

impl Claim {
    /// A claim of nothing yet.
    pub fn new() -> Claim {
        Claim::default()
    }

    /// Adds the output file `path`, named `name` in messages (`--out`).
    pub fn file(mut self, path: &Path, name: &str) -> Claim {
        self.outputs.push(named(path, name, Kind::File));
        self
    }

    /// Adds the output file `path` named after another output (a book's
    /// manifest), `name` in messages (`its manifest`): a refusal tells to
    /// choose another `flag` (`--out`), the flag that places it.
    pub fn file_beside(mut self, path: &Path, name: &str, flag: &str) -> Claim {
        let mut output = named(path, name, Kind::File);
        flag.clone_into(&mut output.flag);
        self.outputs.push(output);
        self
    }

    /// Adds the output directory `path` that is replaced as a whole (a
    /// report, a kit), named `name` in messages: it may hold no input.
    pub fn dir(mut self, path: &Path, name: &str) -> Claim {
        self.outputs.push(named(path, name, Kind::Replaced));
        self
    }

    /// Adds the run directory `path` written in place, named `name`, and
    /// the files `writes` it writes there: neither may be an input, and
    /// the directory may not lie inside an input directory. (Its lock is
    /// the run's own, see [`crate::RunDir`].)
    pub fn run_dir(mut self, path: &Path, name: &str, writes: &[&str]) -> Claim {
        self.outputs.push(named(path, name, Kind::Run));
        for file in writes {
            self.outputs
                .push(named(&path.join(file), name, Kind::FileInRun));
        }
        self
    }

    /// Adds the input `path` that the command reads, named `name`: a file,
    /// or a directory when one stands there.
    pub fn input(mut self, path: &Path, name: &str) -> Claim {
        self.inputs.push(named(path, name, Kind::Input));
        self
    }

    /// Adds the input directory `path` that the command reads (or will
    /// read once made), named `name`: no output may lie inside it.
    pub fn input_dir(mut self, path: &Path, name: &str) -> Claim {
        self.inputs.push(named(path, name, Kind::InputDir));
        self
    }

    /// Checks every output (see the module documentation) and locks each
    /// output file. Bad input (see [`crate::bad_input`]) when an output
    /// cannot be used; an output file another process holds is refused at
    /// once, naming it.
    pub fn take(self) -> io::Result<Claimed> {
        for output in &self.outputs {
            check_kind(output)?;
        }
        let outputs: Vec<(PathBuf, &Named)> =
            self.outputs.iter().map(|o| (resolve(&o.path), o)).collect();
        let inputs: Vec<(PathBuf, &Named)> =
            self.inputs.iter().map(|i| (resolve(&i.path), i)).collect();
        for (i, (path, output)) in outputs.iter().enumerate() {
            for (other_path, other) in &outputs[..i] {
                if path == other_path || same_file(&output.path, &other.path) {
                    return Err(crate::bad_input(format!(
                        "{} and {} are one file; each output needs a path of its own",
                        other.said(),
                        output.said()
                    )));
                }
                // A run directory holds its own files; only a directory
                // replaced whole holds no other output.
                if output.kind == Kind::Replaced || other.kind == Kind::Replaced {
                    check_apart(path, output, other_path, other, "another output")?;
                }
            }
            for (input_path, input) in &inputs {
                if path == input_path || same_file(&output.path, &input.path) {
                    return Err(crate::bad_input(format!(
                        "{} is also {}, which c960 reads: it never writes over its inputs; {}",
                        output.said(),
                        input.said(),
                        output.another()
                    )));
                }
                check_apart(path, output, input_path, input, "which c960 reads")?;
            }
        }
        let mut locks = Vec::new();
        let mut files = Vec::new();
        for output in self.outputs.iter().filter(|o| o.kind == Kind::File) {
            let dir = crate::atomic::parent_dir(&output.path);
            let lock = dir.join(format!(".{}.lock", file_name(&output.path)));
            locks.push(
                DirLock::output_file(&lock, &output.path).map_err(|e| match e {
                    LockError::Io { source, .. } if crate::is_bad_input(&source) => {
                        crate::bad_input(format!("cannot lock {}: {source}", lock.display()))
                    }
                    e => io::Error::other(e),
                })?,
            );
            files.push(output.path.clone());
        }
        Ok(Claimed {
            files,
            _locks: locks,
        })
    }
}

impl Claimed {
    /// Starts writing claimed files as one set (see [`OutputSet`]).
    pub fn write_set(&self) -> OutputSet<'_> {
        OutputSet {
            claimed: self,
            staged: Vec::new(),
        }
    }

    /// Writes the claimed file `path` alone, atomically.
    pub fn write<F>(&self, path: &Path, write: F) -> io::Result<()>
    where
        F: FnOnce(&mut BufWriter<OutputFile<'_>>) -> io::Result<()>,
    {
        let mut set = self.write_set();
        set.write(path, write)?;
        set.commit()
    }
}

/// Claimed files being written together: each is written in full to a
/// temporary file by [`OutputSet::write`]; [`OutputSet::commit`] puts them
/// all in place. Dropped before that, it leaves every output as it was.
#[derive(Debug)]
#[must_use]
pub struct OutputSet<'a> {
    claimed: &'a Claimed,
    staged: Vec<Staged>,
}

impl OutputSet<'_> {
    /// Writes `path`, one of the claimed files, to its temporary file.
    pub fn write<F>(&mut self, path: &Path, write: F) -> io::Result<()>
    where
        F: FnOnce(&mut BufWriter<OutputFile<'_>>) -> io::Result<()>,
    {
        if !self.claimed.files.iter().any(|f| f == path) {
            return Err(io::Error::other(format!(
                "{} was not claimed as an output",
                path.display()
            )));
        }
        self.staged.push(Staged::write(path, write)?);
        Ok(())
    }

    /// Renames every file written into place, in the order written.
    pub fn commit(self) -> io::Result<()> {
        Staged::commit(self.staged)
    }
}

fn named(path: &Path, name: &str, kind: Kind) -> Named {
    let kind = match kind {
        Kind::Input if path.is_dir() => Kind::InputDir,
        kind => kind,
    };
    Named {
        path: path.to_owned(),
        name: name.to_owned(),
        flag: name.to_owned(),
        kind,
    }
}

/// Refuses an output file that is not a regular file or absent, or whose
/// directory does not exist; and an output directory where a file is.
fn check_kind(output: &Named) -> io::Result<()> {
    if matches!(output.kind, Kind::Replaced | Kind::Run) {
        return match fs::symlink_metadata(&output.path) {
            Ok(meta) if !meta.is_dir() => Err(crate::bad_input(format!(
                "{} is a file, not a directory",
                output.said()
            ))),
            _ => Ok(()),
        };
    }
    if fs::symlink_metadata(&output.path).is_ok_and(|m| m.is_dir()) {
        return Err(crate::bad_input(format!(
            "{} is a directory; name a file",
            output.said()
        )));
    }
    crate::check_output(&[&output.path])?;
    if output.kind == Kind::FileInRun {
        // Its run directory is made by the run.
        return Ok(());
    }
    let dir = crate::atomic::parent_dir(&output.path);
    if !dir.is_dir() {
        let what = if dir.exists() {
            "is not a directory"
        } else {
            "does not exist"
        };
        return Err(crate::bad_input(format!(
            "{}: the directory {} {what}",
            output.said(),
            dir.display()
        )));
    }
    Ok(())
}

/// Refuses an output inside the directory `other`, or a directory
/// `output` that holds `other`; `what` says what `other` is (`which c960
/// reads`).
fn check_apart(
    path: &Path,
    output: &Named,
    other_path: &Path,
    other: &Named,
    what: &str,
) -> io::Result<()> {
    let holds = |kind| matches!(kind, Kind::Replaced | Kind::Run | Kind::InputDir);
    if holds(other.kind) && path.starts_with(other_path) && path != other_path {
        return Err(crate::bad_input(format!(
            "{} lies inside {}, {what}; {}",
            output.said(),
            other.said(),
            output.another()
        )));
    }
    if output.kind == Kind::Replaced && other_path.starts_with(path) {
        return Err(crate::bad_input(format!(
            "{} would replace {}, {what}; {}",
            output.said(),
            other.said(),
            output.another()
        )));
    }
    Ok(())
}

/// `path` made absolute with every link in its existing part followed,
/// and `.` and `..` taken away in the rest, so that two spellings of one
/// place compare equal.
fn resolve(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_owned());
    let mut existing = absolute.as_path();
    let mut rest = Vec::new();
    loop {
        if let Ok(real) = fs::canonicalize(existing) {
            let mut resolved = real;
            for part in rest.iter().rev() {
                match part {
                    Component::ParentDir => {
                        resolved.pop();
                    }
                    Component::CurDir => {}
                    part => resolved.push(part),
                }
            }
            return resolved;
        }
        match (existing.parent(), existing.components().next_back()) {
            (Some(parent), Some(last)) => {
                rest.push(last);
                existing = parent;
            }
            _ => return absolute,
        }
    }
}

/// Whether `a` and `b` are one file under two names (a hard link).
fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(a), Ok(b)) = (fs::metadata(a), fs::metadata(b)) {
            return a.is_file() && a.dev() == b.dev() && a.ino() == b.ino();
        }
    }
    let _ = (a, b);
    false
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned())
}

#[cfg(test)]
mod tests;
