//! Each reference's verdicts and rank intervals on fair.html: a position
//! is within the band of the reference the ranking uses, or more or less
//! for White than it, by the published estimate's own interval and the
//! verdicts' false discovery rate; and its rank has an interval.

use c960_balance::{
    rank::{RankInterval, Reference as RankReference, rank_intervals},
    verdict::{Band, Claims, Verdict, decide},
};

use super::balances::{Balances, Ranked, Reference, Scale};

/// What the verdicts rest on: the bands, the error rate and the
/// reliability of the method the estimates come from.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(super) struct Rules {
    /// Half width of the band in centipawns.
    pub(super) band_cp: f64,
    /// Half width of the band in White's score.
    pub(super) band_score: f64,
    /// False discovery rate of the verdicts.
    pub(super) level: f64,
    /// The estimates' split-half reliability (`None`: not measurable).
    pub(super) reliability: Option<f64>,
}

impl Rules {
    fn band(&self, scale: Scale) -> f64 {
        match scale {
            Scale::Cp => self.band_cp,
            Scale::Score => self.band_score,
        }
    }

    /// The band as the page says it.
    fn band_words(&self, scale: Scale) -> String {
        match scale {
            Scale::Cp => format!("±{} cp", self.band_cp),
            Scale::Score => format!("±{:.1}%", self.band_score * 100.0),
        }
    }
}

/// One position's judgement against one reference.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Judgement {
    /// Its place in the ranking.
    pub(super) ranked: Ranked,
    /// Its rank interval, when the estimates have intervals.
    pub(super) interval: Option<RankInterval>,
    /// Its verdict against the reference and its q-value (none for the
    /// reference itself).
    pub(super) verdict: Option<(String, Option<f64>)>,
}

/// The positions against one reference: closest first, with a note on
/// how far the ranking can be trusted.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Judged {
    /// The reference.
    pub(super) reference: Reference,
    /// The positions, closest first.
    pub(super) rows: Vec<Judgement>,
    /// What the ranking is worth, in sentences (plain text).
    pub(super) note: String,
}

impl Judged {
    /// The judgement of the position in table row `row`.
    pub(super) fn of(&self, row: usize) -> Option<&Judgement> {
        self.rows.iter().find(|j| j.ranked.row == row)
    }
}

/// The ranking against `reference` among `rows` positions with, when the
/// published estimates rank it, each position's rank interval and (with
/// `rules`) its verdict against that same reference.
pub(super) fn judge(
    balances: &Balances,
    rows: usize,
    reference: Reference,
    rules: Option<&Rules>,
) -> Judged {
    let ranked = balances.ranked(rows, reference);
    let measured = measured(balances, &ranked);
    let mut judged = Judged {
        reference,
        rows: ranked
            .into_iter()
            .map(|ranked| Judgement {
                ranked,
                interval: None,
                verdict: None,
            })
            .collect(),
        note: String::new(),
    };
    let Some((values, ses, scale)) = measured else {
        judged.note = if balances.estimate_mean.is_some() {
            "These ranks carry no interval: the positions' estimates are not all on one scale with an interval.".to_owned()
        } else {
            "These ranks carry no interval: a single search per position measures no error, and a difference of a few cp is within an engine's noise. c960 balance with repeated searches or several engines gives estimates with intervals.".to_owned()
        };
        return judged;
    };
    let Some(centre) = balances.reference(reference, scale, rows) else {
        return judged;
    };
    // SP 518 as the reference: its own error joins every comparison.
    let own = (reference == Reference::Classical)
        .then(|| judged.rows.iter().position(|j| j.ranked.row == 518))
        .flatten();
    let intervals = rank_intervals(
        &values,
        &ses,
        own.map_or(RankReference::Fixed(centre), RankReference::Position),
        c960_balance::LEVEL,
    );
    for (j, interval) in judged.rows.iter_mut().zip(&intervals) {
        j.interval = Some(*interval);
    }
    let counts = rules.map_or_else(String::new, |rules| {
        verdicts(&mut judged, rules, (&values, &ses), (centre, scale), own)
    });
    judged.note = format!(
        "{counts}{}",
        trust(
            &judged.rows,
            &intervals,
            rules.and_then(|r| r.reliability),
            rules.is_some()
        )
    );
    judged
}

/// Each position's verdict against the reference `centre` under `rules`
/// (SP 518's own error added when it is the reference, row `own`), set
/// on `judged`; returns the sentence counting them.
fn verdicts(
    judged: &mut Judged,
    rules: &Rules,
    (values, ses): (&[f64], &[f64]),
    (centre, scale): (f64, Scale),
    own: Option<usize>,
) -> String {
    let band = Band {
        centre,
        half_width: rules.band(scale),
    };
    let reference_se = own.map_or(0.0, |k| ses[k]);
    let tested: Vec<usize> = (0..values.len()).filter(|&i| Some(i) != own).collect();
    let claims: Vec<Claims> = tested
        .iter()
        .map(|&i| Claims::normal(values[i], ses[i].hypot(reference_se), band))
        .collect();
    let decisions = decide(&claims, rules.level);
    let mut tally = [0usize; 4];
    for (&i, d) in tested.iter().zip(&decisions) {
        let text = match d.verdict {
            Verdict::Balanced => format!("within {}", rules.band_words(scale)),
            Verdict::MoreForWhite => "more for White".to_owned(),
            Verdict::LessForWhite => "less for White".to_owned(),
            Verdict::Unresolved => "unresolved".to_owned(),
        };
        if let Some(k) = Verdict::ALL.iter().position(|v| *v == d.verdict) {
            tally[k] += 1;
        }
        judged.rows[i].verdict = Some((text, Some(d.q_value)));
    }
    if let Some(k) = own {
        judged.rows[k].verdict = Some(("the reference".to_owned(), None));
    }
    format!(
        "Against it: {} within {}, {} more for White, {} less for White, {} unresolved (false discovery rate {:.0}%{}). ",
        tally[0],
        rules.band_words(scale),
        tally[1],
        tally[2],
        tally[3],
        rules.level * 100.0,
        if own.is_some() {
            "; SP 518's own error is added to each comparison"
        } else {
            ""
        }
    )
}

/// The ranked positions' estimates and standard errors on their one
/// scale, when the published estimates rank them and all have intervals.
fn measured(balances: &Balances, ranked: &[Ranked]) -> Option<(Vec<f64>, Vec<f64>, Scale)> {
    balances.estimate_mean?;
    let mut scale = None;
    let mut values = Vec::with_capacity(ranked.len());
    let mut ses = Vec::with_capacity(ranked.len());
    for r in ranked {
        let (value, s) = balances.value(r.row)?;
        if scale.is_some_and(|x| x != s) {
            return None;
        }
        scale = Some(s);
        values.push(value);
        ses.push(balances.se.get(r.row).copied().flatten()?);
    }
    Some((values, ses, scale?))
}

/// Whether the ranking says anything: noise when the reliability is not
/// measured above 0 (with `rules`, the verdicts' reliability), unresolved
/// when most rank intervals span over half the positions; and where the
/// position ranked 1 may stand.
#[allow(clippy::cast_precision_loss)]
fn trust(
    rows: &[Judgement],
    intervals: &[RankInterval],
    reliability: Option<f64>,
    has_rules: bool,
) -> String {
    let n = intervals.len();
    let mut spans: Vec<usize> = intervals.iter().map(RankInterval::span).collect();
    spans.sort_unstable();
    let median = spans.get(n / 2).copied().unwrap_or(0);
    let top = rows
        .first()
        .zip(intervals.first())
        .map(|(j, i)| {
            format!(
                "The position ranked 1 (SP {}) may rank anywhere from {} to {} of {n}.",
                j.ranked.row, i.low, i.high
            )
        })
        .unwrap_or_default();
    if has_rules && !reliability.is_some_and(|r| r > 0.0) {
        let r = reliability.map_or_else(|| "not measurable".to_owned(), |r| format!("{r:.2}"));
        return format!(
            "This ranking is noise: the reliability of the estimates is {r}, not above 0, so the order of the positions says nothing about their balance. {top}"
        );
    }
    if 2 * median > n {
        return format!(
            "Most ranks are unresolved: half the positions' rank intervals span more than {median} of the {n} ranks, so the order is a shortlist at best. {top}"
        );
    }
    top
}

#[cfg(test)]
mod tests {
    use super::*;

    fn balances(estimate: Vec<Option<f64>>, se: Vec<Option<f64>>) -> Balances {
        let n = estimate.len();
        Balances {
            estimate_mean: Some(0.5),
            estimate,
            se,
            estimate_scale: vec![Scale::Score; n],
            ..Balances::default()
        }
    }

    const RULES: Rules = Rules {
        band_cp: 10.0,
        band_score: 0.02,
        level: 0.05,
        reliability: Some(0.9),
    };

    #[test]
    fn verdicts_are_against_the_reference_that_ranks() {
        // Two positions at 50%, two at 56%, precisely measured: against
        // equal chances the first two are within the band, against the
        // typical position (53%) none is.
        let b = balances(
            vec![Some(0.50), Some(0.56), Some(0.501), Some(0.561)],
            vec![Some(0.002); 4],
        );
        let equal = judge(&b, 4, Reference::Equal, Some(&RULES));
        let verdict = |j: &Judged, row: usize| j.of(row).unwrap().verdict.clone().unwrap().0;
        assert_eq!(verdict(&equal, 0), "within ±2.0%");
        assert_eq!(verdict(&equal, 1), "more for White");
        let typical = judge(&b, 4, Reference::Typical, Some(&RULES));
        assert_eq!(verdict(&typical, 0), "less for White");
        assert_eq!(verdict(&typical, 1), "more for White");
        assert_eq!(
            equal.of(0).unwrap().interval,
            Some(RankInterval { low: 1, high: 2 })
        );
        assert!(
            equal
                .note
                .starts_with("Against it: 2 within ±2.0%, 2 more for White")
        );
    }

    #[test]
    fn a_ranking_whose_reliability_is_not_above_zero_is_called_noise() {
        let b = balances(vec![Some(0.5198); 960], vec![Some(0.01); 960]);
        let noise = Rules {
            reliability: Some(-0.05),
            ..RULES
        };
        let judged = judge(&b, 960, Reference::Equal, Some(&noise));
        assert!(
            judged
                .note
                .contains("This ranking is noise: the reliability of the estimates is -0.05"),
            "{}",
            judged.note
        );
        assert!(
            judged
                .note
                .contains("may rank anywhere from 1 to 960 of 960")
        );
        // Reliable but unresolved: every rank interval is wide.
        let judged = judge(&b, 960, Reference::Equal, Some(&RULES));
        assert!(
            judged.note.contains("Most ranks are unresolved"),
            "{}",
            judged.note
        );
        // Without intervals the page says the ranks have none.
        let engine = Balances {
            cp: vec![Some(3.0), Some(1.0)],
            has_sweep: true,
            ..Balances::default()
        };
        assert!(
            judge(&engine, 2, Reference::Equal, None)
                .note
                .starts_with("These ranks carry no interval")
        );
    }

    #[test]
    fn the_classical_reference_is_the_reference_and_its_error_counts() {
        let mut estimate = vec![Some(0.58); 960];
        estimate[518] = Some(0.535);
        estimate[3] = Some(0.54);
        let b = balances(estimate, vec![Some(0.004); 960]);
        let judged = judge(&b, 960, Reference::Classical, Some(&RULES));
        assert_eq!(judged.rows[0].ranked.row, 518);
        assert_eq!(
            judged.rows[0].verdict,
            Some(("the reference".to_owned(), None))
        );
        assert_eq!(
            judged.of(3).unwrap().verdict.clone().unwrap().0,
            "within ±2.0%"
        );
        assert!(judged.note.contains("SP 518's own error"));
    }
}
