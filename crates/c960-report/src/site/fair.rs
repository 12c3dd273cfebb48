//! `fair.html`: the positions ranked by how close they are to a
//! reference of balance that the organizer chooses — equal chances, the
//! typical position, or the classical setup — with the filters of
//! `c960 draw`.

use std::fmt::Write as _;

use polars::prelude::*;

use super::{cell, number_at, provenance, q_value_text};
use crate::{RunKind, Source, html::escape};

/// What "balanced" is measured against.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Reference {
    /// Equal chances: 0 cp, or a score of 50%.
    Equal,
    /// The typical position: the mean over all positions.
    Typical,
    /// The classical setup, SP 518.
    Classical,
}

impl Reference {
    const ALL: [Reference; 3] = [Reference::Equal, Reference::Typical, Reference::Classical];

    /// The default: an organizer reads "fair" as "closest to equal
    /// chances".
    pub(super) const DEFAULT: Reference = Reference::Equal;

    fn key(self) -> &'static str {
        match self {
            Reference::Equal => "equal",
            Reference::Typical => "typical",
            Reference::Classical => "classical",
        }
    }

    /// The reference in the words of the page's sentence.
    fn words(self) -> &'static str {
        match self {
            Reference::Equal => "equal chances (0 cp, or a score of 50%)",
            Reference::Typical => "the typical position (the mean of all positions)",
            Reference::Classical => "the classical setup (SP 518)",
        }
    }
}

/// The scale of a ranked number.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Scale {
    /// Centipawns from White's view.
    Cp,
    /// White's score, 0 to 1.
    Score,
}

impl Scale {
    /// A distance as the page shows it (the ranks compare these texts, so
    /// numbers shown alike share a rank).
    fn show(self, distance: f64) -> String {
        match self {
            Scale::Cp => format!("{distance:.1} cp"),
            Scale::Score => format!("{:.1} pts", distance * 100.0),
        }
    }
}

/// What fair.html ranks by, per row of the table (one row per SP).
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Balances {
    /// The first sweep's engine score, centipawns (empty without a sweep).
    pub(super) cp: Vec<Option<f64>>,
    /// The first game run's White score and its 95% interval (empty
    /// without games).
    pub(super) score: Vec<Option<f64>>,
    /// Lower end of the score's interval.
    pub(super) low: Vec<Option<f64>>,
    /// Upper end of the score's interval.
    pub(super) high: Vec<Option<f64>>,
    /// The mean White score over all positions with games.
    pub(super) mean: Option<f64>,
    /// The verdicts' balance estimates.
    pub(super) estimate: Vec<Option<f64>>,
    /// The scale of each estimate (games: a score; sweeps: centipawns).
    pub(super) estimate_scale: Vec<Scale>,
    /// Their mean, when they are measured (have intervals).
    pub(super) estimate_mean: Option<f64>,
    /// Whether there is a sweep.
    pub(super) has_sweep: bool,
}

impl Balances {
    /// The numbers of `frame`'s rows from the first sweep and the first
    /// game run (either may be missing) and the verdict columns.
    pub(super) fn of(frame: &DataFrame, sweep: Option<&Source>, games: Option<&Source>) -> Self {
        let values = |source: Option<&Source>, name: &str| -> Vec<Option<f64>> {
            source.map_or_else(
                || vec![None; frame.height()],
                |s| float_column(frame, &format!("{}__{name}", s.label)),
            )
        };
        let score = values(games, "white_score");
        let known: Vec<f64> = score.iter().flatten().copied().collect();
        let (estimate, estimate_mean) = balance_ranking(frame);
        let estimate_scale = (0..frame.height())
            .map(|row| {
                if cell(frame, "verdict_method", row, false) == "games" {
                    Scale::Score
                } else {
                    Scale::Cp
                }
            })
            .collect();
        Balances {
            cp: values(
                sweep,
                if sweep.is_some_and(|s| s.manifest.searches() > 1) {
                    "score_cp_mean"
                } else {
                    "score_cp"
                },
            ),
            mean: (!known.is_empty()).then(|| crate::charts::mean_interval(&known).0),
            score,
            low: values(games, "white_score_low"),
            high: values(games, "white_score_high"),
            estimate,
            estimate_scale,
            estimate_mean,
            has_sweep: sweep.is_some(),
        }
    }

    /// The number ranked for the position in `row`, with its scale: with
    /// measured verdicts, the shrunk balance estimate (the verdicts'
    /// method); else the engine score when there is a sweep; else the game
    /// score. `None` when the position has no such number.
    fn value(&self, row: usize) -> Option<(f64, Scale)> {
        let at = |values: &[Option<f64>]| values.get(row).copied().flatten();
        if self.estimate_mean.is_some() {
            at(&self.estimate).map(|v| {
                (
                    v,
                    self.estimate_scale.get(row).copied().unwrap_or(Scale::Cp),
                )
            })
        } else if self.has_sweep {
            at(&self.cp).map(|v| (v, Scale::Cp))
        } else {
            at(&self.score).map(|v| (v, Scale::Score))
        }
    }

    /// The reference's value on `scale` among `rows` positions: 0 cp or
    /// 50%, the mean of the ranked numbers, or SP 518's number.
    #[allow(clippy::cast_precision_loss)]
    fn reference(&self, reference: Reference, scale: Scale, rows: usize) -> Option<f64> {
        match reference {
            Reference::Equal => Some(match scale {
                Scale::Cp => 0.0,
                Scale::Score => 0.5,
            }),
            Reference::Typical => {
                let values: Vec<f64> = (0..rows)
                    .filter_map(|row| self.value(row))
                    .filter(|(_, s)| *s == scale)
                    .map(|(v, _)| v)
                    .collect();
                (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
            }
            Reference::Classical => self.value(518).filter(|(_, s)| *s == scale).map(|(v, _)| v),
        }
    }

    /// The rows of `rows` with a number, closest to `reference` first (ties
    /// in SP order), each with its distance as shown and its rank: numbers
    /// shown alike share a rank (1, 2, 2, 4, ...).
    pub(super) fn ranked(&self, rows: usize, reference: Reference) -> Vec<Ranked> {
        let mut ranked: Vec<(usize, f64, Scale)> = (0..rows)
            .filter_map(|row| {
                let (value, scale) = self.value(row)?;
                let r = self.reference(reference, scale, rows)?;
                Some((row, (value - r).abs(), scale))
            })
            .collect();
        ranked.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
        let mut out: Vec<Ranked> = Vec::with_capacity(ranked.len());
        for (i, (row, distance, scale)) in ranked.into_iter().enumerate() {
            let shown = scale.show(distance);
            let rank = match out.last() {
                Some(last) if last.shown == shown => last.rank,
                _ => i + 1,
            };
            out.push(Ranked {
                row,
                distance,
                shown,
                rank,
            });
        }
        out
    }
}

/// One position in a ranking.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Ranked {
    /// Its row in the table.
    pub(super) row: usize,
    /// Its distance from the reference.
    pub(super) distance: f64,
    /// The distance as the page shows it.
    pub(super) shown: String,
    /// Its rank (shared by equal distances).
    pub(super) rank: usize,
}

/// The page: the positions ranked by [`Balances::ranked`] against the
/// default reference, with each reference's ranks in the rows for the
/// page's choice, each position's numbers and features: the page's body,
/// with `lead` (HTML) after its heading.
pub(super) fn fair(frame: &DataFrame, sources: &[Source], lead: &str) -> String {
    let mut body = String::from("<h1>Fair positions for organizers</h1>\n");
    body.push_str(lead);
    body.push_str(&provenance(sources));
    let sweep = sources.iter().find(|s| s.kind == RunKind::Sweep);
    let selfplay = sources.iter().find(|s| s.kind.has_games());
    if sweep.is_none() && selfplay.is_none() {
        body.push_str("<p>Ranking by balance needs an engine sweep or self-play games: run <code>c960 run</code>, or <code>c960 sweep</code> and give it to <code>c960 report --sweep DIR</code>.</p>");
        return body;
    }
    let balances = Balances::of(frame, sweep, selfplay);
    let rankings: Vec<(Reference, Vec<Ranked>)> = Reference::ALL
        .iter()
        .map(|&r| (r, balances.ranked(frame.height(), r)))
        .collect();
    let by_row = |reference: Reference, row: usize| {
        rankings
            .iter()
            .find(|(r, _)| *r == reference)
            .and_then(|(_, list)| list.iter().find(|x| x.row == row))
    };
    let by_estimate = balances.estimate_mean.is_some();
    let available: Vec<Reference> = rankings
        .iter()
        .filter(|(_, list)| !list.is_empty())
        .map(|(r, _)| *r)
        .collect();
    body.push_str(&fair_intro(
        sweep,
        selfplay,
        balances.mean,
        by_estimate,
        &available,
    ));
    if by_estimate {
        body.push_str("<p>The balance estimate is shrunk toward the mean of all positions by how noisy its data are, so a position with little data does not top the list by chance. The verdict column compares each position with the typical position (the mean of all positions), whichever reference ranks the list: <b>balanced</b> means within the band around that mean at the stated false discovery rate. Where the reliability above is below 0.5, the order is mostly noise: treat the ranking as a shortlist only.</p>\n");
    }
    body.push_str("<table id=\"fair\" class=\"sortable\">\n<thead><tr><th data-type=\"num\">rank</th><th data-type=\"num\">SP</th><th data-type=\"text\">placement</th><th data-type=\"num\">from the reference</th>");
    if sweep.is_some() {
        body.push_str("<th data-type=\"num\">score cp</th>");
    }
    if selfplay.is_some() {
        let kind = selfplay.map_or_else(String::new, |s| {
            let column = format!("{}__interval", s.label);
            (0..frame.height())
                .map(|row| cell(frame, &column, row, false))
                .find(|k| !k.is_empty())
                .unwrap_or_default()
        });
        let _ = write!(
            body,
            "<th data-type=\"num\">self-play White score</th><th data-type=\"text\">{}</th><th data-type=\"num\">from the mean</th>",
            super::position::interval_name(&kind)
        );
    }
    let has_verdicts = frame.column("verdict").is_ok();
    if has_verdicts {
        body.push_str("<th data-type=\"num\">balance estimate</th><th data-type=\"text\">verdict (against the typical position)</th><th data-type=\"num\">q-value</th>");
    }
    body.push_str("<th data-type=\"num\">weak pawns</th><th data-type=\"num\">attackable</th><th data-type=\"text\">castling on move 1</th></tr></thead>\n<tbody>\n");
    let default = by_row_list(&rankings, Reference::DEFAULT);
    for ranked in default {
        let row = ranked.row;
        let castle = cell(frame, "castle_a_first_move", row, false) == "yes"
            || cell(frame, "castle_h_first_move", row, false) == "yes";
        let sp = cell(frame, "sp", row, false);
        let mut data = String::new();
        for reference in Reference::ALL {
            if let Some(r) = by_row(reference, row) {
                let _ = write!(
                    data,
                    " data-{0}-rank=\"{1}\" data-{0}-distance=\"{2}\" data-{0}-shown=\"{3}\"",
                    reference.key(),
                    r.rank,
                    r.distance,
                    r.shown
                );
            }
        }
        let cells = run_cells(frame, &balances, (sweep, selfplay), has_verdicts, row);
        let _ = writeln!(
            body,
            "<tr data-weak=\"{weak}\" data-attack=\"{attack}\" data-castle=\"{castle}\" data-sp=\"{sp}\"{data}><td class=\"rank\">{}</td><td><a href=\"positions/{sp}.html\">{sp}</a></td><td class=\"mono\">{}</td><td class=\"distance\">{}</td>{cells}<td>{weak}</td><td>{attack}</td><td>{}</td></tr>",
            ranked.rank,
            cell(frame, "placement", row, false),
            ranked.shown,
            if castle { "yes" } else { "no" },
            weak = cell(frame, "weak_pawns", row, false),
            attack = cell(frame, "first_move_attackable", row, false),
        );
    }
    body.push_str("</tbody>\n</table>\n");
    body
}

/// A row's cells of the runs: engine score, self-play score with its
/// interval and distance from the mean, and the verdict columns.
fn run_cells(
    frame: &DataFrame,
    balances: &Balances,
    (sweep, selfplay): (Option<&Source>, Option<&Source>),
    has_verdicts: bool,
    row: usize,
) -> String {
    let percent = |v: Option<f64>| v.map_or(String::new(), |v| format!("{:.1}%", v * 100.0));
    let mut cells = String::new();
    if sweep.is_some() {
        let _ = write!(
            cells,
            "<td>{}</td>",
            balances.cp[row].map_or(String::new(), |v| format!("{v:+.0}"))
        );
    }
    if selfplay.is_some() {
        let interval = match (balances.low[row], balances.high[row]) {
            (Some(l), Some(h)) => format!("{}–{}", percent(Some(l)), percent(Some(h))),
            _ => String::new(),
        };
        let distance = match (balances.score[row], balances.mean) {
            (Some(v), Some(m)) => format!("{:+.1}", (v - m) * 100.0),
            _ => String::new(),
        };
        let _ = write!(
            cells,
            "<td>{}</td><td>{interval}</td><td>{distance}</td>",
            percent(balances.score[row])
        );
    }
    if has_verdicts {
        let _ = write!(
            cells,
            "<td>{}</td><td>{}</td><td>{}</td>",
            balances.estimate[row].map_or(String::new(), |v| format!("{v:.3}")),
            cell(frame, "verdict", row, false),
            number_at(frame, "q_value", row).map_or_else(String::new, q_value_text)
        );
    }
    cells
}

/// The ranking against `reference`.
fn by_row_list(rankings: &[(Reference, Vec<Ranked>)], reference: Reference) -> &[Ranked] {
    rankings
        .iter()
        .find(|(r, _)| *r == reference)
        .map_or(&[], |(_, list)| list.as_slice())
}

/// What fair.html ranks by, in one sentence with the reference to choose,
/// and its filters.
fn fair_intro(
    sweep: Option<&Source>,
    selfplay: Option<&Source>,
    mean: Option<f64>,
    by_estimate: bool,
    available: &[Reference],
) -> String {
    let quantity = match sweep {
        _ if by_estimate => "balance estimate (the verdicts' method: see above)".to_owned(),
        Some(s) => format!("engine score (<code>{}</code>)", escape(&s.label)),
        None => "self-play score".to_owned(),
    };
    let mut options = String::new();
    for reference in Reference::ALL {
        let _ = write!(
            options,
            "<option value=\"{}\" data-words=\"{}\"{}>{}{}</option>",
            reference.key(),
            escape(reference.words()),
            match (
                reference == Reference::DEFAULT,
                available.contains(&reference)
            ) {
                (true, _) => " selected",
                (false, true) => "",
                (false, false) => " disabled",
            },
            escape(reference.words()),
            match (
                reference == Reference::DEFAULT,
                available.contains(&reference)
            ) {
                (true, _) => " (default)",
                (false, true) => "",
                (false, false) => " (no number for SP 518)",
            }
        );
    }
    format!(
        "<p class=\"meaning\">Rank 1 is the position whose {quantity} is closest to \
         <span id=\"reference-words\">{}</span>; positions whose distance shows alike share a rank.</p>\n\
         <p><label>Balanced means closest to <select id=\"reference\">{options}</select></label></p>\n\
         <p>{}Filters as in <code>c960 draw</code>: \
         <label><input type=\"checkbox\" data-filter=\"no-attack\"> no pawn attackable on move 1</label> \
         <label><input type=\"checkbox\" data-filter=\"no-castle\"> no castling on move 1</label> \
         <label>at most <input type=\"number\" min=\"0\" max=\"8\" value=\"8\" data-filter=\"max-weak\"> weak pawns</label></p>",
        escape(Reference::DEFAULT.words()),
        match (selfplay, mean) {
            (Some(s), Some(m)) => format!(
                "Self-play (<code>{}</code>): White's score with its interval, and its distance from the mean of all positions ({:.1}%); \
                 an interval that contains the mean means the games cannot tell the position from an average one. ",
                escape(&s.label),
                m * 100.0
            ),
            _ => String::new(),
        }
    )
}

/// The balance estimates and their mean, when they are measured (have
/// intervals); a single search per position has none, and fair.html then
/// keeps ranking by |engine score|.
fn balance_ranking(frame: &DataFrame) -> (Vec<Option<f64>>, Option<f64>) {
    let estimate = float_column(frame, "balance_estimate");
    let estimates: Vec<f64> = estimate.iter().flatten().copied().collect();
    let measured = float_column(frame, "balance_low")
        .iter()
        .any(Option::is_some);
    let mean =
        (measured && !estimates.is_empty()).then(|| crate::charts::mean_interval(&estimates).0);
    (estimate, mean)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(ranked: &[Ranked]) -> Vec<usize> {
        ranked.iter().map(|r| r.row).collect()
    }

    #[test]
    fn a_sweep_ranks_by_the_size_of_the_engine_score() {
        let balances = Balances {
            cp: vec![Some(30.0), Some(-5.0), None, Some(5.0), Some(-12.0)],
            has_sweep: true,
            ..Balances::default()
        };
        let ranked = balances.ranked(5, Reference::Equal);
        // A position without a score is not ranked.
        assert_eq!(rows(&ranked), [1, 3, 4, 0]);
        assert!((ranked[2].distance - 12.0).abs() < 1e-12);
    }

    #[test]
    fn equal_distances_share_a_rank() {
        let balances = Balances {
            cp: vec![Some(34.499), Some(-5.0), Some(34.5), Some(5.0), Some(40.0)],
            has_sweep: true,
            ..Balances::default()
        };
        let ranked = balances.ranked(5, Reference::Equal);
        let ranks: Vec<(usize, usize, &str)> = ranked
            .iter()
            .map(|r| (r.row, r.rank, r.shown.as_str()))
            .collect();
        assert_eq!(
            ranks,
            [
                (1, 1, "5.0 cp"),
                (3, 1, "5.0 cp"),
                (0, 3, "34.5 cp"),
                (2, 3, "34.5 cp"),
                (4, 5, "40.0 cp")
            ]
        );
    }

    #[test]
    fn the_organizer_chooses_what_balanced_means() {
        // SP 0 is level; SP 518, the classical setup, and the typical
        // position are about +34.
        let mut cp = vec![Some(34.0); 960];
        cp[0] = Some(0.01);
        cp[1] = Some(40.0);
        cp[518] = Some(31.0);
        let balances = Balances {
            cp,
            has_sweep: true,
            ..Balances::default()
        };
        let equal = balances.ranked(960, Reference::Equal);
        assert_eq!((equal[0].row, equal[0].rank), (0, 1));
        let typical = balances.ranked(960, Reference::Typical);
        assert_eq!(typical.last().unwrap().row, 0, "level is far from typical");
        let classical = balances.ranked(960, Reference::Classical);
        assert_eq!(
            (classical[0].row, classical[0].shown.as_str()),
            (518, "0.0 cp")
        );
        assert_eq!(Reference::DEFAULT, Reference::Equal);
    }

    #[test]
    fn games_alone_rank_by_the_distance_from_the_reference_score() {
        let balances = Balances {
            score: vec![Some(0.50), Some(0.56), Some(0.61), None],
            mean: Some(0.55),
            ..Balances::default()
        };
        assert_eq!(rows(&balances.ranked(4, Reference::Equal)), [0, 1, 2]);
        // The typical score is the mean of the three, 0.5567.
        let typical = balances.ranked(4, Reference::Typical);
        assert_eq!(rows(&typical), [1, 2, 0]);
        assert_eq!(typical[0].shown, "0.3 pts");
        // Without a number there is nothing to rank by.
        let nothing = Balances {
            score: vec![None; 4],
            ..balances
        };
        assert!(nothing.ranked(4, Reference::Equal).is_empty());
    }

    #[test]
    fn measured_verdicts_rank_by_the_estimate_before_anything_else() {
        let balances = Balances {
            cp: vec![Some(0.0), Some(90.0), Some(40.0), Some(1.0)],
            estimate: vec![Some(0.60), Some(0.54), None, Some(0.51)],
            estimate_scale: vec![Scale::Score; 4],
            estimate_mean: Some(0.55),
            has_sweep: true,
            ..Balances::default()
        };
        assert_eq!(rows(&balances.ranked(4, Reference::Typical)), [1, 3, 0]);
        assert_eq!(rows(&balances.ranked(4, Reference::Equal)), [3, 1, 0]);
    }

    #[test]
    fn estimates_without_intervals_leave_the_ranking_to_the_sweep() {
        let frame = df!(
            "balance_estimate" => [Some(0.5f64), Some(0.6)],
            "balance_low" => [None::<f64>, None],
        )
        .unwrap();
        let (estimate, mean) = balance_ranking(&frame);
        assert_eq!(estimate, [Some(0.5), Some(0.6)]);
        assert_eq!(mean, None);
        let measured = df!(
            "balance_estimate" => [Some(0.5f64), Some(0.6)],
            "balance_low" => [Some(0.4f64), None],
        )
        .unwrap();
        let (_, mean) = balance_ranking(&measured);
        assert!((mean.unwrap() - 0.55).abs() < 1e-12);
    }
}
