//! Writing a book and its manifest: both claimed before any work (locked,
//! checked to be usable, apart from each other and from every input; see
//! [`c960_store::Claim`]), then written as one set: the book, then the
//! manifest naming its line count and SHA-256, each to a temporary file,
//! both put in place only once both are written in full.

use std::{
    io::{self, Write as _},
    path::{Path, PathBuf},
};

use sha2::{Digest as _, Sha256};

use c960_store::{BookManifest, Claim, Claimed, book_manifest_path};

/// A book file and its manifest, claimed for one command.
#[derive(Debug)]
pub struct BookOutputs {
    book: PathBuf,
    claimed: Claimed,
}

impl BookOutputs {
    /// Claims `book` (named `--out` in messages) and its manifest beside
    /// it, along with what `claim` holds (the command's inputs). A book
    /// whose manifest would be the book itself (`--out X.json`), an output
    /// that is an input or lies inside one, and an output that is not a
    /// regular file are bad input; a book another command is writing is
    /// refused at once.
    pub fn claim(book: &Path, claim: Claim) -> io::Result<BookOutputs> {
        let claimed = claim
            .file(book, "--out")
            .file(&book_manifest_path(book), "its manifest")
            .take()?;
        Ok(BookOutputs {
            book: book.to_owned(),
            claimed,
        })
    }

    /// The book's path.
    #[must_use]
    pub fn book(&self) -> &Path {
        &self.book
    }
}

/// Writes `lines` to the claimed book and `manifest` (its `lines`,
/// `sha256` and `file` filled in from what was written) beside it, as
/// one set. Returns the manifest as written.
///
/// # Errors
/// When either file cannot be written; both are then left as they were.
pub fn write_book(
    outputs: &BookOutputs,
    lines: impl IntoIterator<Item = String>,
    mut manifest: BookManifest,
) -> io::Result<BookManifest> {
    let book = outputs.book();
    let mut count = 0_u64;
    let mut hash = Sha256::new();
    let mut set = outputs.claimed.write_set();
    set.write(book, |out| {
        for line in lines {
            out.write_all(line.as_bytes())?;
            out.write_all(b"\n")?;
            hash.update(line.as_bytes());
            hash.update(b"\n");
            count += 1;
        }
        Ok(())
    })?;
    manifest.lines = count;
    manifest.sha256 = c960_store::hex(&hash.finalize());
    manifest.file = book
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    let json = serde_json::to_string_pretty(&manifest).map_err(io::Error::other)?;
    set.write(&book_manifest_path(book), |out| {
        out.write_all(json.as_bytes())?;
        out.write_all(b"\n")
    })?;
    set.commit()?;
    Ok(manifest)
}
