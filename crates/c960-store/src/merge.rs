//! What every `c960 merge` shares, whatever the kind of run: the input
//! directories read and locked for reading, each with its journal header
//! and (once it finished) its manifest; the check that two inputs were
//! made with the same settings; and the words for a merge refused.
//!
//! The kinds differ only in their units and tables (a sweep's (position,
//! repeat) searches, a self-play run's games), which their own crates
//! name and write through the shared skeleton ([`begin`], [`unite`],
//! [`missing`], [`write_journal`]).

use std::{
    fs, io,
    path::{Path, PathBuf},
};

use serde::de::DeserializeOwned;
use thiserror::Error;

use crate::{DirLock, Journal, JournalError, LockError, MANIFEST_FILE, RunKind, Settings};

mod skeleton;

pub use skeleton::{
    Merging, RunFiles, Same, Unit, UnitOf, Unite, United, begin, keeps_output, missing, unite,
    write_journal,
};

/// One input of a merge: its directory, its manifest if it finished, and
/// its journal's header line (as written) and settings.
#[derive(Debug)]
pub struct MergeInput<M> {
    /// The run directory.
    pub dir: PathBuf,
    /// Its manifest, if the run finished.
    pub manifest: Option<M>,
    /// The journal's header line, newline included.
    pub header: Vec<u8>,
    /// The settings in that header.
    pub settings: Settings,
}

/// Why a merge cannot go on.
#[derive(Debug, Error)]
pub enum MergeRefusal {
    /// Inputs that cannot be merged (the message says why, in one line).
    #[error("{0}")]
    Invalid(String),
    /// A journal that cannot be read or trusted.
    #[error(transparent)]
    Journal(#[from] JournalError),
    /// A file that cannot be read.
    #[error(transparent)]
    Io(#[from] io::Error),
    /// An input or the output is locked by a run.
    #[error(transparent)]
    Lock(#[from] LockError),
}

/// A manifest's kind, read before the rest.
#[derive(serde::Deserialize)]
struct KindOf {
    kind: Option<RunKind>,
}

/// Reads the run directories `inputs` of kind `kind` (as manifests name
/// it; `what` is how messages name it) with the journal `journal` in
/// each, locking each for reading while the returned locks live. Refuses
/// no input, an input that is also the output `out`, a directory without a
/// journal, and a manifest of another kind.
pub fn read_inputs<R: DeserializeOwned, M: DeserializeOwned>(
    inputs: &[PathBuf],
    out: &Path,
    journal: &str,
    kind: RunKind,
    what: &str,
) -> Result<(Vec<MergeInput<M>>, Vec<DirLock>), MergeRefusal> {
    if inputs.is_empty() {
        return Err(MergeRefusal::Invalid(
            "nothing to merge: name at least one run directory".to_owned(),
        ));
    }
    let out_real = fs::canonicalize(out)?;
    let mut locks = Vec::new();
    let mut read = Vec::new();
    for dir in inputs {
        if fs::canonicalize(dir).is_ok_and(|d| d == out_real) {
            return Err(MergeRefusal::Invalid(format!(
                "{} is both an input and the output; merge into another directory",
                dir.display()
            )));
        }
        locks.push(DirLock::shared(dir)?);
        read.push(read_input::<R, M>(dir, journal, kind, what)?);
    }
    Ok((read, locks))
}

fn read_input<R: DeserializeOwned, M: DeserializeOwned>(
    dir: &Path,
    journal: &str,
    kind: RunKind,
    what: &str,
) -> Result<MergeInput<M>, MergeRefusal> {
    let path = dir.join(journal);
    if !path.is_file() {
        return Err(MergeRefusal::Invalid(format!(
            "{} is not a {what} run directory (no {journal})",
            dir.display()
        )));
    }
    let manifest = match fs::read_to_string(dir.join(MANIFEST_FILE)) {
        Ok(text) => {
            let not_ours = |e: String| {
                MergeRefusal::Invalid(format!(
                    "{}: not a {what} manifest: {e}",
                    dir.join(MANIFEST_FILE).display()
                ))
            };
            let written: KindOf =
                serde_json::from_str(&text).map_err(|e| not_ours(e.to_string()))?;
            if written.kind != Some(kind) {
                return Err(MergeRefusal::Invalid(format!(
                    "{} is a {} run, not {what}",
                    dir.display(),
                    written.kind.map_or("?", RunKind::name)
                )));
            }
            Some(serde_json::from_str(&text).map_err(|e| not_ours(e.to_string()))?)
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(e.into()),
    };
    let (header, settings) = Journal::<R>::read_header(&path)?;
    Ok(MergeInput {
        dir: dir.to_owned(),
        manifest,
        header,
        settings,
    })
}

/// Checks that input `b` was made with `a`'s settings: the same journal
/// settings line (what differs is named) and the same manifest `fields`
/// (name, `a`'s value, `b`'s value) where both finished.
pub fn agree<M>(
    a: &MergeInput<M>,
    b: &MergeInput<M>,
    fields: &[(&str, String, String)],
) -> Result<(), MergeRefusal> {
    if a.settings != b.settings {
        return Err(differ(a, b, &b.settings.differences(&a.settings)));
    }
    for (name, there, here) in fields {
        if there != here {
            return Err(differ(
                a,
                b,
                &format!("{name}: {there:?} there, {here:?} here"),
            ));
        }
    }
    Ok(())
}

/// `input`'s journal read against `first`'s settings failed: settings that
/// differ are said as a merge says them, other errors pass on.
pub fn refuse_mixed<M>(
    first: &MergeInput<M>,
    input: &MergeInput<M>,
    e: JournalError,
) -> MergeRefusal {
    match e {
        JournalError::SettingsDiffer { differences, .. } => differ(first, input, &differences),
        e => e.into(),
    }
}

fn differ<M>(a: &MergeInput<M>, b: &MergeInput<M>, differences: &str) -> MergeRefusal {
    MergeRefusal::Invalid(format!(
        "cannot merge {} with {}: other settings ({differences})",
        b.dir.display(),
        a.dir.display()
    ))
}

/// What the output directory of a merge already holds.
#[derive(Debug, PartialEq, Eq)]
pub enum ExistingOutput {
    /// No run: nothing there, or only what a merge leaves beside a run
    /// (the shards' directories, Slurm's scripts and logs).
    Empty,
    /// A run with the inputs' settings (an earlier merge of them, say):
    /// the merge may replace it only if it keeps each of its units.
    SameRun,
}

/// Checks the output directory `out` of a merge whose inputs have the
/// journal settings `settings`: a run of other settings there, or a run's
/// files (`run_files`: its manifest and tables) without its journal, are
/// refused, as a merge would replace them and lose that run.
pub fn existing_output(
    out: &Path,
    journal: &str,
    settings: &Settings,
    run_files: &[&str],
) -> Result<ExistingOutput, MergeRefusal> {
    let path = out.join(journal);
    if path.is_file() {
        let (_, theirs) = Journal::<serde::de::IgnoredAny>::read_header(&path)?;
        if &theirs != settings {
            let differences = theirs.differences(settings);
            return Err(MergeRefusal::Invalid(format!(
                "{} already holds a run of other settings ({differences}); merging would replace it: \
                 merge into a new directory",
                out.display()
            )));
        }
        return Ok(ExistingOutput::SameRun);
    }
    if let Some(file) = run_files.iter().find(|f| out.join(f).exists()) {
        return Err(MergeRefusal::Invalid(format!(
            "{} already holds a run's {file} but no {journal}: merging would replace it; merge \
             into a new directory",
            out.display()
        )));
    }
    Ok(ExistingOutput::Empty)
}

/// The unit of a run in the singular and the plural, for messages.
pub type Units = (&'static str, &'static str);

/// The unit of a sweep.
pub const SEARCHES: Units = ("search", "searches");

/// The unit of self-play.
pub const GAMES: Units = ("game", "games");

/// `count` of `units` in words: `1 game`, `3 games`.
fn counted(count: usize, (one, many): Units) -> String {
    c960_core::plural(count, one, many)
}

/// `, ...` after the first of `count` units named, when there are more.
fn and_more(count: usize) -> &'static str {
    if count > 1 { ", ..." } else { "" }
}

/// The refusal for an output run that holds units (`count`, the first
/// named in `first`) that no input has.
#[must_use]
pub fn output_would_lose(out: &Path, count: usize, units: Units, first: &str) -> MergeRefusal {
    MergeRefusal::Invalid(format!(
        "{} already holds a run with {} that no input has ({first}{}); merging would lose \
         {}: give it as an input and merge into a new directory",
        out.display(),
        counted(count, units),
        and_more(count),
        if count == 1 { "it" } else { "them" }
    ))
}

/// The refusal for an input that holds units outside the run (another
/// position set, more games or repeats than its plan): merging would drop
/// them silently.
#[must_use]
pub fn outside_the_run(
    input: &Path,
    count: usize,
    units: Units,
    first: &str,
    plan: &str,
) -> MergeRefusal {
    MergeRefusal::Invalid(format!(
        "{} holds {} outside the run ({first}{}; the run is {plan}): it was run with other \
         --positions or more games; finish it with the run's settings or merge it separately",
        input.display(),
        counted(count, units),
        and_more(count)
    ))
}

/// The span of the inputs' clocks: the earliest start and the latest
/// finish (RFC 3339 texts, which order as their times), empty for none.
#[must_use]
pub fn time_span<'a>(runs: impl Iterator<Item = (&'a str, &'a str)> + Clone) -> (String, String) {
    let started = runs.clone().map(|r| r.0).min().unwrap_or_default();
    let finished = runs.map(|r| r.1).max().unwrap_or_default();
    (started.to_owned(), finished.to_owned())
}

/// The inputs that have not finished (no manifest).
#[must_use]
pub fn unfinished<M>(read: &[MergeInput<M>]) -> Vec<PathBuf> {
    read.iter()
        .filter(|i| i.manifest.is_none())
        .map(|i| i.dir.clone())
        .collect()
}

/// The refusal for missing units: how many (`count` of `units`, e.g.
/// [`GAMES`]), the first few (`shown`), and which inputs have not
/// finished.
#[must_use]
pub fn missing_message(
    count: usize,
    units: Units,
    shown: &[String],
    unfinished: &[PathBuf],
) -> String {
    let more = if count > shown.len() { ", ..." } else { "" };
    let unfinished = if unfinished.is_empty() {
        String::new()
    } else {
        format!(
            "; not finished: {}",
            unfinished
                .iter()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    format!(
        "no input holds {} of the run ({}{more}){unfinished}; finish or add the missing \
         shards, or pass --allow-missing to merge what there is",
        counted(count, units),
        shown.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    use serde::de::IgnoredAny;

    type Read = Result<(Vec<MergeInput<IgnoredAny>>, Vec<DirLock>), MergeRefusal>;

    fn read(inputs: &[PathBuf], out: &Path) -> Read {
        read_inputs::<IgnoredAny, IgnoredAny>(
            inputs,
            out,
            crate::JOURNAL_FILE,
            RunKind::Sweep,
            "sweep",
        )
    }

    #[test]
    fn inputs_that_cannot_be_merged_are_refused_in_one_line() {
        let temp = tempfile::tempdir().unwrap();
        let out = temp.path().join("out");
        fs::create_dir_all(&out).unwrap();
        let none = read(&[], &out).unwrap_err().to_string();
        assert!(none.contains("nothing to merge"), "{none}");
        let itself = read(std::slice::from_ref(&out), &out)
            .unwrap_err()
            .to_string();
        assert!(itself.contains("both an input and the output"), "{itself}");
        let empty = temp.path().join("empty");
        fs::create_dir_all(&empty).unwrap();
        let bare = read(&[empty], &out).unwrap_err().to_string();
        assert!(
            bare.contains("not a sweep run directory (no journal.jsonl)"),
            "{bare}"
        );
        let other = temp.path().join("other");
        fs::create_dir_all(&other).unwrap();
        fs::write(other.join("journal.jsonl"), "").unwrap();
        fs::write(other.join(MANIFEST_FILE), r#"{"kind":"selfplay"}"#).unwrap();
        let kind = read(&[other], &out).unwrap_err().to_string();
        assert!(kind.contains("is a selfplay run, not sweep"), "{kind}");
    }

    #[test]
    fn missing_units_are_counted_named_and_the_unfinished_inputs_listed() {
        let shown = vec!["SP 1".to_owned(), "SP 2".to_owned()];
        let message = missing_message(5, SEARCHES, &shown, &[PathBuf::from("s/1")]);
        assert_eq!(
            message,
            "no input holds 5 searches of the run (SP 1, SP 2, ...); not finished: s/1; \
             finish or add the missing shards, or pass --allow-missing to merge what there is"
        );
        let all = missing_message(2, GAMES, &shown, &[]);
        assert!(all.starts_with("no input holds 2 games of the run (SP 1, SP 2);"));
        let one = missing_message(1, GAMES, &shown[..1], &[]);
        assert!(one.starts_with("no input holds 1 game of the run (SP 1);"));
    }

    #[test]
    fn merge_refusals_count_in_words() {
        let out = Path::new("out");
        let one = output_would_lose(out, 1, SEARCHES, "SP 7").to_string();
        assert!(
            one.contains("a run with 1 search that no input has (SP 7); merging would lose it:"),
            "{one}"
        );
        let two = output_would_lose(out, 2, GAMES, "SP 7 game 0").to_string();
        assert!(
            two.contains("2 games that no input has (SP 7 game 0, ...); merging would lose them:"),
            "{two}"
        );
        let outside = outside_the_run(out, 1, GAMES, "SP 3 game 9", "positions 1-4").to_string();
        assert!(
            outside.contains("out holds 1 game outside the run (SP 3 game 9; the run is"),
            "{outside}"
        );
    }
}
