//! What an expansion set out to expand, written beside its journal before
//! its first search (`starts.json`), so that a book is never made from a
//! run that stopped before its end: reading the runs for a book refuses a run
//! directory whose journal lacks a start of its plan.

use std::{collections::BTreeSet, io::Write as _, path::Path};

use c960_core::{Setup, Shard, Variant};
use c960_runner::RunError;
use serde::{Deserialize, Serialize};

/// The plan file in an expansion's run directory.
pub const PLAN_FILE: &str = "starts.json";

/// An expansion's plan: the set of starts and the shard of it expanded.
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct Plan {
    variant: Variant,
    /// The whole set, as its text (`all`, `0-99`, DFRC indices).
    setups: String,
    /// The part of the set this run expands.
    shard: Shard,
    /// How many starts that part holds.
    starts: usize,
}

impl Plan {
    /// The plan of expanding the `shard` of `setups`.
    pub(super) fn new(setups: &[Setup], shard: Shard, starts: usize) -> Plan {
        Plan {
            variant: setups.first().map_or(Variant::Chess960, |s| s.variant()),
            setups: Setup::format_set(setups),
            shard,
            starts,
        }
    }

    /// Writes the plan into the run directory `dir`.
    pub(super) fn write(&self, dir: &Path) -> Result<(), RunError> {
        let json = serde_json::to_string(self).map_err(|e| RunError::Invalid(e.to_string()))?;
        c960_store::write_atomically(&dir.join(PLAN_FILE), |out| {
            out.write_all(json.as_bytes())?;
            out.write_all(b"\n")
        })
        .map_err(|e| RunError::Invalid(e.to_string()))
    }

    /// Refuses the run directory `dir` whose journal holds only `held`
    /// of the starts its plan names (it stopped before its end). A
    /// directory without a plan (written before plans were) is taken as
    /// it is.
    pub(super) fn check_finished(dir: &Path, held: &BTreeSet<u32>) -> Result<(), RunError> {
        let path = dir.join(PLAN_FILE);
        let Ok(text) = std::fs::read_to_string(&path) else {
            return Ok(());
        };
        let plan: Plan = serde_json::from_str(&text).map_err(|e| {
            RunError::Invalid(format!(
                "{} is not an expansion's plan: {e}",
                path.display()
            ))
        })?;
        let planned = Setup::parse_set(plan.variant, &plan.setups)
            .map_err(|e| RunError::Invalid(format!("{}: {e}", path.display())))?;
        let missing = planned
            .iter()
            .filter(|s| plan.shard.contains(s.id(), 0) && !held.contains(&s.id()))
            .count();
        if missing == 0 {
            return Ok(());
        }
        Err(RunError::Invalid(format!(
            "{} holds {} of the {} its expansion set out to expand (--positions {} --shard {}): \
             it stopped before its end; run its command again to finish it",
            dir.display(),
            plan.starts.saturating_sub(missing),
            c960_core::plural(plan.starts, "start", "starts"),
            plan.setups,
            plan.shard
        )))
    }
}
