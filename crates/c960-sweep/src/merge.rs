//! `c960 merge` for sweeps: shard directories (and run directories of the
//! same settings) into one run directory with the journal, table and
//! manifest a single run writes.
//!
//! Every input's journal is read without changing it and checked as a
//! resume checks it (its settings line, each line's checksum and
//! content); the settings lines and the manifests' c960 version,
//! positions, `MultiPV` and repeats must agree. Rows are united by (SP,
//! repeat): a search two inputs both made counts once, and when the run
//! replays exactly (a node or depth limit) the two rows must be equal
//! apart from `time_ms`, else the merge is refused. Searches no input has
//! are missing: an error, or with `allow_missing` a partial table whose
//! manifest lists them.

use std::{
    collections::{BTreeMap, BTreeSet},
    path::{Path, PathBuf},
};

use c960_core::{SearchKey, Setup, Shard, Variant};
use c960_engine::Limit;
use c960_store::{
    RunKind, Settings,
    merge::{
        ExistingOutput, MergeInput, RunFiles, SEARCHES, Unite, begin, existing_output,
        keeps_output, missing, unfinished, unite, write_journal,
    },
};

use crate::{
    CSV_FILE, Entry, FailedPosition, JOURNAL_FILE, MANIFEST_FILE, PARQUET_FILE, REPEATS_CSV,
    REPEATS_PARQUET, RepeatPlan, Sharding, SweepError, SweepManifest, SweepRow, notes, repeats,
    validate, write_outputs,
};

/// What a merge produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MergeOutcome {
    /// Rows in the merged table.
    pub rows: usize,
    /// Rows found in more than one input and counted once.
    pub duplicates: usize,
    /// Searches (SP, repeat) of the run that no input has.
    pub missing: Vec<SearchKey>,
    /// The shards merged (inputs that played one part).
    pub shards: Vec<Shard>,
    /// Inputs without a manifest: runs that have not finished.
    pub unfinished: Vec<PathBuf>,
}

/// Why a merge was refused; the same errors as a sweep's.
pub type MergeError = SweepError;

/// A sweep's files, as a merge reads them.
const SWEEP: RunFiles<'static> = RunFiles {
    journal: JOURNAL_FILE,
    kind: RunKind::Sweep,
    what: "sweep",
    covers: "positions",
};

/// Merges the sweep directories `inputs` into `out` (see the module
/// documentation).
pub fn merge(
    inputs: &[PathBuf],
    out: &Path,
    allow_missing: bool,
) -> Result<MergeOutcome, MergeError> {
    let merging = begin::<Entry, SweepManifest>(inputs, out, SWEEP, |_| Ok(()), fields)?;
    let (read, plan, first) = (&merging.read, merging.plan(), merging.first());
    let variant = plan.variant;
    let positions = Setup::parse_set(variant, &plan.positions).map_err(|e| {
        SweepError::Invalid(format!("manifest positions {:?}: {e}", plan.positions))
    })?;
    let repeat_plan = repeat_plan(&first.settings)?;
    let wanted: BTreeSet<SearchKey> = positions
        .iter()
        .flat_map(|p| (0..repeat_plan.repeats.get()).map(move |r| SearchKey::new(p.id(), r)))
        .collect();
    let existing = existing_output(
        out,
        JOURNAL_FILE,
        &first.settings,
        &[
            MANIFEST_FILE,
            PARQUET_FILE,
            CSV_FILE,
            REPEATS_PARQUET,
            REPEATS_CSV,
        ],
    )?;

    let united = unite_searches(read, plan, &wanted, &repeat_plan)?;
    if existing == ExistingOutput::SameRun {
        keeps_output(
            out,
            JOURNAL_FILE,
            first,
            &united.units,
            SEARCHES,
            |entry: Entry| match entry {
                Entry::Done(row) => Some(row.key()),
                Entry::Failed(_) => None,
            },
            |key| search_name(variant, key),
        )?;
    }
    let missing = missing(
        read,
        wanted,
        &united.units,
        allow_missing,
        (SEARCHES, 8),
        |key| search_name(variant, key),
    )?;

    // The journal first, as a run writes it: header, then one line per row.
    write_journal(
        read,
        JOURNAL_FILE,
        &united.units,
        &out.join(JOURNAL_FILE),
        |_| Ok(()),
    )?;
    let rows: Vec<SweepRow> = united.units.into_values().map(|unit| unit.kept).collect();
    let manifest = merged_manifest(read, plan, &rows, &repeat_plan, missing);
    write_outputs(out, &rows, &manifest)?;
    Ok(MergeOutcome {
        rows: rows.len(),
        duplicates: united.duplicates,
        missing: manifest.sharding.missing,
        shards: manifest.sharding.shards,
        unfinished: unfinished(read),
    })
}

/// Each search of the run (`wanted`) over all inputs, with its row; a
/// search found again counts once (and must be the same row, apart from
/// its time, when the run replays exactly: a node or depth limit).
fn unite_searches(
    read: &[MergeInput<SweepManifest>],
    plan: &SweepManifest,
    wanted: &BTreeSet<SearchKey>,
    repeat_plan: &RepeatPlan,
) -> Result<c960_store::merge::United<SearchKey, SweepRow>, MergeError> {
    let (variant, limit, repeat_plan, reply) = (plan.variant, plan.limit, *repeat_plan, plan.reply);
    let exact = matches!(limit, Limit::Nodes(_) | Limit::Depth(_));
    let how = Unite {
        files: SWEEP,
        units: SEARCHES,
        check: &move |entry: &Entry| {
            validate::check_entry(entry, limit, &repeat_plan, variant, reply)
        },
        unit: &|entry: Entry, _: &[u8]| match entry {
            Entry::Done(row) => Some((row.key(), *row)),
            Entry::Failed(_) => None,
        },
        in_run: &|key: &SearchKey| wanted.contains(key),
        same: exact.then_some(&same_apart_from_time as &dyn Fn(&SweepRow, &SweepRow) -> bool),
        name: &|key| search_name(variant, key),
        conflict: &|key: SearchKey| {
            format!(
                "{} repeat {} has two different rows",
                variant.label(key.setup),
                key.repeat
            )
        },
        plan: format!(
            "positions {}, {}",
            plan.positions,
            c960_core::plural(repeat_plan.repeats.get(), "repeat", "repeats")
        ),
    };
    Ok(unite(read, &how)?)
}

/// The merged sweep's manifest: the run's settings from `plan`, the
/// merged counts (and repeatability) and the span of the inputs' clocks.
fn merged_manifest(
    read: &[MergeInput<SweepManifest>],
    plan: &SweepManifest,
    rows: &[SweepRow],
    repeat_plan: &RepeatPlan,
    missing: Vec<SearchKey>,
) -> SweepManifest {
    let manifests: Vec<&SweepManifest> = read.iter().filter_map(|i| i.manifest.as_ref()).collect();
    let (started, finished) = c960_store::merge::time_span(
        manifests
            .iter()
            .map(|m| (m.started.as_str(), m.finished.as_str())),
    );
    // A merged input brings the shards it was made from.
    let mut shards: Vec<Shard> = manifests
        .iter()
        .flat_map(|m| m.sharding.shard.iter().chain(&m.sharding.shards).copied())
        .collect();
    shards.sort_unstable();
    shards.dedup();
    let failed: Vec<FailedPosition> = manifests
        .iter()
        .flat_map(|m| m.failed.iter())
        .filter(|f| missing.contains(&f.key()))
        .map(|f| (f.key(), f.clone()))
        .collect::<BTreeMap<SearchKey, FailedPosition>>()
        .into_values()
        .collect();
    SweepManifest {
        kind: c960_store::RunKind::Sweep,
        variant: plan.variant,
        c960_version: plan.c960_version.clone(),
        engine: plan.engine.clone(),
        limit: plan.limit,
        multipv: plan.multipv,
        reply: plan.reply,
        repeats: plan.repeats,
        repeat_rule: plan.repeat_rule.clone(),
        seed: plan.seed,
        repeatability: repeat_plan
            .is_repeated()
            .then(|| repeats::repeatability(rows, repeat_plan.seed))
            .flatten(),
        positions: plan.positions.clone(),
        rows: rows.iter().map(|r| r.sp).collect::<BTreeSet<_>>().len(),
        failed,
        resumed: 0,
        jobs: manifests.iter().map(|m| m.jobs).sum(),
        started,
        finished,
        notes: notes(repeat_plan.is_repeated(), plan.reply),
        repaired: Vec::new(),
        sharding: Sharding {
            shard: None,
            shards,
            missing,
        },
    }
}

/// The manifest fields two inputs must share where both finished:
/// version, positions, `MultiPV`, replies, limit and repeats.
fn fields(x: &SweepManifest, y: &SweepManifest) -> Vec<(&'static str, String, String)> {
    vec![
        (
            "c960_version",
            x.c960_version.clone(),
            y.c960_version.clone(),
        ),
        ("variant", x.variant.to_string(), y.variant.to_string()),
        ("positions", x.positions.clone(), y.positions.clone()),
        ("multipv", x.multipv.to_string(), y.multipv.to_string()),
        ("reply", x.reply.to_string(), y.reply.to_string()),
        ("limit", x.limit.to_string(), y.limit.to_string()),
        ("repeats", x.repeats.to_string(), y.repeats.to_string()),
    ]
}

fn same_apart_from_time(a: &SweepRow, b: &SweepRow) -> bool {
    a.without_time() == b.without_time()
}

/// The repeat rule of a journal's settings line (absent: one search).
fn repeat_plan(settings: &Settings) -> Result<RepeatPlan, MergeError> {
    match settings.field("repeats") {
        Some(plan) => {
            plan.map_err(|e| SweepError::Invalid(format!("journal settings: repeats: {e}")))
        }
        None => Ok(RepeatPlan::single()),
    }
}

/// `SP 5`, or `SP 5 repeat 2` for a later repeat.
fn search_name(variant: Variant, key: SearchKey) -> String {
    if key.repeat == 0 {
        variant.label(key.setup)
    } else {
        format!("{} repeat {}", variant.label(key.setup), key.repeat)
    }
}
