//! Exit books chosen by a draw model fitted at the book's budget: `c960
//! book draw-model` on a pilot journal, then `c960 book exits
//! --draw-model` with both sides to move (`--exits-from`), a shuffled
//! order and the per-line table; and bad input refused in one line. Real
//! Stockfish at small node counts.

use crate::util;

use std::{fs, path::Path};

use util::Dir;

use crate::book_exits::{STARTS, exits, journal_exits, legal_lines};

/// A game-pair journal of `pairs` (opening, A's game with White, A's game
/// with Black), as the book benchmark writes it.
fn write_pair_journal(path: &Path, pairs: &[(String, &str, &str)]) {
    use std::fmt::Write as _;
    let mut text = String::from(
        "# book=pilot sha256=00 seed=1 engine_a=Stockfish 15.1@6000 engine_b=Stockfish 15.1@3000\n\
         pair,line,fen,a_white_result,a_black_result,a_points\n",
    );
    for (n, (fen, white, black)) in pairs.iter().enumerate() {
        writeln!(text, "{n},{},{fen},{white},{black},0", n + 1).unwrap();
    }
    fs::write(path, text).unwrap();
}

/// Expands the six starts with exits at plies 1 and 2 into `run`, writes
/// a pilot journal of one pair per scored exit whose results draw less as
/// the score grows (with some noise: near 0 cp most games are drawn,
/// beyond 60 cp the favoured side mostly wins with either engine, in
/// between the stronger engine A wins with White and draws with Black),
/// and fits `model.json` to it. Returns the pairs.
fn fitted_run(dir: &Dir) -> usize {
    let mut args = exits(&["--positions", STARTS, "--exits-from", "1", "--run", "run"]);
    args.retain(|a| *a != "--quiet");
    dir.ok(&args);
    let journal = journal_exits(&dir.file("run/journal.jsonl"));
    let mut scored: Vec<(&String, i64)> = journal
        .iter()
        .filter_map(|(fen, (cp, _, over))| cp.filter(|_| !over).map(|cp| (fen, cp)))
        .collect();
    scored.sort();
    assert!(scored.iter().any(|(fen, _)| fen.contains(" b ")));
    assert!(scored.iter().any(|(fen, _)| fen.contains(" w ")));
    let pairs: Vec<(String, &str, &str)> = scored
        .iter()
        .enumerate()
        .map(|(n, &(fen, cp))| {
            let (white, black) = match (cp.abs(), n % 4) {
                (0..=25, 0) => ("1-0", "1/2-1/2"),
                (0..=25, _) | (26..=60, 0) => ("1/2-1/2", "1/2-1/2"),
                (26..=60, _) if cp > 0 => ("1-0", "1/2-1/2"),
                (26..=60, _) => ("1/2-1/2", "0-1"),
                (_, 0) => ("1-0", "1/2-1/2"),
                _ if cp > 0 => ("1-0", "1-0"),
                _ => ("0-1", "0-1"),
            };
            (fen.clone(), white, black)
        })
        .collect();
    assert!(pairs.len() >= 15, "{} exits", pairs.len());
    write_pair_journal(&dir.file("pilot.csv"), &pairs);
    let out = dir.ok(&[
        "book",
        "draw-model",
        "--from",
        "run",
        "--journal",
        "pilot.csv",
        "--out",
        "model.json",
    ]);
    assert!(out.contains(&format!("{} games", 2 * pairs.len())), "{out}");
    pairs.len()
}

#[test]
fn exit_books_from_a_fitted_draw_model_hold_both_sides_to_move_with_a_sidecar() {
    let dir = Dir::new();
    let pairs = fitted_run(&dir);
    let model: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.file("model.json")).unwrap()).unwrap();
    assert_eq!(model["kind"], "c960 draw model");
    assert_eq!(model["scores_from"]["engine"], "Stockfish 15.1");
    assert_eq!(model["journals"][0]["pairs"], pairs);
    let book = |out: &'static str, shuffle: &'static str| {
        dir.ok(&[
            "book",
            "exits",
            "--from",
            "run",
            "--draw-rate",
            "20..80",
            "--draw-model",
            "model.json",
            "--shuffle",
            shuffle,
            "--sidecar",
            "--out",
            out,
        ]);
        legal_lines(&dir.file(out))
    };
    let lines = book("a.epd", "7");
    assert_eq!(lines, book("b.epd", "7"), "a seed gives one order");
    assert_ne!(lines, book("c.epd", "8"), "another seed another order");
    let sidecar = fs::read_to_string(dir.file("a.lines.csv")).unwrap();
    let mut rows = sidecar.lines();
    let header: Vec<&str> = rows.next().unwrap().split(',').collect();
    assert_eq!(
        header,
        [
            "line",
            "sp",
            "plies",
            "side_to_move",
            "moves",
            "fen",
            "score_cp",
            "engine_draw_pct",
            "model_draw_pct",
            "model_draw_low",
            "model_draw_high",
            "model_white_pct"
        ]
    );
    let rows: Vec<Vec<&str>> = rows.map(|r| r.split(',').collect()).collect();
    assert_eq!(rows.len(), lines.len());
    for (row, line) in rows.iter().zip(&lines) {
        assert_eq!(row[5], line);
        let draw: f64 = row[8].parse().unwrap();
        let (low, high): (f64, f64) = (row[9].parse().unwrap(), row[10].parse().unwrap());
        assert!((20.0..=80.0).contains(&draw), "{row:?}");
        assert!(low <= draw && draw <= high, "{row:?}");
        assert_eq!(row[3] == "black", line.contains(" b "), "{row:?}");
    }
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.file("a.json")).unwrap()).unwrap();
    let contents = &manifest["contents"];
    assert_eq!(contents["total"], lines.len());
    assert_eq!(
        contents["white_to_move"].as_u64().unwrap() + contents["black_to_move"].as_u64().unwrap(),
        lines.len() as u64
    );
    assert_eq!(
        (
            contents["min_plies"].as_u64(),
            contents["max_plies"].as_u64()
        ),
        (Some(1), Some(2))
    );
    let selection = &manifest["made_with"]["selection"];
    assert_eq!(selection["order"], "shuffled with seed 7");
    assert_eq!(selection["draw_model"]["file"], "model.json");
    assert_eq!(selection["draw_model"]["games"], 2 * pairs);
}

#[test]
fn draw_models_and_exit_plies_refuse_bad_input_in_one_line() {
    let dir = Dir::new();
    fitted_run(&dir);
    // A model read on the scores of another search is refused.
    let mut other = exits(&["--positions", "0", "--run", "other"]);
    let nodes = other.iter().position(|a| *a == "3000").unwrap();
    other[nodes] = "2000";
    dir.ok(&other);
    let line = dir.bad_input(&[
        "book",
        "exits",
        "--from",
        "other",
        "--draw-rate",
        "20..80",
        "--draw-model",
        "model.json",
        "--out",
        "d.epd",
    ]);
    assert!(line.contains("was fitted on the scores of"), "{line}");
    // The exits' plies lie within the tree.
    let line = dir.bad_input(&exits(&[
        "--positions",
        "0",
        "--exits-from",
        "3",
        "--run",
        "x",
    ]));
    assert!(line.contains("--exits-from 3"), "{line}");
    // A journal whose opening is not an exit of the runs is refused.
    write_pair_journal(
        &dir.file("stray.csv"),
        &[("8/8/8/8/8/8/8/K1k5 w - - 0 1".to_owned(), "1-0", "1-0")],
    );
    let line = dir.bad_input(&[
        "book",
        "draw-model",
        "--from",
        "run",
        "--journal",
        "stray.csv",
        "--out",
        "m2.json",
    ]);
    assert!(line.contains("not a scored exit"), "{line}");
    // A file that is not a model.
    fs::write(dir.file("junk.json"), "{}").unwrap();
    let line = dir.bad_input(&[
        "book",
        "exits",
        "--from",
        "run",
        "--draw-rate",
        "48..52",
        "--draw-model",
        "junk.json",
        "--out",
        "e.epd",
    ]);
    assert!(line.contains("is not a c960 draw model"), "{line}");
}

/// The published `c960_FRC_4852` book regenerates on a slice of starts:
/// two starts expanded again with the settings its manifest records, cut
/// with its draw model and window, give lines that are all in the book,
/// each with the same row of the per-line table (the model's draw chance
/// included); and the book holds both sides to move in its order.
#[test]
fn the_published_4852_book_regenerates_on_a_slice_of_starts() {
    let books = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/books");
    let name = "c960_FRC_4852";
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(books.join(format!("{name}.json"))).unwrap())
            .unwrap();
    let made = &manifest["made_with"];
    assert_eq!(made["engine"]["id_name"], "Stockfish 15.1");
    let expansion = &made["expansion"];
    let field = |v: &serde_json::Value| v.to_string();
    let (nodes, multipv, plies, from) = (
        field(&expansion["nodes"]),
        field(&expansion["multipv"]),
        field(&expansion["plies"]),
        field(&expansion["exits_from"]),
    );
    let selection = &made["selection"];
    let per_start = field(&selection["quota"]["per-start"]);
    let (seed, shuffle) = (field(&selection["seed"]), field(&selection["shuffle"]));
    let model = books.join("draw-model").join(format!("{name}.model.json"));
    let dir = Dir::new();
    let sidecar = fs::read_to_string(books.join(format!("{name}.lines.csv"))).unwrap();
    let header = sidecar.lines().next().unwrap();
    let slice = two_starts_of(&sidecar);
    let model_path = model.to_str().unwrap();
    // The starts' balance the per-line table gives is the v4 table's.
    let balance = books.join("../research-v4/balance.csv");
    assert_eq!(
        selection["start_balance"]["sha256"],
        c960_store::sha256_hex(&fs::read(&balance).unwrap())
    );
    let balance_path = balance.to_str().unwrap();
    dir.ok(&[
        "book",
        "exits",
        "--engine",
        "/usr/games/stockfish",
        "--nodes",
        &nodes,
        "--multipv",
        &multipv,
        "--plies",
        &plies,
        "--exits-from",
        &from,
        "--positions",
        &slice,
        "--jobs",
        "2",
        "--run",
        "slice",
        "--quiet",
    ]);
    dir.ok(&[
        "book",
        "exits",
        "--from",
        "slice",
        "--positions",
        &slice,
        "--draw-rate",
        "48..52",
        "--draw-model",
        model_path,
        "--per-start",
        &per_start,
        "--seed",
        &seed,
        "--shuffle",
        &shuffle,
        "--sidecar",
        "--balance",
        balance_path,
        "--out",
        "slice.epd",
        "--quiet",
    ]);
    let book = fs::read_to_string(books.join(format!("{name}.epd"))).unwrap();
    let ours = fs::read_to_string(dir.file("slice.epd")).unwrap();
    assert!(ours.lines().count() > 0, "the slice keeps no exit");
    for line in ours.lines() {
        assert!(
            book.lines().any(|b| b == line),
            "{name} lacks the exit {line}"
        );
    }
    // Each line's row, but for its line number in the book, is the
    // published one.
    let tail = |row: &str| row.split_once(',').unwrap().1.to_owned();
    let published: Vec<String> = sidecar.lines().skip(1).map(tail).collect();
    let table = fs::read_to_string(dir.file("slice.lines.csv")).unwrap();
    assert_eq!(table.lines().next().unwrap(), header);
    for row in table.lines().skip(1) {
        assert!(
            published.contains(&tail(row)),
            "{name}.lines.csv lacks {row}"
        );
    }
    both_sides_as_the_manifest_says(&manifest, &book);
}

/// Two starts a book's per-line table holds lines of: the first, and SP
/// 518 when it has some (else the middle one).
fn two_starts_of(sidecar: &str) -> String {
    let mut starts: Vec<u32> = sidecar
        .lines()
        .skip(1)
        .map(|row| row.split(',').nth(1).unwrap().parse().unwrap())
        .collect();
    starts.sort_unstable();
    starts.dedup();
    let second = if starts.contains(&518) {
        518
    } else {
        starts[starts.len() / 2]
    };
    format!("{},{second}", starts[0])
}

/// The book holds both sides to move, as many of each as its manifest
/// says.
fn both_sides_as_the_manifest_says(manifest: &serde_json::Value, book: &str) {
    let contents = &manifest["contents"];
    let count = |side: &str| {
        book.lines()
            .filter(|l| l.split(' ').nth(1) == Some(side))
            .count()
    };
    assert_eq!(contents["white_to_move"], count("w"));
    assert_eq!(contents["black_to_move"], count("b"));
    assert!(count("w") > 0 && count("b") > 0);
}
