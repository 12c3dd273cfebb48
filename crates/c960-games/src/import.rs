//! PGN import: Chess960 games from PGN or `.pgn.zst` files into the game
//! table self-play writes, with every real-data defect counted and none
//! fatal.
//!
//! This module reads the files and counts what it skips ([`import`]); the
//! PGN visitor that reads one game and decides whether to keep it is in
//! `visitor`; `writer` writes an import's directory ([`import_to`]: the
//! game table, the per-position table, the summary and the manifest); and
//! `tally` counts each position's games as they stream past.

mod tally;
mod visitor;
mod writer;

use std::{
    collections::BTreeMap,
    fs::File,
    io::{self, BufReader, Cursor, Read},
    path::{Path, PathBuf},
};

use pgn_reader::Reader;
use serde::Serialize;

pub use tally::TERMINATIONS;
pub use writer::{games_frame, import_to};

use visitor::{Importer, Read1};

/// Why a game was not kept. Every game read is either kept or counted
/// under exactly one of these.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SkipReason {
    /// The `Variant` tag is not Chess960 (or missing).
    NotChess960,
    /// `[FEN "?"]`: the start position was not recorded.
    UnknownFen,
    /// The FEN does not parse.
    MalformedFen,
    /// The board is a start position but the castling field is not full
    /// rights (e.g. `HEhe` or `-`).
    BadCastlingField,
    /// A FEN that is not a Chess960 start position.
    NotAStartPosition,
    /// A move that is not legal in the game's position.
    IllegalMove,
    /// No result: the game (or the file) ends early, or the result is `*`.
    NoResult,
    /// Outside the rating range.
    Rating,
    /// Not one of the time controls asked for.
    TimeControl,
    /// Outside the date range.
    Date,
    /// A tag line too long to read (lines of up to [`MAX_TAG_LINE`] bytes
    /// are always read): the game is skipped, the games after it are read.
    TagTooLong,
}

/// Tag lines of up to this many bytes are read (a `Site` of 100 KB, say);
/// a game with a longer one may be skipped as [`SkipReason::TagTooLong`].
/// The reader's buffer is twice this: at 256 KiB it stays in cache (plain
/// PGN is parsed as fast as with pgn-reader's default 255 bytes), at 1 MiB
/// parsing took twice as long.
pub const MAX_TAG_LINE: usize = 1 << 18;

impl SkipReason {
    /// All reasons, in report order.
    pub const ALL: [SkipReason; 11] = [
        SkipReason::NotChess960,
        SkipReason::UnknownFen,
        SkipReason::MalformedFen,
        SkipReason::BadCastlingField,
        SkipReason::NotAStartPosition,
        SkipReason::IllegalMove,
        SkipReason::NoResult,
        SkipReason::Rating,
        SkipReason::TimeControl,
        SkipReason::Date,
        SkipReason::TagTooLong,
    ];

    /// A short description for summaries.
    #[must_use]
    pub const fn describe(self) -> &'static str {
        match self {
            SkipReason::NotChess960 => "not Chess960 (Variant tag)",
            SkipReason::UnknownFen => "FEN \"?\"",
            SkipReason::MalformedFen => "malformed FEN",
            SkipReason::BadCastlingField => "invalid castling field in the FEN",
            SkipReason::NotAStartPosition => "FEN is not a Chess960 start position",
            SkipReason::IllegalMove => "illegal move",
            SkipReason::NoResult => "no result (truncated, or *)",
            SkipReason::Rating => "outside the rating range",
            SkipReason::TimeControl => "other time control",
            SkipReason::Date => "outside the date range",
            SkipReason::TagTooLong => "a tag line too long to read (over 256 KiB)",
        }
    }
}

/// Which games to keep beyond the defects.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Filters {
    /// Both players rated at least this (games without ratings fail).
    pub min_rating: Option<u32>,
    /// Both players rated at most this.
    pub max_rating: Option<u32>,
    /// `TimeControl` tag values to keep, e.g. `180+2`.
    pub time_controls: Vec<String>,
    /// First date kept, `YYYY.MM.DD` (as in PGN; compared as text).
    pub since: Option<String>,
    /// Last date kept, `YYYY.MM.DD`.
    pub until: Option<String>,
}

/// What an import read and kept.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ImportSummary {
    /// Files read.
    pub files: Vec<PathBuf>,
    /// PGN bytes read (after decompression).
    pub bytes: u64,
    /// Games read.
    pub read: u64,
    /// Games kept.
    pub kept: u64,
    /// Games skipped, by reason.
    pub skipped: BTreeMap<SkipReason, u64>,
    /// The first game skipped for each reason, as `file #game`.
    pub examples: BTreeMap<SkipReason, String>,
    /// Files that ended in the middle of a game or of a compressed frame.
    pub truncated_files: Vec<PathBuf>,
}

/// One kept game, in the columns self-play's game table has (plus the
/// players' ratings, time control and date).
#[derive(Clone, Debug, Default)]
pub struct ImportedGame {
    /// Scharnagl number.
    pub sp: u16,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: &'static str,
    /// 1, ½ or 0.
    pub white_score: f64,
    /// How the game ended.
    pub termination: &'static str,
    /// Plies played.
    pub plies: u32,
    /// Moves in UCI, Chess960 notation (castling as king takes rook),
    /// separated by spaces.
    pub moves: String,
    /// White's castling side (`a` or `h`) and ply.
    pub white_castling: Option<(char, u32)>,
    /// Black's castling side and ply.
    pub black_castling: Option<(char, u32)>,
    /// White's rating.
    pub white_elo: Option<u32>,
    /// Black's rating.
    pub black_elo: Option<u32>,
    /// The `TimeControl` tag.
    pub time_control: Option<String>,
    /// `UTCDate` or `Date`.
    pub date: Option<String>,
}

/// Reads every game of `files` in order, hands each kept game to `keep`
/// (in file order) and counts the rest. Defects in the data never stop the
/// import; a file that cannot be opened, or an error from `keep`, does.
pub fn import(
    files: &[PathBuf],
    filters: &Filters,
    mut keep: impl FnMut(ImportedGame) -> io::Result<()>,
) -> io::Result<ImportSummary> {
    let mut summary = ImportSummary {
        files: files.to_vec(),
        ..ImportSummary::default()
    };
    let mut importer = Importer::new(filters);
    for path in files {
        let mut reader = Reader::build(Counting {
            inner: open(path)?,
            bytes: 0,
        })
        .set_supported_tag_line_length(MAX_TAG_LINE)
        .finish();
        let mut index = 0u64;
        loop {
            let game = match reader.read_game(&mut importer) {
                Ok(Some(game)) => game,
                Ok(None) => break,
                Err(e) if is_long_tag(&e) && reader.has_more()? => {
                    // The reader stopped after the long line; the rest of
                    // this game is skipped, the next one is read.
                    skip_rest_of_game(&mut reader).map_err(|e| {
                        io::Error::new(
                            e.kind(),
                            format!("{}: game {}: {e}", path.display(), index + 1),
                        )
                    })?;
                    summary.read += 1;
                    index += 1;
                    count(&mut summary, SkipReason::TagTooLong, path, index);
                    continue;
                }
                Err(e) if is_truncation(&e) => {
                    // The compressed stream (or the file) ends mid-game.
                    summary.truncated_files.push(path.clone());
                    summary.read += 1;
                    index += 1;
                    count(&mut summary, SkipReason::NoResult, path, index);
                    break;
                }
                Err(e) => {
                    return Err(io::Error::new(
                        e.kind(),
                        format!("{}: game {}: {e}", path.display(), index + 1),
                    ));
                }
            };
            summary.read += 1;
            index += 1;
            match game {
                Read1::Kept(game) => {
                    summary.kept += 1;
                    keep(*game)?;
                }
                Read1::Skipped(reason) => count(&mut summary, reason, path, index),
            }
        }
        summary.bytes += reader.into_inner().bytes;
    }
    Ok(summary)
}

/// Skips what is left of a game whose tags the reader gave up on, however
/// many of its tag lines are too long.
fn skip_rest_of_game<R: Read>(reader: &mut Reader<R>) -> io::Result<()> {
    loop {
        match reader.skip_game() {
            Err(e) if is_long_tag(&e) => {}
            other => return other.map(drop),
        }
    }
}

/// The reader's error for a tag line longer than its buffer (or cut off by
/// the end of the file, which [`Reader::has_more`] tells apart).
fn is_long_tag(error: &io::Error) -> bool {
    error.kind() == io::ErrorKind::InvalidData && error.to_string() == "unterminated tag"
}

fn is_truncation(error: &io::Error) -> bool {
    matches!(
        error.kind(),
        io::ErrorKind::UnexpectedEof | io::ErrorKind::InvalidData | io::ErrorKind::Other
    )
}

fn count(summary: &mut ImportSummary, reason: SkipReason, path: &Path, index: u64) {
    *summary.skipped.entry(reason).or_default() += 1;
    summary
        .examples
        .entry(reason)
        .or_insert_with(|| format!("{} #{index}", path.display()));
}

/// Opens a PGN file, decompressing `.zst` files on the fly. A directory,
/// or a `.zst` file that does not start with a zstd frame, is an
/// error naming the file that [`c960_store::is_bad_input`] tells apart.
fn open(path: &Path) -> io::Result<Box<dyn Read>> {
    let cannot =
        |e: io::Error| io::Error::new(e.kind(), format!("cannot open {}: {e}", path.display()));
    if path.is_dir() {
        return Err(c960_store::bad_input(format!(
            "{} is a directory, not a PGN file",
            path.display()
        )));
    }
    let mut file = File::open(path).map_err(cannot)?;
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("zst"))
    {
        // Read the magic number first: other data would otherwise pass for
        // a file cut short.
        let mut head = Vec::with_capacity(4);
        (&mut file).take(4).read_to_end(&mut head).map_err(cannot)?;
        if !is_zstd_magic(&head) {
            return Err(c960_store::bad_input(format!(
                "{} is not zstd data (it does not start with a zstd frame);                      give plain PGN a name without .zst",
                path.display()
            )));
        }
        Ok(Box::new(zstd::stream::read::Decoder::new(
            Cursor::new(head).chain(file),
        )?))
    } else {
        Ok(Box::new(BufReader::with_capacity(1 << 16, file)))
    }
}

/// Whether `head` starts a zstd frame, or a skippable frame.
fn is_zstd_magic(head: &[u8]) -> bool {
    match head {
        [0x28, 0xb5, 0x2f, 0xfd] => true,
        [low, 0x2a, 0x4d, 0x18] => low & 0xf0 == 0x50,
        _ => false,
    }
}

/// Checks that `path` can be read as PGN before an import starts: it
/// opens, is not a directory, and a `.zst` file starts with a zstd frame.
/// Bad input ([`c960_store::is_bad_input`]) means the file is not PGN.
pub fn check_file(path: &Path) -> io::Result<()> {
    open(path).map(drop)
}

/// Counts the bytes passing through.
struct Counting<R> {
    inner: R,
    bytes: u64,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }
}
