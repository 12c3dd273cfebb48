//! An append-only journal of finished work, one JSON line per record,
//! opened with the settings of the run that writes it.
//!
//! The first line holds the settings. Reopening with other settings is an
//! error, so results made with different settings are never mixed. Each
//! record is written with one `write` and synced before `append` returns;
//! a process killed mid-write leaves at most an unterminated last line,
//! which reopening discards.

use std::{
    fmt::Write as _,
    fs::{self, File, OpenOptions},
    io::{self, BufRead, BufReader, Write},
    marker::PhantomData,
    path::{Path, PathBuf},
};

use serde::{Serialize, de::DeserializeOwned};
use serde_json::Value;
use thiserror::Error;

use crate::write_atomically;

/// Why a journal cannot be used.
#[derive(Debug, Error)]
pub enum JournalError {
    /// Reading or writing failed.
    #[error("journal {}: {source}", path.display())]
    Io {
        /// The journal.
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
    /// The journal belongs to a run with other settings.
    #[error(
        "journal {} was written with other settings ({differences}); \
         use another output directory, or remove it to start over",
        path.display()
    )]
    SettingsDiffer {
        /// The journal.
        path: PathBuf,
        /// What differs, e.g. `limit: "nodes 1000" there, "nodes 2000" now`.
        differences: String,
    },
    /// A complete line that cannot be read.
    #[error("journal {} is corrupt at line {line}: {reason}", path.display())]
    Corrupt {
        /// The journal.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        reason: String,
    },
}

/// An open journal of records of type `R`.
#[derive(Debug)]
pub struct Journal<R> {
    file: File,
    path: PathBuf,
    records: PhantomData<fn(R)>,
}

const FORMAT: u64 = 1;

impl<R: Serialize + DeserializeOwned> Journal<R> {
    /// Opens the journal at `path` for a run with `settings`, creating it if
    /// needed, and returns the records already in it.
    pub fn open<S: Serialize>(
        path: &Path,
        settings: &S,
    ) -> Result<(Journal<R>, Vec<R>), JournalError> {
        let mut records = Vec::new();
        let journal = Journal::open_streaming(path, settings, |record| records.push(record))?;
        Ok((journal, records))
    }

    /// Like [`Journal::open`], but hands each record already in the journal
    /// to `on_record` instead of collecting them, so memory stays flat
    /// however long the journal is.
    pub fn open_streaming<S: Serialize>(
        path: &Path,
        settings: &S,
        mut on_record: impl FnMut(R),
    ) -> Result<Journal<R>, JournalError> {
        let io_error = |source| JournalError::Io {
            path: path.to_owned(),
            source,
        };
        let corrupt = |line: usize, reason: String| JournalError::Corrupt {
            path: path.to_owned(),
            line,
            reason,
        };
        let settings = serde_json::to_value(settings).map_err(|e| io_error(io::Error::other(e)))?;
        let header = serde_json::json!({ "c960_journal": FORMAT, "settings": settings });

        let mut reader = match File::open(path) {
            Ok(file) => Some(BufReader::new(file)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => None,
            Err(e) => return Err(io_error(e)),
        };
        // Only newline-terminated lines were written completely; `complete`
        // counts their bytes.
        let mut complete: u64 = 0;
        let mut line = Vec::new();
        let mut next_line = |line: &mut Vec<u8>| -> Result<bool, JournalError> {
            let Some(reader) = reader.as_mut() else {
                return Ok(false);
            };
            line.clear();
            let n = reader.read_until(b'\n', line).map_err(io_error)?;
            if n == 0 || line.last() != Some(&b'\n') {
                return Ok(false);
            }
            complete += n as u64;
            Ok(true)
        };
        if next_line(&mut line)? {
            let found: Value = serde_json::from_slice(&line)
                .map_err(|e| corrupt(1, format!("not a journal header: {e}")))?;
            if found.get("c960_journal") != Some(&Value::from(FORMAT)) {
                return Err(corrupt(1, "not a c960 journal header".to_owned()));
            }
            let theirs = found.get("settings").cloned().unwrap_or(Value::Null);
            if theirs != settings {
                return Err(JournalError::SettingsDiffer {
                    path: path.to_owned(),
                    differences: differences(&theirs, &settings),
                });
            }
            let mut number = 1;
            while next_line(&mut line)? {
                number += 1;
                let record =
                    serde_json::from_slice(&line).map_err(|e| corrupt(number, e.to_string()))?;
                on_record(record);
            }
            let length = fs::metadata(path).map_err(io_error)?.len();
            if complete < length {
                // Drop the unterminated tail of a killed write.
                let file = OpenOptions::new()
                    .write(true)
                    .open(path)
                    .map_err(io_error)?;
                file.set_len(complete).map_err(io_error)?;
                file.sync_all().map_err(io_error)?;
            }
        } else {
            // New, or killed before the header was complete.
            let line = format!("{header}\n");
            write_atomically(path, |out| out.write_all(line.as_bytes())).map_err(io_error)?;
        }
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(io_error)?;
        Ok(Journal {
            file,
            path: path.to_owned(),
            records: PhantomData,
        })
    }

    /// Appends one record and syncs it to disk.
    pub fn append(&mut self, record: &R) -> Result<(), JournalError> {
        let io_error = |source| JournalError::Io {
            path: self.path.clone(),
            source,
        };
        let mut line = serde_json::to_vec(record).map_err(|e| io_error(io::Error::other(e)))?;
        line.push(b'\n');
        self.file.write_all(&line).map_err(io_error)?;
        self.file.sync_data().map_err(io_error)
    }

    /// Where the journal is.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// The top-level fields that differ, readably.
fn differences(theirs: &Value, ours: &Value) -> String {
    let (Value::Object(a), Value::Object(b)) = (theirs, ours) else {
        return format!("{theirs} there, {ours} now");
    };
    let mut out = String::new();
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    for key in keys {
        let (x, y) = (a.get(key), b.get(key));
        if x != y {
            if !out.is_empty() {
                out.push_str("; ");
            }
            let show =
                |v: Option<&Value>| v.map_or_else(|| "nothing".to_owned(), ToString::to_string);
            let _ = write!(out, "{key}: {} there, {} now", show(x), show(y));
        }
    }
    out
}
