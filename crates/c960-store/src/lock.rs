//! Run-directory locks: one writer per directory at a time, any number of
//! readers while no writer runs.
//!
//! A lock is an OS advisory lock (`flock`) on the file `.c960.lock` inside
//! the directory. The kernel releases it when the process ends in any way,
//! SIGKILL included, so a lock file left by a crash never blocks anyone.
//! The writer records its process id and command line in the file, so that
//! a refused run can say who holds the directory.

use std::{
    fs::{self, File, OpenOptions, TryLockError},
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
    #[error("{} is in use by {holder}; wait for it to finish or use another directory", dir.display())]
    Busy {
        /// The directory.
        dir: PathBuf,
        /// Who holds it, e.g. `process 1234 (c960 sweep --out x)`.
        holder: String,
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
}

impl DirLock {
    /// Locks `dir` for writing, creating the directory if needed. Fails at
    /// once, naming the holder, if another process holds it.
    pub fn exclusive(dir: &Path) -> Result<DirLock, LockError> {
        fs::create_dir_all(dir).map_err(|source| LockError::Io {
            what: "create",
            path: dir.to_owned(),
            source,
        })?;
        DirLock::exclusive_file(&dir.join(LOCK_FILE), dir)
    }

    /// Locks `what` for writing through the lock file `path` (for an
    /// output that is replaced as a whole, and so cannot hold its own
    /// lock file).
    pub fn exclusive_file(path: &Path, what: &Path) -> Result<DirLock, LockError> {
        let dir = what;
        let path = path.to_owned();
        let io_error = |source| LockError::Io {
            what: "lock",
            path: path.clone(),
            source,
        };
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(io_error)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                return Err(LockError::Busy {
                    dir: dir.to_owned(),
                    holder: holder(&mut file),
                });
            }
            Err(TryLockError::Error(e)) => return Err(io_error(e)),
        }
        let command: Vec<String> = std::env::args().collect();
        let record = format!("{}\n{}\n", process::id(), command.join(" "));
        file.set_len(0).map_err(io_error)?;
        file.seek(SeekFrom::Start(0)).map_err(io_error)?;
        // The holder's name is a courtesy: a full disk must not stop the run
        // here, the lock itself is already held.
        let _ = file.write_all(record.as_bytes());
        Ok(DirLock {
            file: Some(file),
            exclusive: true,
        })
    }

    /// Locks `dir` for reading: fails at once if a writer holds it. A
    /// directory without a lock file (written by no c960 run, or a
    /// read-only copy) is read unlocked.
    pub fn shared(dir: &Path) -> Result<DirLock, LockError> {
        let path = dir.join(LOCK_FILE);
        let Ok(mut file) = File::open(&path) else {
            return Ok(DirLock {
                file: None,
                exclusive: false,
            });
        };
        match file.try_lock_shared() {
            Ok(()) => Ok(DirLock {
                file: Some(file),
                exclusive: false,
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
            if self.exclusive {
                // The holder is gone: forget its name. The file stays, so
                // that every process locks the same file.
                let _ = file.set_len(0);
            }
            let _ = file.unlock();
        }
    }
}

/// The holder named in a lock file, if it is still running.
fn holder(file: &mut File) -> String {
    let mut text = String::new();
    let _ = file.read_to_string(&mut text);
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
        _ => "another c960 process reading it".to_owned(),
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
