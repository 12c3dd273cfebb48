//! The results of the games through a line, and the interval White's score
//! gets: trinomial for games fixed in advance, anytime-valid for adaptive
//! runs.

use c960_balance::sequential::ConfidenceState;

/// Which interval a tree gives White's score: the kind the run's position
/// table gives the same games, so that the line of all of a position's
/// games shows the interval its page shows, under the same name.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub enum IntervalKind {
    /// Each game an independent win, draw or loss, in Wilson's form (the
    /// `trinomial` interval of self-play and imports): for games whose
    /// number was fixed in advance.
    #[default]
    Trinomial,
    /// The anytime-valid confidence sequence over the games in game order
    /// at level `1 − alpha` (the `anytime` interval of adaptive self-play,
    /// whose positions stop when their data say so).
    Anytime {
        /// One minus the level.
        alpha: f64,
    },
}

impl IntervalKind {
    /// The kind a run's position table uses, from its manifest: anytime
    /// for adaptive self-play (at the level of its rule), else trinomial.
    #[must_use]
    pub fn of_run(manifest: &c960_store::RunManifest) -> IntervalKind {
        match manifest.adaptive {
            Some(rule) => IntervalKind::Anytime {
                alpha: rule.alpha.filter(|a| *a > 0.0 && *a < 1.0).unwrap_or(0.05),
            },
            None => IntervalKind::Trinomial,
        }
    }

    /// The interval's name where it is shown, e.g. `95% trinomial
    /// interval` or `95% anytime-valid interval`.
    #[must_use]
    pub fn name(self) -> String {
        match self {
            IntervalKind::Trinomial => "95% trinomial interval".to_owned(),
            IntervalKind::Anytime { alpha } => {
                format!("{:.0}% anytime-valid interval", (1.0 - alpha) * 100.0)
            }
        }
    }
}

/// Results of the games through a line.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Counts {
    /// Games.
    pub games: u64,
    /// White wins.
    pub white_wins: u64,
    /// Draws.
    pub draws: u64,
    /// Black wins.
    pub black_wins: u64,
    /// The anytime-valid interval over these games in game order, when the
    /// tree's [`IntervalKind`] is anytime.
    pub anytime: Option<(f64, f64)>,
}

/// Counts being made, with the confidence sequence an anytime interval
/// needs (it depends on the order of the games, so it is kept as they
/// come).
#[derive(Clone, Debug)]
pub(super) struct Tally {
    pub(super) counts: Counts,
    sequence: Option<ConfidenceState>,
}

impl Tally {
    pub(super) fn new(kind: IntervalKind) -> Tally {
        Tally {
            counts: Counts::default(),
            sequence: match kind {
                IntervalKind::Trinomial => None,
                IntervalKind::Anytime { alpha } => Some(ConfidenceState::new(alpha)),
            },
        }
    }

    pub(super) fn add(&mut self, white_score: f64) {
        self.counts.add(white_score);
        if let Some(sequence) = &mut self.sequence {
            sequence.push(white_score.clamp(0.0, 1.0));
            let s = sequence.sequence();
            self.counts.anytime = Some((s.low, s.high));
        }
    }
}

impl Counts {
    /// Counts one game by White's score (1, ½ or 0).
    pub fn add(&mut self, white_score: f64) {
        self.games += 1;
        if white_score > 0.75 {
            self.white_wins += 1;
        } else if white_score < 0.25 {
            self.black_wins += 1;
        } else {
            self.draws += 1;
        }
    }

    /// White's score, `(W + D/2) / games`.
    #[must_use]
    #[allow(clippy::cast_precision_loss)]
    pub fn white_score(&self) -> f64 {
        if self.games == 0 {
            return 0.0;
        }
        (self.white_wins as f64 + self.draws as f64 / 2.0) / self.games as f64
    }

    /// White's score with its interval, `(mean, low, high)`: the anytime
    /// one when the tree keeps it, else the 95% trinomial one (Wilson's
    /// form, as self-play reports it).
    #[must_use]
    pub fn interval(&self) -> (f64, f64, f64) {
        if let Some((low, high)) = self.anytime {
            return (self.white_score(), low, high);
        }
        match c960_balance::interval::trinomial_interval(
            self.white_wins,
            self.draws,
            self.black_wins,
        ) {
            Some(i) => (i.mean, i.low, i.high),
            None => (0.0, 0.0, 1.0),
        }
    }
}
