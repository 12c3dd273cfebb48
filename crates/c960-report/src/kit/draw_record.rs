//! `draw.json`, the public record of a tournament's draw, as one type:
//! `c960 tournament` writes it and `c960 draw --verify` reads it back, so
//! the two cannot disagree about a field. A field the type does not know
//! is refused when read.

use c960_core::{DrawFilter, DrawMethod, Key, SEAL_LABEL, SEAL_SCHEME, StartPosition};
use serde::{Deserialize, Serialize};

/// How the draw was made.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MethodName {
    /// From a numeric seed (a `ChaCha20` keystream).
    Seed,
    /// From a published phrase (a SHA-256 chain).
    Phrase,
}

impl MethodName {
    /// A draw method as a record gives it: its name, and its seed or phrase.
    pub fn of(method: &DrawMethod) -> (MethodName, Option<u64>, Option<String>) {
        match method {
            DrawMethod::Seed(seed) => (MethodName::Seed, Some(*seed), None),
            DrawMethod::Phrase(phrase) => (MethodName::Phrase, None, Some(phrase.clone())),
        }
    }
}

/// The record (field order is the file's).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrawRecord {
    /// Always `tournament-draw`.
    #[serde(default)]
    pub kind: String,
    /// How the draw was made.
    pub method: MethodName,
    /// The algorithm in words (`seed 11`, `phrase "…"`).
    #[serde(default)]
    pub algorithm: String,
    /// The seed, for a seeded draw.
    pub seed: Option<u64>,
    /// The phrase, for a phrase draw.
    pub phrase: Option<String>,
    /// The filters in words.
    #[serde(default)]
    pub filters: String,
    /// The filters, field by field.
    #[serde(default)]
    pub filter_settings: FilterSettings,
    /// The balance table a `--verdict` filter read.
    pub balance: Option<BalanceRecord>,
    /// How many positions could be drawn.
    #[serde(default)]
    pub candidates: usize,
    /// Which (SP numbers).
    pub candidate_sps: Vec<u16>,
    /// The published rounds.
    pub rounds: Vec<RoundRecord>,
    /// How many rounds are published.
    #[serde(default)]
    pub published_rounds: usize,
    /// All rounds, sealed ones included (absent: the published ones).
    pub total_rounds: Option<usize>,
    /// The sealed rounds' scheme and commitment.
    pub sealed: Option<SealRecord>,
    /// The kit's language.
    #[serde(default)]
    pub lang: String,
    /// The c960 version that made the record.
    #[serde(default)]
    pub c960_version: String,
}

/// The feature filters, as the draw applied them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FilterSettings {
    /// Positions excluded by number.
    #[serde(default)]
    pub exclude: Vec<u16>,
    /// At most this many undefended pawns per side.
    pub max_undefended: Option<usize>,
    /// At most this many king-only pawns per side.
    pub max_king_only: Option<usize>,
    /// At most this many weak (undefended or king-only) pawns per side.
    pub max_weak: Option<usize>,
    /// No undefended Black pawn that a legal first move of White attacks.
    #[serde(default)]
    pub no_first_move_attack: bool,
    /// No castling among White's legal first moves.
    #[serde(default)]
    pub no_first_move_castling: bool,
    /// The label of a restriction to some positions (a verdict), if any.
    pub only: Option<String>,
    /// A named list of positions excluded in advance (`freestyle`), all
    /// of them in `exclude`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exclude_preset: Option<String>,
    /// Earlier kits whose drawn positions are excluded, all of them in
    /// `exclude`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exclude_drawn: Vec<DrawnRecord>,
}

/// An earlier kit's draw whose positions a draw excludes.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrawnRecord {
    /// Its `draw.json` file name, without its directory.
    pub file: String,
    /// SHA-256 of that file's bytes, in hexadecimal.
    pub sha256: String,
    /// The SP numbers of all its rounds, ascending (sealed ones opened
    /// with its secret).
    pub sps: Vec<u16>,
}

impl FilterSettings {
    /// The settings of `filter`, field by field (excluded positions in
    /// ascending order).
    pub fn of(filter: &DrawFilter) -> FilterSettings {
        FilterSettings {
            exclude: filter.exclude.iter().map(|p| p.sp()).collect(),
            max_undefended: filter.max_undefended,
            max_king_only: filter.max_king_only,
            max_weak: filter.max_weak,
            no_first_move_attack: filter.no_first_move_attack,
            no_first_move_castling: filter.no_first_move_castling,
            only: filter.only.as_ref().map(|o| o.label.clone()),
            exclude_preset: None,
            exclude_drawn: Vec::new(),
        }
    }
}

/// The balance table a balance filter read, named by file and SHA-256,
/// and which of its positions the filter keeps: those with a verdict, the
/// `fairest` N to a reference, or those whose whole interval lies
/// `within` a distance of it. Exactly one of the three is given.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BalanceRecord {
    /// The verdict the draw kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<String>,
    /// How many positions the draw kept: those whose 95 % interval's
    /// farther end is nearest the reference.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fairest: Option<usize>,
    /// The distance (centipawns) from the reference that a kept
    /// position's whole 95 % interval lies within.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub within: Option<f64>,
    /// What `fairest` and `within` measure from: `equal`, `typical` or
    /// `classical`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
    /// The reference's value in the table (centipawns).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference_cp: Option<f64>,
    /// The share (%) of the table's positions with the highest draw chance
    /// left out before the selection.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_drawish: Option<f64>,
    /// The table's file name, without its directory.
    pub file: String,
    /// SHA-256 of the table's bytes, in hexadecimal.
    pub sha256: String,
    /// Positions the filter keeps from the table.
    pub positions: usize,
}

impl BalanceRecord {
    /// What the draw's restriction to this table's positions is called
    /// (the filter's `only` label): the selection, the file and the start
    /// of its SHA-256.
    pub fn label(&self) -> String {
        let short: String = self.sha256.chars().take(16).collect();
        let reference = || {
            format!(
                "{} ({:+.1} cp)",
                self.reference.as_deref().unwrap_or("?"),
                self.reference_cp.unwrap_or(f64::NAN)
            )
        };
        let what = match (&self.verdict, self.fairest, self.within) {
            (Some(verdict), _, _) => format!("verdict {verdict}"),
            (None, Some(n), _) => format!("the {n} fairest to {}", reference()),
            (None, None, Some(cp)) => {
                format!("95 % interval within ±{cp} cp of {}", reference())
            }
            (None, None, None) => "no selection".to_owned(),
        };
        let drawish = self.not_drawish.map_or_else(String::new, |p| {
            format!(", leaving out the {p} % most drawish (highest draw_chance)")
        });
        format!("{what}{drawish} in {} (SHA-256 {short})", self.file)
    }
}

/// One published round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoundRecord {
    /// The round (1-based).
    pub round: usize,
    /// The position's Scharnagl number.
    pub sp: u16,
    /// Its back rank, as letters (`RNBQKBNR`).
    #[serde(default)]
    pub placement: String,
    /// Its X-FEN.
    #[serde(default)]
    pub xfen: String,
    /// Its Shredder-FEN.
    #[serde(default)]
    pub shredder_fen: String,
}

impl RoundRecord {
    /// Round `round` (1-based), drawn as `position`.
    pub fn new(round: usize, position: StartPosition) -> RoundRecord {
        RoundRecord {
            round,
            sp: position.sp(),
            placement: position.placement(),
            xfen: position.to_xfen(),
            shredder_fen: position.to_shredder_fen(),
        }
    }
}

/// Sealed rounds: the scheme and the commitment to their keys.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SealRecord {
    /// The sealing scheme, in words.
    #[serde(default)]
    pub scheme: String,
    /// The first sealed round.
    #[serde(default)]
    pub first_round: usize,
    /// How many rounds are sealed.
    pub rounds: usize,
    /// The fingerprint of the last key, in hexadecimal.
    pub commitment: String,
    /// How the keys are chained, in words.
    #[serde(default)]
    pub stream: String,
}

impl SealRecord {
    /// `rounds` sealed rounds from `first_round` on, committed to by
    /// `commitment`.
    pub fn new(first_round: usize, rounds: usize, commitment: Key) -> SealRecord {
        SealRecord {
            scheme: SEAL_SCHEME.to_owned(),
            first_round,
            rounds,
            commitment: commitment.to_string(),
            stream: format!("SHA-256 chain from SHA-256(\"{SEAL_LABEL}\" + key)"),
        }
    }
}
