//! Run-directory locks: one writer per directory at a time, any number of
//! readers while no writer runs.
//!
//! A lock is an OS advisory lock (`flock`) on the file `.c960.lock` inside
//! the directory. The kernel releases it when the process ends in any way,
//! SIGKILL included, so a lock file left by a crash never blocks anyone.
//! The writer records its process id and command line in the file, so that
//! a refused run can say who holds the directory.

use std::{
    fs::{self, File, TryLockError},
    io::{self, Read, Seek, SeekFrom, Write},
    path::{Path, PathBuf},
    process,
};

use thiserror::Error;

/// The lock file inside a locked directory.
pub const LOCK_FILE: &str = ".c960.lock";

/// Why a directory could not be locked.
#[derive(Debug, Error)]
pub enum LockError {
    /// Another process holds the directory.
    #[error("{} is in use by {holder}; wait for it to finish or use another output", dir.display())]
    Busy {
        /// The directory.
        dir: PathBuf,
        /// Who holds it, e.g. `process 1234 (c960 sweep --out x)`.
        holder: String,
    },
    /// The directory could not be made (the error names it).
    #[error("{source}")]
    Dir {
        /// The cause.
        source: io::Error,
    },
    /// The directory or its lock file could not be made or locked.
    #[error("cannot {what} {}: {source}", path.display())]
    Io {
        /// What was tried: `create`, `lock`.
        what: &'static str,
        /// The directory or lock file.
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
}

/// A held lock on a directory, released when dropped (or when the process
/// ends).
#[derive(Debug)]
pub struct DirLock {
    file: Option<File>,
    exclusive: bool,
    /// The lock file to remove on release (an output file's lock).
    remove: Option<PathBuf>,
}

impl DirLock {
    /// Locks `dir` for writing, creating the directory if needed. Fails at
    /// once, naming the holder, if another process holds it.
    pub fn exclusive(dir: &Path) -> Result<DirLock, LockError> {
        crate::create_dir(dir).map_err(|source| LockError::Dir { source })?;
        DirLock::exclusive_file(&dir.join(LOCK_FILE), dir)
    }

    /// Locks `what` for writing through the lock file `path` (for an
    /// output that is replaced as a whole, and so cannot hold its own
    /// lock file).
    pub fn exclusive_file(path: &Path, what: &Path) -> Result<DirLock, LockError> {
        let file = lock_file(path, what)?;
        DirLock::held(file, path, None)
    }

    /// Locks the output file `what` through the lock file `path` beside
    /// it, which is removed again when the lock is released (an output
    /// leaves no lock file behind). A lock taken on a lock file that its
    /// holder removed meanwhile is let go and taken again on the file now
    /// at `path`, so two holders never hold two files of one name.
    pub fn output_file(path: &Path, what: &Path) -> Result<DirLock, LockError> {
        for _ in 0..100 {
            let file = lock_file(path, what)?;
            if is_at(&file, path) {
                return DirLock::held(file, path, Some(path.to_owned()));
            }
        }
        Err(LockError::Busy {
            dir: what.to_owned(),
            holder: "other c960 processes taking and releasing it".to_owned(),
        })
    }

    /// The lock held on `file` at `path`, with this process named in it.
    fn held(mut file: File, path: &Path, remove: Option<PathBuf>) -> Result<DirLock, LockError> {
        let io_error = |source| LockError::Io {
            what: "lock",
            path: path.to_owned(),
            source,
        };
        let command: Vec<String> = std::env::args().collect();
        let record = format!("{}\n{}\n", process::id(), command.join(" "));
        // Written over what is there, then cut to its length, so that the
        // file is never empty while a holder is named in it. The holder's
        // name is a courtesy: a full disk must not stop the run here, the
        // lock itself is already held.
        file.seek(SeekFrom::Start(0)).map_err(io_error)?;
        let named = file.write_all(record.as_bytes()).is_ok();
        let _ = file.set_len(if named { record.len() as u64 } else { 0 });
        Ok(DirLock {
            file: Some(file),
            exclusive: true,
            remove,
        })
    }

    /// Locks `dir` for reading: fails at once if a writer holds it. A
    /// directory without a lock file (written by no c960 run, or a
    /// read-only copy) is read unlocked.
    pub fn shared(dir: &Path) -> Result<DirLock, LockError> {
        let path = dir.join(LOCK_FILE);
        let mut file = match open_lock_file(&path, false) {
            Ok(file) => file,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Ok(DirLock {
                    file: None,
                    exclusive: false,
                    remove: None,
                });
            }
            Err(source) => {
                return Err(LockError::Io {
                    what: "lock",
                    path,
                    source,
                });
            }
        };
        match file.try_lock_shared() {
            Ok(()) => Ok(DirLock {
                file: Some(file),
                exclusive: false,
                remove: None,
            }),
            Err(TryLockError::WouldBlock) => Err(LockError::Busy {
                dir: dir.to_owned(),
                holder: holder(&mut file),
            }),
            Err(TryLockError::Error(e)) => Err(LockError::Io {
                what: "lock",
                path,
                source: e,
            }),
        }
    }
}

impl Drop for DirLock {
    fn drop(&mut self) {
        if let Some(file) = self.file.take() {
            if let Some(path) = &self.remove {
                // Removed while still held: whoever locks the old file
                // after this finds it is no longer at its path.
                let _ = fs::remove_file(path);
            } else if self.exclusive {
                // The holder is gone: forget its name. The file stays, so
                // that every process locks the same file.
                let _ = file.set_len(0);
            }
            let _ = file.unlock();
        }
    }
}

/// The directory whose lock guards `input`: a run directory itself, or
/// the directory of a table (or anything else) given on its own.
#[must_use]
pub fn lock_dir(input: &Path) -> &Path {
    if input.is_dir() {
        return input;
    }
    match input.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}

/// Opens the lock file at `path` and locks it for writing; busy (naming
/// its holder) when another process holds it.
fn lock_file(path: &Path, what: &Path) -> Result<File, LockError> {
    let io_error = |source| LockError::Io {
        what: "lock",
        path: path.to_owned(),
        source,
    };
    let mut file = open_lock_file(path, true).map_err(io_error)?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(TryLockError::WouldBlock) => Err(LockError::Busy {
            dir: what.to_owned(),
            holder: holder(&mut file),
        }),
        Err(TryLockError::Error(e)) => Err(io_error(e)),
    }
}

/// Whether the open `file` is still the file at `path`.
fn is_at(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), fs::symlink_metadata(path)) {
        (Ok(open), Ok(named)) => open.dev() == named.dev() && open.ino() == named.ino(),
        _ => false,
    }
}

/// Opens the lock file at `path` (creating it when `create`) without
/// following a symbolic link: the holder's name is written into the file
/// and cleared when the lock is released, so a link at its place would
/// have c960 truncate whatever file it points to. Anything but a regular
/// file there is refused.
fn open_lock_file(path: &Path, create: bool) -> io::Result<File> {
    use rustix::fs::{Mode, OFlags};
    if let Ok(meta) = fs::symlink_metadata(path)
        && !meta.file_type().is_file()
    {
        return Err(not_a_lock_file(meta.file_type()));
    }
    let mut flags = OFlags::RDWR | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::NONBLOCK;
    if create {
        flags |= OFlags::CREATE;
    } else {
        // A reader only locks; a read-only copy of a run is read unlocked
        // rather than refused.
        flags.remove(OFlags::RDWR);
        flags |= OFlags::RDONLY;
    }
    let fd = rustix::fs::open(path, flags, Mode::from_raw_mode(0o644)).map_err(|e| {
        if e == rustix::io::Errno::LOOP {
            crate::bad_input("it is a symbolic link; c960 locks only regular files")
        } else {
            io::Error::from(e)
        }
    })?;
    let file = File::from(fd);
    // Checked on the open file too: the path may have changed since.
    let kind = file.metadata()?.file_type();
    if !kind.is_file() {
        return Err(not_a_lock_file(kind));
    }
    Ok(file)
}

fn not_a_lock_file(kind: fs::FileType) -> io::Error {
    let what = if kind.is_symlink() {
        "a symbolic link"
    } else if kind.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    };
    crate::bad_input(format!("it is {what}; c960 locks only regular files"))
}

/// The holder named in a lock file, if it is still running. A writer
/// names itself just after it takes the lock, so an empty file is read
/// again a few times before the holder is left unnamed (a reader never
/// names itself).
fn holder(file: &mut File) -> String {
    let mut text = String::new();
    for _ in 0..5 {
        text.clear();
        let _ = file.seek(SeekFrom::Start(0));
        let _ = file.read_to_string(&mut text);
        if !text.is_empty() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let mut lines = text.lines();
    let pid = lines.next().and_then(|p| p.trim().parse::<u32>().ok());
    let command = lines.next().unwrap_or("").trim();
    match pid {
        Some(pid) if crate::atomic::process_alive(pid) => {
            let command = shorten(command);
            if command.is_empty() {
                format!("process {pid}")
            } else {
                format!("process {pid} ({command})")
            }
        }
        _ => "another c960 process".to_owned(),
    }
}

/// A command line cut to a readable length.
fn shorten(command: &str) -> String {
    const MAX: usize = 120;
    if command.chars().count() <= MAX {
        command.to_owned()
    } else {
        let cut: String = command.chars().take(MAX).collect();
        format!("{cut}…")
    }
}
