//! Where command output goes: standard output, or a file written
//! atomically (temporary file in the same directory, then rename), so a
//! failed run never leaves a partial file where a good one was.

use std::{
    fs,
    io::{self, BufWriter, Write},
    path::Path,
};

use anyhow::{Context, Result};

/// Runs `write` against `path` (atomically) or against standard output.
pub(crate) fn write_to(
    path: Option<&Path>,
    write: impl FnOnce(&mut dyn Write) -> Result<()>,
) -> Result<()> {
    match path {
        None => {
            let stdout = io::stdout();
            let mut out = BufWriter::new(stdout.lock());
            write(&mut out)?;
            out.flush()?;
            Ok(())
        }
        Some(path) => write_atomically(path, write),
    }
}

fn write_atomically(path: &Path, write: impl FnOnce(&mut dyn Write) -> Result<()>) -> Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    if path.is_dir() {
        anyhow::bail!("cannot write {}: it is a directory", path.display());
    }
    let meta = fs::metadata(dir).with_context(|| {
        format!(
            "cannot write {}: no directory {}",
            path.display(),
            dir.display()
        )
    })?;
    anyhow::ensure!(
        meta.is_dir(),
        "cannot write {}: {} is not a directory",
        path.display(),
        dir.display()
    );
    let mut temp = tempfile::Builder::new()
        .prefix(".c960-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .with_context(|| format!("cannot create a temporary file in {}", dir.display()))?;
    {
        let mut out = BufWriter::new(temp.as_file_mut());
        write(&mut out).with_context(|| format!("cannot write {}", path.display()))?;
        out.flush()
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    temp.as_file()
        .sync_all()
        .with_context(|| format!("cannot write {}", path.display()))?;
    temp.persist(path)
        .with_context(|| format!("cannot move the finished file to {}", path.display()))?;
    Ok(())
}
