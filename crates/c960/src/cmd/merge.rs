//! `c960 merge`: shard directories (and runs of the same settings) into one
//! run directory, as one machine would have written it.

use std::{
    fmt::Write as _,
    path::{Path, PathBuf},
};

use anyhow::{Context, Result};
use c960_core::Shard;
use c960_store::{
    RunKind, RunManifest,
    merge::{GAMES, SEARCHES, Units},
};

use crate::{
    cli::{InputError, MergeArgs},
    output::Text,
};

/// What kind of run a directory holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Sweep,
    Selfplay,
    Run,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Sweep => "sweep",
            Kind::Selfplay => "self-play",
            Kind::Run => "c960 run",
        }
    }
}

/// The kind of the run in `dir`: a `c960 run` directory has `sweep/`;
/// otherwise the manifest, or the journal's settings line, says.
pub(crate) fn kind_of(dir: &Path) -> Result<Kind> {
    if dir.join("sweep").is_dir() {
        return Ok(Kind::Run);
    }
    let not_a_run = || {
        InputError(format!(
            "{} is not a c960 run directory (no journal.jsonl)",
            dir.display()
        ))
    };
    // A finished run's manifest says; an unfinished shard has only its
    // journal.
    if let Ok(manifest) = RunManifest::read(dir) {
        match manifest.kind {
            RunKind::Sweep => return Ok(Kind::Sweep),
            RunKind::Selfplay => return Ok(Kind::Selfplay),
            RunKind::Import => {}
        }
    }
    let journal = dir.join(c960_store::JOURNAL_FILE);
    if !journal.is_file() {
        return Err(not_a_run().into());
    }
    let (_, settings) = c960_store::Journal::<serde::de::IgnoredAny>::read_header(&journal)?;
    if settings.has("seed") {
        Ok(Kind::Selfplay)
    } else if settings.has("multipv") {
        Ok(Kind::Sweep)
    } else {
        Err(not_a_run().into())
    }
}

pub(crate) fn run(args: &MergeArgs) -> Result<()> {
    let mut claim = c960_store::Claim::new().run_dir(&args.out, "--out", &[]);
    for dir in &args.inputs {
        claim = claim.input_dir(dir, "the input");
    }
    let _claimed = claim.take()?;
    let kind = kind_of(&args.inputs[0])?;
    for dir in &args.inputs[1..] {
        let other = kind_of(dir)?;
        if other != kind {
            return Err(InputError(format!(
                "cannot merge {} ({}) with {} ({})",
                dir.display(),
                other.name(),
                args.inputs[0].display(),
                kind.name()
            ))
            .into());
        }
    }
    let mut text = Text::default();
    match kind {
        Kind::Sweep => merge_sweeps(&args.inputs, &args.out, args.allow_missing, &mut text)?,
        Kind::Selfplay => merge_selfplay(&args.inputs, &args.out, args.allow_missing, &mut text)?,
        Kind::Run => merge_runs(args, &mut text)?,
    }
    if !args.quiet {
        text.print()?;
    }
    Ok(())
}

fn merge_sweeps(
    inputs: &[PathBuf],
    out: &Path,
    allow_missing: bool,
    text: &mut Text,
) -> Result<()> {
    let merged = c960_sweep::merge(inputs, out, allow_missing)
        .with_context(|| format!("merge into {}", out.display()))?;
    let summary = Merged {
        count: merged.rows as u64,
        unit: (("sweep row", "sweep rows"), SEARCHES),
        inputs: inputs.len(),
        shards: &merged.shards,
        duplicates: merged.duplicates as u64,
        missing: merged.missing.len(),
    };
    summary.say(out, text)
}

fn merge_selfplay(
    inputs: &[PathBuf],
    out: &Path,
    allow_missing: bool,
    text: &mut Text,
) -> Result<()> {
    let merged = c960_selfplay::merge(inputs, out, allow_missing)
        .with_context(|| format!("merge into {}", out.display()))?;
    let summary = Merged {
        count: merged.games,
        unit: (GAMES, GAMES),
        inputs: inputs.len(),
        shards: &merged.shards,
        duplicates: merged.duplicates,
        missing: merged.missing.len(),
    };
    summary.say(out, text)
}

/// What a merge of sweeps or self-play did, for its summary line.
struct Merged<'a> {
    count: u64,
    /// What was merged and what can be missing, each in the singular and
    /// the plural: sweep rows and searches, or games and games.
    unit: (Units, Units),
    inputs: usize,
    shards: &'a [Shard],
    duplicates: u64,
    missing: usize,
}

impl Merged<'_> {
    /// `merged 960 sweep rows from 2 inputs (shards …) into OUT`, with
    /// the duplicates and missing units where there are any.
    fn say(&self, out: &Path, text: &mut Text) -> Result<()> {
        let ((one, many), (missing_one, missing_many)) = self.unit;
        writeln!(
            text,
            "merged {} from {}{} into {}{}{}",
            c960_core::plural(self.count, one, many),
            c960_core::plural(self.inputs, "input", "inputs"),
            shard_list(self.shards),
            out.display(),
            duplicates(self.duplicates),
            if self.missing == 0 {
                String::new()
            } else {
                format!(
                    "; {} missing, listed in the manifest",
                    c960_core::plural(self.missing, missing_one, missing_many)
                )
            }
        )?;
        Ok(())
    }
}

/// Shards of `c960 run`: their sweeps and self-play merged into
/// `out/sweep` and `out/selfplay`, the position table, and the report
/// built from the merged runs.
fn merge_runs(args: &MergeArgs, text: &mut Text) -> Result<()> {
    let out = &args.out;
    let _dir = c960_store::RunDir::lock(out)?;
    let sweeps: Vec<PathBuf> = args.inputs.iter().map(|d| d.join("sweep")).collect();
    merge_sweeps(&sweeps, &out.join("sweep"), args.allow_missing, text)?;
    let mut runs = vec![out.join("sweep")];
    let with_selfplay = args
        .inputs
        .iter()
        .filter(|d| d.join("selfplay").is_dir())
        .count();
    if with_selfplay > 0 {
        if with_selfplay < args.inputs.len() {
            return Err(InputError(
                "some of the runs have self-play and some do not: other settings".to_owned(),
            )
            .into());
        }
        let played: Vec<PathBuf> = args.inputs.iter().map(|d| d.join("selfplay")).collect();
        merge_selfplay(&played, &out.join("selfplay"), args.allow_missing, text)?;
        runs.push(out.join("selfplay"));
    }
    c960_store::write_atomically(&out.join("positions.csv"), |file| {
        crate::cmd::positions::write_position_table_csv(file)
    })?;
    let report = out.join("report");
    let built = c960_report::build(&runs, &report)
        .with_context(|| format!("report into {}", report.display()))?;
    writeln!(
        text,
        "report  {} ({} pages)",
        report.join("index.html").display(),
        built.pages
    )?;
    Ok(())
}

fn shard_list(shards: &[Shard]) -> String {
    if shards.is_empty() {
        String::new()
    } else {
        let list: Vec<String> = shards.iter().map(ToString::to_string).collect();
        format!(" (shards {})", list.join(", "))
    }
}

fn duplicates(n: u64) -> String {
    if n == 0 {
        String::new()
    } else {
        format!(
            "; {} found in more than one input, counted once",
            c960_core::plural(n, "unit", "units")
        )
    }
}
