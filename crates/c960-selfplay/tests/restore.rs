//! `restore`: a run directory rebuilt from its game table writes what the
//! run wrote, byte for byte, takes more games as the run would, and
//! refuses tables it cannot trust or runs it cannot rebuild. Built-in
//! engine at small node limits.

use std::num::NonZeroU32;
use std::{fs, path::Path, sync::atomic::AtomicBool};

use c960_core::{Shard, StartPosition};
use c960_engine::{EngineSpec, Limit};
use c960_selfplay::{
    GameRecord, MatchOptions, Rules, SelfplayConfig, SelfplayError, Sprt, restore, run,
};
use c960_store::{Journal, PARQUET_MANIFEST_KEY, SealedWriter, check_parquet};
use polars::prelude::*;
use serde_json::Value;

fn builtin() -> EngineSpec {
    EngineSpec::Builtin {
        hash_mb: 1,
        watchdog: None,
    }
}

fn config(out: &Path, paired: bool, games: u32, shared_process: bool) -> SelfplayConfig {
    SelfplayConfig {
        engine: builtin(),
        engine_b: paired.then(builtin),
        limit: Limit::Nodes(150),
        jitter: 0.1,
        rules: Rules {
            max_plies: NonZeroU32::new(60).unwrap(),
            ..Rules::default()
        },
        games_per_position: NonZeroU32::new(games).unwrap(),
        positions: [4u16, 518, 959]
            .iter()
            .map(|&sp| StartPosition::new(sp).unwrap().into())
            .collect(),
        seed: 5,
        jobs: 2,
        retries: 0,
        keep_scores: !paired,
        out: out.to_owned(),
        options: MatchOptions {
            shared_process,
            ..MatchOptions::default()
        },
        shard: Shard::WHOLE,
    }
}

fn play(config: &SelfplayConfig) -> u64 {
    let outcome = run(config, &AtomicBool::new(false), |_| {}).unwrap();
    assert!(!outcome.interrupted && outcome.failed.is_empty());
    outcome.timing.games
}

fn bytes(path: &Path) -> Vec<u8> {
    fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The journal's settings line and its games in (SP, game) order.
fn journal(dir: &Path) -> (c960_store::Settings, Vec<GameRecord>) {
    let path = dir.join("journal.jsonl");
    let (_, settings) = Journal::<Value>::read_header(&path).unwrap();
    let mut games: Vec<GameRecord> = fs::read_to_string(&path)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    games.sort_by_key(|g| (g.sp, g.game));
    (settings, games)
}

#[test]
fn a_restored_run_is_the_run_byte_for_byte() {
    let temp = tempfile::tempdir().unwrap();
    for (paired, shared, sprt) in [
        (false, false, false),
        (false, true, false),
        (true, false, false),
        (true, false, true),
    ] {
        let name = format!("paired-{paired}-shared-{shared}-sprt-{sprt}");
        let original = temp.path().join(format!("{name}/run"));
        let mut run = config(&original, paired, 4, shared);
        // An SPRT's state is part of match.json: restored from the games.
        run.options.sprt = sprt.then_some(Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        });
        play(&run);
        let restored = temp.path().join(format!("{name}/restored"));
        let outcome = restore(&original.join("games.parquet"), &restored).unwrap();
        assert_eq!(outcome.games, 12, "{name}");
        assert_eq!(outcome.positions, 3, "{name}");
        let mut files = vec![
            "games.pgn",
            "games.parquet",
            "positions.parquet",
            "positions.csv",
            "manifest.json",
        ];
        if paired {
            files.push("match.json");
        }
        for file in files {
            assert!(
                bytes(&original.join(file)) == bytes(&restored.join(file)),
                "{name}: {file} differs"
            );
        }
        let ((settings, games), (restored_settings, restored_games)) =
            (journal(&original), journal(&restored));
        assert_eq!(settings, restored_settings, "{name}: journal settings");
        assert!(games == restored_games, "{name}: journal games differ");
    }
}

#[test]
fn a_restored_run_takes_more_games_as_the_run_would() {
    let temp = tempfile::tempdir().unwrap();
    let original = temp.path().join("run");
    play(&config(&original, false, 3, false));
    let restored = temp.path().join("restored");
    restore(&original.join("games.parquet"), &restored).unwrap();
    // The same command with more games plays only the new ones...
    assert_eq!(play(&config(&restored, false, 5, false)), 6);
    // ...and gives what one run of five games gives.
    let whole = temp.path().join("whole");
    play(&config(&whole, false, 5, false));
    for file in ["games.pgn", "positions.csv"] {
        assert!(
            bytes(&whole.join(file)) == bytes(&restored.join(file)),
            "{file} differs"
        );
    }
    // Other settings are refused, as for any run directory.
    let mut other = config(&restored, false, 5, false);
    other.seed = 6;
    let err = run(&other, &AtomicBool::new(false), |_| {}).unwrap_err();
    assert!(err.to_string().contains("other settings"), "{err}");
}

/// Writes `frame` as a game table carrying `manifest` at `path`.
fn write_table(path: &Path, frame: &DataFrame, manifest: &str) {
    let file = fs::File::create(path).unwrap();
    let mut writer = SealedWriter::new(
        file,
        frame.schema(),
        vec![(PARQUET_MANIFEST_KEY.to_owned(), manifest.to_owned())],
    )
    .unwrap();
    writer.write_batch(frame).unwrap();
    writer.finish().unwrap();
}

fn refused(table: &Path, out: &Path) -> String {
    match restore(table, out) {
        Err(SelfplayError::Invalid(message)) => message,
        other => panic!("{} was restored: {other:?}", table.display()),
    }
}

#[test]
fn tables_that_cannot_be_trusted_or_rebuilt_are_refused() {
    let temp = tempfile::tempdir().unwrap();
    let original = temp.path().join("run");
    play(&config(&original, false, 2, false));
    let table = original.join("games.parquet");
    let manifest = check_parquet(&table)
        .unwrap()
        .get(PARQUET_MANIFEST_KEY)
        .unwrap()
        .to_owned();
    let frame = ParquetReader::new(fs::File::open(&table).unwrap())
        .finish()
        .unwrap();
    let out = |name: &str| temp.path().join(name);

    // A game whose moves were changed.
    let mut moves: Vec<String> = frame
        .column("moves")
        .unwrap()
        .str()
        .unwrap()
        .iter()
        .map(|m| m.unwrap().to_owned())
        .collect();
    let mut first: Vec<&str> = moves[0].split(' ').collect();
    first[1] = "a1a1";
    moves[0] = first.join(" ");
    let mut changed = frame.clone();
    changed
        .with_column(Column::new("moves".into(), moves))
        .unwrap();
    let path = out("changed.parquet");
    write_table(&path, &changed, &manifest);
    let message = refused(&path, &out("a"));
    assert!(message.contains("is not legal"), "{message}");

    // A game missing from the table.
    let path = out("short.parquet");
    write_table(&path, &frame.slice(1, frame.height() - 1), &manifest);
    let message = refused(&path, &out("b"));
    assert!(
        message.contains("5 games, but its manifest says the run has 6"),
        "{message}"
    );

    // Runs whose game table does not hold all they were made from.
    let mut adaptive: Value = serde_json::from_str(&manifest).unwrap();
    // The adaptive record of a real run: v2's.
    let v2: Value = serde_json::from_str(
        &fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../data/research-v2/selfplay-manifest.json"),
        )
        .unwrap(),
    )
    .unwrap();
    adaptive["adaptive"] = v2["adaptive"].clone();
    let path = out("adaptive.parquet");
    write_table(&path, &frame, &adaptive.to_string());
    let message = refused(&path, &out("c"));
    assert!(message.contains("an adaptive run"), "{message}");
    let mut book: Value = serde_json::from_str(&manifest).unwrap();
    book["openings"] = Value::from("book.epd: 2 openings");
    let path = out("book.parquet");
    write_table(&path, &frame, &book.to_string());
    let message = refused(&path, &out("d"));
    assert!(message.contains("opening book"), "{message}");

    // Not a c960 game table at all.
    let path = out("plain.parquet");
    let mut plain = frame.clone();
    ParquetWriter::new(fs::File::create(&path).unwrap())
        .finish(&mut plain)
        .unwrap();
    let message = refused(&path, &out("e"));
    assert!(message.contains("not a c960 game table"), "{message}");

    // An output directory that already holds a run is left alone.
    let before = bytes(&original.join("journal.jsonl"));
    let message = refused(&table, &original);
    assert!(message.contains("already holds a run"), "{message}");
    assert_eq!(bytes(&original.join("journal.jsonl")), before);
    // Nothing was written for the refused tables.
    for name in ["a", "b", "c", "d", "e"] {
        assert!(!out(name).join("journal.jsonl").exists(), "{name}");
    }
}

/// Issue 30 item 15: a row whose game index is beyond the run's games per
/// position is not a game of that run, whatever the table's seal says.
#[test]
fn restore_refuses_a_game_index_beyond_the_run() {
    let temp = tempfile::tempdir().unwrap();
    let original = temp.path().join("run");
    play(&config(&original, false, 2, false));
    let table = original.join("games.parquet");
    let manifest = check_parquet(&table)
        .unwrap()
        .get(PARQUET_MANIFEST_KEY)
        .unwrap()
        .to_owned();
    let frame = ParquetReader::new(fs::File::open(&table).unwrap())
        .finish()
        .unwrap();
    // (A row moved to another SP fails on its moves already.)
    let (column, value, said) = ("game", 77u32, "beyond the run's 2 games per position");
    {
        let dtype = frame.column(column).unwrap().dtype().clone();
        let mut values: Vec<u32> = frame
            .column(column)
            .unwrap()
            .cast(&DataType::UInt32)
            .unwrap()
            .u32()
            .unwrap()
            .into_no_null_iter()
            .collect();
        values[0] = value;
        let mut changed = frame.clone();
        changed
            .with_column(Column::new(column.into(), values).cast(&dtype).unwrap())
            .unwrap();
        let path = temp.path().join(format!("{column}.parquet"));
        write_table(&path, &changed, &manifest);
        let message = refused(&path, &temp.path().join(column));
        assert!(message.contains(said), "{message}");
    }
}
