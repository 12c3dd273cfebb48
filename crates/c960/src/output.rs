//! Where command output goes: standard output, or a file claimed before
//! any work and written atomically (see `c960_store::Claim`), so a failed
//! run never leaves a partial file where a good one was, and an output
//! never lands on one of the command's inputs.

use std::{
    io::{self, BufWriter, Write},
    path::{Path, PathBuf},
};

use c960_store::{Claim, Claimed};

/// A command's output: standard output, or the claimed file `--out`.
pub(crate) struct Out {
    file: Option<(PathBuf, Claimed)>,
}

impl Out {
    /// Claims `path` (`--out`), apart from the inputs `claim` names;
    /// standard output when `path` is `None`.
    pub(crate) fn claim(path: Option<&Path>, claim: Claim) -> io::Result<Out> {
        let file = match path {
            None => None,
            Some(path) => Some((path.to_owned(), claim.file(path, "--out").take()?)),
        };
        Ok(Out { file })
    }

    /// The file claimed, if any.
    pub(crate) fn path(&self) -> Option<&Path> {
        self.file.as_ref().map(|(path, _)| path.as_path())
    }

    /// Runs `write` against the claimed file (atomically) or standard
    /// output.
    pub(crate) fn write(
        &self,
        write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
    ) -> io::Result<()> {
        match &self.file {
            None => {
                let stdout = io::stdout();
                let mut out = BufWriter::new(stdout.lock());
                write(&mut out)?;
                out.flush()
            }
            Some((path, claimed)) => claimed.write(path, |out| write(out)),
        }
    }
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
        self.write(&Out { file: None })
    }

    /// Writes the collected text to `out`.
    pub(crate) fn write(&self, out: &Out) -> io::Result<()> {
        out.write(|w| w.write_all(self.0.as_bytes()))
    }
}
