//! An import's directory: the game table (`games.parquet`, written in row
//! groups as games stream past, so memory stays flat), the summary
//! (`import.json`), the per-position table (`positions.parquet` and
//! `.csv`) and the manifest a report reads (`manifest.json`).

use std::{
    collections::BTreeMap,
    io,
    path::{Path, PathBuf},
};

use c960_store::{
    Frame, GAMES_TABLE, IMPORT_SUMMARY_FILE, MANIFEST_FILE, POSITIONS_CSV, POSITIONS_TABLE,
};
use polars::prelude::*;
use serde::Serialize;

use super::{
    Filters, ImportSummary, ImportedGame, import,
    tally::{PositionTally, positions_frame},
};

/// Games per Parquet row group.
const BATCH: usize = 4_096;

/// The game table of `games`: self-play's columns (`sp`, `game`, `seed`,
/// `white`, `black`, `limit`, `result`, `white_score`, `termination`,
/// `plies`, `moves`, castling side and ply per colour, `scores`) and the
/// players' ratings, time control and date. `seed`, `limit` and `scores`
/// are null for human games; `game` numbers each position's games from 0.
pub fn games_frame(mut games: Vec<(u32, ImportedGame)>) -> PolarsResult<DataFrame> {
    // The move lists are the bulk of a game: moved, not copied.
    let moves: Vec<String> = games
        .iter_mut()
        .map(|(_, g)| std::mem::take(&mut g.moves))
        .collect();
    let side = |c: &Option<(char, u32)>| c.map(|(s, _)| s.to_string());
    let ply = |c: &Option<(char, u32)>| c.map(|(_, p)| p);
    Frame::new(&games)
        .column("sp", |(_, g)| u32::from(g.sp))
        .column("game", |(i, _)| *i)
        .column("seed", |_| None::<u64>)
        .column("white", |(_, g)| g.white.as_str())
        .column("black", |(_, g)| g.black.as_str())
        .column("limit", |_| None::<String>)
        .column("result", |(_, g)| g.result)
        .column("white_score", |(_, g)| g.white_score)
        .column("termination", |(_, g)| g.termination)
        .column("plies", |(_, g)| g.plies)
        .values("moves", moves)
        .column("white_castle_side", |(_, g)| side(&g.white_castling))
        .column("white_castle_ply", |(_, g)| ply(&g.white_castling))
        .column("black_castle_side", |(_, g)| side(&g.black_castling))
        .column("black_castle_ply", |(_, g)| ply(&g.black_castling))
        .column("scores", |_| None::<String>)
        .column("white_elo", |(_, g)| g.white_elo)
        .column("black_elo", |(_, g)| g.black_elo)
        .column("time_control", |(_, g)| g.time_control.as_deref())
        .column("date", |(_, g)| g.date.as_deref())
        .build()
}

/// Imports `files` into `out`: `games.parquet` (written atomically, in row
/// groups, so memory stays flat), `import.json` (the summary), the
/// per-position table and `manifest.json`.
pub fn import_to(files: &[PathBuf], filters: &Filters, out: &Path) -> io::Result<ImportSummary> {
    std::fs::create_dir_all(out)?;
    let mut summary = None;
    let mut tallies: BTreeMap<u16, PositionTally> = BTreeMap::new();
    c960_store::write_atomically(&out.join(GAMES_TABLE), |file| {
        let schema = games_frame(Vec::new())
            .map_err(io::Error::other)?
            .schema()
            .clone();
        // LZ4: the default zstd level took a fifth of an import's time.
        // Sealed with its row count and data hash, checked on read.
        let mut writer = c960_store::SealedWriter::with_compression(
            file,
            &schema,
            Vec::new(),
            ParquetCompression::Lz4Raw,
        )
        .map_err(io::Error::other)?;
        let mut next = vec![0u32; 960];
        let mut batch: Vec<(u32, ImportedGame)> = Vec::with_capacity(BATCH);
        let mut flush = |batch: &mut Vec<(u32, ImportedGame)>| -> io::Result<()> {
            let frame = games_frame(std::mem::take(batch)).map_err(io::Error::other)?;
            writer.write_batch(&frame).map_err(io::Error::other)?;
            Ok(())
        };
        summary = Some(import(files, filters, |game| {
            tallies.entry(game.sp).or_default().add(&game);
            let index = &mut next[usize::from(game.sp)];
            batch.push((*index, game));
            *index += 1;
            if batch.len() == BATCH {
                flush(&mut batch)?;
            }
            Ok(())
        })?);
        if !batch.is_empty() {
            flush(&mut batch)?;
        }
        writer.finish().map_err(io::Error::other)
    })?;
    let summary = summary.unwrap_or_default();
    write_json(
        &out.join(IMPORT_SUMMARY_FILE),
        &SummaryFile {
            kind: c960_store::RunKind::Import,
            c960_version: env!("CARGO_PKG_VERSION"),
            summary: &summary,
        },
    )?;
    let mut positions = positions_frame(&tallies).map_err(io::Error::other)?;
    c960_store::write_atomically(&out.join(POSITIONS_TABLE), |file| {
        c960_store::write_sealed(file, &mut positions, Vec::new())
    })?;
    c960_store::write_atomically(&out.join(POSITIONS_CSV), |file| {
        c960_store::write_csv(file, &mut positions)
    })?;
    // The manifest a report reads, as self-play and sweeps write one.
    write_json(
        &out.join(MANIFEST_FILE),
        &c960_store::ImportManifest {
            kind: c960_store::RunKind::Import,
            c960_version: env!("CARGO_PKG_VERSION"),
            files: files
                .iter()
                .map(|f| {
                    f.file_name()
                        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
                })
                .collect(),
            filters,
            games: summary.kept,
            read: summary.read,
            tables: c960_store::SEALED_TABLES,
            finished: humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
        },
    )?;
    Ok(summary)
}

/// `import.json`: what the import read, kept and skipped.
#[derive(Serialize)]
struct SummaryFile<'a> {
    /// Always [`c960_store::RunKind::Import`].
    kind: c960_store::RunKind,
    /// The c960 version that wrote it.
    c960_version: &'static str,
    /// The counts.
    summary: &'a ImportSummary,
}

/// Writes `value` as pretty JSON to `path`, atomically.
fn write_json(path: &Path, value: &impl Serialize) -> io::Result<()> {
    let json = serde_json::to_string_pretty(value).map_err(io::Error::other)?;
    c960_store::write_atomically(path, |file| io::Write::write_all(file, json.as_bytes()))
}

#[cfg(test)]
mod tests {
    use c960_store::{RunKind, RunManifest};

    use super::*;

    #[test]
    fn the_game_table_has_the_shared_columns_then_the_imports_own() {
        let frame = games_frame(Vec::new()).unwrap();
        let names: Vec<&str> = frame
            .get_column_names()
            .iter()
            .map(|n| n.as_str())
            .collect();
        let wanted: Vec<&str> = c960_store::columns::GAMES
            .iter()
            .chain(&c960_store::columns::IMPORT_GAMES_EXTRA)
            .copied()
            .collect();
        assert_eq!(names, wanted);
    }

    #[test]
    fn an_import_writes_a_manifest_the_typed_reader_reads() {
        let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tree.pgn");
        let out = tempfile::tempdir().unwrap();
        let filters = Filters {
            min_rating: Some(1000),
            ..Filters::default()
        };
        let summary = import_to(&[fixture], &filters, out.path()).unwrap();
        let manifest = RunManifest::read(out.path()).unwrap();
        assert_eq!(manifest.kind, RunKind::Import);
        assert_eq!(manifest.files, ["tree.pgn"]);
        assert_eq!(manifest.games, Some(summary.kept));
        assert_eq!(manifest.read, Some(summary.read));
        assert_eq!(
            manifest.c960_version.as_deref(),
            Some(env!("CARGO_PKG_VERSION"))
        );
        assert!(manifest.finished.is_some());
        // Every field as written, in order, those the typed model does not
        // name (`filters`) too.
        let written = manifest.written();
        assert!(written.contains(r#""filters":{"min_rating":1000,"max_rating":null"#));
        let at = |key: &str| written.find(&format!("\"{key}\":")).unwrap();
        let keys = [
            "kind",
            "c960_version",
            "files",
            "filters",
            "games",
            "read",
            "finished",
        ];
        assert!(keys.windows(2).all(|w| at(w[0]) < at(w[1])), "{written}");
    }
}
