//! How hard each position's first two moves are, from a sweep with
//! replies (`c960 sweep --multipv N --reply`): White's good moves (within
//! 25 cp of the best) and the gap from the best to the second best, the
//! same for Black's first reply after White's best move, and White's minus
//! Black's. One engine's search of each position: there is no interval;
//! how far the measures repeat under another engine version is their
//! stability (docs/datasets.md).

use std::{collections::BTreeMap, path::Path};

use c960_core::POSITION_COUNT;
use c960_store::columns::difficulty as column;
use polars::prelude::*;
use serde::Serialize;

use super::input::{bad, open_checked};
use crate::{VerdictError, row::FirstMoves};

/// The difficulty of every position a sweep with replies scored.
#[derive(Clone, Debug, Serialize)]
pub struct Difficulty {
    /// The engine, its limit and options (`Stockfish 19 WASM nodes 1000000
    /// (MultiPV=8)`).
    pub source: String,
    /// The table read, as given.
    pub file: String,
    /// Positions with both measures.
    pub positions: usize,
    /// What the measures are.
    pub meaning: String,
    /// Per position, by SP.
    #[serde(skip)]
    pub rows: BTreeMap<u16, FirstMoves>,
}

/// What the measures are, in words (also in `balance.json`).
pub const MEANING: &str = "white_good_moves: White's first moves within 25 cp of the best, the \
    best included, among the lines of a MultiPV search (a count equal to the MultiPV means that \
    many or more); white_gap_cp: the best score minus the second best; black_good_moves and \
    black_gap_cp: the same for Black's first reply after White's best move; good_moves_asymmetry \
    and gap_asymmetry_cp: White's minus Black's. Fewer good moves and a wider gap mean a harder \
    choice. One search each: no interval; stability across engine versions in docs/datasets.md";

/// Row `i`'s measures from the six columns of [`column::MEASURES`]; none
/// when a count is missing.
fn first_moves(columns: &[Vec<Option<i64>>], i: usize) -> Option<FirstMoves> {
    let cell = |c: usize| columns[c][i].and_then(|v| i32::try_from(v).ok());
    let count = |c: usize| cell(c).and_then(|v| u32::try_from(v).ok());
    Some(FirstMoves {
        white_good_moves: count(0)?,
        black_good_moves: count(1)?,
        good_moves_asymmetry: cell(2)?,
        white_gap_cp: cell(3),
        black_gap_cp: cell(4),
        gap_asymmetry_cp: cell(5),
    })
}

/// Reads the difficulty measures of the sweep table `path` (its
/// `sweep.parquet` or the table itself).
pub(super) fn read(path: &Path) -> Result<Difficulty, VerdictError> {
    let file = super::input::table(path, c960_store::SWEEP_TABLE);
    let mut needs = vec!["sp", "engine", "limit", "engine_options"];
    needs.extend(column::ALL);
    let frame = open_checked(&file, &needs, &[])?;
    let ints = |name: &str| -> Result<Vec<Option<i64>>, VerdictError> {
        Ok(frame
            .column(name)?
            .cast(&DataType::Int64)?
            .i64()?
            .iter()
            .collect())
    };
    let text = |name: &str, i: usize| -> Result<String, VerdictError> {
        let c = frame.column(name)?.cast(&DataType::String)?;
        Ok(c.str()?.get(i).unwrap_or_default().to_owned())
    };
    let sp = ints("sp")?;
    let columns: Vec<Vec<Option<i64>>> = column::MEASURES
        .iter()
        .map(|c| ints(c))
        .collect::<Result<_, _>>()?;
    let mut rows = BTreeMap::new();
    let mut source: Option<String> = None;
    for (i, sp) in sp.iter().enumerate() {
        let s = sp
            .and_then(|s| u16::try_from(s).ok())
            .filter(|s| *s < POSITION_COUNT)
            .ok_or_else(|| bad(&file, format!("row {i} has no SP in 0..=959")))?;
        let rater = super::input::rater_name(
            &text("engine", i)?,
            &text("limit", i)?,
            &text("engine_options", i)?,
        );
        match &source {
            None => source = Some(rater),
            Some(first) if *first != rater => {
                return Err(bad(
                    &file,
                    format!(
                        "it holds two engines' searches ({first} and {rater}): difficulty is read \
                         from one sweep"
                    ),
                ));
            }
            Some(_) => {}
        }
        let Some(moves) = first_moves(&columns, i) else {
            continue;
        };
        if rows.insert(s, moves).is_some() {
            return Err(bad(
                &file,
                format!("SP {s} appears twice: difficulty is one search a position"),
            ));
        }
    }
    if rows.is_empty() {
        return Err(bad(
            &file,
            "no position has difficulty measures: give a sweep made with --multipv and --reply"
                .to_owned(),
        ));
    }
    Ok(Difficulty {
        source: source.unwrap_or_default(),
        file: path.display().to_string(),
        positions: rows.len(),
        meaning: MEANING.to_owned(),
        rows,
    })
}
