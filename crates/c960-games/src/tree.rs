//! The opening tree of one start position: every line up to N plies with
//! its games, share, result counts and White's score with an interval, and
//! the moves that follow it.

use std::{
    collections::{BTreeMap, btree_map::Entry},
    fmt::Write as _,
    path::Path,
};

use c960_balance::sequential::ConfidenceState;
use c960_core::{
    StartPosition,
    shakmaty::{Chess, Position, san::SanPlus, uci::UciMove},
};
use c960_store::{GameSlices, SLICE_ROWS};
use polars::prelude::*;
use thiserror::Error;

mod counts;
mod first_moves;

use counts::Tally;
pub use counts::{Counts, IntervalKind};
pub use first_moves::{
    FirstMove, first_moves, first_moves_frame, first_moves_of, first_moves_with,
};

/// Why a tree cannot be built.
#[derive(Debug, Error)]
pub enum TreeError {
    /// The games table cannot be read.
    #[error(transparent)]
    Polars(#[from] PolarsError),
    /// A stored move that is not legal in its game (a corrupt table).
    #[error("SP {sp}: game {game}: move {ply} ({uci}) is not legal")]
    BadMove {
        /// Position.
        sp: u16,
        /// Row of the game among the position's games.
        game: usize,
        /// Ply, from 1.
        ply: usize,
        /// The move as stored.
        uci: String,
    },
}

/// One line of the tree.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// The moves in UCI (Chess960 castling: king takes rook).
    pub uci: Vec<String>,
    /// The moves in SAN (castling as O-O / O-O-O).
    pub san: Vec<String>,
    /// Games through the line.
    pub counts: Counts,
}

impl Line {
    /// The line with move numbers, e.g. `1. e4 e5 2. Nf3`.
    #[must_use]
    pub fn numbered(&self) -> String {
        numbered(&self.san, 0)
    }
}

/// SAN moves with move numbers, the first at ply `from` (0 = White's
/// first move).
#[must_use]
pub fn numbered(san: &[String], from: usize) -> String {
    let mut text = String::new();
    for (i, m) in san.iter().enumerate() {
        let ply = from + i;
        if !text.is_empty() {
            text.push(' ');
        }
        if ply.is_multiple_of(2) {
            let _ = write!(text, "{}. ", ply / 2 + 1);
        } else if i == 0 {
            let _ = write!(text, "{}... ", ply / 2 + 1);
        }
        text.push_str(m);
    }
    text
}

/// The opening tree of one position.
#[derive(Clone, Debug)]
pub struct Tree {
    /// The position.
    pub position: StartPosition,
    /// All games of the position.
    pub root: Counts,
    /// Plies the tree goes deep.
    pub plies: usize,
    /// Every line up to `plies`, keyed by its UCI moves joined by spaces
    /// (so children follow their parent in key order).
    pub lines: BTreeMap<String, Line>,
    /// The kind of interval its counts carry.
    pub interval: IntervalKind,
    /// The confidence sequences of the root and the lines while games are
    /// added (anytime intervals only), keyed as `lines` ("" the root).
    sequences: BTreeMap<String, ConfidenceState>,
}

impl Tree {
    /// Builds the tree of `position` from a game table (`games.parquet` of
    /// self-play or of `c960 import`): its `sp`, `moves` and
    /// `white_score` columns. The table is read in slices, and only the
    /// position's games are kept.
    pub fn from_games(
        games: &Path,
        position: StartPosition,
        plies: usize,
    ) -> Result<Tree, TreeError> {
        Tree::from_games_with(games, position, plies, IntervalKind::Trinomial)
    }

    /// [`Tree::from_games`] with intervals of `kind` (the games are taken
    /// in table order, which is game order).
    pub fn from_games_with(
        games: &Path,
        position: StartPosition,
        plies: usize,
        kind: IntervalKind,
    ) -> Result<Tree, TreeError> {
        let mut mine = Vec::new();
        for_each_slice(games, |frame| {
            let mask = frame
                .column("sp")?
                .cast(&DataType::UInt32)?
                .u32()?
                .equal(u32::from(position.sp()));
            let frame = frame.filter(&mask)?;
            let moves = frame.column("moves")?.str()?.clone();
            let scores = frame.column("white_score")?.f64()?.clone();
            mine.extend(
                (0..frame.height())
                    .filter_map(|i| Some((moves.get(i)?.to_owned(), scores.get(i)?))),
            );
            Ok(())
        })?;
        let mut tree = Tree::new(position, plies).with_interval(kind);
        for (moves, score) in mine {
            tree.add(&moves, score)?;
        }
        Ok(tree)
    }

    /// Builds the tree from `(moves in UCI separated by spaces, White's
    /// score)` of games played from `position`.
    pub fn from_moves(
        position: StartPosition,
        plies: usize,
        games: impl IntoIterator<Item = (String, f64)>,
    ) -> Result<Tree, TreeError> {
        let mut tree = Tree::new(position, plies);
        for (moves, score) in games {
            tree.add(&moves, score)?;
        }
        Ok(tree)
    }

    /// An empty tree.
    #[must_use]
    pub fn new(position: StartPosition, plies: usize) -> Tree {
        Tree {
            position,
            root: Counts::default(),
            plies,
            lines: BTreeMap::new(),
            interval: IntervalKind::Trinomial,
            sequences: BTreeMap::new(),
        }
    }

    /// The tree with intervals of `kind` for the games added after.
    #[must_use]
    pub fn with_interval(mut self, kind: IntervalKind) -> Tree {
        self.interval = kind;
        self
    }

    /// Takes `score` into the confidence sequence of the line `key` ("" the
    /// root), when the tree keeps anytime intervals; returns that interval.
    fn sequence(&mut self, key: &str, score: f64) -> Option<(f64, f64)> {
        let IntervalKind::Anytime { alpha } = self.interval else {
            return None;
        };
        let state = self
            .sequences
            .entry(key.to_owned())
            .or_insert_with(|| ConfidenceState::new(alpha));
        state.push(score.clamp(0.0, 1.0));
        let s = state.sequence();
        Some((s.low, s.high))
    }

    /// Adds one game: its moves in UCI separated by spaces, and White's
    /// score.
    pub fn add(&mut self, moves: &str, score: f64) -> Result<(), TreeError> {
        let index = usize::try_from(self.root.games).unwrap_or(usize::MAX);
        self.root.add(score);
        if let Some(interval) = self.sequence("", score) {
            self.root.anytime = Some(interval);
        }
        let mut board: Chess = self.position.to_position();
        let mut key = String::new();
        let mut san: Vec<String> = Vec::new();
        for (ply, uci) in moves.split_whitespace().take(self.plies).enumerate() {
            let mv = uci
                .parse::<UciMove>()
                .ok()
                .and_then(|u| u.to_move(&board).ok())
                .ok_or_else(|| TreeError::BadMove {
                    sp: self.position.sp(),
                    game: index,
                    ply: ply + 1,
                    uci: uci.to_owned(),
                })?;
            if !key.is_empty() {
                key.push(' ');
            }
            key.push_str(uci);
            let interval = self.sequence(&key, score);
            let line = match self.lines.entry(key.clone()) {
                Entry::Occupied(known) => {
                    board.play_unchecked(mv);
                    known.into_mut()
                }
                Entry::Vacant(new) => {
                    san.push(SanPlus::from_move_and_play_unchecked(&mut board, mv).to_string());
                    new.insert(Line {
                        uci: key.split(' ').map(str::to_owned).collect(),
                        san: san.clone(),
                        counts: Counts::default(),
                    })
                }
            };
            line.counts.add(score);
            if interval.is_some() {
                line.counts.anytime = interval;
            }
            san.clone_from(&line.san);
        }
        Ok(())
    }

    /// The share of the position's games that go through `line`.
    #[must_use]
    #[allow(clippy::cast_precision_loss)]
    pub fn share(&self, line: &Line) -> f64 {
        if self.root.games == 0 {
            0.0
        } else {
            line.counts.games as f64 / self.root.games as f64
        }
    }

    /// The moves that follow `prefix` (UCI moves joined by spaces, "" for
    /// the start), most played first.
    #[must_use]
    pub fn next_moves(&self, prefix: &str) -> Vec<&Line> {
        let depth = if prefix.is_empty() {
            1
        } else {
            prefix.split(' ').count() + 1
        };
        let mut next: Vec<&Line> = self
            .lines
            .range(prefix.to_owned()..)
            .take_while(|(k, _)| prefix.is_empty() || k.starts_with(prefix))
            .filter(|(k, l)| {
                l.uci.len() == depth
                    && (prefix.is_empty() || k.as_bytes().get(prefix.len()) == Some(&b' '))
            })
            .map(|(_, l)| l)
            .collect();
        next.sort_by(|a, b| b.counts.games.cmp(&a.counts.games).then(a.uci.cmp(&b.uci)));
        next
    }

    /// The lines reached by at least `share` of the games, deepest last
    /// within each branch (tree order).
    #[must_use]
    pub fn openings(&self, share: f64) -> Vec<&Line> {
        let mut out = Vec::new();
        self.walk("", share, &mut out);
        out
    }

    fn walk<'a>(&'a self, prefix: &str, share: f64, out: &mut Vec<&'a Line>) {
        for line in self.next_moves(prefix) {
            if self.share(line) + 1e-12 < share {
                continue;
            }
            out.push(line);
            self.walk(&line.uci.join(" "), share, out);
        }
    }
}

/// The trees of every position in a game table, read in slices: memory
/// grows with the number of distinct lines up to `plies`, not with the
/// number of games.
pub fn trees_by_position(games: &Path, plies: usize) -> Result<BTreeMap<u16, Tree>, TreeError> {
    let mut trees: BTreeMap<u16, Tree> = BTreeMap::new();
    let mut result = Ok(());
    for_each_slice(games, |frame| {
        each_game(&frame, |sp, moves, score| {
            let Ok(position) = StartPosition::new(sp) else {
                return;
            };
            if result.is_ok() {
                result = trees
                    .entry(sp)
                    .or_insert_with(|| Tree::new(position, plies))
                    .add(moves, score);
            }
        })
    })?;
    result?;
    Ok(trees)
}

/// The columns a tree is built from.
const COLUMNS: [&str; 3] = ["sp", "moves", "white_score"];

/// Calls `each` with successive slices of [`SLICE_ROWS`] games of a game
/// table, each with its [`COLUMNS`] only.
fn for_each_slice(
    games: &Path,
    mut each: impl FnMut(DataFrame) -> Result<(), TreeError>,
) -> Result<(), TreeError> {
    let table = GameSlices::open(games)?;
    for slice in table.slices(Some(&COLUMNS), SLICE_ROWS) {
        each(slice?.1)?;
    }
    Ok(())
}

/// The trees of every position with only the lines that matter: every
/// first move, and below that the moves that follow a line reached by at
/// least `min_share` of the position's games, up to `plies`. Built level by
/// level (one read of the table per ply, in slices), so memory is bounded
/// by the number of frequent lines — at most `1 / min_share` per position
/// and ply — and their next moves, however many games there are.
pub fn frequent_trees(
    games: &Path,
    plies: usize,
    min_share: f64,
) -> Result<BTreeMap<u16, Tree>, TreeError> {
    frequent_trees_with(games, plies, min_share, IntervalKind::Trinomial)
}

/// [`frequent_trees`] with intervals of `kind` (the games are taken in
/// table order, which is game order).
pub fn frequent_trees_with(
    games: &Path,
    plies: usize,
    min_share: f64,
    kind: IntervalKind,
) -> Result<BTreeMap<u16, Tree>, TreeError> {
    // Level 1: every position's games and first moves.
    let mut root: BTreeMap<u16, Tally> = BTreeMap::new();
    let mut levels: Vec<BTreeMap<(u16, String), Tally>> = Vec::new();
    let mut first: BTreeMap<(u16, String), Tally> = BTreeMap::new();
    for_each_slice(games, |frame| {
        each_game(&frame, |sp, moves, score| {
            root.entry(sp)
                .or_insert_with(|| Tally::new(kind))
                .add(score);
            if let Some(m) = moves.split(' ').next().filter(|m| !m.is_empty()) {
                first
                    .entry((sp, m.to_owned()))
                    .or_insert_with(|| Tally::new(kind))
                    .add(score);
            }
        })
    })?;
    levels.push(first);
    // Deeper levels: only below lines that reached `min_share`.
    for depth in 2..=plies {
        let frequent: std::collections::HashSet<(u16, &str)> = levels[depth - 2]
            .iter()
            .filter(|((sp, _), tally)| {
                let c = &tally.counts;
                let total = root.get(sp).map_or(0, |r| r.counts.games);
                #[allow(clippy::cast_precision_loss)]
                let enough = c.games as f64 + 1e-9 >= min_share * total as f64;
                enough && c.games > 0
            })
            .map(|((sp, line), _)| (*sp, line.as_str()))
            .collect();
        if frequent.is_empty() {
            break;
        }
        let mut level: BTreeMap<(u16, String), Tally> = BTreeMap::new();
        for_each_slice(games, |frame| {
            each_game(&frame, |sp, moves, score| {
                let Some(end) = nth_space(moves, depth - 1) else {
                    return;
                };
                if !frequent.contains(&(sp, &moves[..end])) {
                    return;
                }
                let line = nth_space(moves, depth).map_or(moves, |e| &moves[..e]);
                if line.len() > end {
                    level
                        .entry((sp, line.to_owned()))
                        .or_insert_with(|| Tally::new(kind))
                        .add(score);
                }
            })
        })?;
        levels.push(level);
    }
    let mut trees: BTreeMap<u16, Tree> = BTreeMap::new();
    for (sp, tally) in root {
        let Ok(position) = StartPosition::new(sp) else {
            continue;
        };
        let mut tree = Tree::new(position, plies).with_interval(kind);
        tree.root = tally.counts;
        trees.insert(sp, tree);
    }
    for level in levels {
        for ((sp, line), Tally { counts, .. }) in level {
            let Some(tree) = trees.get_mut(&sp) else {
                continue;
            };
            let uci: Vec<String> = line.split(' ').map(str::to_owned).collect();
            let parent = uci[..uci.len() - 1].join(" ");
            let mut san = if parent.is_empty() {
                Vec::new()
            } else {
                tree.lines
                    .get(&parent)
                    .map(|l| l.san.clone())
                    .unwrap_or_default()
            };
            // Replay the line for the SAN of its last move.
            let mut board: Chess = tree.position.to_position();
            for (ply, m) in uci.iter().enumerate() {
                let mv = m
                    .parse::<UciMove>()
                    .ok()
                    .and_then(|u| u.to_move(&board).ok())
                    .ok_or_else(|| TreeError::BadMove {
                        sp,
                        game: 0,
                        ply: ply + 1,
                        uci: m.clone(),
                    })?;
                if ply + 1 == uci.len() {
                    san.truncate(ply);
                    san.push(SanPlus::from_move(board.clone(), mv).to_string());
                }
                board.play_unchecked(mv);
            }
            tree.lines.insert(line, Line { uci, san, counts });
        }
    }
    Ok(trees)
}

/// The byte index of the `n`-th space of `text` (1-based), i.e. the end of
/// its first `n` words.
fn nth_space(text: &str, n: usize) -> Option<usize> {
    text.match_indices(' ').nth(n - 1).map(|(i, _)| i)
}

/// Calls `each(sp, moves, white_score)` for every game of a slice.
fn each_game(frame: &DataFrame, mut each: impl FnMut(u16, &str, f64)) -> Result<(), TreeError> {
    let sp = frame.column("sp")?.u32()?.clone();
    let moves = frame.column("moves")?.str()?.clone();
    let scores = frame.column("white_score")?.f64()?.clone();
    for i in 0..frame.height() {
        if let (Some(sp), Some(moves), Some(score)) = (sp.get(i), moves.get(i), scores.get(i))
            && let Ok(sp) = u16::try_from(sp)
        {
            each(sp, moves, score);
        }
    }
    Ok(())
}
