//! What a position's balance is measured from: equal chances, the typical
//! position, or the classical setup. One type for `fair.html`, `c960 draw
//! --fairest`/`--within` and `c960 book balanced`, which all default to
//! equal chances.

use serde::{Deserialize, Serialize};

/// What "balanced" is measured against.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Reference {
    /// Equal chances: a White edge of 0 cp, or a score of 50 %.
    #[default]
    Equal,
    /// The typical position: the mean over all positions (what the
    /// verdicts of `balance.csv` measure from).
    Typical,
    /// The classical setup, SP 518.
    Classical,
}

/// The scale of a balance figure.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Scale {
    /// White's edge in centipawns (engines).
    Cp,
    /// White's score, 0 to 1 (games).
    Score,
}

impl Scale {
    /// Equal chances on this scale: 0 cp or a score of ½.
    #[must_use]
    pub fn equal(self) -> f64 {
        match self {
            Scale::Cp => 0.0,
            Scale::Score => 0.5,
        }
    }
}

impl Reference {
    /// Every reference, the default first.
    pub const ALL: [Reference; 3] = [Reference::Equal, Reference::Typical, Reference::Classical];

    /// The default everywhere: an organizer reads "fair" as "closest to
    /// equal chances".
    pub const DEFAULT: Reference = Reference::Equal;

    /// The name used in flags, records and pages (`equal`, `typical`,
    /// `classical`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Reference::Equal => "equal",
            Reference::Typical => "typical",
            Reference::Classical => "classical",
        }
    }

    /// The reference with this name.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Reference> {
        Reference::ALL.into_iter().find(|r| r.name() == name)
    }

    /// The reference in the words of a sentence.
    #[must_use]
    pub const fn words(self) -> &'static str {
        match self {
            Reference::Equal => "equal chances (0 cp, or a score of 50%)",
            Reference::Typical => "the typical position (the mean of all positions)",
            Reference::Classical => "the classical setup (SP 518)",
        }
    }

    /// The reference's value among `values` (each position's SP and its
    /// figure on `scale`): equal chances on the scale, their mean, or SP
    /// 518's figure. `None` when there is no such figure.
    #[must_use]
    #[allow(clippy::cast_precision_loss)]
    pub fn value(self, scale: Scale, values: &[(u16, f64)]) -> Option<f64> {
        match self {
            Reference::Equal => Some(scale.equal()),
            Reference::Typical => (!values.is_empty())
                .then(|| values.iter().map(|v| v.1).sum::<f64>() / values.len() as f64),
            Reference::Classical => values.iter().find(|v| v.0 == 518).map(|v| v.1),
        }
    }
}

impl std::fmt::Display for Reference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
