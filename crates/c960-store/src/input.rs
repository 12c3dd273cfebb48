//! Files the user names as inputs, read only when they are regular files.
//! A FIFO would block the read until some writer comes (for ever, in an
//! unattended job), a device may never end it and a directory has no
//! bytes: each is refused as bad input, and a FIFO is refused without
//! waiting, because the file is opened non-blocking and its type checked
//! on the open file, not on a path that may change in between.

use std::{
    fs::{self, File},
    io::{self, Read as _},
    path::Path,
};

/// What a file of `kind` is, in words, if it is not a regular file.
pub(crate) fn not_a_file(kind: fs::FileType) -> Option<&'static str> {
    if kind.is_file() {
        return None;
    }
    Some(if kind.is_dir() {
        "a directory"
    } else if kind.is_symlink() {
        "a symbolic link"
    } else {
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt;
            if kind.is_fifo() {
                return Some("a FIFO");
            }
            if kind.is_char_device() || kind.is_block_device() {
                return Some("a device");
            }
            if kind.is_socket() {
                return Some("a socket");
            }
        }
        "not a regular file"
    })
}

/// The bad input of an input that is `what` (a FIFO, a directory, …).
fn refused(what: &str) -> io::Error {
    crate::bad_input(format!(
        "it is {what}, not a regular file (c960 reads its inputs only from files)"
    ))
}

/// Checks, without opening it, that `path` is a regular file (a symbolic
/// link is followed): a flag's parser can refuse a FIFO before any work.
/// A missing file is the `io::Error` of `stat`; any other kind is bad
/// input whose message says what it is.
pub fn check_input(path: &Path) -> io::Result<()> {
    match not_a_file(fs::metadata(path)?.file_type()) {
        Some(what) => Err(refused(what)),
        None => Ok(()),
    }
}

/// Opens the input at `path` for reading without blocking on a FIFO, and
/// refuses anything but a regular file (see [`check_input`]).
pub fn open_input(path: &Path) -> io::Result<File> {
    use rustix::fs::{Mode, OFlags};
    let fd = rustix::fs::open(
        path,
        OFlags::RDONLY | OFlags::CLOEXEC | OFlags::NONBLOCK,
        Mode::empty(),
    )?;
    let file = File::from(fd);
    if let Some(what) = not_a_file(file.metadata()?.file_type()) {
        return Err(refused(what));
    }
    Ok(file)
}

/// The bytes of the input at `path` (see [`open_input`]).
pub fn read_input(path: &Path) -> io::Result<Vec<u8>> {
    let mut file = open_input(path)?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

#[cfg(test)]
mod tests;
