//! The closing summary of a run.

use std::{fmt::Write as _, path::Path, time::Duration};

use anyhow::Result;
use c960_core::StartPosition;
use c960_selfplay::PositionSummary;
use c960_sweep::SweepRow;

use crate::output::Text;

use super::{plan::Plan, stages::StageTime};

pub(super) fn duration(seconds: f64) -> String {
    let d = Duration::from_secs_f64(seconds);
    if d.as_secs() >= 60 {
        format!("{}m{:02}s", d.as_secs() / 60, d.as_secs() % 60)
    } else {
        format!("{seconds:.1}s")
    }
}

/// What the time of a resumed run covers: only what it did; the run's
/// own times are kept in run.json. Empty for a run done in one go.
fn resumed_note(times: &[StageTime], before: Option<f64>) -> String {
    match before {
        Some(seconds) => format!(
            " (this run; the run took {} before, kept in run.json)",
            duration(seconds)
        ),
        None if times.iter().any(|t| t.resumed > 0) => {
            " (this run; earlier runs' work came from the journals)".to_owned()
        }
        None => String::new(),
    }
}

/// The closing summary: where the report is, time per stage, and the most
/// and least balanced positions by |engine score|, or with several raters
/// by |consensus estimate| with its interval.
pub(super) fn summary(
    plan: &Plan,
    engine: &str,
    rows: &[SweepRow],
    played: &[PositionSummary],
    (times, before): (&[StageTime], Option<f64>),
    report: &Path,
    verdicts: Option<&c960_report::balance::Balance>,
) -> Result<Text> {
    let mut text = Text::default();
    let total: f64 = times.iter().map(|t| t.seconds).sum();
    let resumed = resumed_note(times, before);
    writeln!(
        text,
        "c960 run ({}) finished in {}{resumed} with {engine}",
        plan.profile.name(),
        duration(total)
    )?;
    writeln!(
        text,
        "  report      {}",
        report.join("index.html").display()
    )?;
    writeln!(
        text,
        "  table       {} (and positions.csv)",
        report.join("positions.parquet").display()
    )?;
    writeln!(
        text,
        "  provenance  {}",
        plan.out.join("run.json").display()
    )?;
    writeln!(
        text,
        "time per stage{}",
        if resumed.is_empty() {
            ""
        } else {
            " (this run)"
        }
    )?;
    for t in times {
        writeln!(
            text,
            "  {:<10}  {:>8}  {}",
            t.stage,
            duration(t.seconds),
            t.what
        )?;
    }
    // With several raters, by their consensus (balance.csv's estimate
    // and interval); with one, by the mean over a position's searches (one
    // search without repeats).
    let consensus = verdicts.filter(|b| b.engines.len() > 1 && !b.sweep_rows.is_empty());
    let mut scored: Vec<(u16, f64, Option<(f64, f64)>)> = match consensus {
        Some(b) => b
            .sweep_rows
            .iter()
            .map(|(sp, r)| (*sp, r.shrunk, Some((r.shrunk_low, r.shrunk_high))))
            .collect(),
        None => c960_sweep::repeats::summarize(rows)
            .iter()
            .filter_map(|m| Some((u16::try_from(m.sp).ok()?, m.cp?.mean, None)))
            .collect(),
    };
    scored.sort_by(|a, b| a.1.abs().total_cmp(&b.1.abs()).then(a.0.cmp(&b.0)));
    let line = |text: &mut Text, &(sp, cp, interval): &(u16, f64, Option<(f64, f64)>)| {
        let games = played.iter().find(|p| p.sp == u32::from(sp));
        let selfplay = match games.and_then(|p| p.white_score.as_ref().map(|s| (p.games, s))) {
            Some((n, s)) => format!(
                "   self-play {:.0}% [{:.0}, {:.0}] over {}",
                s.mean * 100.0,
                s.low * 100.0,
                s.high * 100.0,
                crate::output::count(n, "game", "games")
            ),
            None => String::new(),
        };
        let score = match interval {
            Some((low, high)) => format!("{cp:+6.1} cp [{low:+.1}, {high:+.1}]"),
            None => format!("{cp:+4.0} cp"),
        };
        let placement = StartPosition::new(sp).map(StartPosition::placement);
        writeln!(
            text,
            "  SP {sp:>3}  {}  {score}{selfplay}",
            placement.unwrap_or_default()
        )
    };
    if !scored.is_empty() {
        match consensus {
            Some(b) => writeln!(
                text,
                "most balanced by the consensus of {} raters (smallest |estimate|; 95% interval)",
                b.engines.len()
            )?,
            None => writeln!(text, "most balanced (smallest |engine score|)")?,
        }
        for row in scored.iter().take(5) {
            line(&mut text, row)?;
        }
        writeln!(text, "least balanced")?;
        for row in scored.iter().rev().take(5) {
            line(&mut text, row)?;
        }
    }
    // How far these rankings can be trusted, and what the verdicts say.
    if let Some(b) = verdicts {
        for (name, method) in [("games", &b.games), ("engine sweep", &b.sweep)] {
            if let Some(m) = method {
                let number = m.reliability.map_or_else(
                    || "not measurable".to_owned(),
                    |r| format!("{:.2}", r.whole),
                );
                let counts: Vec<String> =
                    m.verdicts.iter().map(|(v, n)| format!("{v} {n}")).collect();
                writeln!(
                    text,
                    "reliability of the {name} ranking: {number} ({}); verdicts: {}",
                    m.words,
                    counts.join(", ")
                )?;
            }
        }
    }
    Ok(text)
}
