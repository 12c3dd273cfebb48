//! The skeleton of every merge: the output held and the inputs read and
//! checked to agree; each input's journal read as a resume reads it and
//! its units united (one counted once when two inputs both finished it);
//! the units no input has, refused or allowed; and the merged journal
//! written by copying each unit's line from its input.

use std::{
    collections::BTreeMap,
    fs::File,
    io::{self, BufRead, BufReader, Seek, SeekFrom, Write},
    path::{Path, PathBuf},
};

use serde::de::DeserializeOwned;

use super::{
    MergeInput, MergeRefusal, Units, agree, missing_message, output_would_lose, outside_the_run,
    read_inputs, refuse_mixed, unfinished,
};
use crate::{DirLock, Journal, JournalError, RunDir, RunKind, write_atomically};

/// A kind of run as a merge reads it.
#[derive(Clone, Copy, Debug)]
pub struct RunFiles<'a> {
    /// The journal's file name.
    pub journal: &'a str,
    /// The kind manifests name.
    pub kind: RunKind,
    /// How messages name the kind (`sweep`, `self-play`).
    pub what: &'a str,
    /// What the plan of the run says (`positions`, `games`), for the
    /// refusal when no input has finished.
    pub covers: &'a str,
}

/// A merge begun: the output held, the inputs read (and locked for
/// reading) with agreeing settings, and the plan of the run.
#[derive(Debug)]
pub struct Merging<M> {
    /// The inputs, in the order given.
    pub read: Vec<MergeInput<M>>,
    /// Which input's manifest is the plan: the first that finished.
    plan: usize,
    _inputs: Vec<DirLock>,
    _out: RunDir,
}

impl<M> Merging<M> {
    /// The plan of the run: the first finished input's manifest.
    ///
    /// # Panics
    ///
    /// Never: a merge begins only once an input has finished.
    #[must_use]
    pub fn plan(&self) -> &M {
        self.read[self.plan]
            .manifest
            .as_ref()
            .expect("a merge begins with a finished input")
    }

    /// The first input, whose journal header the merged journal takes.
    #[must_use]
    pub fn first(&self) -> &MergeInput<M> {
        &self.read[0]
    }
}

/// Creates and holds `out`, reads the `inputs` (see [`read_inputs`]),
/// passes them to `screen` (refusals of the kind's own), checks each agrees
/// with the first (journal settings and the manifest `fields`) and finds
/// the plan; refuses inputs none of which has finished.
pub fn begin<R: DeserializeOwned, M: DeserializeOwned>(
    inputs: &[PathBuf],
    out: &Path,
    files: RunFiles<'_>,
    screen: impl Fn(&[MergeInput<M>]) -> Result<(), MergeRefusal>,
    fields: impl Fn(&M, &M) -> Vec<(&'static str, String, String)>,
) -> Result<Merging<M>, MergeRefusal> {
    crate::create_dir(out)?;
    let held = RunDir::lock(out)?;
    let (read, locks) = read_inputs::<R, M>(inputs, out, files.journal, files.kind, files.what)?;
    screen(&read)?;
    let first = &read[0];
    for other in &read[1..] {
        let shared = match (&first.manifest, &other.manifest) {
            (Some(x), Some(y)) => fields(x, y),
            _ => Vec::new(),
        };
        agree(first, other, &shared)?;
    }
    let Some(plan) = read.iter().position(|i| i.manifest.is_some()) else {
        return Err(MergeRefusal::Invalid(format!(
            "no input has finished (no {}): nothing says which {} the run covers",
            crate::MANIFEST_FILE,
            files.covers
        )));
    };
    Ok(Merging {
        read,
        plan,
        _inputs: locks,
        _out: held,
    })
}

/// Where a unit of the merged run is: the input that has it, the byte
/// offset of its journal line there, and what the kind keeps of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit<V> {
    /// The input (its index among the inputs).
    pub input: usize,
    /// The byte offset of its line in that input's journal.
    pub at: u64,
    /// What the kind keeps of it (a row, a hash of the line).
    pub kept: V,
}

/// The units of the merged run, by key, and how many were found again.
#[derive(Debug)]
pub struct United<K, V> {
    /// Each unit, from the first input (and line) that has it.
    pub units: BTreeMap<K, Unit<V>>,
    /// Units found again in a later input (or line) and counted once.
    pub duplicates: usize,
}

/// A record's key and what is kept of it (its journal line given), or
/// `None` for a record that is no unit.
pub type UnitOf<'a, R, K, V> = &'a dyn Fn(R, &[u8]) -> Option<(K, V)>;

/// Whether two finds of one unit agree.
pub type Same<'a, V> = &'a dyn Fn(&V, &V) -> bool;

/// How a kind's units are told apart and named while they are united.
pub struct Unite<'a, R, K, V> {
    /// The kind's files.
    pub files: RunFiles<'a>,
    /// The unit in words.
    pub units: Units,
    /// The check a resume makes of each record.
    pub check: &'a dyn Fn(&R) -> Result<(), String>,
    /// A record's key and what is kept of it (its line given), or `None`
    /// for a record that is no unit (a failure).
    pub unit: UnitOf<'a, R, K, V>,
    /// Whether a key belongs to the run.
    pub in_run: &'a dyn Fn(&K) -> bool,
    /// Whether two finds of one unit agree, for a run that replays
    /// exactly (`None`: any two do).
    pub same: Option<Same<'a, V>>,
    /// A unit's name in a refusal for units outside the run.
    pub name: &'a dyn Fn(K) -> String,
    /// What makes a conflicting duplicate of a unit, in words
    /// (`SP 5 game 0 is two different games`).
    pub conflict: &'a dyn Fn(K) -> String,
    /// The run, in words (`positions 1-4, 2 games per position`).
    pub plan: String,
}

/// Reads every input's journal, checked as a resume checks it, and unites
/// their units of the run: a unit two inputs both have counts once, and
/// must be the same where the run replays exactly. Refuses an input with
/// units outside the run.
pub fn unite<M, R: DeserializeOwned, K: Ord + Copy, V>(
    read: &[MergeInput<M>],
    how: &Unite<'_, R, K, V>,
) -> Result<United<K, V>, MergeRefusal> {
    let first = &read[0];
    let mut united = United {
        units: BTreeMap::new(),
        duplicates: 0,
    };
    for (k, input) in read.iter().enumerate() {
        let path = input.dir.join(how.files.journal);
        let mut refused = None;
        let mut outside: (usize, Option<K>) = (0, None);
        let result =
            Journal::<R>::read_records(&path, &first.settings, how.check, |record, at, line| {
                let Some((key, kept)) = (how.unit)(record, line) else {
                    return Ok(());
                };
                if !(how.in_run)(&key) {
                    outside.0 += 1;
                    outside.1.get_or_insert(key);
                    return Ok(());
                }
                let Some(seen) = united.units.get(&key) else {
                    united.units.insert(key, Unit { input: k, at, kept });
                    return Ok(());
                };
                if how.same.is_some_and(|same| !same(&seen.kept, &kept)) {
                    refused = Some(format!(
                        "cannot merge {} with {}: {} in a run that replays exactly (a \
                         conflicting duplicate)",
                        input.dir.display(),
                        read[seen.input].dir.display(),
                        (how.conflict)(key)
                    ));
                    return Err(JournalError::Io {
                        path: path.clone(),
                        source: io::Error::other("conflicting duplicate"),
                    });
                }
                united.duplicates += 1;
                Ok(())
            });
        if let Some(message) = refused {
            return Err(MergeRefusal::Invalid(message));
        }
        result.map_err(|e| refuse_mixed(first, input, e))?;
        if let (count, Some(key)) = outside {
            return Err(outside_the_run(
                &input.dir,
                count,
                how.units,
                &(how.name)(key),
                &how.plan,
            ));
        }
    }
    Ok(united)
}

/// Refuses to replace the run in `out` (of the inputs' settings) when it
/// holds a unit that no input has; `key` tells a record's unit (`None`:
/// no unit), `name` names the first lost.
pub fn keeps_output<R: DeserializeOwned, K: Ord + Copy, V>(
    out: &Path,
    journal: &str,
    first: &MergeInput<impl Sized>,
    united: &BTreeMap<K, V>,
    units: Units,
    key: impl Fn(R) -> Option<K>,
    name: impl Fn(K) -> String,
) -> Result<(), MergeRefusal> {
    let mut lost = 0;
    let mut shown = None;
    Journal::<R>::read_records(
        &out.join(journal),
        &first.settings,
        &|_| Ok(()),
        |record, _, _| {
            if let Some(key) = key(record)
                && !united.contains_key(&key)
            {
                lost += 1;
                shown.get_or_insert(key);
            }
            Ok(())
        },
    )?;
    match shown {
        Some(key) => Err(output_would_lose(out, lost, units, &name(key))),
        None => Ok(()),
    }
}

/// The units of `wanted` that no input has; refused (the first `show`
/// named) unless `allow_missing`.
pub fn missing<M, K: Ord + Copy, V>(
    read: &[MergeInput<M>],
    wanted: impl IntoIterator<Item = K>,
    united: &BTreeMap<K, V>,
    allow_missing: bool,
    (units, show): (Units, usize),
    name: impl Fn(K) -> String,
) -> Result<Vec<K>, MergeRefusal> {
    let missing: Vec<K> = wanted
        .into_iter()
        .filter(|key| !united.contains_key(key))
        .collect();
    if missing.is_empty() || allow_missing {
        return Ok(missing);
    }
    let shown: Vec<String> = missing.iter().take(show).map(|&key| name(key)).collect();
    Err(MergeRefusal::Invalid(missing_message(
        missing.len(),
        units,
        &shown,
        &unfinished(read),
    )))
}

/// Writes the merged journal `path`: the first input's header, then each
/// unit's line copied from its input (`journal` there), in key order,
/// each passed to `each` on its way.
pub fn write_journal<M, K, V>(
    read: &[MergeInput<M>],
    journal: &str,
    units: &BTreeMap<K, Unit<V>>,
    path: &Path,
    mut each: impl FnMut(&[u8]) -> io::Result<()>,
) -> Result<(), MergeRefusal> {
    let mut readers = read
        .iter()
        .map(|i| File::open(i.dir.join(journal)).map(BufReader::new))
        .collect::<io::Result<Vec<_>>>()?;
    write_atomically(path, |file| {
        let mut file = io::BufWriter::new(file);
        file.write_all(&read[0].header)?;
        let mut line = Vec::new();
        for unit in units.values() {
            let reader = &mut readers[unit.input];
            reader.seek(SeekFrom::Start(unit.at))?;
            line.clear();
            reader.read_until(b'\n', &mut line)?;
            each(&line)?;
            file.write_all(&line)?;
        }
        file.flush()
    })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    use serde::de::IgnoredAny;

    use crate::merge::GAMES;

    /// A game of a test journal.
    #[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
    struct Record {
        sp: u32,
        game: u32,
        result: u8,
    }

    fn games(records: &[(u32, u32, u8)]) -> Vec<Record> {
        records
            .iter()
            .map(|&(sp, game, result)| Record { sp, game, result })
            .collect()
    }

    /// A run directory with a journal of `records` (setup, game, result).
    fn run(root: &Path, name: &str, records: &[(u32, u32, u8)]) -> PathBuf {
        let dir = root.join(name);
        fs::create_dir_all(&dir).unwrap();
        Journal::<Record>::write_whole(
            &dir.join(crate::JOURNAL_FILE),
            &serde_json::json!({"limit": "nodes=1"}),
            &games(records),
        )
        .unwrap();
        dir
    }

    const FILES: RunFiles<'static> = RunFiles {
        journal: crate::JOURNAL_FILE,
        kind: RunKind::Selfplay,
        what: "self-play",
        covers: "games",
    };

    fn how(same: Option<Same<'_, u8>>) -> Unite<'_, Record, (u32, u32), u8> {
        Unite {
            files: FILES,
            units: GAMES,
            check: &|_| Ok(()),
            unit: &|g, _| Some(((g.sp, g.game), g.result)),
            in_run: &|&(sp, game)| sp <= 2 && game < 2,
            same,
            name: &|(sp, game)| format!("SP {sp} game {game}"),
            conflict: &|(sp, game)| format!("SP {sp} game {game} is two different games"),
            plan: "positions 1-2, 2 games per position".to_owned(),
        }
    }

    use std::fs;

    #[test]
    fn merge_skeleton_unites_units_once_refuses_conflicts_and_copies_lines() {
        let temp = tempfile::tempdir().unwrap();
        let a = run(temp.path(), "a", &[(1, 0, 1), (1, 1, 0)]);
        let b = run(temp.path(), "b", &[(1, 1, 2), (2, 0, 1)]);
        let out = temp.path().join("out");
        fs::create_dir_all(&out).unwrap();
        let (read, _locks) = read_inputs::<IgnoredAny, IgnoredAny>(
            &[a, b.clone()],
            &out,
            crate::JOURNAL_FILE,
            RunKind::Selfplay,
            "self-play",
        )
        .unwrap();

        // Without exact replays the later find of (1, 1) counts once.
        let united = unite(&read, &how(None)).unwrap();
        assert_eq!(united.duplicates, 1);
        let kept: Vec<_> = united.units.iter().map(|(k, u)| (*k, u.kept)).collect();
        assert_eq!(kept, [((1, 0), 1), ((1, 1), 0), ((2, 0), 1)]);

        // Where the run replays exactly, two different finds are refused.
        let equal: Same<'_, u8> = &u8::eq;
        let conflict = unite(&read, &how(Some(equal))).unwrap_err().to_string();
        assert!(
            conflict.ends_with(
                "SP 1 game 1 is two different games in a run that replays exactly (a \
                 conflicting duplicate)"
            ),
            "{conflict}"
        );

        let wanted = [(1, 0), (1, 1), (2, 0), (2, 1)];
        let refused = missing(&read, wanted, &united.units, false, (GAMES, 6), |(s, g)| {
            format!("SP {s} game {g}")
        })
        .unwrap_err()
        .to_string();
        assert!(refused.starts_with("no input holds 1 game of the run (SP 2 game 1);"));
        let allowed = missing(&read, wanted, &united.units, true, (GAMES, 6), |_| {
            String::new()
        });
        assert_eq!(allowed.unwrap(), [(2, 1)]);

        // The merged journal is the first header and each unit's line once.
        let path = out.join(crate::JOURNAL_FILE);
        let mut seen = 0;
        write_journal(&read, crate::JOURNAL_FILE, &united.units, &path, |_| {
            seen += 1;
            Ok(())
        })
        .unwrap();
        assert_eq!(seen, 3);
        let (_, settings) = Journal::<IgnoredAny>::read_header(&path).unwrap();
        let mut records = Vec::new();
        Journal::<Record>::read_records(&path, &settings, &|_| Ok(()), |r, _, _| {
            records.push(r);
            Ok(())
        })
        .unwrap();
        assert_eq!(records, games(&[(1, 0, 1), (1, 1, 0), (2, 0, 1)]));

        // An input with units outside the run is refused, naming the first.
        let c = run(temp.path(), "c", &[(3, 0, 1)]);
        let (read, _locks) = read_inputs::<IgnoredAny, IgnoredAny>(
            &[b, c],
            &out,
            crate::JOURNAL_FILE,
            RunKind::Selfplay,
            "self-play",
        )
        .unwrap();
        let outside = unite(&read, &how(None)).unwrap_err().to_string();
        assert!(
            outside.contains("holds 1 game outside the run (SP 3 game 0; the run is positions"),
            "{outside}"
        );
    }
}
