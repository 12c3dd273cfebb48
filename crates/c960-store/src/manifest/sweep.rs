//! A sweep's manifest as the sweep writes it (and its merge reads it
//! back): how its table was made, and which part of a sharded run it is.
//! Readers of any run read it as a [`super::RunManifest`].

use std::num::NonZeroU32;

use c960_core::{SearchKey, Shard, Variant};
use c960_engine::{EngineInfo, Limit};
use serde::{Deserialize, Serialize};

use super::{Repeatability, RunKind};
use crate::DroppedLine;

/// A sweep's manifest: how its table was made.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SweepManifest {
    /// Always [`RunKind::Sweep`].
    pub kind: RunKind,
    /// The setups' variant: absent for Chess960, `dfrc` for Double Fischer
    /// Random (whose tables name setups in a `setup` column).
    #[serde(default, skip_serializing_if = "Variant::is_chess960")]
    pub variant: Variant,
    /// The c960 version that wrote it.
    pub c960_version: String,
    /// The engine: name, author, path, options.
    pub engine: EngineInfo,
    /// The search limit per position.
    pub limit: Limit,
    /// Principal variations per position.
    pub multipv: NonZeroU32,
    /// Whether each position's reply (the position after the best move)
    /// was searched too; absent when not.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub reply: bool,
    /// Searches per position.
    #[serde(default = "one")]
    pub repeats: NonZeroU32,
    /// How the repeats differ (seed and node-budget rule), with repeats.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repeat_rule: Option<String>,
    /// The seed that draws the repeats' budgets, with repeats.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// The repeatability of the per-position means, with repeats.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repeatability: Option<Repeatability>,
    /// The positions asked for, as a set (`all`, `0-99,518`).
    pub positions: String,
    /// Rows in the table: positions (the searches are in `repeats.parquet`
    /// with repeats).
    pub rows: usize,
    /// Searches that failed.
    pub failed: Vec<FailedPosition>,
    /// Rows taken from an earlier, interrupted run's journal.
    pub resumed: usize,
    /// Engine processes used.
    pub jobs: usize,
    /// When this run started (RFC 3339, UTC).
    pub started: String,
    /// When it finished.
    pub finished: String,
    /// Notes on reading the table.
    pub notes: String,
    /// Journal lines dropped by `--repair`, if any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub repaired: Vec<DroppedLine>,
    /// Which part of the run this is: a shard, or a merge of shards.
    #[serde(flatten)]
    pub sharding: Sharding,
}

/// A manifest's shard fields, each left out when empty (a whole run of
/// its own has none).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sharding {
    /// The shard this run played (`I/N`), when it played one part only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// The shards a merged table was made from (`c960 merge`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shards: Vec<Shard>,
    /// Searches (SP or DFRC index, repeat) of the run that a merge found
    /// in no input (`--allow-missing`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<SearchKey>,
}

/// A position (a search, with repeats) that failed on every attempt.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailedPosition {
    /// The setup's number (Scharnagl number, or DFRC index).
    pub sp: u32,
    /// The repeat (0 without repeats).
    #[serde(default)]
    pub repeat: u32,
    /// The last error.
    pub reason: String,
    /// Attempts made.
    pub attempts: u32,
}

impl FailedPosition {
    /// The search that failed: its setup and repeat.
    #[must_use]
    pub fn key(&self) -> SearchKey {
        SearchKey::new(self.sp, self.repeat)
    }
}

fn one() -> NonZeroU32 {
    NonZeroU32::MIN
}
