//! What fair.html ranks by: the references of balance, the ranked number
//! of each position and its ranking.

use polars::prelude::*;

use super::super::cell;
use crate::Source;

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
    pub(super) const ALL: [Reference; 3] =
        [Reference::Equal, Reference::Typical, Reference::Classical];

    /// The default: an organizer reads "fair" as "closest to equal
    /// chances".
    pub(super) const DEFAULT: Reference = Reference::Equal;

    pub(super) fn key(self) -> &'static str {
        match self {
            Reference::Equal => "equal",
            Reference::Typical => "typical",
            Reference::Classical => "classical",
        }
    }

    /// The reference in the words of the page's sentence.
    pub(super) fn words(self) -> &'static str {
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
    pub(super) fn show(self, distance: f64) -> String {
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
    /// The published balance estimates (`balance.csv`'s
    /// `balance_estimate`).
    pub(super) estimate: Vec<Option<f64>>,
    /// Their standard errors, from their published 95% intervals.
    pub(super) se: Vec<Option<f64>>,
    /// Their published 95% intervals.
    pub(super) interval: Vec<Option<(f64, f64)>>,
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
        let interval: Vec<Option<(f64, f64)>> = float_column(frame, "balance_low")
            .into_iter()
            .zip(float_column(frame, "balance_high"))
            .map(|(l, h)| l.zip(h))
            .collect();
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
            se: interval
                .iter()
                .map(|i| {
                    i.map(|(l, h)| {
                        (h - l) / (2.0 * c960_balance::normal::two_sided(c960_balance::LEVEL))
                    })
                })
                .collect(),
            interval,
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
    pub(super) fn value(&self, row: usize) -> Option<(f64, Scale)> {
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
    pub(super) fn reference(&self, reference: Reference, scale: Scale, rows: usize) -> Option<f64> {
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

/// The balance estimates and their mean, when they are measured (have
/// intervals); a single search per position has none, and fair.html then
/// keeps ranking by |engine score|.
pub(super) fn balance_ranking(frame: &DataFrame) -> (Vec<Option<f64>>, Option<f64>) {
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
pub(super) fn float_column(frame: &DataFrame, name: &str) -> Vec<Option<f64>> {
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
