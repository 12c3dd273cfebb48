//! `run.json` across runs of one directory: the plan it was made with,
//! which a later run must repeat (other settings are refused rather than
//! mixed), and the time of each stage, which a later run keeps, adding its
//! own as a resumption.

use std::{
    fmt::Write as _,
    fs,
    path::{Path, PathBuf},
};

use anyhow::{Context, Result, bail};
use serde_json::Value;

use super::plan::Plan;
use crate::cli::InputError;

/// The file, in the run directory.
pub(super) const RUN_RECORD: &str = "run.json";

/// Plan fields that may differ between runs of one directory: how many
/// jobs a machine runs, and how the directory was spelled.
const FREE: [&str; 2] = ["jobs", "out"];

/// The `run.json` an earlier run left in `dir`, if any.
pub(super) fn earlier(dir: &Path) -> Result<Option<Value>> {
    let path = dir.join(RUN_RECORD);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    let value: Value = serde_json::from_str(&text)
        .map_err(|e| InputError(format!("{} is not a c960 run record: {e}", path.display())))?;
    Ok(Some(value))
}

/// Refuses `plan` when the run recorded in `earlier` was made with other
/// settings, naming what differs.
pub(super) fn check_plan(dir: &Path, earlier: &Value, plan: &Plan) -> Result<()> {
    let Some(theirs) = earlier.get("plan") else {
        return Ok(());
    };
    let ours = serde_json::to_value(plan)?;
    let mut differences = Vec::new();
    compare("", theirs, &ours, &mut differences);
    differences.retain(|(key, _)| !FREE.contains(&key.as_str()));
    if differences.is_empty() {
        return Ok(());
    }
    let mut said = String::new();
    for (key, text) in &differences {
        if !said.is_empty() {
            said.push_str("; ");
        }
        let _ = write!(said, "{key}: {text}");
    }
    bail!(InputError(format!(
        "{} holds a c960 run made with other settings ({said}); give the same settings to \
         resume it, or another --out",
        dir.display()
    )))
}

/// Each leaf where `a` (there) and `b` (now) differ, with both values.
fn compare(path: &str, a: &Value, b: &Value, out: &mut Vec<(String, String)>) {
    if let (Value::Object(x), Value::Object(y)) = (a, b) {
        let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
        keys.sort();
        keys.dedup();
        for key in keys {
            let name = if path.is_empty() {
                key.clone()
            } else {
                format!("{path}.{key}")
            };
            let (p, q) = (x.get(key), y.get(key));
            match (p, q) {
                (Some(p), Some(q)) => compare(&name, p, q, out),
                _ => compare(
                    &name,
                    p.unwrap_or(&Value::Null),
                    q.unwrap_or(&Value::Null),
                    out,
                ),
            }
        }
    } else if a != b {
        out.push((path.to_owned(), format!("{a} there, {b} now")));
    }
}

/// `record` (this run's `run.json`) as it is written over `earlier`: an
/// earlier run that finished keeps its stages, times and finish, and this
/// run is added to its `resumptions` with its own stage times.
pub(super) fn merged(record: Value, earlier: Option<Value>) -> Value {
    let Some(mut kept) = earlier.filter(|e| e.get("finished").is_some_and(Value::is_string)) else {
        return record;
    };
    let resumption = serde_json::json!({
        "jobs": record.get("jobs").cloned().unwrap_or(Value::Null),
        "stages": record.get("stages").cloned().unwrap_or(Value::Null),
        "finished": record.get("finished").cloned().unwrap_or(Value::Null),
    });
    if let Value::Object(map) = &mut kept {
        match map.get_mut("resumptions") {
            Some(Value::Array(list)) => list.push(resumption),
            _ => {
                map.insert("resumptions".to_owned(), Value::Array(vec![resumption]));
            }
        }
        // What this run built is what the directory holds now.
        for key in ["report", "c960_version"] {
            if let Some(value) = record.get(key) {
                map.insert(key.to_owned(), value.clone());
            }
        }
    }
    kept
}

/// Writes `record` over the earlier run's (see [`merged`]) atomically.
pub(super) fn write(dir: &Path, record: Value, earlier: Option<Value>) -> Result<()> {
    let json = serde_json::to_string_pretty(&merged(record, earlier))?;
    c960_store::write_atomically(&dir.join(RUN_RECORD), |out| {
        std::io::Write::write_all(out, json.as_bytes())
    })?;
    Ok(())
}

/// The stage times of the earlier run, summed, for the summary.
pub(super) fn earlier_seconds(earlier: Option<&Value>) -> Option<f64> {
    let stages = earlier?.get("stages")?.as_array()?;
    Some(
        stages
            .iter()
            .filter_map(|s| s.get("seconds").and_then(Value::as_f64))
            .sum(),
    )
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
