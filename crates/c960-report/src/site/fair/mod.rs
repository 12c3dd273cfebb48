//! `fair.html`: the positions ranked by how close they are to a
//! reference of balance that the organizer chooses — equal chances, the
//! typical position, or the classical setup — with the filters of
//! `c960 draw`. With published estimates (`c960 balance`) each position
//! shows its estimate's interval, the interval of its rank and its verdict
//! against the same reference the ranking uses ([`judge`]).

mod balances;
mod judge;

use std::fmt::Write as _;

use askama::Template;
use polars::prelude::*;

use super::{cell, provenance, q_value_text};
use crate::{RunKind, Source};
use balances::{Balances, Reference, Scale};
use judge::{Judged, Rules, judge};

/// The page: the positions ranked against the default reference, with
/// each reference's ranks, rank intervals and verdicts in the rows for the
/// page's choice, each position's numbers and features: the page's body
/// (`templates/site/fair.html`), with `lead` (HTML) after its heading.
pub(super) fn fair(
    frame: &DataFrame,
    sources: &[Source],
    verdicts: Option<&crate::balance::Balance>,
    lead: &str,
) -> String {
    let sweep = sources.iter().find(|s| s.kind == RunKind::Sweep);
    let selfplay = sources.iter().find(|s| s.kind.has_games());
    let table = (sweep.is_some() || selfplay.is_some())
        .then(|| ranking(frame, (sweep, selfplay), verdicts));
    FairPage {
        lead,
        provenance: provenance(sources),
        table,
    }
    .to_string()
}

/// The page's body (`templates/site/fair.html`): without a run to rank
/// by, `table` is `None` and the page says what it needs.
#[derive(Template)]
#[template(path = "site/fair.html")]
struct FairPage<'a> {
    lead: &'a str,
    provenance: String,
    table: Option<Ranking<'a>>,
}

/// The ranking: what it ranks by, the references to choose from, the
/// columns shown and the rows.
struct Ranking<'a> {
    by_estimate: bool,
    games_estimate: bool,
    verdict_columns: bool,
    /// The sweep's label, when a sweep ranks or shows its score.
    sweep: Option<&'a str>,
    default_words: &'static str,
    default_note: String,
    options: Vec<Choice>,
    /// The self-play run's label and the mean score of all positions
    /// (percent, one decimal).
    selfplay_mean: Option<(&'a str, String)>,
    /// The self-play run's interval name, when it has games.
    games_interval: Option<&'static str>,
    rows: Vec<FairRow>,
}

/// A reference in the page's choice.
struct Choice {
    key: &'static str,
    words: &'static str,
    note: String,
    default: bool,
    available: bool,
}

/// One position's row; cells from the table are HTML already.
struct FairRow {
    weak: String,
    attack: String,
    castle: bool,
    sp: String,
    data: String,
    rank: usize,
    interval: Option<String>,
    placement: String,
    estimate: String,
    estimate_interval: String,
    shown: String,
    verdict: String,
    q: String,
    games: Option<(String, String, String)>,
}

/// The ranking of the positions by the runs' numbers.
fn ranking<'a>(
    frame: &DataFrame,
    (sweep, selfplay): (Option<&'a Source>, Option<&'a Source>),
    verdicts: Option<&crate::balance::Balance>,
) -> Ranking<'a> {
    let balances = Balances::of(frame, sweep, selfplay);
    let rules = verdicts.map(rules_of);
    let judged: Vec<Judged> = Reference::ALL
        .iter()
        .map(|&r| judge(&balances, frame.height(), r, rules.as_ref()))
        .collect();
    let by_estimate = balances.estimate_mean.is_some();
    let verdict_columns = rules.is_some() && by_estimate;
    let default = judged.iter().find(|j| j.reference == Reference::DEFAULT);
    let rows = default
        .map_or(&[][..], |j| j.rows.as_slice())
        .iter()
        .map(|first| {
            let columns = (verdict_columns, selfplay.is_some());
            fair_row(frame, &balances, &judged, first, columns)
        })
        .collect();
    Ranking {
        by_estimate,
        games_estimate: verdicts.is_some_and(|b| b.verdict_method == crate::balance::Method::Games),
        verdict_columns,
        sweep: sweep.map(|s| s.label.as_str()),
        default_words: Reference::DEFAULT.words(),
        default_note: default.map_or_else(String::new, |j| j.note.clone()),
        options: judged
            .iter()
            .map(|j| Choice {
                key: j.reference.key(),
                words: j.reference.words(),
                note: j.note.clone(),
                default: j.reference == Reference::DEFAULT,
                available: !j.rows.is_empty(),
            })
            .collect(),
        selfplay_mean: selfplay
            .zip(balances.mean)
            .map(|(s, m)| (s.label.as_str(), format!("{:.1}", m * 100.0))),
        games_interval: selfplay.map(|s| {
            let column = format!("{}__interval", s.label);
            let kind = (0..frame.height())
                .map(|row| cell(frame, &column, row, false))
                .find(|k| !k.is_empty())
                .unwrap_or_default();
            super::position::interval_name(&kind)
        }),
        rows,
    }
}

/// A position's row against the default reference, with every
/// reference's numbers as data for the page's choice.
fn fair_row(
    frame: &DataFrame,
    balances: &Balances,
    judged: &[Judged],
    first: &judge::Judgement,
    (verdict_columns, has_games): (bool, bool),
) -> FairRow {
    let row = first.ranked.row;
    let castle = cell(frame, "castle_a_first_move", row, false) == "yes"
        || cell(frame, "castle_h_first_move", row, false) == "yes";
    let (estimate, estimate_interval) = estimate_cells(balances, row);
    let (verdict, q) = match (&first.verdict, verdict_columns) {
        (Some((v, q)), true) => (v.clone(), q.map_or_else(String::new, q_value_text)),
        _ => (String::new(), String::new()),
    };
    FairRow {
        weak: cell(frame, "weak_pawns", row, false),
        attack: cell(frame, "first_move_attackable", row, false),
        castle,
        sp: cell(frame, "sp", row, false),
        data: reference_data(judged, row),
        rank: first.ranked.rank,
        interval: first.interval.map(|i| format!("{}–{}", i.low, i.high)),
        placement: cell(frame, "placement", row, false),
        estimate,
        estimate_interval,
        shown: first.ranked.shown.clone(),
        verdict,
        q,
        games: has_games.then(|| games_cells(balances, row)),
    }
}

/// A row's ranks, distances, rank intervals and verdicts for every
/// reference, as data attributes for the page's choice.
fn reference_data(judged: &[Judged], row: usize) -> String {
    let mut data = String::new();
    for j in judged {
        if let Some(r) = j.of(row) {
            let key = j.reference.key();
            let _ = write!(
                data,
                " data-{key}-rank=\"{}\" data-{key}-distance=\"{}\" data-{key}-shown=\"{}\"",
                r.ranked.rank, r.ranked.distance, r.ranked.shown
            );
            if let Some(i) = r.interval {
                let _ = write!(data, " data-{key}-interval=\"{}–{}\"", i.low, i.high);
            }
            if let Some((verdict, q)) = &r.verdict {
                let _ = write!(
                    data,
                    " data-{key}-verdict=\"{verdict}\" data-{key}-q=\"{}\"",
                    q.map_or_else(String::new, q_value_text)
                );
            }
        }
    }
    data
}

/// The verdicts' bands, error rate and the reliability of the method the
/// published estimates come from.
fn rules_of(b: &crate::balance::Balance) -> Rules {
    let method = match b.verdict_method {
        crate::balance::Method::Games => b.games.as_ref(),
        crate::balance::Method::Sweep => b.sweep.as_ref(),
    };
    Rules {
        band_cp: b.settings.band_cp,
        band_score: b.settings.band_score,
        level: b.settings.level,
        reliability: method.and_then(|m| m.reliability).map(|r| r.whole),
    }
}

/// A row's estimate and its interval when the published estimates rank,
/// or the engine score that ranks without one (no interval).
fn estimate_cells(balances: &Balances, row: usize) -> (String, String) {
    if balances.estimate_mean.is_some() {
        let scale = balances
            .estimate_scale
            .get(row)
            .copied()
            .unwrap_or(Scale::Cp);
        let show = |v: f64| match scale {
            Scale::Cp => format!("{v:+.1}"),
            Scale::Score => format!("{:.1}%", v * 100.0),
        };
        let value = balances.estimate[row].map_or_else(String::new, show);
        let interval = balances.interval[row]
            .map_or_else(String::new, |(l, h)| format!("{} to {}", show(l), show(h)));
        (value, interval)
    } else {
        (
            balances.cp[row].map_or(String::new(), |v| format!("{v:+.0}")),
            String::new(),
        )
    }
}

/// A row's self-play numbers: White's score, its interval and its
/// distance from the mean.
fn games_cells(balances: &Balances, row: usize) -> (String, String, String) {
    let percent = |v: Option<f64>| v.map_or(String::new(), |v| format!("{:.1}%", v * 100.0));
    let interval = match (balances.low[row], balances.high[row]) {
        (Some(l), Some(h)) => format!("{}–{}", percent(Some(l)), percent(Some(h))),
        _ => String::new(),
    };
    let distance = match (balances.score[row], balances.mean) {
        (Some(v), Some(m)) => format!("{:+.1}", (v - m) * 100.0),
        _ => String::new(),
    };
    (percent(balances.score[row]), interval, distance)
}
