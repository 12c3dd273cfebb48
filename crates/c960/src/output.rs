//! Where command output goes: standard output, or a file written
//! atomically (see `c960_store::write_atomically`), so a failed run never
//! leaves a partial file where a good one was.

use std::{
    io::{self, BufWriter, Write},
    path::Path,
};

/// Runs `write` against `path` (atomically) or against standard output.
pub(crate) fn write_to(
    path: Option<&Path>,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    match path {
        None => {
            let stdout = io::stdout();
            let mut out = BufWriter::new(stdout.lock());
            write(&mut out)?;
            out.flush()
        }
        Some(path) => c960_store::write_atomically(path, |out| write(out)),
    }
}
