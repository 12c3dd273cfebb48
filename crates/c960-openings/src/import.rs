//! PGN import: Chess960 games from PGN or `.pgn.zst` files into the game
//! table self-play writes, with every real-data defect counted and none
//! fatal.

use std::{
    collections::BTreeMap,
    fs::File,
    io::{self, BufReader, Cursor, Read},
    ops::ControlFlow,
    path::{Path, PathBuf},
};

use c960_core::{
    StartPosition, histogram_median,
    shakmaty::{
        CastlingSide, Chess, Color, KnownOutcome, Move, Outcome, Position, Square, fen::Fen,
    },
};
use pgn_reader::{RawTag, Reader, SanPlus, Visitor};
use polars::prelude::*;
use serde::Serialize;

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
#[derive(Clone, Debug, Default)]
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

#[derive(Default)]
struct Tags {
    variant: Option<Vec<u8>>,
    fen: Option<String>,
    white: String,
    black: String,
    white_elo: Option<u32>,
    black_elo: Option<u32>,
    time_control: Option<String>,
    date: Option<String>,
    termination: Option<String>,
}

struct Movetext {
    game: ImportedGame,
    position: Chess,
    outcome: Option<Outcome>,
    termination_tag: Option<String>,
}

/// A game read: kept, or skipped for a reason.
enum Read1 {
    Kept(Box<ImportedGame>),
    Skipped(SkipReason),
}

struct Importer<'a> {
    filters: &'a Filters,
    /// FENs seen before (a dump has at most a few thousand distinct ones).
    fens: std::collections::HashMap<String, Result<StartPosition, SkipReason>>,
}

fn text(value: &RawTag<'_>) -> String {
    value.decode_utf8_lossy().into_owned()
}

/// Classifies the FEN of a Chess960 game.
fn start_position(fen: &str) -> Result<StartPosition, SkipReason> {
    let fen = fen.trim();
    if fen == "?" || fen.is_empty() {
        return Err(SkipReason::UnknownFen);
    }
    if let Ok(position) = StartPosition::from_fen(fen) {
        return Ok(position);
    }
    // Tell a bad castling field on a good start board from the rest.
    let board = fen.split_whitespace().next().unwrap_or_default();
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let Ok(parsed_board) = c960_core::shakmaty::Board::from_ascii_board_fen(board.as_bytes())
    else {
        return Err(SkipReason::MalformedFen);
    };
    let start = StartPosition::all().find(|p| p.board() == parsed_board);
    match start {
        Some(position) if fields.len() >= 3 => {
            let mut repaired = fields.clone();
            repaired[2] = "KQkq";
            let rest_ok = fields.len() == 6
                && StartPosition::from_fen(&repaired.join(" ")).ok() == Some(position);
            if rest_ok {
                Err(SkipReason::BadCastlingField)
            } else if Fen::from_ascii(fen.as_bytes()).is_err() {
                Err(SkipReason::MalformedFen)
            } else {
                Err(SkipReason::NotAStartPosition)
            }
        }
        Some(_) => Err(SkipReason::MalformedFen),
        None if Fen::from_ascii(fen.as_bytes()).is_err() => Err(SkipReason::MalformedFen),
        None => Err(SkipReason::NotAStartPosition),
    }
}

impl Importer<'_> {
    fn admit(&mut self, tags: &Tags) -> Result<StartPosition, SkipReason> {
        let chess960 = tags.variant.as_deref().is_some_and(|v| {
            v.eq_ignore_ascii_case(b"chess960")
                || v.eq_ignore_ascii_case(b"fischerandom")
                || v.eq_ignore_ascii_case(b"chess 960")
        });
        if !chess960 {
            return Err(SkipReason::NotChess960);
        }
        // Without a FEN tag a PGN game starts from the standard position.
        let position = match tags.fen.as_deref() {
            Some(fen) => {
                if let Some(known) = self.fens.get(fen) {
                    (*known)?
                } else {
                    let found = start_position(fen);
                    if self.fens.len() < 100_000 {
                        self.fens.insert(fen.to_owned(), found);
                    }
                    found?
                }
            }
            None => StartPosition::new(518).map_err(|_| SkipReason::NotAStartPosition)?,
        };
        let f = self.filters;
        if f.min_rating.is_some() || f.max_rating.is_some() {
            let (Some(w), Some(b)) = (tags.white_elo, tags.black_elo) else {
                return Err(SkipReason::Rating);
            };
            if f.min_rating.is_some_and(|m| w.min(b) < m)
                || f.max_rating.is_some_and(|m| w.max(b) > m)
            {
                return Err(SkipReason::Rating);
            }
        }
        if !f.time_controls.is_empty()
            && !tags
                .time_control
                .as_ref()
                .is_some_and(|t| f.time_controls.iter().any(|k| k == t))
        {
            return Err(SkipReason::TimeControl);
        }
        if f.since.is_some() || f.until.is_some() {
            let Some(date) = tags.date.as_deref() else {
                return Err(SkipReason::Date);
            };
            if f.since.as_deref().is_some_and(|s| date < s)
                || f.until.as_deref().is_some_and(|u| date > u)
            {
                return Err(SkipReason::Date);
            }
        }
        Ok(position)
    }
}

impl Visitor for Importer<'_> {
    type Tags = Tags;
    type Movetext = Movetext;
    type Output = Read1;

    fn begin_tags(&mut self) -> ControlFlow<Read1, Tags> {
        ControlFlow::Continue(Tags::default())
    }

    fn tag(&mut self, tags: &mut Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<Read1> {
        match name {
            b"Variant" => tags.variant = Some(value.decode().into_owned()),
            b"FEN" => tags.fen = Some(text(&value)),
            b"White" => tags.white = text(&value),
            b"Black" => tags.black = text(&value),
            b"WhiteElo" => tags.white_elo = text(&value).trim().parse().ok(),
            b"BlackElo" => tags.black_elo = text(&value).trim().parse().ok(),
            b"TimeControl" => tags.time_control = Some(text(&value)),
            b"UTCDate" => tags.date = Some(text(&value)),
            b"Date" if tags.date.is_none() => tags.date = Some(text(&value)),
            b"Termination" => tags.termination = Some(text(&value)),
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Tags) -> ControlFlow<Read1, Movetext> {
        let position = match self.admit(&tags) {
            Ok(position) => position,
            Err(reason) => return ControlFlow::Break(Read1::Skipped(reason)),
        };
        ControlFlow::Continue(Movetext {
            game: ImportedGame {
                sp: position.sp(),
                white: tags.white,
                black: tags.black,
                white_elo: tags.white_elo,
                black_elo: tags.black_elo,
                time_control: tags.time_control,
                date: tags.date,
                moves: String::with_capacity(512),
                ..ImportedGame::default()
            },
            position: position.to_position(),
            outcome: None,
            termination_tag: tags.termination,
        })
    }

    fn san(&mut self, movetext: &mut Movetext, san_plus: SanPlus) -> ControlFlow<Read1> {
        let Ok(mv) = san_plus.san.to_move(&movetext.position) else {
            return ControlFlow::Break(Read1::Skipped(SkipReason::IllegalMove));
        };
        let game = &mut movetext.game;
        game.plies += 1;
        if mv.is_castle() {
            let side = match mv.castling_side() {
                Some(CastlingSide::QueenSide) => 'a',
                _ => 'h',
            };
            let slot = match movetext.position.turn() {
                Color::White => &mut game.white_castling,
                Color::Black => &mut game.black_castling,
            };
            slot.get_or_insert((side, game.plies));
        }
        if !game.moves.is_empty() {
            game.moves.push(' ');
        }
        push_uci(&mut game.moves, mv);
        movetext.position.play_unchecked(mv);
        ControlFlow::Continue(())
    }

    fn outcome(&mut self, movetext: &mut Movetext, outcome: Outcome) -> ControlFlow<Read1> {
        movetext.outcome = Some(outcome);
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, movetext: Movetext) -> Read1 {
        let Some(Outcome::Known(outcome)) = movetext.outcome else {
            return Read1::Skipped(SkipReason::NoResult);
        };
        let mut game = movetext.game;
        (game.result, game.white_score) = match outcome {
            KnownOutcome::Decisive {
                winner: Color::White,
            } => ("1-0", 1.0),
            KnownOutcome::Decisive {
                winner: Color::Black,
            } => ("0-1", 0.0),
            KnownOutcome::Draw => ("1/2-1/2", 0.5),
        };
        let position = &movetext.position;
        let tag = movetext
            .termination_tag
            .as_deref()
            .unwrap_or("")
            .to_ascii_lowercase();
        game.termination = if position.is_checkmate() {
            "checkmate"
        } else if position.is_stalemate() {
            "stalemate"
        } else if position.is_insufficient_material() {
            "insufficient-material"
        } else if tag.contains("time") {
            "time-forfeit"
        } else if tag.contains("abandon") {
            "abandoned"
        } else if tag.contains("infraction") {
            "rules-infraction"
        } else if matches!(outcome, KnownOutcome::Draw) {
            "draw-agreed"
        } else {
            "resignation"
        };
        Read1::Kept(Box::new(game))
    }
}

/// Appends `mv` in UCI with Chess960 castling (king takes rook): the same
/// text as `mv.to_uci(CastlingMode::Chess960)`, without formatting
/// machinery (this runs for every move imported).
fn push_uci(out: &mut String, mv: Move) {
    let square = |out: &mut String, sq: Square| {
        out.push(sq.file().char());
        out.push(sq.rank().char());
    };
    match mv {
        Move::Castle { king, rook } => {
            square(out, king);
            square(out, rook);
        }
        Move::Normal {
            from,
            to,
            promotion,
            ..
        } => {
            square(out, from);
            square(out, to);
            if let Some(role) = promotion {
                out.push(role.char());
            }
        }
        Move::EnPassant { from, to } => {
            square(out, from);
            square(out, to);
        }
        Move::Put { role, to } => {
            out.push(role.upper_char());
            out.push('@');
            square(out, to);
        }
    }
}

/// Opens a PGN file, decompressing `.zst` files on the fly. A directory,
/// or a `.zst` file that does not start with a zstd frame, is an
/// [`io::ErrorKind::InvalidInput`] error naming the file.
fn open(path: &Path) -> io::Result<Box<dyn Read>> {
    let cannot =
        |e: io::Error| io::Error::new(e.kind(), format!("cannot open {}: {e}", path.display()));
    if path.is_dir() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{} is a directory, not a PGN file", path.display()),
        ));
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
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "{} is not zstd data (it does not start with a zstd frame);                      give plain PGN a name without .zst",
                    path.display()
                ),
            ));
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
/// An [`io::ErrorKind::InvalidInput`] error means the file is not PGN.
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
    let mut importer = Importer {
        filters,
        fens: std::collections::HashMap::new(),
    };
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

/// Games per Parquet row group.
const BATCH: usize = 4_096;

/// The game table of `games`: self-play's columns (`sp`, `game`, `seed`,
/// `white`, `black`, `limit`, `result`, `white_score`, `termination`,
/// `plies`, `moves`, castling side and ply per colour, `scores`) and the
/// players' ratings, time control and date. `seed`, `limit` and `scores`
/// are null for human games; `game` numbers each position's games from 0.
pub fn games_frame(mut games: Vec<(u32, ImportedGame)>) -> PolarsResult<DataFrame> {
    macro_rules! column {
        ($name:literal, $f:expr) => {
            Column::new($name.into(), games.iter().map($f).collect::<Vec<_>>())
        };
    }
    let height = games.len();
    // The move lists are the bulk of a game: moved, not copied.
    let moves: Vec<String> = games
        .iter_mut()
        .map(|(_, g)| std::mem::take(&mut g.moves))
        .collect();
    let side = |c: &Option<(char, u32)>| c.map(|(s, _)| s.to_string());
    let ply = |c: &Option<(char, u32)>| c.map(|(_, p)| p);
    let columns = vec![
        column!("sp", |(_, g)| u32::from(g.sp)),
        column!("game", |(i, _)| *i),
        column!("seed", |_| None::<u64>),
        column!("white", |(_, g)| g.white.clone()),
        column!("black", |(_, g)| g.black.clone()),
        column!("limit", |_| None::<String>),
        column!("result", |(_, g)| g.result),
        column!("white_score", |(_, g)| g.white_score),
        column!("termination", |(_, g)| g.termination),
        column!("plies", |(_, g)| g.plies),
        Column::new("moves".into(), moves),
        column!("white_castle_side", |(_, g)| side(&g.white_castling)),
        column!("white_castle_ply", |(_, g)| ply(&g.white_castling)),
        column!("black_castle_side", |(_, g)| side(&g.black_castling)),
        column!("black_castle_ply", |(_, g)| ply(&g.black_castling)),
        column!("scores", |_| None::<String>),
        column!("white_elo", |(_, g)| g.white_elo),
        column!("black_elo", |(_, g)| g.black_elo),
        column!("time_control", |(_, g)| g.time_control.clone()),
        column!("date", |(_, g)| g.date.clone()),
    ];
    DataFrame::new(height, columns)
}

/// Imports `files` into `out/games.parquet` (written atomically, in row
/// groups, so memory stays flat) and `out/import.json` (the summary).
pub fn import_to(files: &[PathBuf], filters: &Filters, out: &Path) -> io::Result<ImportSummary> {
    std::fs::create_dir_all(out)?;
    let mut summary = None;
    let mut tallies: BTreeMap<u16, PositionTally> = BTreeMap::new();
    c960_store::write_atomically(&out.join("games.parquet"), |file| {
        let schema = games_frame(Vec::new())
            .map_err(io::Error::other)?
            .schema()
            .clone();
        // LZ4: the default zstd level took a fifth of an import's time.
        // Sealed with its row count and data hash, checked on read.
        let mut writer = c960_store::SealedWriter::with_compression(
            file,
            &schema,
            Vec::new(),
            ParquetCompression::Lz4Raw,
        )
        .map_err(io::Error::other)?;
        let mut next = vec![0u32; 960];
        let mut batch: Vec<(u32, ImportedGame)> = Vec::with_capacity(BATCH);
        let mut flush = |batch: &mut Vec<(u32, ImportedGame)>| -> io::Result<()> {
            let frame = games_frame(std::mem::take(batch)).map_err(io::Error::other)?;
            writer.write_batch(&frame).map_err(io::Error::other)?;
            Ok(())
        };
        summary = Some(import(files, filters, |game| {
            tallies.entry(game.sp).or_default().add(&game);
            let index = &mut next[usize::from(game.sp)];
            batch.push((*index, game));
            *index += 1;
            if batch.len() == BATCH {
                flush(&mut batch)?;
            }
            Ok(())
        })?);
        if !batch.is_empty() {
            flush(&mut batch)?;
        }
        writer.finish().map_err(io::Error::other)
    })?;
    let summary = summary.unwrap_or_default();
    let json = serde_json::to_string_pretty(&serde_json::json!({
        "kind": "import",
        "c960_version": env!("CARGO_PKG_VERSION"),
        "summary": &summary,
    }))
    .map_err(io::Error::other)?;
    c960_store::write_atomically(&out.join("import.json"), |file| {
        io::Write::write_all(file, json.as_bytes())
    })?;
    let mut positions = positions_frame(&tallies).map_err(io::Error::other)?;
    c960_store::write_atomically(&out.join("positions.parquet"), |file| {
        c960_store::write_sealed(file, &mut positions, Vec::new())
    })?;
    c960_store::write_atomically(&out.join("positions.csv"), |file| {
        CsvWriter::new(file)
            .include_header(true)
            .finish(&mut positions)
            .map_err(io::Error::other)
    })?;
    // The manifest a report reads, as self-play and sweeps write one.
    let names: Vec<String> = files
        .iter()
        .map(|f| {
            f.file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
        })
        .collect();
    let manifest = serde_json::to_string_pretty(&serde_json::json!({
        "kind": "import",
        "c960_version": env!("CARGO_PKG_VERSION"),
        "files": names,
        "filters": {
            "min_rating": filters.min_rating,
            "max_rating": filters.max_rating,
            "time_controls": filters.time_controls,
            "since": filters.since,
            "until": filters.until,
        },
        "games": summary.kept,
        "read": summary.read,
        "finished": humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
    }))
    .map_err(io::Error::other)?;
    c960_store::write_atomically(&out.join("manifest.json"), |file| {
        io::Write::write_all(file, manifest.as_bytes())
    })?;
    Ok(summary)
}

/// Termination names of imported games, in table order.
pub const TERMINATIONS: [&str; 8] = [
    "checkmate",
    "stalemate",
    "insufficient-material",
    "resignation",
    "time-forfeit",
    "draw-agreed",
    "abandoned",
    "rules-infraction",
];

/// One position's imported games, counted as they stream past.
#[derive(Default)]
struct PositionTally {
    counts: crate::tree::Counts,
    /// `[colour][side]` games in which White (0) / Black (1) castled a (0)
    /// or h (1).
    castled: [[u64; 2]; 2],
    /// Histograms of castling plies per colour.
    castle_plies: [Vec<u64>; 2],
    terminations: [u64; 8],
}

impl PositionTally {
    fn add(&mut self, game: &ImportedGame) {
        self.counts.add(game.white_score);
        for (colour, castling) in [game.white_castling, game.black_castling]
            .iter()
            .enumerate()
        {
            if let Some((side, ply)) = castling {
                self.castled[colour][usize::from(*side == 'h')] += 1;
                let histogram = &mut self.castle_plies[colour];
                let ply = *ply as usize;
                if histogram.len() <= ply {
                    histogram.resize(ply + 1, 0);
                }
                histogram[ply] += 1;
            }
        }
        if let Some(k) = TERMINATIONS.iter().position(|t| *t == game.termination) {
            self.terminations[k] += 1;
        }
    }
}

/// The per-position table of an import: the columns of self-play's
/// position table that human games have (games, W/D/L, White's score with
/// its interval, draw rate, castling rates and median plies) and one count
/// per termination.
#[allow(clippy::cast_precision_loss)]
fn positions_frame(tallies: &BTreeMap<u16, PositionTally>) -> PolarsResult<DataFrame> {
    let rows: Vec<(&u16, &PositionTally)> = tallies.iter().collect();
    let col_u64 = |name: &str, f: &dyn Fn(&PositionTally) -> u64| {
        Column::new(
            name.into(),
            rows.iter().map(|(_, t)| f(t)).collect::<Vec<_>>(),
        )
    };
    let col_f64 = |name: &str, f: &dyn Fn(&PositionTally) -> f64| {
        Column::new(
            name.into(),
            rows.iter().map(|(_, t)| f(t)).collect::<Vec<_>>(),
        )
    };
    let share = |n: u64, t: &PositionTally| n as f64 / t.counts.games.max(1) as f64;
    let mut columns = vec![
        Column::new(
            "sp".into(),
            rows.iter()
                .map(|(sp, _)| u32::from(**sp))
                .collect::<Vec<_>>(),
        ),
        Column::new(
            "placement".into(),
            rows.iter()
                .map(|(sp, _)| {
                    StartPosition::new(**sp)
                        .map(StartPosition::placement)
                        .unwrap_or_default()
                })
                .collect::<Vec<_>>(),
        ),
        col_u64("games", &|t| t.counts.games),
        col_u64("white_wins", &|t| t.counts.white_wins),
        col_u64("draws", &|t| t.counts.draws),
        col_u64("black_wins", &|t| t.counts.black_wins),
        col_f64("white_score", &|t| t.counts.interval().0),
        col_f64("white_score_low", &|t| t.counts.interval().1),
        col_f64("white_score_high", &|t| t.counts.interval().2),
        Column::new("interval".into(), vec!["trinomial"; rows.len()]),
        col_f64("draw_rate", &|t| share(t.counts.draws, t)),
        col_f64("white_castled_a", &|t| share(t.castled[0][0], t)),
        col_f64("white_castled_h", &|t| share(t.castled[0][1], t)),
        col_f64("black_castled_a", &|t| share(t.castled[1][0], t)),
        col_f64("black_castled_h", &|t| share(t.castled[1][1], t)),
        Column::new(
            "white_median_castle_ply".into(),
            rows.iter()
                .map(|(_, t)| histogram_median(&t.castle_plies[0]))
                .collect::<Vec<_>>(),
        ),
        Column::new(
            "black_median_castle_ply".into(),
            rows.iter()
                .map(|(_, t)| histogram_median(&t.castle_plies[1]))
                .collect::<Vec<_>>(),
        ),
    ];
    for (k, name) in TERMINATIONS.iter().enumerate() {
        columns.push(Column::new(
            name.replace('-', "_").into(),
            rows.iter()
                .map(|(_, t)| t.terminations[k])
                .collect::<Vec<_>>(),
        ));
    }
    DataFrame::new(rows.len(), columns)
}

#[cfg(test)]
mod tests {
    use c960_core::shakmaty::{CastlingMode, Position};

    use super::*;

    #[test]
    fn push_uci_writes_what_shakmaty_writes() {
        // Every legal move of every start position and of positions a few
        // plies in, castling and promotions included.
        let mut positions: Vec<Chess> = StartPosition::all()
            .map(StartPosition::to_position)
            .collect();
        let promotion: Chess = "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1"
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Chess960)
            .unwrap();
        positions.push(promotion);
        let mut checked = 0;
        for position in positions {
            for mv in position.legal_moves() {
                let mut text = String::new();
                push_uci(&mut text, mv);
                assert_eq!(text, mv.to_uci(CastlingMode::Chess960).to_string());
                checked += 1;
            }
        }
        assert!(checked > 960 * 18);
    }
}
