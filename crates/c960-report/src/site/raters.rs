//! What the pages say about a position's balance: the consensus of the
//! raters (the sweeps' engines and settings) with its interval, on the
//! reference rater's centipawn scale, and below it each rater's own score
//! and whether that score is exact or a bound (UCI `lowerbound` /
//! `upperbound`, the sweep table's `bound` column). With one rater there is
//! no consensus, and the pages say it is one engine's view.

use askama::Template;
use polars::prelude::*;

use super::{cell, count_at, integer_at, number_at};
use crate::{
    RunKind, Source,
    balance::{Balance, SweepRow},
    bounds::Bounds,
    html::escape,
    view::{
        ConsensusView, DifficultyView, EngineView, GamesView, IntervalView, Measured, OutcomeView,
        VerdictView,
    },
};

/// What a sweep's table says about the bound of a position's score.
enum BoundAt<'a> {
    /// The table has no `bound` column.
    NotRecorded,
    /// The table has no row for the position (it failed there).
    NoRow,
    /// `exact`, `lower` or `upper`.
    Is(&'a str),
}

/// The run's bound at `sp`.
fn bound_at<'a>(bounds: &'a [Bounds], label: &str, sp: u16) -> BoundAt<'a> {
    match bounds
        .iter()
        .find(|b| b.label == label)
        .and_then(|b| b.by_sp.as_ref())
    {
        None => BoundAt::NotRecorded,
        Some(by_sp) => by_sp
            .get(&sp)
            .map_or(BoundAt::NoRow, |b| BoundAt::Is(b.as_str())),
    }
}

/// A sweep's scores that are bounds, for the provenance line: `687 of 960
/// scores are bounds (245 lower, 442 upper), not exact`, or that its table
/// does not record it.
pub(super) fn bound_counts(bounds: &[Bounds], label: &str) -> String {
    let Some(b) = bounds.iter().find(|b| b.label == label) else {
        return String::new();
    };
    let Some(by_sp) = &b.by_sp else {
        return "; its table does not record whether a score is exact or a bound".to_owned();
    };
    let n = |kind: &str| by_sp.values().filter(|v| v.as_str() == kind).count();
    let (lower, upper) = (n("lower"), n("upper"));
    format!(
        "; {} of {} scores are bounds ({lower} lower, {upper} upper: the search stopped before the score was exact), the others exact",
        lower + upper,
        by_sp.len()
    )
}

/// The name of the reference rater: the first sweep, whose centipawn
/// scale the consensus is on.
pub(super) fn reference(sources: &[Source]) -> Option<String> {
    sources
        .iter()
        .find(|s| s.kind == RunKind::Sweep)
        .map(Source::rater)
}

/// The consensus of the raters at `sp`, when there are several raters: its
/// row of `c960 balance`, shrunk toward the mean of all positions as the
/// verdicts use it.
pub(super) fn consensus_row(balance: Option<&Balance>, sp: u16) -> Option<&SweepRow> {
    let b = balance?;
    b.moderation.as_ref()?;
    b.sweep_rows
        .get(&sp)
        .filter(|r| r.shrunk_low.is_finite() && r.shrunk_high.is_finite())
}

/// What the consensus's interval is called wherever it is shown.
pub(super) const CONSENSUS_INTERVAL: &str =
    "95% interval of the consensus, shrunk toward the mean of all positions,";

fn consensus_view(sources: &[Source], balance: Option<&Balance>, sp: u16) -> Option<ConsensusView> {
    let r = consensus_row(balance, sp)?;
    Some(ConsensusView {
        raters: r.engines,
        reference: reference(sources)?,
        cp: r.shrunk,
        interval: IntervalView::Named {
            name: CONSENSUS_INTERVAL.to_owned(),
            low: r.shrunk_low,
            high: r.shrunk_high,
        },
    })
}

/// The engine's view of the position in `row` from the first sweep: one
/// search's score, or the mean of the repeats with the interval `c960
/// balance` gives it (one engine: its search noise pooled over all
/// positions), or from the repeats' spread; never an interval of zero
/// width.
fn engine_view(
    frame: &DataFrame,
    s: &Source,
    row: usize,
    verdicts: Option<&Balance>,
) -> Option<EngineView> {
    let number = |name: &str| number_at(frame, &format!("{}__{name}", s.label), row);
    let repeats = s.manifest.searches();
    if repeats <= 1 {
        return Some(EngineView {
            source: format!("{} at {}", s.engines(), s.limit()),
            cp: number("score_cp")?,
            interval: IntervalView::SingleSearch,
        });
    }
    let cp = number("score_cp_mean")?;
    let sp = u16::try_from(row).unwrap_or(u16::MAX);
    let pooled = verdicts
        .and_then(|b| b.sweep_rows.get(&sp))
        .filter(|r| r.engines == 1 && r.low.is_finite() && r.high.is_finite() && r.high > r.low);
    let own = verdicts
        .and_then(|b| b.first_rater.get(&sp))
        .and_then(|m| m.interval);
    let interval = match (pooled, own) {
        (Some(r), _) => IntervalView::Named {
            name: "95% interval of c960 balance, search noise pooled over all positions,"
                .to_owned(),
            low: r.low,
            high: r.high,
        },
        (None, Some(c960_verdict::Interval { low, high })) => IntervalView::Named {
            name: format!("95% interval of the mean of {repeats} searches"),
            low,
            high,
        },
        (None, None) => IntervalView::Identical(repeats),
    };
    Some(EngineView {
        source: format!(
            "{} at {}, mean of {repeats} searches",
            s.engines(),
            s.limit()
        ),
        cp,
        interval,
    })
}

/// What the runs measured about the position in `row`, for its facts
/// paragraph: the consensus of the sweeps (or the first sweep's score,
/// with one rater) and the first game run's results.
pub(super) fn measured(
    frame: &DataFrame,
    sources: &[Source],
    row: usize,
    (verdicts, outcome): (Option<&Balance>, Option<OutcomeView>),
) -> Measured {
    let number = |label: &str, name: &str| number_at(frame, &format!("{label}__{name}"), row);
    let sp = u16::try_from(row).unwrap_or(u16::MAX);
    let consensus = consensus_view(sources, verdicts, sp);
    let engine = sources
        .iter()
        .find(|s| s.kind == RunKind::Sweep)
        .and_then(|s| engine_view(frame, s, row, verdicts));
    let games = sources.iter().find(|s| s.kind.has_games()).and_then(|s| {
        let count = |name: &str| count_at(frame, &format!("{}__{name}", s.label), row);
        Some(GamesView {
            source: if s.kind == RunKind::Import {
                "imported games".to_owned()
            } else {
                "engine self-play".to_owned()
            },
            games: count("games")?,
            white_wins: count("white_wins")?,
            draws: count("draws")?,
            black_wins: count("black_wins")?,
            score: number(&s.label, "white_score")?,
            interval: IntervalView::Named {
                name: crate::view::interval_name(&cell(
                    frame,
                    &format!("{}__interval", s.label),
                    row,
                    false,
                ))
                .to_owned(),
                low: number(&s.label, "white_score_low")?,
                high: number(&s.label, "white_score_high")?,
            },
        })
    });
    let verdict = cell(frame, "verdict", row, false);
    let verdict = (!verdict.is_empty()).then(|| VerdictView {
        verdict,
        q_value: number_at(frame, "q_value", row).unwrap_or(1.0),
        level: c960_verdict::balance::Settings::default().level,
    });
    Measured {
        consensus,
        engine,
        games,
        verdict,
        outcome,
        difficulty: verdicts.and_then(|b| {
            let d = b.difficulty.as_ref()?;
            Some(DifficultyView {
                source: d.source.clone(),
                moves: *d.rows.get(&sp)?,
            })
        }),
    }
}

/// A bound in words, for White: `exact`, `lower bound (at least +89)`.
fn bound_words(bound: &BoundAt<'_>, score: &str) -> String {
    match bound {
        BoundAt::NotRecorded => "not recorded".to_owned(),
        BoundAt::NoRow => String::new(),
        BoundAt::Is("lower") => format!("lower bound (at least {score})"),
        BoundAt::Is("upper") => format!("upper bound (at most {score})"),
        BoundAt::Is(other) => escape(other),
    }
}

/// A centipawn score with its sign from the sweep `label`'s typed cell
/// `column` (`score_cp` gives the mate instead when there is one), or ""
/// for an empty cell.
fn score_text(frame: &DataFrame, label: &str, row: usize, column: &str) -> String {
    let at = |name: &str| format!("{label}__{name}");
    if column == "score_cp"
        && let Some(mate) = integer_at(frame, &at("score_mate"), row)
    {
        return format!("mate {mate}");
    }
    number_at(frame, &at(column), row).map_or_else(String::new, |v| format!("{v:+.0}"))
}

/// The page's balance section (`templates/site/balance.html`): the
/// consensus restated with what it is, then each rater's own view in a
/// small table (engine, budget, score, exact or bound); with one rater,
/// that it is one engine's view.
pub(super) fn section(
    frame: &DataFrame,
    sources: &[Source],
    bounds: &[Bounds],
    verdicts: Option<&Balance>,
    row: usize,
) -> String {
    let sweeps: Vec<&Source> = sources
        .iter()
        .filter(|s| s.kind == RunKind::Sweep)
        .collect();
    if sweeps.is_empty() {
        return String::new();
    }
    let sp = u16::try_from(row).unwrap_or(u16::MAX);
    let raters = sweeps
        .iter()
        .map(|s| {
            let c = |column: &str| score_text(frame, &s.label, row, column);
            let searches = s.manifest.searches();
            let (score, first) = if searches > 1 {
                (
                    format!("{} (mean of {searches} searches)", c("score_cp_mean")),
                    "first search: ",
                )
            } else {
                (c("score_cp"), "")
            };
            let bound = bound_words(&bound_at(bounds, &s.label, sp), &c("score_cp"));
            RaterRow {
                engine: s.engines(),
                budget: s.budget(),
                score,
                bound: if bound.is_empty() {
                    bound
                } else {
                    format!("{first}{bound}")
                },
            }
        })
        .collect();
    let cp = |v: f64| format!("{v:+.0}");
    BalanceSection {
        consensus: consensus_row(verdicts, sp).map(|r| ConsensusText {
            shrunk: cp(r.shrunk),
            shrunk_low: cp(r.shrunk_low),
            shrunk_high: cp(r.shrunk_high),
            engines: r.engines,
            estimate: cp(r.estimate),
            low: cp(r.low),
            high: cp(r.high),
        }),
        reference: reference(sources).unwrap_or_default(),
        single: sweeps.len() == 1 && sweeps[0].manifest.searches() <= 1,
        raters,
    }
    .to_string()
}

/// A position's balance section (`templates/site/balance.html`).
#[derive(Template)]
#[template(path = "site/balance.html")]
struct BalanceSection {
    consensus: Option<ConsensusText>,
    /// The reference rater.
    reference: String,
    /// Whether the one rater searched each position once.
    single: bool,
    raters: Vec<RaterRow>,
}

/// The consensus as the page shows it (centipawns, signed).
struct ConsensusText {
    shrunk: String,
    shrunk_low: String,
    shrunk_high: String,
    engines: usize,
    estimate: String,
    low: String,
    high: String,
}

/// A rater's row: its engine, budget, score and whether it is a bound
/// (the last two HTML).
struct RaterRow {
    engine: String,
    budget: String,
    score: String,
    bound: String,
}
