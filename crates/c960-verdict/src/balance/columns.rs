//! The verdict table's columns and files: `balance.csv` (one row per
//! position: the published balance, each method's figures, the draw chance
//! and expected score, the difficulty measures) and `balance.json`.

use std::{
    io,
    path::{Path, PathBuf},
};

use c960_store::{Claim, Claimed, Frame};
use polars::prelude::*;

use super::{
    BALANCE_CSV, BALANCE_JSON, Balance, GamesRow, OutcomeRow, Settings, SweepRow, compute,
    difficulty, input::io_error,
};
use crate::{BalanceRow, VerdictError, balance::Method};

impl Balance {
    /// The verdict table: one row per position with any data, by SP.
    pub fn frame(&self) -> PolarsResult<DataFrame> {
        use c960_store::columns::balance as column;
        let rows = self.rows();
        let frame = Frame::new(&rows)
            .column(column::SP, |r| u32::from(r.sp.sp()))
            .column(column::PLACEMENT, |r| r.sp.placement())
            .column(column::VERDICT, |r| r.verdict.name())
            .column(column::Q_VALUE, |r| r.q_value)
            .column(column::ESTIMATE, |r| r.estimate)
            .column(column::LOW, |r| r.interval.map(|i| i.low))
            .column(column::HIGH, |r| r.interval.map(|i| i.high))
            .column(column::METHOD, |r| r.method.map(Method::name));
        self.difficulty_columns(self.outcome_columns(self.method_columns(frame)))
            .build()
    }

    /// `frame` with each method's own columns.
    fn method_columns<'r>(&self, frame: Frame<'r, BalanceRow>) -> Frame<'r, BalanceRow> {
        use c960_store::columns::balance as column;
        let games =
            |r: &BalanceRow, f: fn(&GamesRow) -> f64| self.games_rows.get(&r.sp.sp()).map(f);
        // Figures that are not measured (NaN) are left empty.
        let sweep = |r: &BalanceRow, f: fn(&SweepRow) -> f64| {
            self.sweep_rows
                .get(&r.sp.sp())
                .map(f)
                .filter(|v| v.is_finite())
        };
        let games_row = |r: &BalanceRow| self.games_rows.get(&r.sp.sp());
        let sweep_row = |r: &BalanceRow| self.sweep_rows.get(&r.sp.sp());
        frame
            .column(column::GAMES, move |r| games_row(r).map(|g| g.games))
            .column(column::GAMES_SCORE, move |r| games(r, |g| g.score))
            .column(column::GAMES_SCORE_LOW, move |r| games(r, |g| g.low))
            .column(column::GAMES_SCORE_HIGH, move |r| games(r, |g| g.high))
            .column(column::GAMES_VERDICT, move |r| {
                games_row(r).map(|g| g.decision.verdict.name())
            })
            .column(column::GAMES_Q_VALUE, move |r| {
                games(r, |g| g.decision.q_value)
            })
            .column(column::SWEEP_ENGINES, move |r| {
                sweep_row(r).map(|s| s.engines as u32)
            })
            .column(column::SWEEP_CP, move |r| sweep(r, |s| s.estimate))
            .column(column::SWEEP_CP_LOW, move |r| sweep(r, |s| s.low))
            .column(column::SWEEP_CP_HIGH, move |r| sweep(r, |s| s.high))
            .column(column::SWEEP_SHRUNK_CP, move |r| sweep(r, |s| s.shrunk))
            .column(column::SWEEP_VERDICT, move |r| {
                sweep_row(r).map(|s| s.decision.verdict.name())
            })
            .column(column::SWEEP_Q_VALUE, move |r| {
                sweep(r, |s| s.decision.q_value)
            })
    }

    /// `frame` with the difficulty measures, when a difficulty sweep was
    /// given.
    fn difficulty_columns<'r>(&self, frame: Frame<'r, BalanceRow>) -> Frame<'r, BalanceRow> {
        use c960_store::columns::difficulty as column;
        if self.difficulty.is_none() {
            return frame;
        }
        frame
            .column(column::WHITE_GOOD_MOVES, |r| {
                r.difficulty.map(|d| d.white_good_moves)
            })
            .column(column::BLACK_GOOD_MOVES, |r| {
                r.difficulty.map(|d| d.black_good_moves)
            })
            .column(column::GOOD_MOVES_ASYMMETRY, |r| {
                r.difficulty.map(|d| d.good_moves_asymmetry)
            })
            .column(column::WHITE_GAP_CP, |r| {
                r.difficulty.and_then(|d| d.white_gap_cp)
            })
            .column(column::BLACK_GAP_CP, |r| {
                r.difficulty.and_then(|d| d.black_gap_cp)
            })
            .column(column::GAP_ASYMMETRY_CP, |r| {
                r.difficulty.and_then(|d| d.gap_asymmetry_cp)
            })
    }

    /// These verdicts with the difficulty measures of the sweep with
    /// replies at `path` (its directory or table), which join every table
    /// and page they reach.
    pub fn with_difficulty(mut self, path: &Path) -> Result<Balance, VerdictError> {
        self.difficulty = Some(difficulty::read(path)?);
        self.inputs.push(path.display().to_string());
        Ok(self)
    }

    /// `frame` with the draw chance and expected score, when the raters
    /// gave them.
    fn outcome_columns<'r>(&self, frame: Frame<'r, BalanceRow>) -> Frame<'r, BalanceRow> {
        use c960_store::columns::balance as column;
        let Some(outcome) = &self.outcome else {
            return frame;
        };
        let rows = &outcome.rows;
        let at = move |r: &BalanceRow, f: fn(&OutcomeRow) -> f64| rows.get(&r.sp.sp()).map(f);
        frame
            .column(column::WDL_RATERS, move |r| {
                rows.get(&r.sp.sp()).map(|o| o.raters as u32)
            })
            .column(column::DRAW_CHANCE, move |r| at(r, |o| o.draw))
            .column(column::DRAW_CHANCE_LOW, move |r| at(r, |o| o.draw_low))
            .column(column::DRAW_CHANCE_HIGH, move |r| at(r, |o| o.draw_high))
            .column(column::WHITE_EXPECTED, move |r| at(r, |o| o.expected))
            .column(column::WHITE_EXPECTED_LOW, move |r| {
                at(r, |o| o.expected_low)
            })
            .column(column::WHITE_EXPECTED_HIGH, move |r| {
                at(r, |o| o.expected_high)
            })
    }

    /// Claims `balance.csv` and `balance.json` in `dir`, which must exist,
    /// before any work, as every command claims its outputs: neither may
    /// be a directory, a FIFO or a link, nor one of the `inputs` (each a
    /// path with the flag that names it), nor lie inside an input
    /// directory, nor be written by another process at once.
    ///
    /// # Errors
    /// Bad input naming the output and why; a lock another process holds.
    pub fn claim(dir: &Path, inputs: &[(&Path, &str)]) -> Result<Claimed, VerdictError> {
        let mut claim = Claim::new()
            .file(&dir.join(BALANCE_CSV), "--out")
            .file_beside(&dir.join(BALANCE_JSON), "--out", "--out");
        for (path, flag) in inputs {
            claim = claim.input(path, flag);
        }
        Ok(claim.take()?)
    }

    /// What `balance.csv` (the table) and `balance.json` (the text) hold.
    fn contents(&self) -> Result<(DataFrame, String), VerdictError> {
        let json = serde_json::to_string_pretty(self).map_err(io::Error::other)?;
        Ok((self.frame()?, json))
    }

    /// Writes `balance.csv` and `balance.json` into `dir`, claimed by
    /// [`Balance::claim`], as one set: both are in place, or neither
    /// changed.
    pub fn write(&self, claimed: &Claimed, dir: &Path) -> Result<(), VerdictError> {
        let (mut frame, json) = self.contents()?;
        let mut set = claimed.write_set();
        set.write(&dir.join(BALANCE_CSV), |out| {
            c960_store::write_csv(out, &mut frame)
        })?;
        set.write(&dir.join(BALANCE_JSON), |out| {
            io::Write::write_all(out, json.as_bytes())?;
            io::Write::write_all(out, b"\n")
        })?;
        set.commit()?;
        Ok(())
    }

    /// Writes `balance.csv` and `balance.json` into `dir`, a directory
    /// this process alone writes (a report being built beside its
    /// target), each atomically.
    pub fn write_in(&self, dir: &Path) -> Result<(), VerdictError> {
        std::fs::create_dir_all(dir).map_err(|e| io_error(dir, &e))?;
        let (mut frame, json) = self.contents()?;
        c960_store::write_atomically(&dir.join(BALANCE_CSV), |out| {
            c960_store::write_csv(out, &mut frame)
        })?;
        c960_store::write_atomically(&dir.join(BALANCE_JSON), |out| {
            io::Write::write_all(out, json.as_bytes())?;
            io::Write::write_all(out, b"\n")
        })?;
        Ok(())
    }
}

/// `c960 balance`: claims `balance.csv` and `balance.json` in `out` (see
/// [`Balance::claim`]), computes the verdicts from the tables as
/// [`compute`] does, and writes both files as one set. A directory `out`
/// made here is removed again when anything fails, so a refused command
/// leaves nothing behind.
///
/// # Errors
/// As [`Balance::claim`] and [`compute`]; writing the files.
pub fn compute_into(
    games: &[PathBuf],
    sweeps: &[PathBuf],
    settings: Settings,
    out: &std::path::Path,
) -> Result<Balance, VerdictError> {
    let made = match std::fs::symlink_metadata(out) {
        Ok(meta) if !meta.is_dir() => {
            return Err(VerdictError::BadInput {
                path: out.to_owned(),
                reason: "--out names a file; it takes the directory balance.csv and \
                         balance.json are written into"
                    .to_owned(),
            });
        }
        Ok(_) => false,
        Err(_) => true,
    };
    if made {
        std::fs::create_dir_all(out).map_err(|e| io_error(out, &e))?;
    }
    let result = (|| {
        let inputs: Vec<(&std::path::Path, &str)> = games
            .iter()
            .map(|p| (p.as_path(), "--games"))
            .chain(sweeps.iter().map(|p| (p.as_path(), "--sweep")))
            .collect();
        let claimed = Balance::claim(out, &inputs)?;
        let balance = compute(games, sweeps, settings)?;
        balance.write(&claimed, out)?;
        Ok(balance)
    })();
    if made && result.is_err() {
        // Only the directory made above, and only while empty.
        let _ = std::fs::remove_dir(out);
    }
    result
}
