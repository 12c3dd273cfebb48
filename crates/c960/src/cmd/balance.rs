//! `c960 balance`: verdicts per position with error control, and the
//! reliability of each method, from game and sweep tables.

use std::fmt::Write as _;

use anyhow::Result;
use c960_report::balance::{BALANCE_CSV, BALANCE_JSON, MethodSummary, Settings, compute_into};

use crate::{
    cli::{BalanceArgs, InputError},
    output::Text,
    output::say,
};

/// Refuses a `c960 balance` without tables, with a level or band out of
/// range, or with a table that does not exist.
fn check_args(args: &BalanceArgs) -> Result<()> {
    if args.games.is_empty() && args.sweep.is_empty() {
        return Err(InputError("give at least one --games or --sweep table".to_owned()).into());
    }
    if !(args.fdr > 0.0 && args.fdr < 1.0) {
        return Err(InputError(format!("--fdr {} must be between 0 and 1", args.fdr)).into());
    }
    if !(args.band >= 0.0 && args.band < 0.5) {
        return Err(InputError(format!("--band {} must be in [0, 0.5)", args.band)).into());
    }
    if !(args.band_cp >= 0.0 && args.band_cp.is_finite()) {
        return Err(InputError(format!("--band-cp {} must be 0 or more", args.band_cp)).into());
    }
    for path in args.games.iter().chain(&args.sweep) {
        if !path.exists() {
            return Err(InputError(format!("{} does not exist", path.display())).into());
        }
    }
    Ok(())
}

/// The summary lines of one method (`name`, scores in `unit`).
fn describe(
    text: &mut Text,
    (name, unit): (&str, &str),
    m: &MethodSummary,
    fdr: f64,
) -> std::fmt::Result {
    let reliability = m.reliability.map_or_else(
        || "not measurable".to_owned(),
        |r| {
            format!(
                "{:.2} (split-half {:.2} over {} positions)",
                r.whole, r.half, r.positions
            )
        },
    );
    writeln!(
        text,
        "{name}: mean {:.3}{unit}, band ±{}{unit}; reliability {reliability}: {}",
        m.mean, m.band, m.words
    )?;
    let counts: Vec<String> = m.verdicts.iter().map(|(v, n)| format!("{v} {n}")).collect();
    writeln!(text, "  verdicts at FDR {}: {}", fdr, counts.join(", "))
}

pub(crate) fn run(args: &BalanceArgs) -> Result<()> {
    check_args(args)?;
    let settings = Settings {
        band_score: args.band,
        band_cp: args.band_cp,
        level: args.fdr,
        seed: args.seed,
        fixed_n: args.fixed_n,
        verdicts_from: args.verdicts_from,
        weights: args.weights,
    };
    // The outputs are claimed before any table is read, and written as a
    // set; a refused command leaves no directory behind.
    let balance = compute_into(&args.games, &args.sweep, settings, &args.out)?;
    for merged in &balance.merged {
        say!("c960: warning: {merged}");
    }
    let mut text = Text::default();
    if let Some(m) = &balance.games {
        describe(&mut text, ("games", ""), m, args.fdr)?;
    }
    if let Some(m) = &balance.sweep {
        describe(&mut text, ("sweep consensus", " cp"), m, args.fdr)?;
    }
    engines(&mut text, &balance.engines)?;
    agreements(&mut text, &balance.agreement)?;
    if balance.games.is_some() && balance.sweep.is_some() {
        writeln!(
            text,
            "verdicts from the {}",
            match balance.verdict_method {
                c960_report::balance::Method::Games => "games",
                c960_report::balance::Method::Sweep => "sweep consensus",
            }
        )?;
    }
    outcome(&mut text, &balance)?;
    writeln!(
        text,
        "wrote {} and {}",
        args.out.join(BALANCE_CSV).display(),
        args.out.join(BALANCE_JSON).display()
    )?;
    text.print()?;
    Ok(())
}

/// The draw chance and expected score: from how many raters, who was left
/// out, and how the raters agree; or why there are none.
fn outcome(text: &mut Text, balance: &c960_report::balance::Balance) -> std::fmt::Result {
    if let Some(o) = &balance.outcome {
        let reliability = o.draw.split_half.map_or_else(
            || "not measured".to_owned(),
            |r| match (o.draw.split_half_low, o.draw.split_half_high) {
                (Some(low), Some(high)) => format!("{:.2} [{low:.2}, {high:.2}]", r.whole),
                _ => format!("{:.2}", r.whole),
            },
        );
        writeln!(
            text,
            "draw chance and White's expected score per position (engines' WDL models) from {}, \
             reliability of the draw chance {reliability}{}",
            c960_core::plural(o.raters.len(), "rater", "raters"),
            if o.left_out.is_empty() {
                String::new()
            } else {
                format!("; without a WDL model, left out: {}", o.left_out.join(", "))
            }
        )?;
    } else if let Some(why) = &balance.no_outcome {
        writeln!(text, "no draw chance: {why}")?;
    }
    Ok(())
}

/// Each pair of raters' agreement: correlations and the overlap of their
/// top and bottom deciles.
fn agreements(
    text: &mut Text,
    agreements: &[c960_balance::consensus::Agreement],
) -> std::fmt::Result {
    for a in agreements {
        // A decile needs 10 positions in common; with fewer its overlap is
        // undefined, and said so.
        let deciles = if a.top_decile.is_finite() && a.bottom_decile.is_finite() {
            format!(
                "top decile {:.0}%, bottom decile {:.0}%",
                a.top_decile * 100.0,
                a.bottom_decile * 100.0
            )
        } else {
            format!(
                "no decile overlap ({} in common, a decile needs 10)",
                c960_core::plural(a.positions, "position", "positions")
            )
        };
        writeln!(
            text,
            "  {} vs {}: r = {}, Spearman {}, {deciles}",
            a.a,
            a.b,
            a.pearson
                .map_or_else(|| "-".to_owned(), |r| format!("{r:.2}")),
            a.spearman
                .map_or_else(|| "-".to_owned(), |r| format!("{r:.2}")),
        )?;
    }
    Ok(())
}

/// Each engine's searches per position and how well they repeat.
fn engines(text: &mut Text, engines: &[c960_report::balance::EngineSummary]) -> std::fmt::Result {
    for engine in engines {
        writeln!(text, "  {}", engine_line(engine))?;
    }
    Ok(())
}

/// One engine's searches per position and their repeatability, in words
/// that never contradict each other: one search per position cannot be
/// repeated; with repeats, a repeatability that could not be measured is
/// said so.
fn engine_line(engine: &c960_report::balance::EngineSummary) -> String {
    match (engine.repeats, engine.repeatability) {
        (_, Some(r)) => format!(
            "{} ({}): repeatability {:.2}",
            engine.name,
            plural(engine.repeats, "1 search", "repeats"),
            r.whole
        ),
        (0 | 1, None) => format!(
            "{} (one search per position): repeatability not measured",
            engine.name
        ),
        (n, None) => format!(
            "{} (up to {n} searches per position): repeatability not measured (too few \
             positions searched more than once)",
            engine.name
        ),
    }
}

/// `one` for a count of 1, else the count and `many`.
fn plural(n: usize, one: &str, many: &str) -> String {
    match n {
        1 => one.to_owned(),
        n => format!("{n} {many}"),
    }
}

#[cfg(test)]
mod tests {
    use c960_report::balance::EngineSummary;

    use super::engine_line;

    #[test]
    fn an_engine_line_never_says_one_search_beside_repeats() {
        let engine = |repeats| EngineSummary {
            name: "E".to_owned(),
            repeats,
            repeatability: None,
        };
        let one = engine_line(&engine(1));
        assert_eq!(
            one,
            "E (one search per position): repeatability not measured"
        );
        let two = engine_line(&engine(2));
        assert!(!two.contains("one search"), "{two}");
        assert!(two.contains("up to 2 searches per position"), "{two}");
    }
}
