//! `run.json` across runs of one directory: the plan it was made with,
//! which a later run must repeat (other settings are refused rather than
//! mixed), and the time of each stage, which a later run keeps, adding its
//! own as a resumption.

use std::{
    fs,
    path::{Path, PathBuf},
};

use anyhow::{Context, Result, bail};
use c960_store::{Settings, Verbatim};
use serde::{Deserialize, Serialize};

use super::InputError;
use super::plan::Plan;

/// The file, in the run directory.
pub(super) const RUN_RECORD: &str = "run.json";

/// Plan fields that may differ between runs of one directory: how many
/// jobs a machine runs, and how the directory was spelled.
const FREE: [&str; 2] = ["jobs", "out"];

/// `run.json` as written and read back. A first run writes its kind and
/// plan at once; a finished run adds the rest. The parts a later run does
/// not read (the plan, the stages) travel on verbatim.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub(super) struct RunFile {
    kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    c960_version: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    plan: Option<Verbatim>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    engine: Option<String>,
    /// Each rater's engine, when the sweep has several raters.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    raters: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    jobs: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    stages: Option<Verbatim>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    report: Option<PathBuf>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    finished: Option<String>,
    /// Later runs of the directory after it finished, each with its own
    /// stage times.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    resumptions: Vec<Resumption>,
}

/// A later run of a finished directory.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Resumption {
    jobs: Option<usize>,
    stages: Option<Verbatim>,
    finished: Option<String>,
}

/// What the summary reads of a stage's time.
#[derive(Deserialize)]
struct StageSeconds {
    seconds: Option<f64>,
}

impl RunFile {
    /// What a first run records at once: its plan.
    pub(super) fn first(plan: &Plan) -> Result<RunFile> {
        Ok(RunFile {
            kind: "run".to_owned(),
            plan: Some(Verbatim::of(plan)?),
            ..RunFile::default()
        })
    }

    /// A run's whole record, from the typed record it writes.
    pub(super) fn of<T: Serialize>(record: &T) -> Result<RunFile> {
        Ok(serde_json::from_str(&serde_json::to_string(record)?)?)
    }
}

/// The `run.json` an earlier run left in `dir`, if any.
pub(super) fn earlier(dir: &Path) -> Result<Option<RunFile>> {
    let path = dir.join(RUN_RECORD);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    let record: RunFile = serde_json::from_str(&text)
        .map_err(|e| InputError(format!("{} is not a c960 run record: {e}", path.display())))?;
    Ok(Some(record))
}

/// Refuses `plan` when the run recorded in `earlier` was made with other
/// settings, naming what differs.
pub(super) fn check_plan(dir: &Path, earlier: &RunFile, plan: &Plan) -> Result<()> {
    let Some(theirs) = &earlier.plan else {
        return Ok(());
    };
    let not_a_plan = |e: serde_json::Error| {
        InputError(format!(
            "{} is not a c960 run record: its plan: {e}",
            dir.join(RUN_RECORD).display()
        ))
    };
    let theirs = theirs
        .read::<Settings>()
        .map_err(not_a_plan)?
        .without(&FREE);
    let ours = Settings::of(plan)?.without(&FREE);
    let said = theirs.differences(&ours);
    if said.is_empty() {
        return Ok(());
    }
    bail!(InputError(format!(
        "{} holds a c960 run made with other settings ({said}); give the same settings to \
         resume it, or another --out",
        dir.display()
    )))
}

/// `record` (this run's `run.json`) as it is written over `earlier`: an
/// earlier run that finished keeps its stages, times and finish, and this
/// run is added to its `resumptions` with its own stage times.
pub(super) fn merged(record: RunFile, earlier: Option<RunFile>) -> RunFile {
    let Some(mut kept) = earlier.filter(|e| e.finished.is_some()) else {
        return record;
    };
    kept.resumptions.push(Resumption {
        jobs: record.jobs,
        stages: record.stages,
        finished: record.finished,
    });
    // What this run built is what the directory holds now.
    if record.report.is_some() {
        kept.report = record.report;
    }
    if record.c960_version.is_some() {
        kept.c960_version = record.c960_version;
    }
    kept
}

/// Writes `record` over the earlier run's (see [`merged`]) atomically.
pub(super) fn write(dir: &Path, record: RunFile, earlier: Option<RunFile>) -> Result<()> {
    let json = serde_json::to_string_pretty(&merged(record, earlier))?;
    c960_store::write_atomically(&dir.join(RUN_RECORD), |out| {
        std::io::Write::write_all(out, json.as_bytes())
    })?;
    Ok(())
}

/// The stage times of the earlier run, summed, for the summary.
pub(super) fn earlier_seconds(earlier: Option<&RunFile>) -> Option<f64> {
    let stages: Vec<StageSeconds> = earlier?.stages.as_ref()?.read().ok()?;
    Some(stages.iter().filter_map(|s| s.seconds).sum())
}

/// A run directory as a first run found it (no `run.json` there): if the
/// run ends without finishing (refused, or its engine fails) before any
/// stage journaled work, dropping this puts the directory back as it was,
/// so a corrected command is not refused for the plan of one that did
/// nothing. Drop it while the directory's lock is still held.
pub(super) struct FirstRun {
    out: PathBuf,
    untouched: c960_store::Untouched,
    positions_existed: bool,
}

/// What a run directory held before a run, to arm a [`FirstRun`] with
/// once the run holds the directory's lock.
pub(super) struct Noted {
    out: PathBuf,
    untouched: c960_store::Untouched,
    positions_existed: bool,
}

impl Noted {
    /// Notes what `out` holds, before the run creates or writes anything.
    pub(super) fn note(out: &Path) -> Noted {
        Noted {
            out: out.to_owned(),
            untouched: c960_store::Untouched::note(out, &[]),
            positions_existed: out.join("positions.csv").exists(),
        }
    }

    /// What a first run puts back; only for a run that holds the lock
    /// (before, the files may be another run's).
    pub(super) fn arm(self) -> FirstRun {
        FirstRun {
            out: self.out,
            untouched: self.untouched,
            positions_existed: self.positions_existed,
        }
    }

    /// The lock was not had: only a directory this run made and left
    /// empty is removed.
    pub(super) fn abandon(&self) {
        self.untouched.remove_if_made_and_empty();
    }
}

impl Drop for FirstRun {
    fn drop(&mut self) {
        let finished = fs::read_to_string(self.out.join(RUN_RECORD))
            .is_ok_and(|text| text.contains("\"finished\""));
        // A stage that journaled work keeps the run (it resumes); a refused
        // stage has removed its own journal.
        let worked = ["sweep", "selfplay"]
            .iter()
            .any(|stage| self.out.join(stage).join(c960_store::JOURNAL_FILE).exists());
        if finished || worked {
            return;
        }
        let _ = fs::remove_file(self.out.join(RUN_RECORD));
        if !self.positions_existed {
            let _ = fs::remove_file(self.out.join("positions.csv"));
        }
        for stage in ["sweep", "selfplay"] {
            // Only if empty: anything else there is not this run's.
            let _ = fs::remove_dir(self.out.join(stage));
        }
        self.untouched.put_back();
    }
}

#[cfg(test)]
mod tests {
    use super::super::{RunRecord, plan::Profile, stages::StageTime};
    use super::*;

    #[test]
    fn a_run_record_reads_back_whole_and_keeps_it_when_resumed() {
        let plan = Profile::Quick.plan();
        let stages = [StageTime {
            stage: "sweep",
            seconds: 2.5,
            what: "960 searches".to_owned(),
            resumed: 0,
        }];
        let record = RunRecord {
            kind: "run",
            c960_version: "9.9.9",
            plan: &plan,
            engine: "E".to_owned(),
            raters: vec!["A".to_owned(), "B".to_owned()],
            jobs: 2,
            stages: &stages,
            report: Some(PathBuf::from("r/index.html")),
            finished: "2026-01-01T00:00:00Z".to_owned(),
        };
        // Every field the run writes survives the typed record.
        let file = RunFile::of(&record).unwrap();
        let written = serde_json::to_string(&record).unwrap();
        assert_eq!(serde_json::to_string(&file).unwrap(), written);
        assert_eq!(earlier_seconds(Some(&file)), Some(2.5));
        // A later run of the finished directory is a resumption; the
        // first run's record stays.
        let mut later = file.clone();
        later.jobs = Some(1);
        later.finished = Some("2026-01-02T00:00:00Z".to_owned());
        let merged = serde_json::to_string(&merged(later, Some(file))).unwrap();
        assert!(
            merged.starts_with(&written[..written.len() - 1]),
            "{merged}"
        );
        assert!(
            merged.ends_with(
                r#","resumptions":[{"jobs":1,"stages":[{"stage":"sweep","seconds":2.5,"what":"960 searches"}],"finished":"2026-01-02T00:00:00Z"}]}"#
            ),
            "{merged}"
        );
        // A plan changed in a nested field is refused, naming its path.
        let mut other = plan.clone();
        other.jobs = std::num::NonZeroUsize::new(7);
        let first = RunFile::first(&plan).unwrap();
        assert!(check_plan(Path::new("d"), &first, &other).is_ok());
        let said = RunFile::first(&Profile::Research.plan())
            .map(|research| check_plan(Path::new("d"), &research, &plan).unwrap_err())
            .unwrap()
            .to_string();
        assert!(
            said.contains("profile: \"research\" there, \"quick\" now"),
            "{said}"
        );
    }
}
