//! Writing a book and its manifest: the book first, then the manifest
//! naming its line count and SHA-256, each atomically (a book that could
//! not be written leaves the one that was there).

use std::{
    io::{self, Write as _},
    path::Path,
};

use sha2::{Digest as _, Sha256};

use c960_store::{BookContents, BookManifest, book_manifest_path};

/// Writes `lines` to `book` and `manifest` (its `lines`, `sha256`,
/// `contents` and `file` filled in from what was written) beside it. Returns the
/// manifest as written.
///
/// # Errors
/// When either file cannot be written; neither is then left half-written.
pub fn write_book(
    book: &Path,
    lines: impl IntoIterator<Item = String>,
    mut manifest: BookManifest,
) -> io::Result<BookManifest> {
    let mut contents = BookContents::default();
    let mut hash = Sha256::new();
    c960_store::write_atomically(book, |out| {
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
    c960_store::write_atomically(&book_manifest_path(book), |out| {
        out.write_all(json.as_bytes())?;
        out.write_all(b"\n")
    })?;
    Ok(manifest)
}
