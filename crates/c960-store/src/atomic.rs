//! Atomic file writes: readers see the old file or the new one, never half
//! of one, and a failed write leaves the old file in place.

use std::{
    fs::{self, File, OpenOptions},
    io::{self, BufWriter, Write},
    path::{Path, PathBuf},
    process,
    sync::atomic::{AtomicU64, Ordering},
};

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// Writes `path` through `write`: into a temporary file in the same
/// directory, synced, then renamed over `path`. On any error the temporary
/// file is removed and `path` is untouched.
pub fn write_atomically<F>(path: &Path, write: F) -> io::Result<()>
where
    F: FnOnce(&mut BufWriter<&File>) -> io::Result<()>,
{
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_owned(),
        _ => PathBuf::from("."),
    };
    if path.is_dir() {
        return Err(io::Error::other(format!(
            "cannot write {}: it is a directory",
            path.display()
        )));
    }
    if !dir.is_dir() {
        return Err(io::Error::new(
            io::ErrorKind::NotFound,
            format!(
                "cannot write {}: no directory {}",
                path.display(),
                dir.display()
            ),
        ));
    }
    let name = path
        .file_name()
        .map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned());
    let temp = dir.join(format!(
        ".{name}.{}.{}.tmp",
        process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let result = (|| {
        let file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temp)?;
        {
            let mut out = BufWriter::new(&file);
            write(&mut out)?;
            out.flush()?;
        }
        file.sync_all()?;
        fs::rename(&temp, path)?;
        // Make the rename itself durable.
        if let Ok(d) = File::open(&dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(&temp);
    }
    result.map_err(|e: io::Error| {
        io::Error::new(e.kind(), format!("cannot write {}: {e}", path.display()))
    })
}
