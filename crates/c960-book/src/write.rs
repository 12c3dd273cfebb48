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

use c960_store::{BookContents, BookManifest, Claim, Claimed, book_manifest_path};

/// A book file and its manifest, claimed for one command.
#[derive(Debug)]
pub struct BookOutputs {
    book: PathBuf,
    extra: Vec<PathBuf>,
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
        Self::claim_with(book, &[], claim)
    }

    /// Claims the book, its manifest and the files `extra` (each with how
    /// messages name it) written with them as one set, such as the
    /// per-line table beside an exit book.
    pub fn claim_with(
        book: &Path,
        extra: &[(&Path, &str)],
        claim: Claim,
    ) -> io::Result<BookOutputs> {
        let mut claim = claim.file(book, "--out").file_beside(
            &book_manifest_path(book),
            "its manifest",
            "--out",
        );
        for (path, name) in extra {
            claim = claim.file_beside(path, name, "--out");
        }
        Ok(BookOutputs {
            book: book.to_owned(),
            extra: extra.iter().map(|(p, _)| p.to_path_buf()).collect(),
            claimed: claim.take()?,
        })
    }

    /// The book's path.
    #[must_use]
    pub fn book(&self) -> &Path {
        &self.book
    }
}

/// Writes `lines` to the claimed book and `manifest` (its `lines`,
/// `sha256`, `contents` and `file` filled in from what was written)
/// beside it, as one set. Returns the manifest as written.
///
/// # Errors
/// When either file cannot be written; both are then left as they were.
pub fn write_book(
    outputs: &BookOutputs,
    lines: impl IntoIterator<Item = String>,
    manifest: BookManifest,
) -> io::Result<BookManifest> {
    write_book_with(outputs, lines, manifest, |_, _| Ok(()))
}

/// [`write_book`], with `extra` writing each of the claimed extra files
/// (given its path and writer) in the same set.
///
/// # Errors
/// When a file cannot be written; all are then left as they were.
pub fn write_book_with(
    outputs: &BookOutputs,
    lines: impl IntoIterator<Item = String>,
    mut manifest: BookManifest,
    mut extra: impl FnMut(&Path, &mut dyn io::Write) -> io::Result<()>,
) -> io::Result<BookManifest> {
    let book = outputs.book();
    let mut contents = BookContents::default();
    let mut hash = Sha256::new();
    let mut set = outputs.claimed.write_set();
    set.write(book, |out| {
        for line in lines {
            out.write_all(line.as_bytes())?;
            out.write_all(b"\n")?;
            hash.update(line.as_bytes());
            hash.update(b"\n");
            contents.count(&line);
        }
        Ok(())
    })?;
    manifest.lines = contents.total;
    manifest.contents = Some(contents);
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
    for path in &outputs.extra {
        set.write(path, |out| extra(path, out))?;
    }
    set.commit()?;
    Ok(manifest)
}
