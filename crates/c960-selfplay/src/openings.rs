//! Opening books: EPD files of Chess960 start positions, or PGN games
//! (from a start position) whose moves are played before the engines take
//! over. Every error names the file and the line.

use std::{fmt, fs, path::Path, str::FromStr};

use c960_core::{
    StartPosition,
    shakmaty::{CastlingMode, Chess, Position, san::San, uci::UciMove},
};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

/// One opening: a start position and the moves played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The start position.
    pub position: StartPosition,
    /// Moves in UCI, Chess960 notation (castling as king takes rook).
    pub moves: Vec<String>,
    /// The line of the file where it begins (1-based).
    pub line: u32,
}

/// In which order a book's openings are played.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum OpeningOrder {
    /// As in the file.
    #[default]
    Sequential,
    /// Shuffled by the run seed.
    Random,
}

impl FromStr for OpeningOrder {
    type Err = String;

    fn from_str(text: &str) -> Result<OpeningOrder, String> {
        match text {
            "sequential" => Ok(OpeningOrder::Sequential),
            "random" => Ok(OpeningOrder::Random),
            other => Err(format!(
                "opening order {other:?} is not sequential or random"
            )),
        }
    }
}

impl fmt::Display for OpeningOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            OpeningOrder::Sequential => "sequential",
            OpeningOrder::Random => "random",
        })
    }
}

/// A book ready to play: its openings in playing order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    /// Where it was read from.
    pub source: String,
    /// The openings, in playing order.
    pub openings: Vec<Opening>,
    /// The order.
    pub order: OpeningOrder,
    /// FNV-1a of the openings (start position and moves, in file order): a
    /// journal is only resumed with the same book.
    pub fingerprint: u64,
}

impl Book {
    /// Reads a book (PGN when the file ends in `.pgn` or starts with a tag,
    /// else EPD) and puts it in `order` (random: shuffled with `seed`).
    pub fn read(path: &Path, order: OpeningOrder, seed: u64) -> Result<Book, String> {
        let text = fs::read_to_string(path)
            .map_err(|e| format!("cannot read openings {}: {e}", path.display()))?;
        let name = path.display().to_string();
        let pgn = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
            || text.trim_start().starts_with('[');
        let mut openings = if pgn {
            read_pgn(&text, &name)?
        } else {
            read_epd(&text, &name)?
        };
        if openings.is_empty() {
            return Err(format!("openings {name}: no opening in the file"));
        }
        let fingerprint = fingerprint(&openings);
        if order == OpeningOrder::Random {
            // Fisher–Yates with the run's seed.
            let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x6f70_656e_696e_6773);
            for i in (1..openings.len()).rev() {
                #[allow(clippy::cast_possible_truncation)]
                let j = (rng.next_u64() % (i as u64 + 1)) as usize;
                openings.swap(i, j);
            }
        }
        Ok(Book {
            source: name,
            openings,
            order,
            fingerprint,
        })
    }

    /// `N openings from FILE (order, fnv1a HEX)`.
    #[must_use]
    pub fn describe(&self) -> String {
        format!(
            "{} openings ({}, fnv1a {:016x})",
            self.openings.len(),
            self.order,
            self.fingerprint
        )
    }
}

fn fingerprint(openings: &[Opening]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for o in openings {
        let text = format!("{} {}\n", o.position.sp(), o.moves.join(" "));
        for byte in text.bytes() {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    hash
}

/// EPD: one start position per line (the first four FEN fields; any
/// operations after them are ignored). Empty lines and `#` comments are
/// skipped.
fn read_epd(text: &str, name: &str) -> Result<Vec<Opening>, String> {
    let mut openings = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line_no = u32::try_from(number + 1).unwrap_or(u32::MAX);
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = trimmed.split_whitespace().take(4).collect();
        if fields.len() < 4 {
            return Err(format!(
                "openings {name} line {line_no}: {trimmed:?} is not an EPD position (four FEN fields)"
            ));
        }
        let fen = format!("{} 0 1", fields.join(" "));
        let position = StartPosition::from_fen(&fen).map_err(|e| {
            format!("openings {name} line {line_no}: not a Chess960 start position: {e}")
        })?;
        openings.push(Opening {
            position,
            moves: Vec::new(),
            line: line_no,
        });
    }
    Ok(openings)
}

/// PGN: each game's `[FEN]` (a Chess960 start position; the classical
/// setup without one) and its main line, SAN moves checked for legality.
/// Comments, variations, NAGs, move numbers and results are skipped.
fn read_pgn(text: &str, name: &str) -> Result<Vec<Opening>, String> {
    let mut openings = Vec::new();
    let mut current: Option<Game> = None;
    let mut depth = 0usize; // variation nesting
    let mut in_comment = false;
    for (number, raw) in text.lines().enumerate() {
        let line_no = u32::try_from(number + 1).unwrap_or(u32::MAX);
        let at = |reason: String| format!("openings {name} line {line_no}: {reason}");
        let line = raw.trim();
        if !in_comment && depth == 0 && line.starts_with('[') {
            // A tag: a new game begins if moves were seen.
            if current.as_ref().is_some_and(|g| g.moved) {
                openings.push(current.take().expect("checked").finish());
            }
            let game = current.get_or_insert_with(|| Game::new(line_no));
            if let Some((tag, value)) = parse_tag(line) {
                match tag {
                    "FEN" => {
                        let position = StartPosition::from_fen(value).map_err(|e| {
                            at(format!("[FEN] is not a Chess960 start position: {e}"))
                        })?;
                        game.start(position);
                    }
                    "Variant"
                        if !value.to_ascii_lowercase().contains("960")
                            && !value.eq_ignore_ascii_case("fischerandom")
                            && !value.eq_ignore_ascii_case("standard") =>
                    {
                        return Err(at(format!("variant {value:?} is not Chess960")));
                    }
                    _ => {}
                }
            } else {
                return Err(at(format!("{line:?} is not a PGN tag")));
            }
            continue;
        }
        let mut chars = line.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            if in_comment {
                in_comment = c != '}';
                continue;
            }
            match c {
                '{' => in_comment = true,
                ';' => break,
                '(' => depth += 1,
                ')' => depth = depth.saturating_sub(1),
                c if c.is_whitespace() => {}
                _ => {
                    let mut end = i + c.len_utf8();
                    while let Some(&(j, d)) = chars.peek() {
                        if d.is_whitespace() || "{}();".contains(d) {
                            break;
                        }
                        end = j + d.len_utf8();
                        chars.next();
                    }
                    if depth > 0 {
                        continue;
                    }
                    let token = &line[i..end];
                    let game = current.get_or_insert_with(|| Game::new(line_no));
                    if matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*") {
                        openings.push(current.take().expect("a game").finish());
                        continue;
                    }
                    game.token(token).map_err(at)?;
                }
            }
        }
    }
    if let Some(game) = current
        && game.moved
    {
        openings.push(game.finish());
    }
    Ok(openings)
}

/// `[Name "value"]` → (name, value).
fn parse_tag(line: &str) -> Option<(&str, &str)> {
    let inner = line.strip_prefix('[')?.trim_end().strip_suffix(']')?;
    let (name, value) = inner.split_once(char::is_whitespace)?;
    let value = value.trim().strip_prefix('"')?.strip_suffix('"')?;
    Some((name, value))
}

/// A PGN game being read.
struct Game {
    line: u32,
    position: StartPosition,
    board: Chess,
    moves: Vec<String>,
    moved: bool,
}

impl Game {
    fn new(line: u32) -> Game {
        Game {
            line,
            position: StartPosition::CLASSICAL,
            board: StartPosition::CLASSICAL.to_position(),
            moves: Vec::new(),
            moved: false,
        }
    }

    fn start(&mut self, position: StartPosition) {
        self.position = position;
        self.board = position.to_position();
    }

    /// A movetext token: a move number (skipped), a NAG (skipped) or a SAN
    /// move, which must be legal.
    fn token(&mut self, token: &str) -> Result<(), String> {
        self.moved = true;
        let token = token.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        if token.is_empty() || token.starts_with('$') {
            return Ok(());
        }
        let san_text = token.trim_end_matches(['!', '?', '+', '#']);
        let played = San::from_ascii(san_text.as_bytes())
            .ok()
            .and_then(|san| san.to_move(&self.board).ok());
        let Some(m) = played else {
            return Err(format!(
                "move {} {token:?} is not legal in the game from SP {}",
                self.moves.len() / 2 + 1,
                self.position.sp()
            ));
        };
        self.moves
            .push(UciMove::from_move(m, CastlingMode::Chess960).to_string());
        self.board.play_unchecked(m);
        Ok(())
    }

    fn finish(self) -> Opening {
        Opening {
            position: self.position,
            moves: self.moves,
            line: self.line,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pgn_lines_with_comments_variations_and_castling() {
        let pgn = "[Event \"x\"]\n[Variant \"Chess960\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n\n\
                   1. g3 {a comment} g6 (1... e5 2. e4) 2. Ne3 $1 Ne6 1/2-1/2\n\n\
                   1. e4 e5 2. Nf3 Nf6 3. Bc4 Bc5 4. O-O O-O *\n";
        let openings = read_pgn(pgn, "t.pgn").unwrap();
        assert_eq!(openings.len(), 2);
        assert_eq!(openings[0].position.sp(), 0);
        assert_eq!(openings[0].moves, ["g2g3", "g7g6", "d1e3", "d8e6"]);
        assert_eq!(openings[0].line, 1);
        assert_eq!(openings[1].position.sp(), 518);
        assert_eq!(
            openings[1].moves,
            [
                "e2e4", "e7e5", "g1f3", "g8f6", "f1c4", "f8c5", "e1h1", "e8h8"
            ]
        );
        assert_eq!(openings[1].line, 7);
        let bad = read_pgn("1. e4 e5 2. Ke3 *\n", "b.pgn").unwrap_err();
        assert!(bad.contains("b.pgn line 1") && bad.contains("Ke3"), "{bad}");
    }
}
