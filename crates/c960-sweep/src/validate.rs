//! What a trustworthy sweep row looks like: checked when a journal is
//! read back (resume) and when a table is read by a report.

use c960_core::{
    Setup, Variant,
    shakmaty::{CastlingMode, Chess, Move, Position, san::SanPlus, uci::UciMove},
};

use c960_engine::Limit;

use crate::{Entry, RepeatPlan, SweepRow};

/// Largest centipawn score an engine can mean (beyond it, mates).
const MAX_CP: i32 = 100_000;

/// Checks one row of a sweep of `variant`: the setup and its placement agree, the search went at
/// least one ply deep, the score is one centipawn value or one mate, WDL
/// (if any) sums to 1000, and the best move and the first moves of the
/// lines are legal in the position, their SAN matching; a reply, if any,
/// is checked the same way in the position after the best move.
pub fn check_row(row: &SweepRow, variant: Variant) -> Result<(), String> {
    let position = Setup::new(variant, row.sp).map_err(|e| e.to_string())?;
    let sp = position.label();
    if row.placement != position.placement() {
        return Err(format!(
            "{sp} is {} but the row says {}",
            position.placement(),
            row.placement
        ));
    }
    check_search(&sp, row.depth, row.score_cp, row.score_mate)?;
    match (row.wdl_win, row.wdl_draw, row.wdl_loss) {
        (None, None, None) => {}
        (Some(w), Some(d), Some(l)) if w + d + l == 1000 => {}
        (w, d, l) => {
            return Err(format!("{sp}: WDL {w:?}/{d:?}/{l:?} does not sum to 1000"));
        }
    }
    let start = position.to_position();
    let best = check_move(&start, &sp, &row.best_move_uci, Some(&row.best_move_san))?;
    check_lines(&start, &sp, &row.top_moves)?;
    if let Some(reply) = &row.reply {
        let sp = format!("{sp} after {}", row.best_move_san);
        check_search(&sp, reply.depth, reply.score_cp, reply.score_mate)?;
        let mut after = start;
        after.play_unchecked(best);
        check_move(
            &after,
            &sp,
            &reply.best_move_uci,
            Some(&reply.best_move_san),
        )?;
        check_lines(&after, &sp, &reply.top_moves)?;
    }
    Ok(())
}

/// Checks that a search went at least one ply deep and has one centipawn
/// value or one mate.
fn check_search(
    sp: &str,
    depth: u32,
    score_cp: Option<i32>,
    score_mate: Option<i32>,
) -> Result<(), String> {
    if depth == 0 {
        return Err(format!("{sp}: depth 0 (no search reported)"));
    }
    match (score_cp, score_mate) {
        (Some(cp), None) if cp.abs() <= MAX_CP => Ok(()),
        (None, Some(mate)) if mate != 0 => Ok(()),
        (cp, mate) => Err(format!("{sp}: impossible score (cp {cp:?}, mate {mate:?})")),
    }
}

/// Checks that each line starts with a legal move of `position` (its SAN
/// matching) and has one score.
fn check_lines(position: &Chess, sp: &str, lines: &[crate::TopMove]) -> Result<(), String> {
    for top in lines {
        check_move(position, sp, &top.uci, Some(&top.san))?;
        if top.cp.is_some() == top.mate.is_some() {
            return Err(format!("{sp}: line {} has no single score", top.uci));
        }
    }
    Ok(())
}

/// Checks that `uci` is a legal move in `start` (and its SAN); returns it.
fn check_move(start: &Chess, sp: &str, uci: &str, san: Option<&str>) -> Result<Move, String> {
    let legal = uci
        .parse::<UciMove>()
        .ok()
        .and_then(|m| m.to_move(start).ok());
    let Some(m) = legal else {
        return Err(format!("{sp}: best move {uci:?} is not legal"));
    };
    if UciMove::from_move(m, CastlingMode::Chess960).to_string() != uci {
        return Err(format!("{sp}: move {uci:?} is not in Chess960 notation"));
    }
    if let Some(san) = san
        && SanPlus::from_move(start.clone(), m).to_string() != san
    {
        return Err(format!("{sp}: SAN {san:?} is not the move {uci}"));
    }
    Ok(m)
}

/// Checks one journal entry of a sweep with search limit `limit` and
/// repeats `plan` over setups of `variant`, with replies or not: the limit,
/// the repeat number and its node budget are this run's, and the row has a
/// reply exactly when the run searches them.
pub(crate) fn check_entry(
    entry: &Entry,
    limit: Limit,
    plan: &RepeatPlan,
    variant: Variant,
    reply: bool,
) -> Result<(), String> {
    match entry {
        Entry::Done(row) => {
            let sp = variant.label(row.sp);
            if row.reply.is_some() != reply {
                return Err(if reply {
                    format!("{sp}: no reply, but this run searches replies")
                } else {
                    format!("{sp}: a reply, but this run searches none")
                });
            }
            if row.limit != limit {
                return Err(format!(
                    "{sp}: limit \"{}\", but this run's is \"{limit}\"",
                    row.limit
                ));
            }
            if row.repeat >= plan.repeats.get() {
                return Err(format!(
                    "{sp}: repeat {}, but this run has {}",
                    row.repeat,
                    c960_core::plural(plan.repeats.get(), "repeat", "repeats")
                ));
            }
            let budget = plan.budget(limit, row.sp, row.repeat);
            if row.node_budget != budget {
                return Err(format!(
                    "{sp} repeat {}: node budget {:?}, but this run's is {budget:?}",
                    row.repeat, row.node_budget
                ));
            }
            check_row(row, variant)
        }
        Entry::Failed(failed) => Setup::new(variant, failed.sp)
            .map(|_| ())
            .map_err(|e| e.to_string()),
    }
}

/// The unit an entry is about: evaluated rows are unique per (SP,
/// repeat); failures may repeat.
pub(crate) fn entry_key(entry: &Entry) -> Option<String> {
    match entry {
        Entry::Done(row) if row.repeat == 0 => Some(format!("SP {}", row.sp)),
        Entry::Done(row) => Some(format!("SP {} repeat {}", row.sp, row.repeat)),
        Entry::Failed(_) => None,
    }
}
