//! The most drawish positions of a verdict table: those whose draw chance
//! (the raters' WDL consensus, `draw_chance`) ranks in the top share of
//! the table. `c960 draw --not-drawish` leaves them out before it selects
//! the fairest, and its record and `--verify` name the same rule.

use std::collections::{BTreeMap, BTreeSet};

use crate::{BalanceRow, BalanceTable};

/// A position's character in words, from its draw chance and White's
/// expected score against all positions of its table, intervals included:
/// - **drawish**: the draw chance's whole interval lies above the median
///   of all positions' draw chances and the estimate is in the top
///   quarter;
/// - **sharp**: the whole interval lies below the median and the estimate
///   is in the bottom quarter;
/// - **one-sided**: White's expected score's whole interval lies above the
///   third quartile of all positions' (White's edge among the largest);
/// - otherwise **typical**.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Character {
    /// More drawish than most positions.
    Drawish,
    /// Less drawish than most positions.
    Sharp,
    /// White's edge among the largest.
    OneSided,
    /// Neither.
    Typical,
}

impl Character {
    /// Its name (`drawish`, `sharp`, `one-sided`, `typical`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Character::Drawish => "drawish",
            Character::Sharp => "sharp",
            Character::OneSided => "one-sided",
            Character::Typical => "typical",
        }
    }

    /// The character of position `sp` among `rows` (every row with a draw
    /// chance counts); `None` when it has no draw chance. One-sided comes
    /// first, then drawish or sharp.
    #[must_use]
    pub fn of(rows: &[BalanceRow], sp: u16) -> Option<Character> {
        Character::all(rows).remove(&sp)
    }

    /// Every position's character among `rows`, by SP (those with a draw
    /// chance): the quartiles are taken once for all of them.
    #[must_use]
    pub fn all(rows: &[BalanceRow]) -> BTreeMap<u16, Character> {
        let mut draws: Vec<f64> = rows.iter().filter_map(|r| Some(r.outcome?.draw)).collect();
        let mut scores: Vec<f64> = rows
            .iter()
            .filter_map(|r| Some(r.outcome?.expected))
            .collect();
        draws.sort_by(f64::total_cmp);
        scores.sort_by(f64::total_cmp);
        let [d25, d50, d75] = [0.25, 0.5, 0.75].map(|p| quantile(&draws, p));
        let s75 = quantile(&scores, 0.75);
        rows.iter()
            .filter_map(|r| {
                let own = r.outcome?;
                let character = if own.expected_interval.low > s75 {
                    Character::OneSided
                } else if own.draw_interval.low > d50 && own.draw >= d75 {
                    Character::Drawish
                } else if own.draw_interval.high < d50 && own.draw <= d25 {
                    Character::Sharp
                } else {
                    Character::Typical
                };
                Some((r.sp.sp(), character))
            })
            .collect()
    }
}

/// The `p` quantile of sorted `v` (linear between order statistics).
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_precision_loss
)]
fn quantile(v: &[f64], p: f64) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    let at = p * (v.len() - 1) as f64;
    let (low, frac) = (at.floor() as usize, at.fract());
    let high = (low + 1).min(v.len() - 1);
    v[low] + frac * (v[high] - v[low])
}

impl BalanceTable {
    /// The SPs of the `percent` % of the table's positions with the
    /// highest draw chance (by estimate; ties: the lower SP counts as more
    /// drawish, so the set is one for every table): `round(percent/100 ×
    /// positions)` of them. Refused, why in one line, when `percent` is not
    /// in 0..100 or a row has no draw chance.
    pub fn most_drawish(&self, percent: f64) -> Result<BTreeSet<u16>, String> {
        if !(percent.is_finite() && percent > 0.0 && percent < 100.0) {
            return Err(format!(
                "--not-drawish {percent} is not a share of positions above 0 and below 100 (%)"
            ));
        }
        if let Some(row) = self.rows.iter().find(|r| r.outcome.is_none()) {
            return Err(format!(
                "SP {} has no draw chance (draw_chance): the table's raters report no WDL, or it \
                 was written before c960 published draw chances; make it again with c960 \
                 balance or c960 report",
                row.sp.sp()
            ));
        }
        let order = drawish_order(&self.rows);
        #[allow(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            clippy::cast_precision_loss
        )]
        let count = (percent / 100.0 * order.len() as f64).round() as usize;
        Ok(order.into_iter().take(count).collect())
    }
}

/// The SPs of `rows` with a draw chance, most drawish first (highest draw
/// chance; ties: lower SP first): the order `--not-drawish` and fair.html
/// leave positions out in.
#[must_use]
pub fn drawish_order(rows: &[BalanceRow]) -> Vec<u16> {
    let mut draws: Vec<(u16, f64)> = rows
        .iter()
        .filter_map(|r| Some((r.sp.sp(), r.outcome?.draw)))
        .collect();
    draws.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    draws.into_iter().map(|(sp, _)| sp).collect()
}

#[cfg(test)]
mod tests {
    use std::fmt::Write as _;

    use crate::BalanceTable;

    fn table(rows: &[(u16, Option<f64>)]) -> BalanceTable {
        let mut csv = "sp,verdict,wdl_raters,draw_chance,draw_chance_low,draw_chance_high,\
            white_expected_score,white_expected_score_low,white_expected_score_high\n"
            .to_owned();
        for (sp, draw) in rows {
            match draw {
                Some(d) => writeln!(csv, "{sp},unresolved,3,{d},{d},{d},0.5,0.5,0.5").unwrap(),
                None => writeln!(csv, "{sp},unresolved,,,,,,,").unwrap(),
            }
        }
        let dir = std::env::temp_dir().join(format!("c960-drawish-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join(format!("t{}.csv", rows.len()));
        std::fs::write(&file, csv).unwrap();
        let t = BalanceTable::read(&file).unwrap();
        std::fs::remove_file(file).unwrap();
        t
    }

    #[test]
    fn the_most_drawish_are_the_top_share_by_draw_chance_ties_by_sp() {
        let t = table(&[
            (0, Some(0.9)),
            (1, Some(0.95)),
            (2, Some(0.95)),
            (3, Some(0.8)),
        ]);
        assert_eq!(
            t.most_drawish(50.0)
                .unwrap()
                .into_iter()
                .collect::<Vec<_>>(),
            [1, 2]
        );
        assert_eq!(
            t.most_drawish(25.0)
                .unwrap()
                .into_iter()
                .collect::<Vec<_>>(),
            [1]
        );
        assert!(
            t.most_drawish(0.0)
                .unwrap_err()
                .contains("above 0 and below 100")
        );
        assert!(t.most_drawish(f64::NAN).is_err());
        let words: Vec<&str> = (0..4)
            .map(|sp| super::Character::of(&t.rows, sp).unwrap().name())
            .collect();
        // Intervals of zero width: the estimate alone decides.
        assert_eq!(words, ["typical", "drawish", "drawish", "sharp"]);
        let bare = table(&[(0, Some(0.9)), (5, None)]);
        assert_eq!(super::Character::of(&bare.rows, 5), None);
        assert!(
            bare.most_drawish(10.0)
                .unwrap_err()
                .contains("SP 5 has no draw chance")
        );
    }
}
