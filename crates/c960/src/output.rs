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
        Some(path) => {
            check_out(path)?;
            c960_store::write_atomically(path, |out| write(out))
        }
    }
}

/// `--out FILE` naming a directory is bad input: it is never replaced.
pub(crate) fn check_out(path: &Path) -> io::Result<()> {
    if path.is_dir() {
        return Err(c960_store::bad_input(format!(
            "--out {} is a directory; name a file",
            path.display()
        )));
    }
    Ok(())
}

/// Text for standard output, written in one go by [`Text::print`], so that a
/// reader that goes away (`| head`) is an I/O error the caller can ignore,
/// not a panic.
#[derive(Default)]
pub(crate) struct Text(String);

impl std::fmt::Write for Text {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.push_str(s);
        Ok(())
    }
}

impl Text {
    /// Writes the collected text to standard output.
    pub(crate) fn print(&self) -> io::Result<()> {
        self.write(None)
    }

    /// Writes the collected text to `path` (atomically) or to standard
    /// output.
    pub(crate) fn write(&self, path: Option<&Path>) -> io::Result<()> {
        write_to(path, |out| out.write_all(self.0.as_bytes()))
    }
}
