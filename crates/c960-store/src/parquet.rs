//! Parquet files with a seal: c960 writes each with its row count and the
//! SHA-256 of its data pages in the key-value metadata, and checks both
//! when it reads one, so a damaged or truncated file is found before its
//! numbers are used. A seal that does not match is an error. Files without
//! a seal are read unchecked only when written before seals: a run's table
//! without one, in a run whose journal or manifest shows a version that
//! seals (see `sealed_run`), was rewritten by another tool and is refused.

use std::{
    io::{self, BufReader, Read, Write},
    panic::{self, AssertUnwindSafe},
    path::{Path, PathBuf},
    sync::{
        Arc, Mutex, Once,
        atomic::{AtomicUsize, Ordering},
    },
};

use polars::prelude::*;
use polars_parquet::write::{KeyValue, schema_to_metadata_key};
use sha2::{Digest, Sha256};
use thiserror::Error;

use crate::sealed_run::sealed_by_run;

/// Key of the row count in a sealed file's metadata.
pub const ROWS_KEY: &str = "c960.rows";
/// Key of the data hash: `sha256:<hex> bytes:<n>` (the first `n` bytes).
pub const HASH_KEY: &str = "c960.sha256";

/// A Parquet file that cannot be used.
#[derive(Debug, Error)]
#[error("{}: {reason}", path.display())]
pub struct CorruptFile {
    /// The file.
    pub path: PathBuf,
    /// What is wrong, in one line.
    pub reason: String,
}

/// What a checked Parquet file holds.
#[derive(Clone, Debug)]
pub struct ParquetInfo {
    /// Rows in the file.
    pub rows: usize,
    /// Its key-value metadata.
    pub metadata: Vec<(String, String)>,
    /// Whether it carried a seal (and so was checked byte for byte).
    pub sealed: bool,
}

impl ParquetInfo {
    /// The metadata value under `key`.
    #[must_use]
    pub fn get(&self, key: &str) -> Option<&str> {
        self.metadata
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// Bytes written so far and their hash, shared between the writer and
/// whoever seals the file.
#[derive(Default)]
struct Tally {
    hash: Sha256,
    bytes: u64,
}

/// Hashes what goes through it.
struct Hashing<W> {
    inner: W,
    tally: Arc<Mutex<Tally>>,
}

impl<W: Write> Write for Hashing<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        let mut tally = self
            .tally
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        tally.hash.update(&buf[..n]);
        tally.bytes += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Writes a Parquet file in batches and seals it.
pub struct SealedWriter<W: Write> {
    batched: polars::io::parquet::write::BatchedWriter<Hashing<W>>,
    tally: Arc<Mutex<Tally>>,
    rows: u64,
    metadata: Vec<(String, String)>,
}

impl<W: Write> SealedWriter<W> {
    /// A writer of frames with `schema` into `out`, with `metadata` (and
    /// the seal) in the file's key-value metadata.
    pub fn new(out: W, schema: &Schema, metadata: Vec<(String, String)>) -> PolarsResult<Self> {
        Self::with_compression(out, schema, metadata, ParquetCompression::default())
    }

    /// [`SealedWriter::new`] with another compression (LZ4 for tables
    /// written at import speed).
    pub fn with_compression(
        out: W,
        schema: &Schema,
        metadata: Vec<(String, String)>,
        compression: ParquetCompression,
    ) -> PolarsResult<Self> {
        let tally = Arc::new(Mutex::new(Tally::default()));
        let batched = ParquetWriter::new(Hashing {
            inner: out,
            tally: Arc::clone(&tally),
        })
        .with_compression(compression)
        .batched(schema)?;
        Ok(SealedWriter {
            batched,
            tally,
            rows: 0,
            metadata,
        })
    }

    /// Writes the rows of `frame`.
    pub fn write_batch(&mut self, frame: &DataFrame) -> PolarsResult<()> {
        self.rows += frame.height() as u64;
        self.batched.write_batch(frame)
    }

    /// Writes the footer with the metadata and the seal.
    pub fn finish(self) -> PolarsResult<()> {
        let mut writer = self
            .batched
            .get_writer()
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let (hash, bytes) = {
            let tally = self
                .tally
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            (crate::hex(&tally.hash.clone().finalize()), tally.bytes)
        };
        let mut pairs = vec![schema_to_metadata_key(writer.schema())];
        pairs.extend(self.metadata.into_iter().map(|(key, value)| KeyValue {
            key,
            value: Some(value),
        }));
        pairs.push(KeyValue {
            key: ROWS_KEY.to_owned(),
            value: Some(self.rows.to_string()),
        });
        pairs.push(KeyValue {
            key: HASH_KEY.to_owned(),
            value: Some(format!("sha256:{hash} bytes:{bytes}")),
        });
        writer.end(Some(pairs))?;
        Ok(())
    }
}

/// Writes `frame` as one sealed Parquet file into `out`.
pub fn write_sealed<W: Write>(
    out: W,
    frame: &mut DataFrame,
    metadata: Vec<(String, String)>,
) -> io::Result<()> {
    frame.rechunk_mut_par();
    let mut writer = SealedWriter::new(out, frame.schema(), metadata).map_err(io::Error::other)?;
    let height = frame.height();
    // Row groups of at most 512² rows, as polars writes them.
    let group = 512 * 512;
    let mut offset = 0;
    while offset < height || (offset == 0 && height == 0) {
        let slice = frame.slice(i64::try_from(offset).unwrap_or(i64::MAX), group);
        writer.write_batch(&slice).map_err(io::Error::other)?;
        offset += group;
        if height == 0 {
            break;
        }
    }
    writer.finish().map_err(io::Error::other)
}

/// Why an input cannot be opened, in words: what it is (a FIFO, a
/// directory) when it is no regular file, else the system's error.
fn open_reason(error: &io::Error) -> String {
    if crate::is_bad_input(error) {
        error.to_string()
    } else {
        format!("cannot open: {error}")
    }
}

/// Checks the Parquet file at `path`: its footer can be read, and if it
/// is sealed, its row count and data hash match. Returns what it holds.
pub fn check_parquet(path: &Path) -> Result<ParquetInfo, CorruptFile> {
    let corrupt = |reason: String| CorruptFile {
        path: path.to_owned(),
        reason,
    };
    let file = crate::open_input(path).map_err(|e| corrupt(open_reason(&e)))?;
    let length = file.metadata().map_err(|e| corrupt(e.to_string()))?.len();
    if length < 12 {
        return Err(corrupt(format!(
            "not a Parquet file ({length} bytes; truncated?)"
        )));
    }
    let (rows, metadata) = quietly(|| -> PolarsResult<_> {
        let mut reader = ParquetReader::new(file);
        let meta = reader.get_metadata()?;
        let pairs: Vec<(String, String)> = meta
            .key_value_metadata()
            .iter()
            .flatten()
            .filter_map(|kv| Some((kv.key.clone(), kv.value.clone()?)))
            .collect();
        Ok((meta.num_rows, pairs))
    })
    .map_err(|panic| corrupt(format!("unreadable Parquet ({panic})")))?
    .map_err(|e| corrupt(polars_reason(&e)))?;
    let info = ParquetInfo {
        rows,
        metadata,
        sealed: false,
    };
    let Some(seal) = info.get(HASH_KEY) else {
        if let Some(witness) = sealed_by_run(path) {
            return Err(corrupt(format!(
                "has no seal, yet its run's {witness} shows c960 wrote it sealed: it was \
                 rewritten (by another tool?) and cannot be checked, so it is not read"
            )));
        }
        return Ok(info);
    };
    let (hash, bytes) = parse_seal(seal).ok_or_else(|| corrupt(format!("bad seal {seal:?}")))?;
    if let Some(stated) = info.get(ROWS_KEY)
        && stated.parse::<usize>().ok() != Some(rows)
    {
        return Err(corrupt(format!(
            "holds {rows} rows but was written with {stated}"
        )));
    }
    if bytes > length {
        return Err(corrupt("truncated".to_owned()));
    }
    let mut reader = BufReader::new(
        crate::open_input(path)
            .map_err(|e| corrupt(open_reason(&e)))?
            .take(bytes),
    );
    let mut hasher = Sha256::new();
    io::copy(&mut reader, &mut hasher).map_err(|e| corrupt(format!("cannot read: {e}")))?;
    if crate::hex(&hasher.finalize()) != hash {
        return Err(corrupt(
            "content does not match its checksum: the file is damaged".to_owned(),
        ));
    }
    Ok(ParquetInfo {
        sealed: true,
        ..info
    })
}

fn parse_seal(seal: &str) -> Option<(&str, u64)> {
    let mut parts = seal.split(' ');
    let hash = parts.next()?.strip_prefix("sha256:")?;
    let bytes = parts.next()?.strip_prefix("bytes:")?.parse().ok()?;
    Some((hash, bytes))
}

/// A polars error in one line, without polars' own decoration.
#[must_use]
pub fn polars_reason(e: &PolarsError) -> String {
    let text = e.to_string();
    // polars appends the query plan, repeated per level: the first
    // sentence is the reason.
    let text = text
        .split("Resolved plan until failure")
        .next()
        .unwrap_or(&text);
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.contains("PAR1") || line.contains("thrift") || line.contains("out of spec") {
        format!("not a valid Parquet file ({line}); damaged or truncated?")
    } else {
        line
    }
}

/// Panics in progress inside [`quietly`]; while any is, the panic hook
/// prints nothing.
static QUIET: AtomicUsize = AtomicUsize::new(0);
static HOOK: Once = Once::new();

/// Runs `f`, turning a panic inside it (a dependency failing on damaged
/// input) into an error with the panic's message, printed nowhere.
pub fn quietly<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if QUIET.load(Ordering::SeqCst) == 0 {
                previous(info);
            }
        }));
    });
    QUIET.fetch_add(1, Ordering::SeqCst);
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    QUIET.fetch_sub(1, Ordering::SeqCst);
    result.map_err(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a reader failed".to_owned());
        message.split_whitespace().collect::<Vec<_>>().join(" ")
    })
}
