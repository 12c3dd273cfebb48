//! The published resolution measurement (issue 49) is what its committed
//! game-pair journals say: every journal row of `data/books/resolution.csv`
//! has the journal's pairs, pentanomial counts and draw rate, and the nElo
//! c960's statistics give those counts; the table in `docs/books.md` quotes
//! those rows and the chart `docs/books-resolution.svg` shows them, and the
//! generated standing says where the measurement stands. A journal that
//! grew without its table recomputed, or a page or chart left behind its
//! table, fails here.

mod common;

use std::{collections::BTreeMap, fs};

use common::{
    BOOK, REFERENCES, Row, TARGET_PAIRS, against, at_budget, compared, journal, journal_dir,
    journal_rows, nelo_of, number, one_decimal, page, pairs_left, root, table,
};

#[test]
fn the_resolution_table_is_its_journals() {
    let rows = table();
    let columns = [
        "book",
        "budget",
        "pairs",
        "draw_rate",
        "nelo",
        "nelo_low",
        "nelo_high",
    ];
    for column in columns {
        assert!(
            rows[0].contains_key(column),
            "resolution.csv lacks {column}"
        );
    }
    let mut journals = 0;
    for budget in fs::read_dir(root().join("data/books/resolution")).expect("the journals") {
        let budget = budget.expect("an entry").path();
        if !budget.is_dir() {
            continue;
        }
        for file in fs::read_dir(&budget).expect("a budget's journals") {
            let path = file.expect("an entry").path();
            if path.extension().is_none_or(|e| e != "csv") {
                continue;
            }
            let (penta, draws, pairs) = journal(&path);
            if pairs == 0 {
                continue;
            }
            journals += 1;
            let book = path.file_stem().unwrap().to_string_lossy().into_owned();
            let budget_name = budget.file_name().unwrap().to_string_lossy().into_owned();
            let row = rows
                .iter()
                .find(|r| r["book"] == book && r["budget"] == budget_name)
                .unwrap_or_else(|| {
                    panic!("no row for {book} at {budget_name}: recompute the table")
                });
            let said = |column: &str| row[column].as_str();
            assert_eq!(
                said("pairs"),
                pairs.to_string(),
                "{book}: recompute the table"
            );
            let counts = [
                said("ll"),
                said("ld"),
                said("dd_wl"),
                said("wd"),
                said("ww"),
            ];
            assert_eq!(
                counts,
                penta.map(|n| n.to_string()).each_ref().map(String::as_str),
                "{book}"
            );
            #[allow(clippy::cast_precision_loss)]
            let draw_rate = 100.0 * draws as f64 / (2 * pairs) as f64;
            assert_eq!(said("draw_rate"), one_decimal(draw_rate), "{book}");
            let nelo = nelo_of(penta);
            assert_eq!(
                [said("nelo"), said("nelo_low"), said("nelo_high")],
                [nelo.value, nelo.low, nelo.high]
                    .map(one_decimal)
                    .each_ref()
                    .map(String::as_str),
                "{book}"
            );
        }
    }
    assert!(journals >= 5, "only {journals} journals");
}

#[test]
fn the_books_page_quotes_the_resolution_table() {
    let page = page();
    let rows = table();
    let measured: Vec<&Row> = rows
        .iter()
        .filter(|r| r["source"].starts_with("journal "))
        .collect();
    assert!(!measured.is_empty());
    for row in measured {
        let line = page
            .lines()
            .find(|l| l.starts_with(&format!("| `{}` | {} |", row["book"], row["budget"])))
            .unwrap_or_else(|| {
                panic!(
                    "docs/books.md has no row for {} at {}",
                    row["book"], row["budget"]
                )
            });
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        assert_eq!(cells[3], row["pairs"], "{line}");
        assert_eq!(cells[4], format!("{} %", row["draw_rate"]), "{line}");
        assert!(
            line.contains(&format!(
                "| {} [{}, {}] |",
                row["nelo"], row["nelo_low"], row["nelo_high"]
            )),
            "docs/books.md quotes another nElo than resolution.csv: {line}"
        );
    }
}

#[test]
fn the_chart_shows_every_row_of_the_table() {
    // The chart labels each book with its draw rate and pairs (its SVG
    // keeps each label's text in a comment beside the drawn glyphs).
    let chart = fs::read_to_string(root().join("docs/books-resolution.svg"))
        .expect("docs/books-resolution.svg");
    for row in table().iter().filter(|r| !r["nelo"].is_empty()) {
        let label = format!(
            "<!-- {} % drawn, {} pairs -->",
            row["draw_rate"], row["pairs"]
        );
        assert!(
            chart.contains(&label),
            "the chart lacks {} at {} ({label}): recompute it with the table",
            row["book"],
            row["budget"]
        );
        assert!(
            chart.contains(&format!("<!-- {} -->", row["book"])),
            "{}",
            row["book"]
        );
    }
}

#[test]
fn the_books_page_says_where_the_measurement_stands() {
    let page = page();
    let block = page
        .split_once("<!-- resolution standing -->")
        .and_then(|(_, rest)| rest.split_once("<!-- end resolution standing -->"))
        .map(|(block, _)| block)
        .expect("docs/books.md has a resolution standing block");
    let rows = table();
    let (book, refs) = compared(&rows);
    let left = pairs_left([book, refs[0], refs[1]]);
    for row in [book, refs[0], refs[1]] {
        let said = format!(
            "{} [{}, {}] over {}",
            row["nelo"], row["nelo_low"], row["nelo_high"], row["pairs"]
        );
        assert!(
            block.contains(&said),
            "the standing lacks {said}: recompute it"
        );
    }
    assert!(block.contains(&format!(
        "the starts draw {} % of their games",
        refs[0]["draw_rate"]
    )));
    assert!(block.contains(&format!("`{BOOK}` {} %", book["draw_rate"])));
    let (differences, gap, lies) = against(book, refs);
    for said in differences {
        assert!(
            block.contains(&said),
            "the standing lacks the difference {said}"
        );
    }
    assert!(
        block.contains(&format!("it {lies} the higher")),
        "the standing's verdict is not the table's ({gap:.1})"
    );
    let starts_hold = number(refs[0], "draw_rate") >= 55.0;
    let book_holds = (40.0..=60.0).contains(&number(book, "draw_rate"));
    for (condition, holds) in [("55 %", starts_hold), ("40–60 %", book_holds)] {
        let said = if holds {
            "it holds"
        } else {
            "it does **not** hold"
        };
        assert!(
            block.contains(&format!("{condition}: {said}")),
            "the standing misjudges the {condition} condition"
        );
    }
    let accepted = gap > 0.0 && starts_hold && book_holds && left == 0;
    assert_eq!(
        block.contains("the acceptance holds"),
        accepted,
        "the standing's verdict is not the table's"
    );
    assert_eq!(block.contains("is not called better"), !accepted);
    if left == 0 {
        assert!(block.contains("the comparison is final"));
    } else {
        // The page groups thousands with commas.
        assert!(
            block
                .replace(',', "")
                .contains(&format!("The {left} pairs left")),
            "the standing says another count of pairs left than {left}"
        );
    }
    other_books_are_counted(block, &rows);
}

/// The standing counts the pairs the measurement's books outside the
/// acceptance still need.
fn other_books_are_counted(block: &str, rows: &[Row]) {
    let others: Vec<&Row> = rows
        .iter()
        .filter(|r| at_budget(r) && r["book"] != BOOK && !REFERENCES.contains(&r["book"].as_str()))
        .collect();
    let rest = pairs_left(others.iter().copied());
    let (book, refs) = compared(rows);
    for row in others {
        if row["pairs"] != TARGET_PAIRS.to_string() {
            let said = format!("`{}` has {}", row["book"], row["pairs"]);
            assert!(block.contains(&said), "the standing lacks {said}");
            continue;
        }
        // A complete book outside the acceptance is put to its test once
        // the compared books are complete too.
        if pairs_left([book, refs[0], refs[1]]) > 0 {
            continue;
        }
        let (mut said, _, lies) = against(row, refs);
        said.push(format!(
            "`{}` has {} pairs ({} % of its games drawn)",
            row["book"], row["pairs"], row["draw_rate"]
        ));
        said.push(format!("{lies} the higher"));
        for text in said {
            assert!(block.contains(&text), "the standing lacks {text}");
        }
    }
    assert_eq!(
        block
            .replace(',', "")
            .contains(&format!("{rest} pairs are left to play")),
        rest > 0,
        "the standing says another count of the other books' pairs left than {rest}"
    );
}

/// `resolution_standing.py`'s verdict on made-up rows: the book is called
/// better only when its interval clears both references', both draw rates
/// meet their conditions and every book has its pairs.
#[test]
fn the_standing_calls_the_book_better_only_when_every_condition_holds() {
    let python = std::env::var("C960_PYTHON").unwrap_or_else(|_| "python3".to_owned());
    let script = r#"
import json, sys
sys.path.insert(0, sys.argv[1])
from resolution_standing import standing
def row(book, pairs, draw, nelo, low, high):
    return {"book": book, "budget": "sf15.1-160k-vs-80k", "source": "journal x", "pairs": str(pairs),
            "draw_rate": draw, "nelo": nelo, "nelo_low": low, "nelo_high": high, "pair_score": "66.0",
            "pair_sd": "0.190", "colour_decided_rate": "2.0", "ll": "1", "ww": "100"}
def case(book_pairs=800, starts_draw="62.0", book_nelo=("300.0", "280.0", "320.0"), refs=True, other=800,
         other_nelo=("240.0", "220.0", "260.0")):
    rows = [row("c960_FRC_4852", book_pairs, "50.0", *book_nelo),
            row("DFRC_4852_v1", other, "41.0", *other_nelo)]
    if refs:
        rows += [row("c960_FRC_starts", 800, starts_draw, "210.0", "190.0", "230.0"),
                 row("3moves_FRC", 800, "57.0", "180.0", "160.0", "200.0")]
    return standing(rows)
print(json.dumps({
    "accepted": case(),
    "draws_missed": case(starts_draw="50.0"),
    "incomplete": case(book_pairs=700),
    "behind": case(book_nelo=("220.0", "200.0", "240.0")),
    "undefined": case(book_nelo=("", "", "")),
    "missing": case(refs=False),
    "others_left": case(other=650),
    "other_above": case(other_nelo=("265.0", "245.0", "285.0")),
}))
"#;
    let bench = root().join("crates/c960-book/bench");
    let out = std::process::Command::new(&python)
        .args(["-c", script])
        .arg(&bench)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {python}: {e} (set C960_PYTHON)"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let said: BTreeMap<String, String> =
        serde_json::from_slice(&out.stdout).expect("the cases as JSON");
    assert!(said["accepted"].contains("it lies 50.0 above the higher"));
    assert!(said["accepted"].contains("the acceptance holds"));
    for case in ["draws_missed", "incomplete", "behind", "undefined"] {
        assert!(
            said[case].contains("is not called better")
                && !said[case].contains("the acceptance holds"),
            "{case}: {}",
            said[case]
        );
    }
    assert!(said["draws_missed"].contains("it does **not** hold"));
    assert!(said["behind"].contains("it lies 30.0 below the higher"));
    assert!(said["incomplete"].contains("The 100 pairs left"));
    assert!(said["accepted"].contains("the comparison is final"));
    assert!(!said["accepted"].contains("left"));
    // A book outside the acceptance neither blocks the verdict nor goes unsaid.
    assert!(said["others_left"].contains("the acceptance holds"));
    assert!(said["others_left"].contains(
        "`DFRC_4852_v1` has 650 of its 800 pairs: 150 pairs are left to play, about 1.2 core-hours"
    ));
    assert!(said["missing"].contains("none for `c960_FRC_starts`, `3moves_FRC`"));
    // A complete book outside the acceptance is put to its test, in words
    // that cannot be taken for the book's verdict.
    assert!(said["accepted"].contains(
        "its nElo minus each reference's: `c960_FRC_starts` +30.0 [+1.7, +58.3]; `3moves_FRC` +60.0 [+31.7, +88.3]"
    ));
    assert!(said["accepted"].contains(
        "lies 10.0 below the higher `nelo_high`, `c960_FRC_starts`'s, so its interval overlaps that reference's and by that test it is not shown to resolve more than both"
    ));
    assert!(said["other_above"].contains("lies 15.0 above the higher `nelo_high`"));
    assert!(said["other_above"].contains("by that test it resolves more than both"));
    // Not before it, and not before the compared books, have their pairs.
    assert!(!said["others_left"].contains("Put to the acceptance's test"));
    assert!(!said["incomplete"].contains("Put to the acceptance's test"));
}

/// Every run that plays records who played in `runs.jsonl` beside the
/// journals: the engine the journals' settings line names, at the
/// budget's nodes and the journals' seed, and fastchess and c960 by
/// version; the pairs it found journaled never exceed what the journals
/// hold now.
#[test]
fn every_run_records_who_played() {
    let dir = journal_dir();
    let text = fs::read_to_string(dir.join("runs.jsonl")).expect("runs.jsonl beside the journals");
    let mut runs = 0;
    for line in text.lines() {
        let run: serde_json::Value = serde_json::from_str(line).expect("a run as JSON");
        runs += 1;
        let journaled = run["journaled_pairs"].as_object().expect("journaled_pairs");
        assert!(!journaled.is_empty(), "a run names no book: {line}");
        for (book, at_start) in journaled {
            let journal = dir.join(format!("{book}.csv"));
            let settings = fs::read_to_string(&journal)
                .unwrap_or_else(|_| panic!("a run played {book}, which has no journal"));
            let settings = settings.lines().next().expect("a settings line");
            let engine = &run["engine"];
            for said in [
                format!(
                    "engine_a={}@{}",
                    engine["id_name"].as_str().expect("id_name"),
                    engine["nodes_a"]
                ),
                format!(
                    "engine_b={}@{}",
                    engine["id_name"].as_str().expect("id_name"),
                    engine["nodes_b"]
                ),
                format!("seed={} ", run["seed"]),
            ] {
                assert!(
                    settings.contains(&said),
                    "{book}: the run's {said} is not its journal's ({settings})"
                );
            }
            let now = journal_rows(&journal).len() as u64;
            assert!(at_start.as_u64().expect("a count") <= now, "{book}: {line}");
        }
        for key in ["c960", "adjudication", "started_utc"] {
            assert!(run[key].is_string(), "a run lacks {key}: {line}");
        }
        assert!(run["fastchess"]["version"].is_string() && run["fastchess"]["sha256"].is_string());
        assert_eq!(run["engine"]["sha256"].as_str().map(str::len), Some(64));
    }
    assert!(runs > 0, "runs.jsonl names no run");
}
