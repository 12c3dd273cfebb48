//! `fair.html`: the positions ranked by how close they are to a
//! reference of balance that the organizer chooses — equal chances (the
//! default, as `c960 draw --fairest` and `c960 book balanced`), the
//! typical position, or the classical setup — with the filters of `c960
//! draw`. The ranking, the rank intervals and the verdicts against the
//! chosen reference are `c960_verdict::fair`'s; this module renders them.

use std::fmt::Write as _;

use askama::Template;
use c960_balance::verdict::Verdict;
use c960_verdict::{
    Reference,
    balance::{Balance, Method},
    fair::{Against, Judged, Judgement, Measure, Rules, Tally, Top, Trust, judge},
    reference::Scale,
};
use polars::prelude::*;

use super::{cell, flag_at, provenance};
use crate::{RunKind, Source, view::q_value_text};

/// The page: the positions ranked against the default reference, with
/// each reference's ranks, rank intervals and verdicts in the rows for the
/// page's choice, each position's numbers and features: the page's body
/// (`templates/site/fair.html`), with `lead` (HTML) after its heading.
pub(super) fn fair(
    frame: &DataFrame,
    sources: &[Source],
    verdicts: Option<&Balance>,
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
    /// The name of the published estimate's column in `balance.csv`.
    estimate_column: &'static str,
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
    /// Which extras the rows show.
    extras: super::outcome::Extras,
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
    /// Draw chance, its interval, character and place from the most
    /// drawish.
    outcome: Option<(String, String, &'static str, usize)>,
    /// White's good moves, Black's, and the asymmetry.
    difficulty: Option<[String; 3]>,
}

/// What the page ranks by: the published estimates with their intervals,
/// else the first sweep's engine score, else the first game run's score.
struct Ranked {
    measures: Vec<Measure>,
    /// Whether the published estimates rank.
    published: bool,
}

/// The measures `fair.html` ranks.
fn measures(
    frame: &DataFrame,
    (sweep, selfplay): (Option<&Source>, Option<&Source>),
    verdicts: Option<&Balance>,
) -> Ranked {
    if let Some(b) = verdicts {
        let rows = b.rows();
        if rows.iter().any(|r| r.interval.is_some()) {
            return Ranked {
                measures: rows
                    .iter()
                    .filter_map(|r| {
                        Some(Measure {
                            sp: r.sp.sp(),
                            value: r.estimate?,
                            scale: r.scale(),
                            interval: r.interval,
                            error: b.error_of(r),
                        })
                    })
                    .collect(),
                published: true,
            };
        }
    }
    let (source, column, scale) = match (sweep, selfplay) {
        (Some(s), _) if s.manifest.searches() > 1 => (s, "score_cp_mean", Scale::Cp),
        (Some(s), _) => (s, "score_cp", Scale::Cp),
        (None, Some(g)) => (g, "white_score", Scale::Score),
        (None, None) => {
            return Ranked {
                measures: Vec::new(),
                published: false,
            };
        }
    };
    let values = float_column(frame, &format!("{}__{column}", source.label));
    Ranked {
        measures: values
            .iter()
            .enumerate()
            .filter_map(|(sp, v)| {
                Some(Measure {
                    sp: u16::try_from(sp).ok()?,
                    value: (*v)?,
                    scale,
                    interval: None,
                    error: None,
                })
            })
            .collect(),
        published: false,
    }
}

/// The ranking of the positions by the runs' numbers.
fn ranking<'a>(
    frame: &DataFrame,
    (sweep, selfplay): (Option<&'a Source>, Option<&'a Source>),
    verdicts: Option<&Balance>,
) -> Ranking<'a> {
    let ranked = measures(frame, (sweep, selfplay), verdicts);
    let rules = verdicts.map(rules_of);
    let judged: Vec<Judged> = Reference::ALL
        .iter()
        .map(|&r| judge(&ranked.measures, r, rules.as_ref(), ranked.published))
        .collect();
    let by_estimate = ranked.published;
    let verdict_columns = rules.is_some() && by_estimate;
    let default = judged.iter().find(|j| j.reference == Reference::DEFAULT);
    let games = selfplay.map(|s| GameScores::of(frame, s));
    let outcome = super::outcome::cells(verdicts);
    let difficulty = super::outcome::difficulty_cells(verdicts);
    let rows = default
        .map_or(&[][..], |j| j.rows.as_slice())
        .iter()
        .map(|first| {
            let shown = Shown {
                measures: &ranked.measures,
                by_estimate,
                verdict_columns,
                games: games.as_ref(),
            };
            let mut row = fair_row(frame, &judged, first, &shown);
            row.outcome = outcome.get(&first.ranked.sp).map(|o| {
                (
                    o.draw.clone(),
                    o.interval.clone(),
                    o.character,
                    o.drawish_rank,
                )
            });
            row.difficulty = difficulty.get(&first.ranked.sp).cloned();
            row
        })
        .collect();
    Ranking {
        by_estimate,
        games_estimate: verdicts.is_some_and(|b| b.verdict_method == Method::Games),
        verdict_columns,
        estimate_column: c960_store::columns::balance::ESTIMATE,
        sweep: sweep.map(|s| s.label.as_str()),
        default_words: Reference::DEFAULT.words(),
        default_note: default.map_or_else(String::new, note),
        options: judged
            .iter()
            .map(|j| Choice {
                key: j.reference.name(),
                words: j.reference.words(),
                note: note(j),
                default: j.reference == Reference::DEFAULT,
                available: !j.rows.is_empty(),
            })
            .collect(),
        selfplay_mean: selfplay
            .zip(games.as_ref().and_then(|g| g.mean))
            .map(|(s, m)| (s.label.as_str(), format!("{:.1}", m * 100.0))),
        games_interval: selfplay.map(|s| {
            let column = format!("{}__interval", s.label);
            let kind = (0..frame.height())
                .map(|row| cell(frame, &column, row, false))
                .find(|k| !k.is_empty())
                .unwrap_or_default();
            crate::view::interval_name(&kind)
        }),
        extras: super::outcome::Extras {
            outcome: !outcome.is_empty(),
            difficulty: !difficulty.is_empty(),
        },
        rows,
    }
}

/// What a row shows besides the ranking.
struct Shown<'a> {
    measures: &'a [Measure],
    by_estimate: bool,
    verdict_columns: bool,
    games: Option<&'a GameScores>,
}

/// The first game run's White scores with their intervals, by SP, and
/// their mean over the positions.
struct GameScores {
    score: Vec<Option<f64>>,
    low: Vec<Option<f64>>,
    high: Vec<Option<f64>>,
    mean: Option<f64>,
}

impl GameScores {
    fn of(frame: &DataFrame, s: &Source) -> GameScores {
        let column = |name: &str| float_column(frame, &format!("{}__{name}", s.label));
        let score = column("white_score");
        let known: Vec<(u16, f64)> = score
            .iter()
            .enumerate()
            .filter_map(|(sp, v)| Some((u16::try_from(sp).ok()?, (*v)?)))
            .collect();
        GameScores {
            mean: Reference::Typical.value(Scale::Score, &known),
            low: column("white_score_low"),
            high: column("white_score_high"),
            score,
        }
    }
}

/// A position's row against the default reference, with every
/// reference's numbers as data for the page's choice.
fn fair_row(frame: &DataFrame, judged: &[Judged], first: &Judgement, shown: &Shown<'_>) -> FairRow {
    let sp = first.ranked.sp;
    let row = usize::from(sp);
    let castle = flag_at(frame, "castle_a_first_move", row) == Some(true)
        || flag_at(frame, "castle_h_first_move", row) == Some(true);
    let measure = shown.measures.iter().find(|m| m.sp == sp);
    let (estimate, estimate_interval) = estimate_cells(measure, shown.by_estimate);
    let default = judged.iter().find(|j| j.reference == Reference::DEFAULT);
    let (verdict, q) = match (first.against, shown.verdict_columns) {
        (Some(against), true) => against_cells(against, default.and_then(|j| j.tally.as_ref())),
        _ => (String::new(), String::new()),
    };
    FairRow {
        weak: cell(frame, "weak_pawns", row, false),
        attack: cell(frame, "first_move_attackable", row, false),
        castle,
        sp: sp.to_string(),
        data: reference_data(judged, sp),
        rank: first.ranked.rank,
        interval: first.interval.map(|i| format!("{}–{}", i.low, i.high)),
        placement: cell(frame, "placement", row, false),
        estimate,
        estimate_interval,
        shown: distance_text(first.ranked.distance, first.ranked.scale),
        verdict,
        q,
        games: shown.games.map(|g| games_cells(g, row)),
        outcome: None,
        difficulty: None,
    }
}

/// A distance as the page shows it.
fn distance_text(distance: f64, scale: Scale) -> String {
    match scale {
        Scale::Cp => format!("{:.1} cp", scale.in_units(distance)),
        Scale::Score => format!("{:.1} pts", scale.in_units(distance)),
    }
}

/// The band as the page says it.
fn band_words(band: f64, scale: Scale) -> String {
    match scale {
        Scale::Cp => format!("±{band} cp"),
        Scale::Score => format!("±{:.1}%", band * 100.0),
    }
}

/// A verdict against the reference (whose verdicts `tally` counts) and
/// its q-value, as cells.
fn against_cells(against: Against, tally: Option<&Tally>) -> (String, String) {
    match against {
        Against::TheReference => ("the reference".to_owned(), String::new()),
        Against::Verdict(verdict, q) => (verdict_words(verdict, tally), q_value_text(q)),
    }
}

/// A verdict against a reference in the page's words.
fn verdict_words(verdict: Verdict, tally: Option<&Tally>) -> String {
    match verdict {
        Verdict::Balanced => tally.map_or_else(
            || "within the band".to_owned(),
            |t| format!("within {}", band_words(t.band, t.scale)),
        ),
        Verdict::MoreForWhite => "more for White".to_owned(),
        Verdict::LessForWhite => "less for White".to_owned(),
        Verdict::Unresolved => "unresolved".to_owned(),
    }
}

/// A row's ranks, distances, rank intervals and verdicts for every
/// reference, as data attributes for the page's choice.
fn reference_data(judged: &[Judged], sp: u16) -> String {
    let mut data = String::new();
    for j in judged {
        if let Some(r) = j.of(sp) {
            let key = j.reference.name();
            let _ = write!(
                data,
                " data-{key}-rank=\"{}\" data-{key}-distance=\"{}\" data-{key}-shown=\"{}\"",
                r.ranked.rank,
                r.ranked.distance,
                distance_text(r.ranked.distance, r.ranked.scale)
            );
            if let Some(i) = r.interval {
                let _ = write!(data, " data-{key}-interval=\"{}–{}\"", i.low, i.high);
            }
            if let Some(against) = r.against {
                let (verdict, q) = against_cells(against, j.tally.as_ref());
                let _ = write!(
                    data,
                    " data-{key}-verdict=\"{verdict}\" data-{key}-q=\"{q}\""
                );
            }
        }
    }
    data
}

/// The verdicts' bands, error rate and the reliability of the method the
/// published estimates come from.
fn rules_of(b: &Balance) -> Rules {
    let method = match b.verdict_method {
        Method::Games => b.games.as_ref(),
        Method::Sweep => b.sweep.as_ref(),
    };
    Rules {
        band_cp: b.settings.band_cp,
        band_score: b.settings.band_score,
        level: b.settings.level,
        reliability: method.and_then(|m| m.reliability).map(|r| r.whole),
    }
}

/// What a ranking against a reference is worth, in sentences (plain
/// text): its verdicts counted, then how far its order can be trusted.
fn note(judged: &Judged) -> String {
    let counts = judged.tally.map_or_else(String::new, |t| tally_words(&t));
    let top = |top: Option<Top>| {
        top.map_or_else(String::new, |t| {
            format!(
                "The position ranked 1 (SP {}) may rank anywhere from {} to {} of {}.",
                t.sp, t.interval.low, t.interval.high, t.of
            )
        })
    };
    let trust = match judged.trust {
        Trust::NoIntervals { published: true } => "These ranks carry no interval: the positions' estimates are not all on one scale with an interval.".to_owned(),
        Trust::NoIntervals { published: false } => "These ranks carry no interval: a single search per position measures no error, and a difference of a few cp is within an engine's noise. c960 balance with repeated searches or several engines gives estimates with intervals.".to_owned(),
        Trust::Noise { reliability, top: t } => {
            let r = reliability.map_or_else(|| "not measurable".to_owned(), |r| format!("{r:.2}"));
            format!(
                "This ranking is noise: the reliability of the estimates is {r}, not above 0, so the order of the positions says nothing about their balance. {}",
                top(t)
            )
        }
        Trust::Unresolved { median_span, top: t } => format!(
            "Most ranks are unresolved: half the positions' rank intervals span more than {median_span} of the {} ranks, so the order is a shortlist at best. {}",
            judged.rows.len(),
            top(t)
        ),
        Trust::Ranks { top: t } => top(t),
    };
    format!("{counts}{trust}")
}

/// The verdicts against a reference, counted in a sentence.
fn tally_words(t: &Tally) -> String {
    format!(
        "Against it: {} within {}, {} more for White, {} less for White, {} unresolved (false discovery rate {:.0}%{}). ",
        t.of(Verdict::Balanced),
        band_words(t.band, t.scale),
        t.of(Verdict::MoreForWhite),
        t.of(Verdict::LessForWhite),
        t.of(Verdict::Unresolved),
        t.level * 100.0,
        if t.own_error {
            "; SP 518's own error is added to each comparison"
        } else {
            ""
        }
    )
}

/// A row's estimate and its interval when the published estimates rank,
/// or the engine score that ranks without one (no interval).
fn estimate_cells(measure: Option<&Measure>, by_estimate: bool) -> (String, String) {
    let Some(m) = measure else {
        return (String::new(), String::new());
    };
    if by_estimate {
        let show = |v: f64| match m.scale {
            Scale::Cp => format!("{v:+.1}"),
            Scale::Score => format!("{:.1}%", v * 100.0),
        };
        let interval = m.interval.map_or_else(String::new, |i| {
            format!("{} to {}", show(i.low), show(i.high))
        });
        (show(m.value), interval)
    } else if m.scale == Scale::Cp {
        (format!("{:+.0}", m.value), String::new())
    } else {
        (String::new(), String::new())
    }
}

/// A row's self-play numbers: White's score, its interval and its
/// distance from the mean.
fn games_cells(g: &GameScores, row: usize) -> (String, String, String) {
    let at = |v: &[Option<f64>]| v.get(row).copied().flatten();
    let percent = |v: Option<f64>| v.map_or(String::new(), |v| format!("{:.1}%", v * 100.0));
    let interval = match (at(&g.low), at(&g.high)) {
        (Some(l), Some(h)) => format!("{}–{}", percent(Some(l)), percent(Some(h))),
        _ => String::new(),
    };
    let distance = match (at(&g.score), g.mean) {
        (Some(v), Some(m)) => format!("{:+.1}", (v - m) * 100.0),
        _ => String::new(),
    };
    (percent(at(&g.score)), interval, distance)
}

/// A column as numbers (`None` where missing or not a number).
fn float_column(frame: &DataFrame, name: &str) -> Vec<Option<f64>> {
    let column = frame
        .column(name)
        .and_then(|c| c.cast(&DataType::Float64))
        .ok();
    (0..frame.height())
        .map(|row| match column.as_ref()?.get(row).ok()? {
            AnyValue::Null => None,
            v => v.extract::<f64>().filter(|v| v.is_finite()),
        })
        .collect()
}
