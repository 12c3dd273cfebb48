//! Whether a run directory says its tables were written sealed. A table
//! without a seal is read unchecked only when nothing says otherwise: a
//! file written before seals existed. In a run whose journal or manifest
//! comes from a version that seals its tables, a table without a seal was
//! rewritten by another tool (which drops the key-value metadata, seal
//! included), and its numbers cannot be trusted.

use std::{
    io::{BufRead, BufReader, Read, Seek, SeekFrom},
    path::Path,
};

use serde::Deserialize;

use crate::{
    GAMES_TABLE, JOURNAL_FILE, MANIFEST_FILE, POSITIONS_TABLE, REPEATS_TABLE, RunKind, SWEEP_TABLE,
};

/// The value of the field `tables` of an import's `manifest.json`: its
/// tables are sealed (sweeps and self-play runs say so with fields of
/// their own, see [`sealed_by_run`]).
pub const SEALED_TABLES: &str = "sealed";

/// The tables c960 writes into a run directory, every one sealed.
const RUN_TABLES: [&str; 4] = [SWEEP_TABLE, REPEATS_TABLE, GAMES_TABLE, POSITIONS_TABLE];

/// How much of a journal's end is read for its last line.
const TAIL: u64 = 64 * 1024;

/// The journal's checksum field, which came with the seals.
const SUM_FIELD: &str = "\"c960_sum\":";

/// The fields of a manifest that tell a version that seals its tables.
#[derive(Deserialize)]
struct Marks {
    kind: Option<RunKind>,
    /// Sweeps write their repeats since after seals came.
    repeats: Option<serde::de::IgnoredAny>,
    /// Self-play runs write how they run their engines since seals came.
    processes: Option<serde::de::IgnoredAny>,
    /// `"sealed"` ([`SEALED_TABLES`]) in imports since they say so.
    tables: Option<String>,
}

/// For a table of a run directory (`sweep.parquet`, `repeats.parquet`,
/// `games.parquet`, `positions.parquet`), which file of the run says the
/// run wrote its tables sealed, if one does: its `journal.jsonl` (lines
/// with checksums, which came with the seals) or its `manifest.json` (a
/// sweep's with `repeats`, a self-play run's with `processes`, any with
/// `"tables": "sealed"`). A published copy (`NAME-sweep.parquet` beside
/// `NAME-manifest.json`, as the datasets hold them) is judged by its own
/// manifest the same way.
pub(crate) fn sealed_by_run(table: &Path) -> Option<String> {
    let name = table.file_name()?.to_str()?;
    let dir = table.parent()?;
    let manifest = if RUN_TABLES.contains(&name) {
        if journal_has_sums(&dir.join(JOURNAL_FILE)) {
            return Some(JOURNAL_FILE.to_owned());
        }
        MANIFEST_FILE.to_owned()
    } else {
        let (prefix, table) = name.rsplit_once('-')?;
        if prefix.is_empty() || !RUN_TABLES.contains(&table) {
            return None;
        }
        format!("{prefix}-{MANIFEST_FILE}")
    };
    let text = std::fs::read_to_string(dir.join(&manifest)).ok()?;
    let marks: Marks = serde_json::from_str(&text).ok()?;
    let sealed = marks.tables.as_deref() == Some(SEALED_TABLES)
        || match marks.kind {
            Some(RunKind::Sweep) => marks.repeats.is_some(),
            Some(RunKind::Selfplay) => marks.processes.is_some(),
            Some(RunKind::Import) | None => false,
        };
    sealed.then_some(manifest)
}

/// Whether the journal's first line (its settings) or its last line has a
/// checksum: the version that began the run, or the last one to add to
/// it, seals its tables.
fn journal_has_sums(path: &Path) -> bool {
    let Ok(file) = crate::open_input(path) else {
        return false;
    };
    let mut reader = BufReader::new(file);
    let mut first = String::new();
    if reader.read_line(&mut first).is_err() {
        return false;
    }
    if first.contains(SUM_FIELD) {
        return true;
    }
    // The last line is short: the end of the file holds it.
    let mut file = reader.into_inner();
    let Ok(length) = file.seek(SeekFrom::End(0)) else {
        return false;
    };
    let mut tail = Vec::new();
    let read = file
        .seek(SeekFrom::Start(length.saturating_sub(TAIL)))
        .and_then(|_| file.read_to_end(&mut tail));
    read.is_ok()
        && String::from_utf8_lossy(&tail)
            .trim_end()
            .lines()
            .next_back()
            .is_some_and(|line| line.contains(SUM_FIELD))
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;

    #[test]
    fn a_run_says_its_tables_are_sealed_by_its_journal_or_its_manifest() {
        let temp = tempfile::tempdir().unwrap();
        let table = temp.path().join(SWEEP_TABLE);
        // Nothing beside it: a table from before seals.
        assert_eq!(sealed_by_run(&table), None);
        let manifest = temp.path().join(MANIFEST_FILE);
        fs::write(&manifest, r#"{"kind":"sweep","limit":"nodes 10","rows":3}"#).unwrap();
        assert_eq!(sealed_by_run(&table), None);
        fs::write(&manifest, r#"{"kind":"sweep","repeats":1}"#).unwrap();
        assert_eq!(sealed_by_run(&table).as_deref(), Some(MANIFEST_FILE));
        fs::write(&manifest, r#"{"kind":"selfplay","processes":"one"}"#).unwrap();
        assert_eq!(
            sealed_by_run(&temp.path().join(GAMES_TABLE)).as_deref(),
            Some(MANIFEST_FILE)
        );
        fs::write(&manifest, r#"{"kind":"import","tables":"sealed"}"#).unwrap();
        assert_eq!(sealed_by_run(&table).as_deref(), Some(MANIFEST_FILE));
        // A file that is not a run's table is not the run's to judge.
        assert_eq!(sealed_by_run(&temp.path().join("mine.parquet")), None);
        fs::write(&manifest, r#"{"kind":"import"}"#).unwrap();
        let journal = temp.path().join(JOURNAL_FILE);
        fs::write(&journal, "{\"limit\":\"nodes 10\"}\n{\"sp\":1}\n").unwrap();
        assert_eq!(sealed_by_run(&table), None);
        fs::write(
            &journal,
            "{\"limit\":\"nodes 10\"}\n{\"sp\":1,\"c960_sum\":\"00\"}\n",
        )
        .unwrap();
        assert_eq!(sealed_by_run(&table).as_deref(), Some(JOURNAL_FILE));
    }

    #[test]
    fn a_published_table_is_judged_by_its_own_manifest() {
        let temp = tempfile::tempdir().unwrap();
        let table = temp.path().join("sf19-1m-sweep.parquet");
        // No manifest of its name: a table from before seals.
        assert_eq!(sealed_by_run(&table), None);
        let manifest = temp.path().join("sf19-1m-manifest.json");
        fs::write(&manifest, r#"{"kind":"sweep","limit":"nodes 10"}"#).unwrap();
        assert_eq!(sealed_by_run(&table), None);
        fs::write(&manifest, r#"{"kind":"sweep","repeats":1}"#).unwrap();
        assert_eq!(
            sealed_by_run(&table).as_deref(),
            Some("sf19-1m-manifest.json")
        );
        // Another run's manifest says nothing of it; nor does a name
        // without a prefix.
        assert_eq!(
            sealed_by_run(&temp.path().join("sf17-1m-sweep.parquet")),
            None
        );
        assert_eq!(sealed_by_run(&temp.path().join("-sweep.parquet")), None);
    }
}
