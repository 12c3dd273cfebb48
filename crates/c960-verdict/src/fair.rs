//! The positions ranked by how close they are to a reference of balance —
//! one ranking for `fair.html`, `c960 draw --fairest`/`--within` and `c960
//! book balanced`. A position's distance from the reference is that of
//! the farther end of its 95 % interval (every value the interval allows
//! is at least that close), or of its figure when it has no interval;
//! closest first, equal distances in SP order, and distances that show
//! alike (to 0.1 cp, or 0.1 points of score) share a rank.
//!
//! [`judge`] adds what the ranking is worth: each position's rank
//! interval (all positions at once, Bonferroni; Student's t on each
//! estimate's degrees of freedom), its verdict against the same reference
//! the ranking uses (within the band, more or less for White, with
//! Benjamini–Hochberg q-values), and whether the order says anything.

use c960_balance::{
    rank::{Centre, RankInterval, rank_intervals_t},
    verdict::{Band, Claims, Verdict, decide},
};
use c960_core::StartPosition;

use crate::{BalanceTable, Interval, Reference, reference::Scale};

/// One position as a ranking sees it.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Measure {
    /// The position.
    pub sp: u16,
    /// Its figure: White's edge in centipawns or White's score.
    pub value: f64,
    /// The figure's scale.
    pub scale: Scale,
    /// Its 95 % interval, when it has one.
    pub interval: Option<Interval>,
    /// The figure's standard deviation and degrees of freedom (infinite:
    /// normal), when it has an error.
    pub error: Option<(f64, f64)>,
}

impl Measure {
    /// Its distance from `centre`: the farther end of its interval, or its
    /// figure's.
    #[must_use]
    pub fn distance(&self, centre: f64) -> f64 {
        self.interval
            .map_or((self.value - centre).abs(), |i| i.farthest_from(centre))
    }
}

impl Scale {
    /// A distance in the units pages show it in: centipawns, or points
    /// of score (a score of 1 is 100 points).
    #[must_use]
    pub fn in_units(self, distance: f64) -> f64 {
        match self {
            Scale::Cp => distance,
            Scale::Score => distance * 100.0,
        }
    }
}

/// One position in a ranking.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Ranked {
    /// The position.
    pub sp: u16,
    /// Its distance from the reference.
    pub distance: f64,
    /// Its scale.
    pub scale: Scale,
    /// Its rank (shared by distances that show alike).
    pub rank: usize,
}

/// The reference's value on `scale` among `measures`.
#[must_use]
pub fn reference_value(measures: &[Measure], reference: Reference, scale: Scale) -> Option<f64> {
    let values: Vec<(u16, f64)> = measures
        .iter()
        .filter(|m| m.scale == scale)
        .map(|m| (m.sp, m.value))
        .collect();
    reference.value(scale, &values)
}

/// `measures` ranked against `reference`, closest first.
#[must_use]
pub fn rank(measures: &[Measure], reference: Reference) -> Vec<Ranked> {
    let centres = [Scale::Cp, Scale::Score].map(|s| reference_value(measures, reference, s));
    let centre = |scale: Scale| match scale {
        Scale::Cp => centres[0],
        Scale::Score => centres[1],
    };
    let mut ranked: Vec<(u16, f64, Scale)> = measures
        .iter()
        .filter_map(|m| Some((m.sp, m.distance(centre(m.scale)?), m.scale)))
        .collect();
    ranked.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
    let mut out: Vec<Ranked> = Vec::with_capacity(ranked.len());
    let shown = |r: &(u16, f64, Scale)| format!("{:.1}", r.2.in_units(r.1));
    let mut last_shown = String::new();
    for (i, r) in ranked.iter().enumerate() {
        let this = shown(r);
        let rank = match out.last() {
            Some(last) if last_shown == this => last.rank,
            _ => i + 1,
        };
        last_shown = this;
        out.push(Ranked {
            sp: r.0,
            distance: r.1,
            scale: r.2,
            rank,
        });
    }
    out
}

/// What the verdicts against a reference rest on.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Rules {
    /// Half width of the band in centipawns.
    pub band_cp: f64,
    /// Half width of the band in White's score.
    pub band_score: f64,
    /// False discovery rate of the verdicts.
    pub level: f64,
    /// The estimates' split-half reliability (`None`: not measurable).
    pub reliability: Option<f64>,
}

impl Rules {
    /// The band's half width on `scale`.
    #[must_use]
    pub fn band(&self, scale: Scale) -> f64 {
        match scale {
            Scale::Cp => self.band_cp,
            Scale::Score => self.band_score,
        }
    }
}

/// A position against the reference.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Against {
    /// Its verdict and q-value.
    Verdict(Verdict, f64),
    /// It is the reference itself (the classical setup).
    TheReference,
}

/// One position's judgement against one reference.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Judgement {
    /// Its place in the ranking.
    pub ranked: Ranked,
    /// Its rank interval, when the figures have errors.
    pub interval: Option<RankInterval>,
    /// Its verdict against the reference.
    pub against: Option<Against>,
}

/// The verdicts against a reference, counted.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Tally {
    /// Positions per verdict, in the order of [`Verdict::ALL`].
    pub counts: [usize; 4],
    /// The band's half width.
    pub band: f64,
    /// Its scale.
    pub scale: Scale,
    /// The false discovery rate.
    pub level: f64,
    /// Whether SP 518's own error joins every comparison (it is the
    /// reference).
    pub own_error: bool,
}

impl Tally {
    /// The count of `verdict`.
    #[must_use]
    pub fn of(&self, verdict: Verdict) -> usize {
        Verdict::ALL
            .iter()
            .position(|v| *v == verdict)
            .map_or(0, |k| self.counts[k])
    }
}

/// Where the position ranked 1 may rank.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Top {
    /// The position.
    pub sp: u16,
    /// Its rank interval.
    pub interval: RankInterval,
    /// Out of how many.
    pub of: usize,
}

/// What the ranking is worth.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Trust {
    /// The ranks carry no interval: the figures have no errors (`published`:
    /// they are published estimates, but not all on one scale with an
    /// interval).
    NoIntervals {
        /// Whether the figures are published estimates.
        published: bool,
    },
    /// The estimates' reliability is not above 0: the order is noise.
    Noise {
        /// The reliability, when measurable.
        reliability: Option<f64>,
        /// Where the first may rank.
        top: Option<Top>,
    },
    /// Most rank intervals span over half the positions.
    Unresolved {
        /// The median span.
        median_span: usize,
        /// Where the first may rank.
        top: Option<Top>,
    },
    /// The ranks say something.
    Ranks {
        /// Where the first may rank.
        top: Option<Top>,
    },
}

/// The positions against one reference: closest first, with what the
/// ranking is worth.
#[derive(Clone, Debug, PartialEq)]
pub struct Judged {
    /// The reference.
    pub reference: Reference,
    /// The positions, closest first.
    pub rows: Vec<Judgement>,
    /// The verdicts against the reference, counted (with rules and
    /// errors).
    pub tally: Option<Tally>,
    /// What the ranking is worth.
    pub trust: Trust,
}

impl Judged {
    /// The judgement of position `sp`.
    #[must_use]
    pub fn of(&self, sp: u16) -> Option<&Judgement> {
        self.rows.iter().find(|j| j.ranked.sp == sp)
    }
}

/// The ranking of `measures` against `reference` with, when every ranked
/// figure has an error on one scale, each position's rank interval and
/// (with `rules`) its verdict against that same reference. `published`
/// says the figures are published estimates (for what the page says when
/// they carry no interval).
#[must_use]
pub fn judge(
    measures: &[Measure],
    reference: Reference,
    rules: Option<&Rules>,
    published: bool,
) -> Judged {
    let ranked = rank(measures, reference);
    let mut judged = Judged {
        reference,
        rows: ranked
            .iter()
            .map(|&ranked| Judgement {
                ranked,
                interval: None,
                against: None,
            })
            .collect(),
        tally: None,
        trust: Trust::NoIntervals { published },
    };
    let Some((values, errors, scale)) = errors_of(measures, &ranked) else {
        return judged;
    };
    let Some(centre) = reference_value(measures, reference, scale) else {
        return judged;
    };
    // SP 518 as the reference: its own error joins every comparison.
    let own = (reference == Reference::Classical)
        .then(|| ranked.iter().position(|r| r.sp == 518))
        .flatten();
    let (sds, dfs): (Vec<f64>, Vec<f64>) = errors.into_iter().unzip();
    let intervals = rank_intervals_t(
        &values,
        &sds,
        &dfs,
        own.map_or(Centre::Fixed(centre), Centre::Position),
        c960_balance::LEVEL,
    );
    for (j, interval) in judged.rows.iter_mut().zip(&intervals) {
        j.interval = Some(*interval);
    }
    if let Some(rules) = rules {
        judged.tally = Some(verdicts(
            &mut judged,
            rules,
            (&values, &sds, &dfs),
            (centre, scale),
            own,
        ));
    }
    judged.trust = trust(
        &judged.rows,
        &intervals,
        rules.and_then(|r| r.reliability),
        rules.is_some(),
    );
    judged
}

/// Each position's verdict against the reference `centre` under `rules`
/// (SP 518's own error added when it is the reference, row `own`), set on
/// `judged`, and their count.
fn verdicts(
    judged: &mut Judged,
    rules: &Rules,
    (values, sds, dfs): (&[f64], &[f64], &[f64]),
    (centre, scale): (f64, Scale),
    own: Option<usize>,
) -> Tally {
    let band = Band {
        centre,
        half_width: rules.band(scale),
    };
    let (reference_sd, reference_df) = own.map_or((0.0, f64::INFINITY), |k| (sds[k], dfs[k]));
    let tested: Vec<usize> = (0..values.len()).filter(|&i| Some(i) != own).collect();
    let claims: Vec<Claims> = tested
        .iter()
        .map(|&i| {
            // The smaller of the two degrees of freedom keeps the test
            // conservative when SP 518's error joins.
            let df = dfs[i].min(reference_df);
            Claims::student(values[i], sds[i].hypot(reference_sd), df, band)
        })
        .collect();
    let decisions = decide(&claims, rules.level);
    let mut counts = [0usize; 4];
    for (&i, d) in tested.iter().zip(&decisions) {
        if let Some(k) = Verdict::ALL.iter().position(|v| *v == d.verdict) {
            counts[k] += 1;
        }
        judged.rows[i].against = Some(Against::Verdict(d.verdict, d.q_value));
    }
    if let Some(k) = own {
        judged.rows[k].against = Some(Against::TheReference);
    }
    Tally {
        counts,
        band: band.half_width,
        scale,
        level: rules.level,
        own_error: own.is_some(),
    }
}

/// The ranked positions' figures and errors on their one scale, when all
/// have errors.
#[allow(clippy::type_complexity)]
fn errors_of(
    measures: &[Measure],
    ranked: &[Ranked],
) -> Option<(Vec<f64>, Vec<(f64, f64)>, Scale)> {
    let mut scale = None;
    let mut values = Vec::with_capacity(ranked.len());
    let mut errors = Vec::with_capacity(ranked.len());
    for r in ranked {
        let m = measures.iter().find(|m| m.sp == r.sp)?;
        if scale.is_some_and(|s| s != m.scale) {
            return None;
        }
        scale = Some(m.scale);
        values.push(m.value);
        errors.push(m.error?);
    }
    Some((values, errors, scale?))
}

/// Whether the ranking says anything: noise when the reliability is not
/// measured above 0 (with rules), unresolved when most rank intervals span
/// over half the positions; and where the position ranked 1 may stand.
fn trust(
    rows: &[Judgement],
    intervals: &[RankInterval],
    reliability: Option<f64>,
    has_rules: bool,
) -> Trust {
    let n = intervals.len();
    let mut spans: Vec<usize> = intervals.iter().map(RankInterval::span).collect();
    spans.sort_unstable();
    let median_span = spans.get(n / 2).copied().unwrap_or(0);
    let top = rows.first().zip(intervals.first()).map(|(j, i)| Top {
        sp: j.ranked.sp,
        interval: *i,
        of: n,
    });
    if has_rules && !reliability.is_some_and(|r| r > 0.0) {
        Trust::Noise { reliability, top }
    } else if 2 * median_span > n {
        Trust::Unresolved { median_span, top }
    } else {
        Trust::Ranks { top }
    }
}

/// Which of a verdict table's positions a draw or a book keeps.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Selection {
    /// Those with this verdict.
    Verdict(Verdict),
    /// The N nearest the reference, interval included (the fair ranking).
    Fairest(usize, Reference),
    /// Those whose whole interval lies within this many cp of it.
    Within(f64, Reference),
}

impl BalanceTable {
    /// The table's rows as a ranking sees them: its published estimates
    /// with their intervals. Refused (why, in one line) when a row's
    /// verdict does not come from engine sweeps or it has no interval:
    /// `--fairest` and `--within` read intervals in centipawns.
    pub fn measures(&self) -> Result<Vec<Measure>, String> {
        self.rows
            .iter()
            .map(|row| {
                let sp = row.sp.sp();
                if row.scale() != Scale::Cp {
                    return Err(format!(
                        "SP {sp} has its verdict from games, not from engine sweeps: --fairest \
                         and --within read intervals in centipawns"
                    ));
                }
                let (Some(value), Some(interval)) = (row.estimate, row.interval) else {
                    return Err(format!("SP {sp} has no balance estimate with its interval"));
                };
                Ok(Measure {
                    sp,
                    value,
                    scale: Scale::Cp,
                    interval: Some(interval),
                    error: None,
                })
            })
            .collect()
    }

    /// The positions `selection` keeps, ascending, and the reference's
    /// value (for `fairest` and `within`); why not, in one line.
    pub fn select(
        &self,
        selection: Selection,
    ) -> Result<(Vec<StartPosition>, Option<f64>), String> {
        self.select_excluding(selection, &std::collections::BTreeSet::new())
    }

    /// [`BalanceTable::select`] among the positions not in `left_out` (by
    /// SP): the reference is still the whole table's, and `--fairest N`
    /// takes the N fairest of the positions left.
    pub fn select_excluding(
        &self,
        selection: Selection,
        left_out: &std::collections::BTreeSet<u16>,
    ) -> Result<(Vec<StartPosition>, Option<f64>), String> {
        let reference = match selection {
            Selection::Verdict(verdict) => {
                let mut kept = self.with_verdict(verdict);
                kept.retain(|p| !left_out.contains(&p.sp()));
                return Ok((kept, None));
            }
            Selection::Fairest(_, reference) | Selection::Within(_, reference) => reference,
        };
        let measures = self.measures()?;
        let value = reference_value(&measures, reference, Scale::Cp).ok_or_else(|| {
            format!(
                "it has no balance estimate for {}",
                match reference {
                    Reference::Classical => "SP 518",
                    _ => "any position",
                }
            )
        })?;
        let mut ranked = rank(&measures, reference);
        ranked.retain(|r| !left_out.contains(&r.sp));
        let kept: Vec<u16> = match selection {
            Selection::Fairest(n, _) => {
                if n > ranked.len() {
                    return Err(format!(
                        "--fairest {n}: the table has {} positions{}",
                        ranked.len(),
                        if left_out.is_empty() {
                            String::new()
                        } else {
                            format!(" once {} are left out", left_out.len())
                        }
                    ));
                }
                ranked.iter().take(n).map(|r| r.sp).collect()
            }
            Selection::Within(cp, _) => ranked
                .iter()
                .filter(|r| r.distance <= cp)
                .map(|r| r.sp)
                .collect(),
            Selection::Verdict(_) => unreachable!("returned above"),
        };
        let mut kept: Vec<StartPosition> = kept
            .into_iter()
            .filter_map(|sp| StartPosition::new(sp).ok())
            .collect();
        kept.sort_unstable();
        Ok((kept, Some(value)))
    }
}
