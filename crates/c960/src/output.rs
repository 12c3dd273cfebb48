//! Where command output goes: standard output, or a file claimed before
//! any work and written atomically (see `c960_store::Claim`), so a failed
//! run never leaves a partial file where a good one was, and an output
//! never lands on one of the command's inputs.

use std::{
    borrow::Cow,
    fmt,
    io::{self, BufWriter, Write},
    path::{Path, PathBuf},
};

use c960_store::{Claim, Claimed};

/// Writes one line to standard error, made safe for a terminal
/// ([`terminal_safe`]). A standard error that cannot be written (a closed
/// terminal or pager, `2>/dev/full`) is ignored: a message is never worth
/// a crash, and the stop-signal handler must go on.
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::output::say_line(format_args!($($arg)*))
    };
}
pub(crate) use say;

/// The line of [`say!`].
pub(crate) fn say_line(args: fmt::Arguments<'_>) {
    let line = args.to_string();
    let _ = writeln!(io::stderr().lock(), "{}", terminal_safe(&line));
}

/// `text` with every control character but newline and tab, and every
/// control of text direction, written as its escape (`\u{1b}`): an
/// engine's name or a file's line cannot move the cursor, set a window
/// title (OSC), turn the terminal's colours or reverse what follows.
pub(crate) fn terminal_safe(text: &str) -> Cow<'_, str> {
    escaped(text, |c| c == '\n' || c == '\t')
}

/// A path as one line of text: [`terminal_safe`], and a line break or tab
/// in a file name escaped too, so that `FILE:LINE: reason` cannot be
/// forged by a file's name.
pub(crate) fn shown(path: &Path) -> String {
    let text = path.display().to_string();
    escaped(&text, |_| false).into_owned()
}

/// `text` with every control character (but those `keep` keeps) and
/// every control of text direction escaped.
fn escaped(text: &str, keep: fn(char) -> bool) -> Cow<'_, str> {
    let unsafe_char = |c: char| (c.is_control() && !keep(c)) || c960_core::is_bidi_control(c);
    if !text.chars().any(unsafe_char) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .map(|c| {
                if unsafe_char(c) {
                    c.escape_unicode().to_string()
                } else {
                    c.to_string()
                }
            })
            .collect(),
    )
}

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
    /// Writes the collected text to standard output, made safe for a
    /// terminal ([`terminal_safe`]).
    pub(crate) fn print(&self) -> io::Result<()> {
        let text = terminal_safe(&self.0);
        Out { file: None }.write(|w| w.write_all(text.as_bytes()))
    }

    /// Writes the collected text to `out`.
    pub(crate) fn write(&self, out: &Out) -> io::Result<()> {
        out.write(|w| w.write_all(self.0.as_bytes()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terminal_output_carries_no_escape_sequence_or_direction_control() {
        // An engine named with an OSC (window title) and a colour, and a
        // reversed stretch.
        let name = "Stockfish\u{1b}]0;pwned\u{7}\u{1b}[31m red \u{202E}txt.exe";
        assert_eq!(
            terminal_safe(name),
            "Stockfish\\u{1b}]0;pwned\\u{7}\\u{1b}[31m red \\u{202e}txt.exe"
        );
        assert!(matches!(terminal_safe("a\tb\nc"), Cow::Borrowed("a\tb\nc")));
        // A file name cannot start a line of its own.
        assert_eq!(
            shown(Path::new("book.epd\nother.epd:1: forged")),
            "book.epd\\u{a}other.epd:1: forged"
        );
    }
}
