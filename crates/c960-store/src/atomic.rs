//! Atomic file writes: readers see the old file or the new one, never half
//! of one, and a failed write leaves the old file in place. Only regular
//! files are ever replaced: a symlink, FIFO, device or directory at the
//! target is an error, found before anything is written.

use std::{
    cell::Cell,
    fs::{self, File, OpenOptions},
    io::{self, BufWriter, Write},
    path::{Path, PathBuf},
    process,
    sync::atomic::{AtomicU64, Ordering},
};

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// The temporary file a write goes to; remembers the last I/O error so
/// that a full disk is reported as such, whatever the writing code made
/// of it.
#[derive(Debug)]
pub struct OutputFile<'a> {
    file: &'a File,
    error: Cell<Option<io::ErrorKind>>,
}

impl Write for OutputFile<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file
            .write(buf)
            .inspect_err(|e| self.error.set(Some(e.kind())))
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file
            .flush()
            .inspect_err(|e| self.error.set(Some(e.kind())))
    }
}

/// What is at `path`, if it is not a regular file c960 may replace.
fn not_regular(path: &Path) -> Option<&'static str> {
    crate::input::not_a_file(fs::symlink_metadata(path).ok()?.file_type())
}

/// Checks that each of `paths` is a regular file or absent, so that a run
/// can refuse an unusable output before it starts any work.
pub fn check_output(paths: &[&Path]) -> io::Result<()> {
    for path in paths {
        if let Some(what) = not_regular(path) {
            return Err(crate::bad_input(format!(
                "cannot write {}: it is {what}; c960 only replaces regular files",
                path.display()
            )));
        }
    }
    Ok(())
}

/// Creates the directory `dir` and its parents (an output directory). A
/// file where a directory must be (`--out` naming a file, or a file among
/// its parents) is bad input, said as such; other failures name `dir`.
pub fn create_dir(dir: &Path) -> io::Result<()> {
    let Err(e) = fs::create_dir_all(dir) else {
        return Ok(());
    };
    let file = dir
        .ancestors()
        .filter(|a| !a.as_os_str().is_empty())
        .find(|a| fs::metadata(a).is_ok_and(|m| !m.is_dir()));
    Err(match file {
        Some(file) if file == dir => {
            crate::bad_input(format!("{} is a file, not a directory", dir.display()))
        }
        Some(file) => crate::bad_input(format!(
            "cannot create {}: {} is a file, not a directory",
            dir.display(),
            file.display()
        )),
        None => io::Error::new(e.kind(), format!("cannot create {}: {e}", dir.display())),
    })
}

/// An I/O error on `path` said in one line; a full disk is said as such.
#[must_use]
pub fn describe_write_error(path: &Path, e: &io::Error) -> io::Error {
    if e.kind() == io::ErrorKind::StorageFull {
        return io::Error::new(
            e.kind(),
            format!("no space left on device writing {}", path.display()),
        );
    }
    io::Error::new(e.kind(), format!("cannot write {}: {e}", path.display()))
}

/// `what path: error`, or for a full disk `no space left on device
/// writing path`.
pub(crate) fn io_message(what: &str, path: &Path, e: &io::Error) -> String {
    if e.kind() == io::ErrorKind::StorageFull {
        format!("no space left on device writing {}", path.display())
    } else {
        format!("{what} {}: {e}", path.display())
    }
}

/// Writes `path` through `write`: into a temporary file in the same
/// directory, synced, then renamed over `path`. On any error the temporary
/// file is removed and `path` is untouched. `path` must be a regular file
/// or absent.
pub fn write_atomically<F>(path: &Path, write: F) -> io::Result<()>
where
    F: FnOnce(&mut BufWriter<OutputFile<'_>>) -> io::Result<()>,
{
    check_output(&[path])?;
    let staged = Staged::write(path, write)?;
    Staged::commit(vec![staged])
}

/// Writes `path`, a file of an output being built in the directory of a
/// `DirSwap`: directly, without a temporary file or a sync of its
/// own, since nothing reads that directory before `DirSwap::finish`
/// makes the whole of it durable and puts it in place. On an error the
/// partial file is removed (and the build is given up by its caller).
pub fn write_built<F>(path: &Path, write: F) -> io::Result<()>
where
    F: FnOnce(&mut BufWriter<OutputFile<'_>>) -> io::Result<()>,
{
    let mut last_error = None;
    OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .open(path)
        .and_then(|file| write_through(&file, write, &mut last_error))
        .map_err(|e| {
            let _ = fs::remove_file(path);
            written_error(path, last_error, e)
        })
}

/// Writes `file` through `write`, buffered and flushed, keeping in
/// `last_error` the kind of the last error the file itself gave (a full
/// disk behind whatever error the writer made of it).
fn write_through<F>(file: &File, write: F, last_error: &mut Option<io::ErrorKind>) -> io::Result<()>
where
    F: FnOnce(&mut BufWriter<OutputFile<'_>>) -> io::Result<()>,
{
    let mut out = BufWriter::new(OutputFile {
        file,
        error: Cell::new(None),
    });
    let written = write(&mut out).and_then(|()| out.flush());
    *last_error = out.get_ref().error.get();
    written
}

/// An output written in full to its temporary file, not yet in place;
/// dropped uncommitted, the temporary file is removed.
#[derive(Debug)]
pub(crate) struct Staged {
    temp: PathBuf,
    target: PathBuf,
    dir: PathBuf,
    committed: bool,
}

impl Staged {
    /// Writes the temporary file of `path` through `write` and syncs it;
    /// `path` is not touched.
    pub(crate) fn write<F>(path: &Path, write: F) -> io::Result<Staged>
    where
        F: FnOnce(&mut BufWriter<OutputFile<'_>>) -> io::Result<()>,
    {
        let dir = parent_dir(path);
        if !dir.is_dir() {
            let what = if dir.exists() {
                "is not a directory"
            } else {
                "does not exist"
            };
            return Err(crate::bad_input(format!(
                "cannot write {}: the directory {} {what}",
                path.display(),
                dir.display()
            )));
        }
        let temp = dir.join(format!(
            ".{}.{}.{}.tmp",
            file_name(path),
            process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        let mut staged = Staged {
            temp,
            target: path.to_owned(),
            dir,
            committed: false,
        };
        let mut last_error = None;
        let result = (|| {
            let file = OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&staged.temp)?;
            write_through(&file, write, &mut last_error)?;
            file.sync_all()
        })();
        match result {
            Ok(()) => Ok(staged),
            Err(e) => {
                let _ = fs::remove_file(&staged.temp);
                staged.committed = true;
                Err(written_error(path, last_error, e))
            }
        }
    }

    /// Renames every staged file over its target, in order, after
    /// checking again that nothing but a regular file has appeared at any
    /// of them meanwhile; then makes the renames durable. On an error the
    /// files not yet renamed keep their old content.
    pub(crate) fn commit(mut staged: Vec<Staged>) -> io::Result<()> {
        let targets: Vec<&Path> = staged.iter().map(|s| s.target.as_path()).collect();
        check_output(&targets)?;
        for file in &mut staged {
            fs::rename(&file.temp, &file.target)
                .map_err(|e| written_error(&file.target, None, e))?;
            file.committed = true;
        }
        let mut synced: Vec<&Path> = Vec::new();
        for file in &staged {
            if !synced.contains(&file.dir.as_path()) {
                if let Ok(d) = File::open(&file.dir) {
                    let _ = d.sync_all();
                }
                synced.push(&file.dir);
            }
        }
        Ok(())
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if !self.committed {
            let _ = fs::remove_file(&self.temp);
        }
    }
}

/// The directory `path` is in (`.` for a bare file name).
pub(crate) fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_owned(),
        _ => PathBuf::from("."),
    }
}

/// A failed write of `path` in one line; a disk that filled up is said as
/// such, whatever the writing code made of it.
fn written_error(path: &Path, last_error: Option<io::ErrorKind>, e: io::Error) -> io::Error {
    if last_error == Some(io::ErrorKind::StorageFull) {
        return describe_write_error(path, &io::Error::from(io::ErrorKind::StorageFull));
    }
    // Errors made here already say "cannot write PATH".
    if e.to_string().starts_with("cannot write") {
        return e;
    }
    describe_write_error(path, &e)
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned())
}

/// Removes temporary files that writes in `dir` left behind when their
/// process was killed (`.NAME.PID.N.tmp` of a process no longer running).
/// Returns how many were removed.
pub fn remove_stale_temporaries(dir: &Path) -> usize {
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = temporary_pid(&name) else {
            continue;
        };
        if pid != process::id() && !process_alive(pid) && fs::remove_file(entry.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// The process id in a temporary file's name `.NAME.PID.N.tmp`.
fn temporary_pid(name: &str) -> Option<u32> {
    let rest = name.strip_prefix('.')?.strip_suffix(".tmp")?;
    let mut parts = rest.rsplitn(3, '.');
    let counter = parts.next()?;
    let pid = parts.next()?;
    parts.next()?;
    counter.parse::<u64>().ok()?;
    pid.parse().ok()
}

/// Whether process `pid` is running (always true where that cannot be
/// known).
pub(crate) fn process_alive(pid: u32) -> bool {
    if !Path::new("/proc/self").exists() {
        return true;
    }
    Path::new(&format!("/proc/{pid}")).exists()
}
