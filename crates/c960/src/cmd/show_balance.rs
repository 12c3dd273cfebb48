//! `c960 show --balance FILE`: a position's published balance from a
//! verdict table, in the same sentences as its page and writer's sheet:
//! the estimate with its interval and verdict, and its draw chance and
//! White's expected score with theirs and its character.

use std::path::Path;

use anyhow::Result;
use c960_core::{Lang, StartPosition};
use c960_report::{
    sheet::measured_facts,
    view::{ConsensusView, DifficultyView, IntervalView, Measured, OutcomeView, VerdictView},
};
use c960_verdict::{BalanceRow, BalanceTable, Character, balance::Method};
use serde_json::{Value, json};

use crate::cli::InputError;

/// One position's row of a verdict table, with the table's name.
pub(super) struct Published {
    file: String,
    sha256: String,
    reference: String,
    row: BalanceRow,
    character: Option<Character>,
}

impl Published {
    /// Reads the table at `path` (a `balance.csv` or its directory) and
    /// finds `position` in it; a table that cannot be read or has no row
    /// for it is bad input.
    pub(super) fn read(path: &Path, position: StartPosition) -> Result<Published> {
        let table = BalanceTable::read(path).map_err(|e| InputError(format!("--balance {e}")))?;
        let sp = position.sp();
        let row = table
            .rows
            .iter()
            .find(|r| r.sp == position)
            .cloned()
            .ok_or_else(|| {
                InputError(format!(
                    "--balance {}: it has no row for SP {sp}",
                    table.file
                ))
            })?;
        let character = Character::of(&table.rows, sp);
        // The reference rater is the first engine of the balance.json
        // beside the table, when there is one.
        let json = if path.is_dir() {
            path.join(c960_verdict::balance::BALANCE_JSON)
        } else {
            path.with_file_name(c960_verdict::balance::BALANCE_JSON)
        };
        let reference = std::fs::metadata(&json)
            .ok()
            .filter(std::fs::Metadata::is_file)
            .and_then(|_| std::fs::read(&json).ok())
            .and_then(|b| serde_json::from_slice::<Value>(&b).ok())
            .and_then(|v| v["engines"][0]["name"].as_str().map(str::to_owned))
            .unwrap_or_else(|| format!("the first rater of {}", table.file));
        Ok(Published {
            file: table.file,
            sha256: table.sha256,
            reference,
            row,
            character,
        })
    }

    /// The row as the sheet's view models.
    pub(super) fn measured(&self) -> Measured {
        let r = &self.row;
        let interval = |i: Option<c960_verdict::Interval>| {
            i.map_or(IntervalView::SingleSearch, |i| IntervalView::Named {
                name: "95% interval".to_owned(),
                low: i.low,
                high: i.high,
            })
        };
        let consensus = (r.method != Some(Method::Games))
            .then_some(())
            .and(r.estimate)
            .map(|cp| ConsensusView {
                raters: r.raters.map_or(1, |n| n as usize),
                reference: self.reference.clone(),
                cp,
                interval: interval(r.interval),
            });
        let verdict = r.q_value.map(|q| VerdictView {
            verdict: r.verdict.name().to_owned(),
            q_value: q,
            level: c960_verdict::balance::Settings::default().level,
        });
        let outcome = self.character.and_then(|c| OutcomeView::of(r, c));
        Measured {
            consensus,
            engine: None,
            games: None,
            verdict,
            outcome,
            difficulty: r.difficulty.map(|moves| DifficultyView {
                source: format!("the difficulty measures of {}", self.file),
                moves,
            }),
        }
    }

    /// The text section: the table named, then the sentences.
    pub(super) fn text(&self, measured: &Measured, lang: Lang) -> String {
        let short: String = self.sha256.chars().take(16).collect();
        let mut s = format!("\nBalance ({}, SHA-256 {short}):\n", self.file);
        for sentence in measured_facts(measured, lang) {
            s.push_str("  ");
            s.push_str(&sentence);
            s.push('\n');
        }
        if self.row.outcome.is_none() {
            s.push_str("  The table has no draw chance: its raters report no WDL, or it was written before c960 published draw chances.\n");
        }
        s
    }

    /// The JSON object.
    pub(super) fn json(&self) -> Value {
        let r = &self.row;
        let o = r.outcome;
        json!({
            "file": self.file,
            "sha256": self.sha256,
            "verdict": r.verdict.name(),
            "q_value": r.q_value,
            "method": r.method.map(Method::name),
            "estimate": r.estimate,
            "low": r.interval.map(|i| i.low),
            "high": r.interval.map(|i| i.high),
            "raters": r.raters,
            "draw_chance": o.map(|o| o.draw),
            "draw_chance_low": o.map(|o| o.draw_interval.low),
            "draw_chance_high": o.map(|o| o.draw_interval.high),
            "white_expected_score": o.map(|o| o.expected),
            "white_expected_score_low": o.map(|o| o.expected_interval.low),
            "white_expected_score_high": o.map(|o| o.expected_interval.high),
            "wdl_raters": o.map(|o| o.raters),
            "character": self.character.map(Character::name),
            "difficulty": r.difficulty,
        })
    }
}
