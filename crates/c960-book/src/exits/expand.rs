//! Expanding one start: the tree of the engine's `MultiPV` lines, `plies`
//! deep, whose leaves are the start's exits.

use c960_core::{
    Setup,
    shakmaty::{CastlingMode, Position as _, uci::UciMove},
};
use c960_engine::{Engine, EngineError, GamePosition, Limit, Search};
use serde::{Deserialize, Serialize};

use std::fmt::Write as _;

use crate::book_line;

/// How each start is expanded.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tree {
    /// The search at each node.
    pub limit: Limit,
    /// Lines (children) per node.
    pub multipv: u32,
    /// Plies from the start to the deepest exits.
    pub plies: u32,
    /// The shallowest ply at which a node is an exit (`plies` for the
    /// leaves alone): with `plies - 1`, the positions one ply above the
    /// leaves are exits too, so a book holds both sides to move.
    pub first_exit_ply: u32,
}

/// The deepest tree: `--plies` above this is refused (an exit is a few
/// plies after its start; the expansion recurses once a ply).
pub const MAX_PLIES: u32 = 12;

/// The most searches one start may take (1 + K + ... + K^(P-1)): 9,331 is
/// `MultiPV` 6 at 6 plies, 217 times the default tree. A larger tree is
/// refused before any search, its size said.
pub const MAX_SEARCHES_PER_START: u64 = 10_000;

/// Nodes a second one core searched in the measured default expansion
/// (Stockfish 15.1: 43 searches of 10,000 nodes in about 1.6 s), for the
/// estimate printed before a run.
pub const MEASURED_NODES_PER_SECOND: u64 = 270_000;

impl Tree {
    /// The searches one start takes at most: 1 + K + ... + K^(P-1).
    #[must_use]
    pub fn searches_per_start(self) -> u64 {
        (0..self.plies).fold(0_u64, |sum, ply| {
            sum.saturating_add(u64::from(self.multipv).saturating_pow(ply))
        })
    }

    /// The exits one start has at most: K^p for each exit ply p.
    #[must_use]
    pub fn exits_per_start(self) -> u64 {
        (self.first_exit_ply.max(1)..=self.plies).fold(0_u64, |sum, ply| {
            sum.saturating_add(u64::from(self.multipv).saturating_pow(ply))
        })
    }

    /// Whether a node `ply` plies from the start is an exit.
    #[must_use]
    pub fn is_exit_ply(self, ply: u32) -> bool {
        ply >= self.first_exit_ply && ply <= self.plies
    }

    /// Refuses a tree without lines or plies, deeper than [`MAX_PLIES`]
    /// or of more than [`MAX_SEARCHES_PER_START`] searches a start.
    ///
    /// # Errors
    /// What is wrong, with the allowed range.
    pub fn check(self) -> Result<(), String> {
        if self.multipv == 0 || self.plies == 0 {
            return Err("--multipv and --plies must be at least 1".to_owned());
        }
        if self.plies > MAX_PLIES {
            return Err(format!(
                "--plies {} is out of range 1..={MAX_PLIES}: exits are a few plies after their \
                 start",
                self.plies
            ));
        }
        if self.first_exit_ply == 0 || self.first_exit_ply > self.plies {
            return Err(format!(
                "--exits-from {} must lie in 1..={} (--plies)",
                self.first_exit_ply, self.plies
            ));
        }
        let searches = self.searches_per_start();
        if searches > MAX_SEARCHES_PER_START {
            return Err(format!(
                "--multipv {} --plies {} takes {} searches a start, more than {}: lower \
                 --multipv or --plies (the default tree takes {})",
                self.multipv,
                self.plies,
                searches,
                MAX_SEARCHES_PER_START,
                Tree {
                    limit: self.limit,
                    multipv: super::DEFAULT_MULTIPV,
                    plies: super::DEFAULT_PLIES,
                    first_exit_ply: super::DEFAULT_PLIES,
                }
                .searches_per_start()
            ));
        }
        Ok(())
    }

    /// The work of expanding `starts` starts, said in one line: searches
    /// and nodes at most, and for a node limit the time on one core at
    /// the measured speed ([`MEASURED_NODES_PER_SECOND`]).
    #[must_use]
    pub fn estimate(self, starts: usize) -> String {
        let each = self.searches_per_start();
        let searches = each.saturating_mul(starts as u64);
        let mut text = format!(
            "{} \u{d7} up to {} = up to {} at {}",
            c960_core::plural(starts, "start", "starts"),
            c960_core::plural(each, "search", "searches"),
            c960_core::plural(searches, "search", "searches"),
            self.limit
        );
        if let Limit::Nodes(nodes) = self.limit {
            let seconds = searches.saturating_mul(nodes) / MEASURED_NODES_PER_SECOND;
            let _ = write!(
                text,
                ", {} on one core at {MEASURED_NODES_PER_SECOND} nodes a second",
                duration_words(seconds)
            );
        }
        text
    }
}

/// `seconds` as a rounded duration: `under 1 s`, `about 40 s`, `about 12
/// min`, `about 3.5 h`, `about 9 days`.
fn duration_words(seconds: u64) -> String {
    match seconds {
        0 => "under 1 s".to_owned(),
        s if s < 120 => format!("about {s} s"),
        s if s < 7_200 => format!("about {} min", s / 60),
        s if s < 172_800 => format!("about {}.{} h", s / 3_600, s % 3_600 / 360),
        s => format!("about {} days", s / 86_400),
    }
}

/// One exit: a position `first_exit_ply..=plies` plies after the start
/// (fewer when the game ended on the way), with the score of the line that
/// led to it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Exit {
    /// The moves from the start, in UCI (Chess960 notation: castling as
    /// king takes rook).
    pub moves: Vec<String>,
    /// The position as a book line.
    pub fen: String,
    /// Centipawns for White, from the line's score (absent for a mate).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cp: Option<i32>,
    /// Moves to mate for White (negative: White is mated).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mate: Option<i32>,
    /// White's win, draw and loss chances per mille, if the engine
    /// reports WDL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wdl: Option<[u32; 3]>,
    /// Whether the game is over in this position (mate, stalemate,
    /// insufficient material).
    pub game_over: bool,
}

impl Exit {
    /// The draw chance in percent, from the engine's WDL.
    #[must_use]
    pub fn draw_percent(&self) -> Option<f64> {
        self.wdl.map(|[_, draw, _]| f64::from(draw) / 10.0)
    }
}

/// Every exit of one start: one journal line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StartExits {
    /// The setup's number (Scharnagl number, or DFRC index).
    pub setup: u32,
    /// Searches made.
    pub searches: u32,
    /// The exits, depth first in `MultiPV` order (an exit above the leaves
    /// before its children).
    pub exits: Vec<Exit>,
}

/// Expands `setup` with `engine`: at each node a search with `MultiPV`
/// `tree.multipv` from a cleared hash (`new_game` first, so one thread and
/// a node limit give the same tree every time), the children being the
/// lines' first moves, down to `tree.plies` plies.
///
/// # Errors
/// When a search fails, or a line's move is not legal.
pub fn expand(
    engine: &mut impl Engine,
    setup: Setup,
    tree: Tree,
) -> Result<StartExits, EngineError> {
    let mut out = StartExits {
        setup: setup.id(),
        searches: 0,
        exits: Vec::new(),
    };
    let start = GamePosition::new(setup.to_position());
    if tree.plies > 0 && !start.current().is_game_over() {
        node(engine, &start, 0, tree, &mut out)?;
    }
    Ok(out)
}

fn node(
    engine: &mut impl Engine,
    game: &GamePosition,
    ply: u32,
    tree: Tree,
    out: &mut StartExits,
) -> Result<(), EngineError> {
    engine.new_game()?;
    let result = engine.search(
        game,
        Search {
            limit: tree.limit,
            multipv: tree.multipv,
        },
    )?;
    out.searches += 1;
    let mut seen = Vec::new();
    for line in result.lines.iter().take(tree.multipv as usize) {
        let Some(&first) = line.pv.first() else {
            continue;
        };
        if seen.contains(&first) {
            continue;
        }
        seen.push(first);
        let mut child = game.clone();
        child.push(first).map_err(|m| EngineError::IllegalMove {
            name: engine.info().name.clone(),
            what: "pv",
            uci: uci(m),
            fen: book_line(game.current()),
        })?;
        let game_over = child.current().is_game_over();
        let leaf = ply + 1 >= tree.plies || game_over;
        if leaf || tree.is_exit_ply(ply + 1) {
            let score = line.score.for_white(result.turn);
            out.exits.push(Exit {
                moves: child.moves().iter().map(|m| uci(*m)).collect(),
                fen: book_line(child.current()),
                cp: score.cp(),
                mate: score.mate(),
                wdl: line.wdl.map(|w| {
                    let w = w.for_white(result.turn);
                    [w.win, w.draw, w.loss]
                }),
                game_over,
            });
        }
        if !leaf {
            node(engine, &child, ply + 1, tree, out)?;
        }
    }
    Ok(())
}

fn uci(m: c960_core::shakmaty::Move) -> String {
    UciMove::from_move(m, CastlingMode::Chess960).to_string()
}

/// Checks a journaled start: every exit's moves are legal from the setup
/// and lead to its position, and its game-over flag is right.
///
/// # Errors
/// What is wrong, naming the exit.
pub fn check_start(entry: &StartExits, setup: Setup, tree: Tree) -> Result<(), String> {
    for exit in &entry.exits {
        let mut position = setup.to_position();
        if exit.moves.is_empty() || exit.moves.len() > tree.plies as usize {
            return Err(format!(
                "exit {} has {} moves, not 1 to {}",
                exit.fen,
                exit.moves.len(),
                tree.plies
            ));
        }
        for text in &exit.moves {
            let m = text
                .parse::<UciMove>()
                .ok()
                .and_then(|u| u.to_move(&position).ok())
                .ok_or_else(|| format!("move {text} of exit {} is not legal", exit.fen))?;
            position.play_unchecked(m);
        }
        if book_line(&position) != exit.fen {
            return Err(format!(
                "the moves {} do not lead to {}",
                exit.moves.join(" "),
                exit.fen
            ));
        }
        if position.is_game_over() != exit.game_over {
            return Err(format!("exit {} has a wrong game-over flag", exit.fen));
        }
        if exit.cp.is_some() == exit.mate.is_some() {
            return Err(format!("exit {} needs one score (cp or mate)", exit.fen));
        }
    }
    Ok(())
}
