//! `draw.json`, the public record of a tournament's draw, as one type:
//! `c960 tournament` writes it and `c960 draw --verify` reads it back, so
//! the two cannot disagree about a field.

use c960_core::{DrawMethod, StartPosition};
use serde::{Deserialize, Serialize};

/// How the draw was made.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum MethodName {
    /// From a numeric seed (a `ChaCha20` keystream).
    Seed,
    /// From a published phrase (a SHA-256 chain).
    Phrase,
}

impl MethodName {
    /// A draw method as a record gives it: its name, and its seed or phrase.
    pub(crate) fn of(method: &DrawMethod) -> (MethodName, Option<u64>, Option<String>) {
        match method {
            DrawMethod::Seed(seed) => (MethodName::Seed, Some(*seed), None),
            DrawMethod::Phrase(phrase) => (MethodName::Phrase, None, Some(phrase.clone())),
        }
    }
}

/// The record (field order is the file's).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct DrawRecord {
    /// Always `tournament-draw`.
    #[serde(default)]
    pub(crate) kind: String,
    pub(crate) method: MethodName,
    /// The algorithm in words (`seed 11`, `phrase "…"`).
    #[serde(default)]
    pub(crate) algorithm: String,
    pub(crate) seed: Option<u64>,
    pub(crate) phrase: Option<String>,
    /// The filters in words.
    #[serde(default)]
    pub(crate) filters: String,
    #[serde(default)]
    pub(crate) filter_settings: FilterSettings,
    /// The balance table a `--verdict` filter read.
    pub(crate) balance: Option<BalanceRecord>,
    /// How many positions could be drawn.
    #[serde(default)]
    pub(crate) candidates: usize,
    /// Which (SP numbers).
    pub(crate) candidate_sps: Vec<u16>,
    /// The published rounds.
    pub(crate) rounds: Vec<RoundRecord>,
    #[serde(default)]
    pub(crate) published_rounds: usize,
    /// All rounds, sealed ones included (absent: the published ones).
    pub(crate) total_rounds: Option<usize>,
    /// The sealed rounds' scheme and commitment.
    pub(crate) sealed: Option<SealRecord>,
    /// The kit's language.
    #[serde(default)]
    pub(crate) lang: String,
    #[serde(default)]
    pub(crate) c960_version: String,
}

/// The feature filters, as the draw applied them.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub(crate) struct FilterSettings {
    #[serde(default)]
    pub(crate) exclude: Vec<u16>,
    pub(crate) max_undefended: Option<usize>,
    pub(crate) max_king_only: Option<usize>,
    pub(crate) max_weak: Option<usize>,
    #[serde(default)]
    pub(crate) no_first_move_attack: bool,
    #[serde(default)]
    pub(crate) no_first_move_castling: bool,
    /// The label of a restriction to some positions (a verdict), if any.
    pub(crate) only: Option<String>,
}

/// The balance table a verdict filter read: named by file and SHA-256.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct BalanceRecord {
    pub(crate) verdict: String,
    pub(crate) file: String,
    pub(crate) sha256: String,
    pub(crate) positions: usize,
}

/// One published round.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct RoundRecord {
    pub(crate) round: usize,
    pub(crate) sp: u16,
    #[serde(default)]
    pub(crate) placement: String,
    #[serde(default)]
    pub(crate) xfen: String,
    #[serde(default)]
    pub(crate) shredder_fen: String,
}

impl RoundRecord {
    /// Round `round` (1-based), drawn as `position`.
    pub(crate) fn new(round: usize, position: StartPosition) -> RoundRecord {
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
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct SealRecord {
    #[serde(default)]
    pub(crate) scheme: String,
    #[serde(default)]
    pub(crate) first_round: usize,
    /// How many rounds are sealed.
    pub(crate) rounds: usize,
    /// The fingerprint of the last key, in hexadecimal.
    pub(crate) commitment: String,
    #[serde(default)]
    pub(crate) stream: String,
}
