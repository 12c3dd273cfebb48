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
    io,
    path::{Path, PathBuf},
};

use c960_core::{SearchKey, Setup, Shard, Variant};
use c960_engine::Limit;
use c960_store::{
    Journal, JournalError, RunDir, RunKind, Settings,
    merge::{
        ExistingOutput, MergeInput, SEARCHES, agree, existing_output, missing_message,
        output_would_lose, outside_the_run, read_inputs, refuse_mixed, unfinished,
    },
    write_atomically,
};

use crate::{
    CSV_FILE, Entry, FailedPosition, JOURNAL_FILE, MANIFEST_FILE, NOTES, PARQUET_FILE,
    REPEAT_NOTES, REPEATS_CSV, REPEATS_PARQUET, RepeatPlan, Sharding, SweepError, SweepManifest,
    SweepRow, repeats, validate, write_outputs,
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

/// Merges the sweep directories `inputs` into `out` (see the module
/// documentation).
pub fn merge(
    inputs: &[PathBuf],
    out: &Path,
    allow_missing: bool,
) -> Result<MergeOutcome, MergeError> {
    let invalid = |m: String| SweepError::Invalid(m);
    c960_store::create_dir(out)?;
    let _dir = RunDir::lock(out)?;
    let (read, _locks) =
        read_inputs::<Entry, SweepManifest>(inputs, out, JOURNAL_FILE, RunKind::Sweep, "sweep")?;
    let first = &read[0];
    for other in &read[1..] {
        agree(first, other, &fields(first, other))?;
    }
    let Some(plan) = read.iter().find_map(|i| i.manifest.as_ref()) else {
        return Err(invalid(format!(
            "no input has finished (no {MANIFEST_FILE}): nothing says which positions the run \
             covers"
        )));
    };
    let variant = plan.variant;
    let positions = Setup::parse_set(variant, &plan.positions)
        .map_err(|e| invalid(format!("manifest positions {:?}: {e}", plan.positions)))?;
    let limit = plan.limit;
    let repeat_plan = repeat_plan(&first.settings)?;
    let wanted: BTreeSet<SearchKey> = positions
        .iter()
        .flat_map(|p| (0..repeat_plan.repeats.get()).map(move |r| SearchKey::new(p.id(), r)))
        .collect();
    let exact = matches!(limit, Limit::Nodes(_) | Limit::Depth(_));
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

    let (rows, duplicates) = unite(&read, plan, &wanted, limit, &repeat_plan, exact)?;
    if existing == ExistingOutput::SameRun {
        keeps_output(out, &first.settings, variant, &rows)?;
    }
    let missing: Vec<SearchKey> = wanted
        .iter()
        .copied()
        .filter(|key| !rows.contains_key(key))
        .collect();
    let unfinished = unfinished(&read);
    if !missing.is_empty() && !allow_missing {
        return Err(invalid(missing_searches(variant, &missing, &unfinished)));
    }

    // The journal first, as a run writes it: header, then one line per row.
    write_atomically(&out.join(JOURNAL_FILE), |file| {
        io::Write::write_all(file, &first.header)?;
        for (_, line, _) in rows.values() {
            io::Write::write_all(file, line)?;
        }
        Ok(())
    })?;
    let rows: Vec<SweepRow> = rows.into_values().map(|(row, _, _)| row).collect();
    let manifest = merged_manifest(&read, plan, &rows, &repeat_plan, missing);
    write_outputs(out, &rows, &manifest)?;
    Ok(MergeOutcome {
        rows: rows.len(),
        duplicates,
        missing: manifest.sharding.missing,
        shards: manifest.sharding.shards,
        unfinished,
    })
}

/// Each input's row of each search of the run (`wanted`), with its
/// journal line and input; a search found again counts once (and must be
/// the same row when the run replays exactly). Refuses an input with
/// searches outside the run.
fn unite(
    read: &[MergeInput<SweepManifest>],
    plan: &SweepManifest,
    wanted: &BTreeSet<SearchKey>,
    limit: Limit,
    repeat_plan: &RepeatPlan,
    exact: bool,
) -> Result<(Rows, usize), MergeError> {
    let first = &read[0];
    let variant = plan.variant;
    let repeat_plan = *repeat_plan;
    let mut rows: Rows = BTreeMap::new();
    let mut duplicates = 0;
    for (k, input) in read.iter().enumerate() {
        let path = input.dir.join(JOURNAL_FILE);
        let check = move |entry: &Entry| validate::check_entry(entry, limit, &repeat_plan, variant);
        let mut refused = None;
        let mut outside: (usize, Option<SearchKey>) = (0, None);
        let result =
            Journal::<Entry>::read_records(&path, &first.settings, &check, |entry, _, line| {
                let Entry::Done(row) = entry else {
                    return Ok(());
                };
                let key = row.key();
                if !wanted.contains(&key) {
                    outside.0 += 1;
                    outside.1.get_or_insert(key);
                    return Ok(());
                }
                match rows.get(&key) {
                    None => {
                        rows.insert(key, (*row, line.to_vec(), k));
                    }
                    Some((seen, _, from)) => {
                        if exact && !same_apart_from_time(seen, &row) {
                            refused = Some(conflict(&read[*from].dir, &input.dir, variant, key));
                            return Err(JournalError::Io {
                                path: path.clone(),
                                source: io::Error::other("conflicting duplicate"),
                            });
                        }
                        duplicates += 1;
                    }
                }
                Ok(())
            });
        if let Some(message) = refused {
            return Err(SweepError::Invalid(message));
        }
        result.map_err(|e| refuse_mixed(first, input, e))?;
        if let (count, Some(key)) = outside {
            return Err(outside_the_run(
                &input.dir,
                count,
                SEARCHES,
                &search_name(variant, key),
                &format!(
                    "positions {}, {}",
                    plan.positions,
                    c960_core::plural(repeat_plan.repeats.get(), "repeat", "repeats")
                ),
            )
            .into());
        }
    }
    Ok((rows, duplicates))
}

/// Each search's row, journal line and input.
type Rows = BTreeMap<SearchKey, (SweepRow, Vec<u8>, usize)>;

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
        notes: if repeat_plan.is_repeated() {
            format!("{NOTES}{REPEAT_NOTES}")
        } else {
            NOTES.to_owned()
        },
        repaired: Vec::new(),
        sharding: Sharding {
            shard: None,
            shards,
            missing,
        },
    }
}

/// The manifest fields two inputs must share where both finished:
/// version, positions, `MultiPV`, limit and repeats.
fn fields(
    a: &MergeInput<SweepManifest>,
    b: &MergeInput<SweepManifest>,
) -> Vec<(&'static str, String, String)> {
    let (Some(x), Some(y)) = (&a.manifest, &b.manifest) else {
        return Vec::new();
    };
    vec![
        (
            "c960_version",
            x.c960_version.clone(),
            y.c960_version.clone(),
        ),
        ("variant", x.variant.to_string(), y.variant.to_string()),
        ("positions", x.positions.clone(), y.positions.clone()),
        ("multipv", x.multipv.to_string(), y.multipv.to_string()),
        ("limit", x.limit.to_string(), y.limit.to_string()),
        ("repeats", x.repeats.to_string(), y.repeats.to_string()),
    ]
}

fn conflict(a: &Path, b: &Path, variant: Variant, key: SearchKey) -> String {
    let (sp, repeat) = (variant.label(key.setup), key.repeat);
    format!(
        "cannot merge {} with {}: {sp} repeat {repeat} has two different rows in a run \
         that replays exactly (a conflicting duplicate)",
        b.display(),
        a.display()
    )
}

fn same_apart_from_time(a: &SweepRow, b: &SweepRow) -> bool {
    SweepRow {
        time_ms: None,
        ..a.clone()
    } == SweepRow {
        time_ms: None,
        ..b.clone()
    }
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

/// Refuses to replace the sweep in `out` (of the inputs' settings) when it
/// holds a search that no input has.
fn keeps_output<T>(
    out: &Path,
    settings: &Settings,
    variant: Variant,
    rows: &BTreeMap<SearchKey, T>,
) -> Result<(), MergeError> {
    let mut lost = 0;
    let mut first = None;
    Journal::<Entry>::read_records(
        &out.join(JOURNAL_FILE),
        settings,
        &|_| Ok(()),
        |entry, _, _| {
            if let Entry::Done(row) = entry
                && !rows.contains_key(&row.key())
            {
                lost += 1;
                first.get_or_insert(row.key());
            }
            Ok(())
        },
    )?;
    match first {
        Some(key) => Err(output_would_lose(out, lost, SEARCHES, &search_name(variant, key)).into()),
        None => Ok(()),
    }
}

/// The refusal for missing searches, the first few named.
fn missing_searches(variant: Variant, missing: &[SearchKey], unfinished: &[PathBuf]) -> String {
    let shown: Vec<String> = missing
        .iter()
        .take(8)
        .map(|&key| search_name(variant, key))
        .collect();
    missing_message(missing.len(), SEARCHES, &shown, unfinished)
}
