//! What a position page offers to download besides its diagram and table
//! row: a reproducible sample of the position's games as PGN.

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
};

use c960_core::{
    StartPosition,
    pgn::{PgnGame, Termination, pgn_date},
};
use c960_store::{GameSlices, SLICE_ROWS};
use polars::prelude::*;

use crate::ReportError;

/// Games per position in a page's PGN download.
pub const PGN_SAMPLE: usize = 10;

/// The columns a sample is read from (`date` last: imports only).
const COLUMNS: [&str; 8] = [
    "sp",
    "game",
    "white",
    "black",
    "result",
    "termination",
    "moves",
    "date",
];

/// One game of a sample.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SampleGame {
    /// Its index among the position's games.
    pub game: u32,
    /// White's player.
    pub white: String,
    /// Black's player.
    pub black: String,
    /// `1-0`, `1/2-1/2` or `0-1`.
    pub result: String,
    /// How it ended.
    pub termination: String,
    /// The moves in UCI (Chess960 castling).
    pub moves: String,
    /// The day it was played (`YYYY.MM.DD`), when the table says.
    pub date: Option<String>,
}

/// The sampling key of game `game` of `sp`: `SplitMix64` of the seed mixed
/// with `sp << 32 | game`. The games with the smallest keys are the sample,
/// so it does not depend on the order of the table's rows.
fn key(seed: u64, sp: u16, game: u32) -> u64 {
    let mut z =
        (seed ^ ((u64::from(sp) << 32) | u64::from(game))).wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// At most `n` games per position from a game table, chosen reproducibly
/// by `seed` (see [`key`]), in game order. The table is read in slices of
/// 65,536 rows, so memory holds a slice and the samples only.
pub fn sample_games(
    games: &Path,
    n: usize,
    seed: u64,
) -> Result<BTreeMap<u16, Vec<SampleGame>>, ReportError> {
    let table = GameSlices::open(games)?;
    // Imported games have the day they were played; self-play has none.
    let has_date = table.has_column("date");
    let columns: &[&str] = if has_date { &COLUMNS } else { &COLUMNS[..7] };
    let mut chosen: BTreeMap<u16, Vec<(u64, SampleGame)>> = BTreeMap::new();
    for slice in table.slices(Some(columns), SLICE_ROWS) {
        let (_, frame) = slice?;
        let sp = frame.column("sp")?.cast(&DataType::UInt32)?;
        let game = frame.column("game")?.cast(&DataType::UInt32)?;
        let text = |name: &str| -> Result<Column, ReportError> {
            Ok(frame.column(name)?.cast(&DataType::String)?)
        };
        let (white, black, result, termination, moves) = (
            text("white")?,
            text("black")?,
            text("result")?,
            text("termination")?,
            text("moves")?,
        );
        let dates = if has_date { Some(text("date")?) } else { None };
        let dates = dates.as_ref().map(Column::str).transpose()?;
        let (sp, game) = (sp.u32()?, game.u32()?);
        let (white, black, result, termination, moves) = (
            white.str()?,
            black.str()?,
            result.str()?,
            termination.str()?,
            moves.str()?,
        );
        for i in 0..frame.height() {
            let (Some(s), Some(g)) = (sp.get(i), game.get(i)) else {
                continue;
            };
            let Ok(s) = u16::try_from(s) else { continue };
            let k = key(seed, s, g);
            let list = chosen.entry(s).or_default();
            if list.len() == n {
                let worst = list
                    .iter()
                    .enumerate()
                    .max_by_key(|(_, (k, _))| *k)
                    .map_or(0, |(i, _)| i);
                if list[worst].0 <= k {
                    continue;
                }
                list.swap_remove(worst);
            }
            let get = |c: &StringChunked| c.get(i).unwrap_or("?").to_owned();
            list.push((
                k,
                SampleGame {
                    game: g,
                    white: get(white),
                    black: get(black),
                    result: get(result),
                    termination: get(termination),
                    moves: moves.get(i).unwrap_or_default().to_owned(),
                    date: dates.and_then(|d| d.get(i)).map(str::to_owned),
                },
            ));
        }
    }
    Ok(chosen
        .into_iter()
        .map(|(sp, mut list)| {
            list.sort_by_key(|(_, g)| g.game);
            (sp, list.into_iter().map(|(_, g)| g).collect())
        })
        .collect())
}

/// The games as PGN, by c960-core's one PGN writer (the writer of
/// self-play's `games.pgn`): the seven-tag roster with the game's date when
/// the table has one, Chess960 tags, a standard `[Termination]` (a
/// resignation in `imported` games is a player's, in self-play an
/// adjudication), SAN with check marks. A game whose moves cannot be
/// replayed stops at the first bad move with a comment saying so.
#[must_use]
pub fn pgn(position: StartPosition, source: &str, imported: bool, games: &[SampleGame]) -> String {
    let mut out = String::new();
    for g in games {
        let moves: Vec<String> = g.moves.split_whitespace().map(str::to_owned).collect();
        let game = PgnGame {
            event: format!("SP {} games ({source})", position.sp()),
            site: "c960".to_owned(),
            date: pgn_date(g.date.as_deref()),
            round: (g.game + 1).to_string(),
            white: g.white.clone(),
            black: g.black.clone(),
            result: g.result.clone(),
            start: position.into(),
            before_termination: Vec::new(),
            termination: Termination::of(&g.termination, !imported),
            ply_count: Some(moves.len()),
            own: vec![("C960Termination", g.termination.clone())],
            moves: &moves,
            comments: Vec::new(),
        };
        out.push_str(&game.write_lenient());
    }
    out
}

/// The PGN file of a position's games in a site: `positions/SP.pgn`.
#[must_use]
pub fn pgn_path(site: &Path, sp: u16) -> PathBuf {
    site.join(format!("positions/{sp}.pgn"))
}
