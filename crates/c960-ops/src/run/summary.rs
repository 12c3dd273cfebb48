//! The closing summary of a run.

use std::{collections::BTreeMap, fmt::Write as _, path::Path, time::Duration};

use anyhow::Result;
use c960_core::StartPosition;
use c960_selfplay::PositionSummary;
use c960_sweep::SweepRow;

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

/// A position as the summary ranks it: its balance in centipawns, with
/// the interval where the balance is the raters' consensus.
struct Ranked {
    sp: u16,
    cp: f64,
    interval: Option<(f64, f64)>,
}

/// The positions by |balance|, most balanced first: with several raters
/// by their consensus (balance.csv's estimate and interval), with one by
/// the mean over a position's searches (one search without repeats).
fn ranked(rows: &[SweepRow], consensus: Option<&c960_report::balance::Balance>) -> Vec<Ranked> {
    let mut scored: Vec<Ranked> = match consensus {
        Some(b) => b
            .sweep_rows
            .iter()
            .map(|(sp, r)| Ranked {
                sp: *sp,
                cp: r.shrunk,
                interval: Some((r.shrunk_low, r.shrunk_high)),
            })
            .collect(),
        None => c960_sweep::repeats::summarize(rows)
            .iter()
            .filter_map(|m| {
                Some(Ranked {
                    sp: u16::try_from(m.sp).ok()?,
                    cp: m.cp?.mean,
                    interval: None,
                })
            })
            .collect(),
    };
    scored.sort_by(|a, b| a.cp.abs().total_cmp(&b.cp.abs()).then(a.sp.cmp(&b.sp)));
    scored
}

/// The summary's first lines: the run, where its files are, and the time
/// per stage.
fn header(
    text: &mut String,
    plan: &Plan,
    engine: &str,
    (times, before): (&[StageTime], Option<f64>),
    report: &Path,
) -> std::fmt::Result {
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
    Ok(())
}

/// The closing summary: where the report is, time per stage, the most
/// and least balanced positions by |engine score|, or with several raters
/// by |consensus estimate| with its interval, each method's reliability,
/// and last how far the ranking agrees with the published v4 consensus.
pub(super) fn summary(
    plan: &Plan,
    engine: &str,
    rows: &[SweepRow],
    played: &[PositionSummary],
    (times, before): (&[StageTime], Option<f64>),
    report: &Path,
    verdicts: Option<&c960_report::balance::Balance>,
) -> Result<String> {
    let mut text = String::new();
    header(&mut text, plan, engine, (times, before), report)?;
    let consensus = verdicts.filter(|b| b.engines.len() > 1 && !b.sweep_rows.is_empty());
    let scored = ranked(rows, consensus);
    let line = |text: &mut String, &Ranked { sp, cp, interval }: &Ranked| {
        let games = played.iter().find(|p| p.sp == u32::from(sp));
        let selfplay = match games.and_then(|p| p.white_score.as_ref().map(|s| (p.games, s))) {
            Some((n, s)) => format!(
                "   self-play {:.0}% [{:.0}, {:.0}] over {}",
                s.mean * 100.0,
                s.low * 100.0,
                s.high * 100.0,
                c960_core::plural(n, "game", "games")
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
                let counts: Vec<String> =
                    m.verdicts.iter().map(|(v, n)| format!("{v} {n}")).collect();
                writeln!(
                    text,
                    "reliability of the {name} ranking: {}; verdicts: {}",
                    reliability(m.reliability.map(|r| r.whole), &m.words),
                    counts.join(", ")
                )?;
            }
        }
    }
    writeln!(text, "{}", agreement_with_v4(&scored))?;
    Ok(text)
}

/// A ranking's reliability in words. Split-half reliability is a
/// correlation stepped up by Spearman-Brown, so noise can make it
/// negative; at or below zero the ranking has no signal, which is what it
/// says rather than the number.
fn reliability(whole: Option<f64>, words: &str) -> String {
    match whole {
        None => format!("not measurable ({words})"),
        Some(r) if r <= 0.0 => {
            "no signal (the ranking does not repeat between halves of the data)".to_owned()
        }
        Some(r) => format!("{r:.2} ({words})"),
    }
}

/// How far the run's ranking (the values it ranks by) agrees with the
/// published v4 consensus over the positions the run covered: Pearson's r
/// with its 95% bootstrap interval.
fn agreement_with_v4(scored: &[Ranked]) -> String {
    let ours: BTreeMap<u32, f64> = scored.iter().map(|r| (u32::from(r.sp), r.cp)).collect();
    match c960_balance::agreement::compare_by_sp(
        &ours,
        super::v4::consensus(),
        c960_balance::agreement::Bootstrap::default(),
    ) {
        Ok(c) => format!(
            "agreement with {}: r = {:.2} [{:.2}, {:.2}] over {} (Pearson, {:.0}% bootstrap \
             interval)",
            super::v4::NAME,
            c.pearson.value,
            c.pearson.low,
            c.pearson.high,
            c960_core::plural(c.positions, "position", "positions"),
            c.level * 100.0
        ),
        Err(why) => format!(
            "agreement with {}: not measured ({})",
            super::v4::NAME,
            why.describe("the run", "v4")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::{Ranked, StageTime, agreement_with_v4, duration, reliability, resumed_note};

    fn by_v4(value: impl Fn(f64) -> f64, sps: std::ops::Range<u32>) -> Vec<Ranked> {
        let v4 = super::super::v4::consensus();
        sps.map(|sp| Ranked {
            sp: u16::try_from(sp).unwrap(),
            cp: value(v4[&sp]),
            interval: None,
        })
        .collect()
    }

    #[test]
    fn the_agreement_with_v4_is_measured_over_the_positions_the_run_shares() {
        let same = agreement_with_v4(&by_v4(|cp| 2.0 * cp + 5.0, 0..960));
        assert!(
            same.starts_with(
                "agreement with the published dataset v4 (the consensus of 8 raters): r = 1.00 \
                 [1.00, 1.00] over 960 positions (Pearson, 95% bootstrap interval)"
            ),
            "{same}"
        );
        let reversed = agreement_with_v4(&by_v4(|cp| -cp, 100..200));
        assert!(reversed.contains(": r = -1.00 ["), "{reversed}");
        assert!(reversed.contains("] over 100 positions"), "{reversed}");
        let few = agreement_with_v4(&by_v4(|cp| cp, 0..9));
        assert!(
            few.ends_with(
                "not measured (the run and v4 share 9 positions; at least 10 are needed)"
            ),
            "{few}"
        );
        let flat = agreement_with_v4(&by_v4(|_| 3.0, 0..50));
        assert!(
            flat.contains("not measured (the run has no spread"),
            "{flat}"
        );
    }

    #[test]
    fn a_resumed_run_says_what_its_time_covers() {
        assert_eq!(duration(59.94), "59.9s");
        assert_eq!(duration(60.0), "1m00s");
        assert_eq!(duration(3725.0), "62m05s");
        let fresh = StageTime {
            stage: "sweep",
            seconds: 1.0,
            what: String::new(),
            resumed: 0,
        };
        assert_eq!(resumed_note(std::slice::from_ref(&fresh), None), "");
        let journaled = StageTime {
            resumed: 3,
            ..fresh.clone()
        };
        assert_eq!(
            resumed_note(&[fresh.clone(), journaled], None),
            " (this run; earlier runs' work came from the journals)"
        );
        assert_eq!(
            resumed_note(&[fresh], Some(75.0)),
            " (this run; the run took 1m15s before, kept in run.json)"
        );
    }

    #[test]
    fn a_reliability_at_or_below_zero_is_no_signal() {
        // The quick run's games once printed "-2.03".
        for r in [-2.03, -0.1, 0.0] {
            let shown = reliability(Some(r), "words");
            assert!(shown.starts_with("no signal"), "{shown}");
            assert!(!shown.contains('-'), "{shown}");
        }
        assert_eq!(
            reliability(Some(0.42), "mostly noise"),
            "0.42 (mostly noise)"
        );
        assert!(reliability(None, "unknown").starts_with("not measurable"));
    }
}
