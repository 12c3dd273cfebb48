//! The draw chance and White's expected score as the index and fair.html
//! show them: each position's cells, its character and its place in the
//! drawish order (what `c960 draw --not-drawish` leaves out first), from
//! the verdicts' typed rows.

use std::collections::BTreeMap;

use crate::{balance::Balance, view::OutcomeView};

/// One position's outcome cells.
pub(crate) struct OutcomeCells {
    /// The draw chance, as a percentage.
    pub(crate) draw: String,
    /// Its 95 % interval.
    pub(crate) interval: String,
    /// `drawish`, `sharp`, `one-sided` or `typical`.
    pub(crate) character: &'static str,
    /// Its place from the most drawish (1) on.
    pub(crate) drawish_rank: usize,
}

/// Every position's outcome view, by SP (none without a draw chance).
pub(crate) fn views(verdicts: Option<&Balance>) -> BTreeMap<u16, OutcomeView> {
    let Some(b) = verdicts else {
        return BTreeMap::new();
    };
    let rows = b.rows();
    let characters = c960_verdict::Character::all(&rows);
    rows.iter()
        .filter_map(|r| {
            let view = OutcomeView::of(r, *characters.get(&r.sp.sp())?)?;
            Some((r.sp.sp(), view))
        })
        .collect()
}

/// Every position's cells, by SP.
pub(crate) fn cells(verdicts: Option<&Balance>) -> BTreeMap<u16, OutcomeCells> {
    let Some(b) = verdicts else {
        return BTreeMap::new();
    };
    let rank: BTreeMap<u16, usize> = c960_verdict::drawish_order(&b.rows())
        .into_iter()
        .enumerate()
        .map(|(i, sp)| (sp, i + 1))
        .collect();
    views(verdicts)
        .into_iter()
        .map(|(sp, v)| {
            (
                sp,
                OutcomeCells {
                    draw: format!("{:.1}%", v.draw * 100.0),
                    interval: format!("{:.1}–{:.1}%", v.draw_low * 100.0, v.draw_high * 100.0),
                    character: v.character,
                    drawish_rank: rank.get(&sp).copied().unwrap_or(0),
                },
            )
        })
        .collect()
}

/// Every position's difficulty cells, by SP: White's good moves, Black's,
/// and White's minus Black's (none without a difficulty sweep).
pub(crate) fn difficulty_cells(verdicts: Option<&Balance>) -> BTreeMap<u16, [String; 3]> {
    let Some(d) = verdicts.and_then(|b| b.difficulty.as_ref()) else {
        return BTreeMap::new();
    };
    d.rows
        .iter()
        .map(|(sp, m)| {
            (
                *sp,
                [
                    m.white_good_moves.to_string(),
                    m.black_good_moves.to_string(),
                    format!("{:+}", m.good_moves_asymmetry),
                ],
            )
        })
        .collect()
}

/// Which of the per-position extras a table shows.
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct Extras {
    /// Draw chance, its interval and the character.
    pub(crate) outcome: bool,
    /// The difficulty measures.
    pub(crate) difficulty: bool,
}
