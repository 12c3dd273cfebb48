//! A sweep as a command asks for it. `c960 sweep`, `c960 slurm sweep` and
//! `c960 run` (one per rater) each fill a [`SweepPlan`] from their flags or
//! plan; [`SweepPlan::config`] makes and checks the sweep's configuration
//! once, here, before any engine starts.

use std::{num::NonZeroU32, path::PathBuf};

use c960_core::{Setup, Shard, Variant};
use c960_engine::{EngineSpec, Limit};

use crate::{RepeatPlan, SweepConfig, SweepError, check_config};

/// What a command asks a sweep to do.
#[derive(Clone, Debug)]
pub struct SweepPlan {
    /// The engine and its options.
    pub engine: EngineSpec,
    /// The search limit per position.
    pub limit: Limit,
    /// Principal variations (top moves) per position.
    pub multipv: NonZeroU32,
    /// The setups to evaluate (one variant).
    pub positions: Vec<Setup>,
    /// The set as the user wrote it (`all`, `0-99,518`, `sample:20000:1`).
    pub set: String,
    /// Searches per position and how they differ.
    pub repeats: RepeatPlan,
    /// Engine processes running at once.
    pub jobs: usize,
    /// Extra attempts for a position whose engine died.
    pub retries: u32,
    /// The run directory.
    pub out: PathBuf,
    /// Drop journal lines that cannot be trusted instead of refusing to
    /// resume.
    pub repair: bool,
    /// This run's part of the searches.
    pub shard: Shard,
    /// Also search the position after each best move (Black's reply).
    pub reply: bool,
}

impl SweepPlan {
    /// The sweep's configuration (a DFRC set is recorded as named, not as
    /// its thousands of indices), checked as the run will check it.
    ///
    /// # Errors
    /// [`SweepError::Invalid`] (bad input) for no positions, setups of two
    /// variants, a repeat rule the limit does not allow, or a shard without
    /// searches.
    pub fn config(self) -> Result<SweepConfig, SweepError> {
        let dfrc = self.positions.first().map(|s| s.variant()) == Some(Variant::Dfrc);
        let config = SweepConfig {
            engine: self.engine,
            limit: self.limit,
            multipv: self.multipv,
            positions: self.positions,
            set: dfrc.then(|| self.set.trim().to_owned()),
            repeats: self.repeats,
            jobs: self.jobs,
            retries: self.retries,
            out: self.out,
            repair: self.repair,
            shard: self.shard,
            reply: self.reply,
        };
        check_config(&config)?;
        Ok(config)
    }
}
