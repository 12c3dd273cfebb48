//! `fair.html`: the positions ranked most balanced first, for organizers,
//! with the filters of `c960 draw`.

use std::fmt::Write as _;

use polars::prelude::*;

use super::{cell, page, provenance};
use crate::{RunKind, Source, html::escape};

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
    /// Their mean, when they are measured (have intervals).
    pub(super) estimate_mean: Option<f64>,
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
            estimate_mean,
        }
    }

    /// How far the position in `row` is from balance: with verdicts, the
    /// shrunk balance estimate's distance from the mean of all positions
    /// (the verdicts' method); else |engine score| when there is a sweep;
    /// else the game score's distance from the mean of all positions.
    /// `None` when the position has no such number.
    fn distance(&self, row: usize, has_sweep: bool) -> Option<f64> {
        let at = |values: &[Option<f64>]| values.get(row).copied().flatten();
        match (self.estimate_mean, has_sweep, self.mean) {
            (Some(m), _, _) => at(&self.estimate).map(|v| (v - m).abs()),
            (None, true, _) => at(&self.cp).map(f64::abs),
            (None, false, Some(m)) => at(&self.score).map(|v| (v - m).abs()),
            (None, false, None) => None,
        }
    }

    /// The rows of `rows` with a distance from balance, most balanced first
    /// (ties in SP order), with their distance.
    pub(super) fn ranked(&self, rows: usize, has_sweep: bool) -> Vec<(usize, f64)> {
        let mut ranked: Vec<(usize, f64)> = (0..rows)
            .filter_map(|row| Some((row, self.distance(row, has_sweep)?)))
            .collect();
        ranked.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
        ranked
    }
}

/// The page: the ranking of [`Balances::ranked`] as a sortable table with
/// each position's numbers and features.
pub(super) fn fair(frame: &DataFrame, sources: &[Source]) -> String {
    let mut body = String::from("<h1>Fair positions for organizers</h1>\n");
    body.push_str(&provenance(sources));
    let sweep = sources.iter().find(|s| s.kind == RunKind::Sweep);
    let selfplay = sources.iter().find(|s| s.kind.has_games());
    if sweep.is_none() && selfplay.is_none() {
        body.push_str("<p>Ranking by balance needs an engine sweep or self-play games: run <code>c960 run</code>, or <code>c960 sweep</code> and give it to <code>c960 report --sweep DIR</code>.</p>");
        return page("Fair positions", 0, &body);
    }
    let balances = Balances::of(frame, sweep, selfplay);
    let ranked = balances.ranked(frame.height(), sweep.is_some());
    let Balances {
        cp,
        score,
        low,
        high,
        mean,
        estimate,
        estimate_mean,
    } = balances;
    body.push_str(&fair_intro(sweep, selfplay, mean, estimate_mean.is_some()));
    if estimate_mean.is_some() {
        body.push_str("<p>The balance estimate is shrunk toward the mean of all positions by how noisy its data are, so a position with little data does not top the list by chance; the verdict column says which positions the data call balanced at the stated false discovery rate. Where the reliability above is below 0.5, the order is mostly noise: choose among the positions whose verdict is <b>balanced</b>, or treat the ranking as a shortlist only.</p>\n");
    }
    body.push_str("<table id=\"fair\" class=\"sortable\">\n<thead><tr><th data-type=\"num\">rank</th><th data-type=\"num\">SP</th><th data-type=\"text\">placement</th>");
    if sweep.is_some() {
        body.push_str("<th data-type=\"num\">score cp</th>");
    }
    if selfplay.is_some() {
        body.push_str("<th data-type=\"num\">self-play White score</th><th data-type=\"text\">95% interval</th><th data-type=\"num\">from the mean</th>");
    }
    let has_verdicts = frame.column("verdict").is_ok();
    if has_verdicts {
        body.push_str("<th data-type=\"num\">balance estimate</th><th data-type=\"text\">verdict</th><th data-type=\"num\">q-value</th>");
    }
    body.push_str("<th data-type=\"num\">weak pawns</th><th data-type=\"num\">attackable</th><th data-type=\"text\">castling on move 1</th></tr></thead>\n<tbody>\n");
    let percent = |v: Option<f64>| v.map_or(String::new(), |v| format!("{:.1}%", v * 100.0));
    for (rank, (row, _)) in ranked.iter().enumerate() {
        let row = *row;
        let castle = cell(frame, "castle_a_first_move", row, false) == "yes"
            || cell(frame, "castle_h_first_move", row, false) == "yes";
        let sp = cell(frame, "sp", row, false);
        let mut cells = String::new();
        if sweep.is_some() {
            let _ = write!(
                cells,
                "<td>{}</td>",
                cp[row].map_or(String::new(), |v| format!("{v:+.0}"))
            );
        }
        if selfplay.is_some() {
            let interval = match (low[row], high[row]) {
                (Some(l), Some(h)) => format!("{}–{}", percent(Some(l)), percent(Some(h))),
                _ => String::new(),
            };
            let distance = match (score[row], mean) {
                (Some(v), Some(m)) => format!("{:+.1}", (v - m) * 100.0),
                _ => String::new(),
            };
            let _ = write!(
                cells,
                "<td>{}</td><td>{interval}</td><td>{distance}</td>",
                percent(score[row])
            );
        }
        if has_verdicts {
            let _ = write!(
                cells,
                "<td>{}</td><td>{}</td><td>{}</td>",
                estimate[row].map_or(String::new(), |v| format!("{v:.3}")),
                cell(frame, "verdict", row, false),
                cell(frame, "q_value", row, false)
            );
        }
        let _ = writeln!(
            body,
            "<tr data-weak=\"{weak}\" data-attack=\"{attack}\" data-castle=\"{castle}\"><td>{}</td><td><a href=\"positions/{sp}.html\">{sp}</a></td><td class=\"mono\">{}</td>{cells}<td>{weak}</td><td>{attack}</td><td>{}</td></tr>",
            rank + 1,
            cell(frame, "placement", row, false),
            if castle { "yes" } else { "no" },
            weak = cell(frame, "weak_pawns", row, false),
            attack = cell(frame, "first_move_attackable", row, false),
        );
    }
    body.push_str("</tbody>\n</table>\n");
    page("Fair positions", 0, &body)
}

/// What fair.html ranks by, and its filters.
fn fair_intro(
    sweep: Option<&Source>,
    selfplay: Option<&Source>,
    mean: Option<f64>,
    by_estimate: bool,
) -> String {
    format!(
        "<p>Ranked by {}: most balanced first.{} Filters as in <code>c960 draw</code>: \
         <label><input type=\"checkbox\" data-filter=\"no-attack\"> no pawn attackable on move 1</label> \
         <label><input type=\"checkbox\" data-filter=\"no-castle\"> no castling on move 1</label> \
         <label>at most <input type=\"number\" min=\"0\" max=\"8\" value=\"8\" data-filter=\"max-weak\"> weak pawns</label></p>",
        match sweep {
            _ if by_estimate => "the balance estimate's distance from the mean of all positions (the verdicts' method: see above)".to_owned(),
            Some(s) => format!("|engine score| (<code>{}</code>)", escape(&s.label)),
            None => "the self-play score's distance from the mean of all positions".to_owned(),
        },
        match (selfplay, mean) {
            (Some(s), Some(m)) => format!(
                " Self-play (<code>{}</code>): White's score with its 95% interval, and its distance from the mean of all positions ({:.1}%); \
                 an interval that contains the mean means the games cannot tell the position from an average one.",
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

    fn rows(ranked: &[(usize, f64)]) -> Vec<usize> {
        ranked.iter().map(|(row, _)| *row).collect()
    }

    #[test]
    fn a_sweep_ranks_by_the_size_of_the_engine_score() {
        let balances = Balances {
            cp: vec![Some(30.0), Some(-5.0), None, Some(5.0), Some(-12.0)],
            ..Balances::default()
        };
        let ranked = balances.ranked(5, true);
        // Ties in SP order; a position without a score is not ranked.
        assert_eq!(rows(&ranked), [1, 3, 4, 0]);
        assert!((ranked[2].1 - 12.0).abs() < 1e-12);
    }

    #[test]
    fn games_alone_rank_by_the_distance_from_the_mean_score() {
        let balances = Balances {
            score: vec![Some(0.50), Some(0.56), Some(0.61), None],
            mean: Some(0.55),
            ..Balances::default()
        };
        let ranked = balances.ranked(4, false);
        assert_eq!(rows(&ranked), [1, 0, 2]);
        assert!((ranked[0].1 - 0.01).abs() < 1e-12);
        // Without a sweep or a mean there is nothing to rank by.
        let nothing = Balances {
            mean: None,
            ..balances
        };
        assert!(nothing.ranked(4, false).is_empty());
    }

    #[test]
    fn measured_verdicts_rank_by_the_estimate_before_anything_else() {
        let balances = Balances {
            cp: vec![Some(0.0), Some(90.0), Some(40.0)],
            estimate: vec![Some(0.60), Some(0.54), None],
            estimate_mean: Some(0.55),
            ..Balances::default()
        };
        assert_eq!(rows(&balances.ranked(3, true)), [1, 0]);
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
