//! An append-only journal of finished work, one JSON line per record,
//! opened with the settings of the run that writes it.
//!
//! The first line holds the settings. Reopening with other settings is an
//! error, so results made with different settings are never mixed. Each
//! record is written with one `write` and synced before `append` returns;
//! a process killed mid-write leaves at most an unterminated last line,
//! which reopening discards.
//!
//! Each line ends with a checksum field (`"c960_sum"`), checked when the
//! journal is read back, together with the record's content (see
//! [`Validation`]); lines of journals written before checksums are read
//! unchecked. A line that cannot be trusted is an error naming it, and
//! [`Journal::repair`] drops such lines.

use std::{
    collections::{BTreeMap, BTreeSet, HashMap},
    fmt::Write as _,
    fs::{self, File, OpenOptions},
    io::{self, BufRead, BufReader, Write},
    marker::PhantomData,
    path::{Path, PathBuf},
};

use serde::{Deserialize, Serialize, de::DeserializeOwned};
use sha2::{Digest, Sha256};
use thiserror::Error;

use crate::{Settings, write_atomically};

/// Why a journal cannot be used.
#[derive(Debug, Error)]
pub enum JournalError {
    /// Reading or writing failed.
    #[error("{}", crate::atomic::io_message("journal", path, source))]
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

/// How the records read back from a journal are checked: a record that
/// fails `check`, two records with one `key` and different content, a
/// line whose checksum does not match or that cannot be read are not
/// trusted.
pub struct Validation<'a, R> {
    /// Checks one record's content; the error says what is wrong.
    pub check: Check<'a, R>,
    /// The unit a record is about (`SP 518`, `SP 518 game 3`); two records
    /// with one key must be equal. `None` for records that may repeat.
    pub key: Key<'a, R>,
}

/// Checks one record: `Err(what is wrong)`.
pub type Check<'a, R> = Box<dyn Fn(&R) -> Result<(), String> + 'a>;

/// The unit a record is about, if records must be unique per unit.
pub type Key<'a, R> = Box<dyn Fn(&R) -> Option<String> + 'a>;

impl<R> Validation<'_, R> {
    /// Every well-formed record is trusted.
    #[must_use]
    pub fn none() -> Validation<'static, R> {
        Validation {
            check: Box::new(|_| Ok(())),
            key: Box::new(|_| None),
        }
    }
}

/// A journal line that `--repair` dropped.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct DroppedLine {
    /// 1-based line number in the journal before the repair.
    pub line: usize,
    /// Why it was not trusted.
    pub reason: String,
}

/// An open journal of records of type `R`.
#[derive(Debug)]
pub struct Journal<R> {
    file: File,
    path: PathBuf,
    records: PhantomData<fn(R)>,
}

const FORMAT: u64 = 1;

/// The checksum field closing each line: `,"c960_sum":"<16 hex digits>"}`.
const SUM_KEY: &[u8] = b"\"c960_sum\":\"";
const SUM_DIGITS: usize = 16;

/// The first 64 bits of the SHA-256 of `body`, in hex.
fn checksum(body: &[u8]) -> String {
    let digest = Sha256::digest(body);
    digest[..SUM_DIGITS / 2]
        .iter()
        .fold(String::new(), |mut out, b| {
            let _ = write!(out, "{b:02x}");
            out
        })
}

/// `json` (one object) with its checksum as the last field, newline-ended.
fn seal(mut json: Vec<u8>) -> Vec<u8> {
    if json.len() >= 2 && json.first() == Some(&b'{') && json.last() == Some(&b'}') {
        let sum = checksum(&json);
        json.pop();
        if json.len() > 1 {
            json.push(b',');
        }
        json.extend_from_slice(SUM_KEY);
        json.extend_from_slice(sum.as_bytes());
        json.extend_from_slice(b"\"}");
    }
    json.push(b'\n');
    json
}

/// Checks the checksum of `line` (without its newline), if it has one:
/// `Ok(true)` when it has a matching one, `Ok(false)` when it has none
/// (lines from journals written before checksums).
fn unseal(line: &[u8]) -> Result<bool, String> {
    let tail = SUM_KEY.len() + SUM_DIGITS + 2;
    let n = line.len();
    if n < tail + 2
        || !line.ends_with(b"\"}")
        || &line[n - tail..n - tail + SUM_KEY.len()] != SUM_KEY
    {
        return Ok(false);
    }
    let sum = &line[n - SUM_DIGITS - 2..n - 2];
    let mut body = match line[n - tail - 1] {
        b',' => line[..n - tail - 1].to_vec(),
        b'{' => b"{".to_vec(),
        _ => return Ok(false),
    };
    body.push(b'}');
    if checksum(&body).as_bytes() == sum {
        Ok(true)
    } else {
        Err("checksum does not match: the line was changed or damaged".to_owned())
    }
}

/// Checks a record line of a journal whose header is `sealed` (carries a
/// checksum). Every line of such a journal was written with one, so a line
/// without it was edited (its checksum removed or renamed) and is not
/// trusted; only journals written before checksums have lines without.
fn unseal_record(line: &[u8], sealed: bool) -> Result<(), String> {
    if !unseal(line)? && sealed {
        return Err(
            "no checksum, in a journal whose lines all carry one: the line was changed".to_owned(),
        );
    }
    Ok(())
}

/// One pass over a journal's complete lines.
struct Lines {
    reader: Option<BufReader<File>>,
    /// Bytes of complete (newline-ended) lines so far.
    complete: u64,
    number: usize,
}

impl Lines {
    fn open(path: &Path) -> io::Result<Lines> {
        let reader = match File::open(path) {
            Ok(file) => Some(BufReader::new(file)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => None,
            Err(e) => return Err(e),
        };
        Ok(Lines {
            reader,
            complete: 0,
            number: 0,
        })
    }

    /// The next complete line into `line` (with its newline); false at the
    /// end or at an unterminated last line.
    fn next(&mut self, line: &mut Vec<u8>) -> io::Result<bool> {
        let Some(reader) = self.reader.as_mut() else {
            return Ok(false);
        };
        line.clear();
        let n = reader.read_until(b'\n', line)?;
        if n == 0 || line.last() != Some(&b'\n') {
            return Ok(false);
        }
        self.complete += n as u64;
        self.number += 1;
        Ok(true)
    }
}

impl<R: Serialize + DeserializeOwned> Journal<R> {
    /// Opens the journal at `path` for a run with `settings`, creating it if
    /// needed, and returns the records already in it.
    pub fn open<S: Serialize>(
        path: &Path,
        settings: &S,
    ) -> Result<(Journal<R>, Vec<R>), JournalError> {
        Journal::open_checked(path, settings, &Validation::none())
    }

    /// Like [`Journal::open`], with every record checked by `validation`:
    /// a record that cannot be trusted is an error naming the line.
    pub fn open_checked<S: Serialize>(
        path: &Path,
        settings: &S,
        validation: &Validation<'_, R>,
    ) -> Result<(Journal<R>, Vec<R>), JournalError> {
        let mut records = Vec::new();
        let journal = Journal::open_streaming_checked(path, settings, validation, |record| {
            records.push(record);
        })?;
        Ok((journal, records))
    }

    /// Like [`Journal::open`], but hands each record already in the journal
    /// to `on_record` instead of collecting them, so memory stays flat
    /// however long the journal is.
    pub fn open_streaming<S: Serialize>(
        path: &Path,
        settings: &S,
        on_record: impl FnMut(R),
    ) -> Result<Journal<R>, JournalError> {
        Journal::open_streaming_checked(path, settings, &Validation::none(), on_record)
    }

    /// [`Journal::open_streaming`] with every record checked by
    /// `validation` first (a record that cannot be trusted is an error
    /// naming the line, and no record is handed on).
    pub fn open_streaming_checked<S: Serialize>(
        path: &Path,
        settings: &S,
        validation: &Validation<'_, R>,
        mut on_record: impl FnMut(R),
    ) -> Result<Journal<R>, JournalError> {
        let io_error = |source| JournalError::io(path, source);
        let header = Header {
            c960_journal: FORMAT,
            settings,
        };
        let mut lines = Lines::open(path).map_err(io_error)?;
        let mut line = Vec::new();
        if lines.next(&mut line).map_err(io_error)? {
            let theirs = read_header(path, &line)?;
            let ours = Settings::of(settings).map_err(|e| io_error(io::Error::other(e)))?;
            if theirs != ours {
                return Err(JournalError::SettingsDiffer {
                    path: path.to_owned(),
                    differences: theirs.differences(&ours),
                });
            }
            // First pass: every line is checked before any is used.
            if let Some(bad) = scan(path, validation)?.into_iter().next() {
                return Err(JournalError::Corrupt {
                    path: path.to_owned(),
                    line: bad.line,
                    reason: bad.reason,
                });
            }
            while lines.next(&mut line).map_err(io_error)? {
                let record = serde_json::from_slice(&line).map_err(|e| JournalError::Corrupt {
                    path: path.to_owned(),
                    line: lines.number,
                    reason: e.to_string(),
                })?;
                on_record(record);
            }
            let length = fs::metadata(path).map_err(io_error)?.len();
            if lines.complete < length {
                // Drop the unterminated tail of a killed write.
                let file = OpenOptions::new()
                    .write(true)
                    .open(path)
                    .map_err(io_error)?;
                file.set_len(lines.complete).map_err(io_error)?;
                file.sync_all().map_err(io_error)?;
            }
        } else {
            // New, or killed before the header was complete.
            let line =
                seal(serde_json::to_vec(&header).map_err(|e| io_error(io::Error::other(e)))?);
            write_atomically(path, |out| out.write_all(&line)).map_err(io_error)?;
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

    /// Writes the whole journal at `path` at once: the header for
    /// `settings`, then `records` in their order, each line sealed as
    /// [`Journal::append`] seals it. The file appears complete or not at
    /// all (one atomic write, synced once), so a journal rebuilt from
    /// thousands of records costs one sync instead of one per record.
    pub fn write_whole<S: Serialize>(
        path: &Path,
        settings: &S,
        records: &[R],
    ) -> Result<(), JournalError> {
        Journal::write_whole_with(path, settings, |append| records.iter().try_for_each(append))
    }

    /// [`Journal::write_whole`] with the records handed over one at a time:
    /// `fill` calls `append` for each, in order, so they need not all be in
    /// memory at once. An error from `fill` leaves no journal behind.
    pub fn write_whole_with<S: Serialize>(
        path: &Path,
        settings: &S,
        fill: impl FnOnce(&mut dyn FnMut(&R) -> io::Result<()>) -> io::Result<()>,
    ) -> Result<(), JournalError> {
        let io_error = |source| JournalError::io(path, source);
        let header = Header {
            c960_journal: FORMAT,
            settings,
        };
        write_atomically(path, |out| {
            out.write_all(&seal(
                serde_json::to_vec(&header).map_err(io::Error::other)?,
            ))?;
            fill(&mut |record: &R| {
                out.write_all(&seal(serde_json::to_vec(record).map_err(io::Error::other)?))
            })
        })
        .map_err(io_error)
    }

    /// Drops from the journal at `path` every line `validation` does not
    /// trust (both copies of a conflicting duplicate), rewriting it
    /// atomically, and returns what was dropped. The header must be
    /// intact; a missing journal has nothing to repair.
    pub fn repair(
        path: &Path,
        validation: &Validation<'_, R>,
    ) -> Result<Vec<DroppedLine>, JournalError> {
        let io_error = |source| JournalError::io(path, source);
        let mut lines = Lines::open(path).map_err(io_error)?;
        let mut line = Vec::new();
        if !lines.next(&mut line).map_err(io_error)? {
            return Ok(Vec::new());
        }
        read_header(path, &line)?;
        let dropped = scan(path, validation)?;
        if dropped.is_empty() {
            return Ok(dropped);
        }
        let skip: BTreeSet<usize> = dropped.iter().map(|d| d.line).collect();
        let header = line.clone();
        write_atomically(path, |out| {
            out.write_all(&header)?;
            while lines.next(&mut line)? {
                if !skip.contains(&lines.number) {
                    out.write_all(&line)?;
                }
            }
            Ok(())
        })
        .map_err(io_error)?;
        Ok(dropped)
    }

    /// Appends one record and syncs it to disk.
    pub fn append(&mut self, record: &R) -> Result<(), JournalError> {
        let io_error = |source| JournalError::io(&self.path, source);
        let line = seal(serde_json::to_vec(record).map_err(|e| io_error(io::Error::other(e)))?);
        self.file.write_all(&line).map_err(io_error)?;
        self.file.sync_data().map_err(io_error)
    }

    /// Where the journal is.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Reading a journal without changing it, for tools that combine the
/// journals of several runs (`c960 merge`).
impl<R: DeserializeOwned> Journal<R> {
    /// The header line of the journal at `path` (with its newline) and the
    /// settings in it.
    pub fn read_header(path: &Path) -> Result<(Vec<u8>, Settings), JournalError> {
        let io_error = |source| JournalError::io(path, source);
        let mut lines = Lines::open(path).map_err(io_error)?;
        let mut line = Vec::new();
        if lines.reader.is_none() {
            return Err(io_error(io::Error::new(
                io::ErrorKind::NotFound,
                "no such file",
            )));
        }
        if !lines.next(&mut line).map_err(io_error)? {
            return Err(JournalError::Corrupt {
                path: path.to_owned(),
                line: 1,
                reason: "no complete header line".to_owned(),
            });
        }
        let settings = read_header(path, &line)?;
        Ok((line, settings))
    }

    /// Reads the journal at `path` without changing it: its settings must
    /// equal `settings` ([`JournalError::SettingsDiffer`] names what
    /// differs), and every complete record line must carry a matching
    /// checksum, parse and pass `check` (else [`JournalError::Corrupt`]).
    /// Each record is handed to `on_record` with the byte offset of its
    /// line and the line itself, one at a time, so memory stays flat. An
    /// unterminated last line (a write in progress) is left out.
    pub fn read_records(
        path: &Path,
        settings: &Settings,
        check: &dyn Fn(&R) -> Result<(), String>,
        mut on_record: impl FnMut(R, u64, &[u8]) -> Result<(), JournalError>,
    ) -> Result<(), JournalError> {
        let io_error = |source| JournalError::io(path, source);
        let (header, theirs) = Journal::<R>::read_header(path)?;
        let sealed = unseal(trim_newline(&header)).unwrap_or(false);
        if &theirs != settings {
            return Err(JournalError::SettingsDiffer {
                path: path.to_owned(),
                differences: theirs.differences(settings),
            });
        }
        let mut lines = Lines::open(path).map_err(io_error)?;
        let mut line = Vec::new();
        lines.next(&mut line).map_err(io_error)?;
        loop {
            let offset = lines.complete;
            if !lines.next(&mut line).map_err(io_error)? {
                return Ok(());
            }
            let corrupt = |reason: String| JournalError::Corrupt {
                path: path.to_owned(),
                line: lines.number,
                reason,
            };
            let text = trim_newline(&line);
            unseal_record(text, sealed).map_err(corrupt)?;
            let record: R = serde_json::from_slice(text).map_err(|e| corrupt(e.to_string()))?;
            check(&record).map_err(corrupt)?;
            on_record(record, offset, &line)?;
        }
    }
}

impl JournalError {
    fn io(path: &Path, source: io::Error) -> JournalError {
        JournalError::Io {
            path: path.to_owned(),
            source,
        }
    }
}

/// A journal's header line: its format and the run's settings.
#[derive(Serialize, Deserialize)]
struct Header<S> {
    c960_journal: u64,
    #[serde(default)]
    settings: S,
}

/// The settings in a journal's header line.
fn read_header(path: &Path, line: &[u8]) -> Result<Settings, JournalError> {
    let corrupt = |reason: String| JournalError::Corrupt {
        path: path.to_owned(),
        line: 1,
        reason,
    };
    unseal(trim_newline(line)).map_err(corrupt)?;
    let found: Header<Settings> =
        serde_json::from_slice(line).map_err(|e| corrupt(format!("not a journal header: {e}")))?;
    if found.c960_journal != FORMAT {
        return Err(corrupt("not a c960 journal header".to_owned()));
    }
    Ok(found.settings)
}

fn trim_newline(line: &[u8]) -> &[u8] {
    line.strip_suffix(b"\n").unwrap_or(line)
}

/// Every record line (after the header) that cannot be trusted, in order.
fn scan<R: DeserializeOwned>(
    path: &Path,
    validation: &Validation<'_, R>,
) -> Result<Vec<DroppedLine>, JournalError> {
    let io_error = |source| JournalError::io(path, source);
    let mut lines = Lines::open(path).map_err(io_error)?;
    let mut line = Vec::new();
    lines.next(&mut line).map_err(io_error)?;
    // The header was checked before; whether it carries a checksum says
    // whether every line must.
    let sealed = unseal(trim_newline(&line)).unwrap_or(false);
    let mut bad: BTreeMap<usize, String> = BTreeMap::new();
    // Per key: the first line with it and its content.
    let mut units: HashMap<String, (usize, Vec<u8>)> = HashMap::new();
    while lines.next(&mut line).map_err(io_error)? {
        let number = lines.number;
        let text = trim_newline(&line);
        if let Err(reason) = unseal_record(text, sealed) {
            bad.insert(number, reason);
            continue;
        }
        let record: R = match serde_json::from_slice(text) {
            Ok(record) => record,
            Err(e) => {
                bad.insert(number, e.to_string());
                continue;
            }
        };
        if let Err(reason) = (validation.check)(&record) {
            bad.insert(number, reason);
            continue;
        }
        if let Some(key) = (validation.key)(&record) {
            let content = content(text).to_vec();
            match units.get(&key) {
                Some((first, seen)) if *seen != content => {
                    let first = *first;
                    bad.entry(first).or_insert_with(|| {
                        format!("{key} differs from line {number}: conflicting duplicate")
                    });
                    bad.insert(
                        number,
                        format!("{key} differs from line {first}: conflicting duplicate"),
                    );
                }
                Some(_) => {}
                None => {
                    units.insert(key, (number, content));
                }
            }
        }
    }
    Ok(bad
        .into_iter()
        .map(|(line, reason)| DroppedLine { line, reason })
        .collect())
}

/// A line without its checksum field.
fn content(line: &[u8]) -> &[u8] {
    let tail = SUM_KEY.len() + SUM_DIGITS + 2;
    if line.len() > tail + 1 && line[line.len() - tail..].starts_with(SUM_KEY) {
        &line[..line.len() - tail - 1]
    } else {
        line.strip_suffix(b"}").unwrap_or(line)
    }
}
