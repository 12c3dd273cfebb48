//! Each position's draw chance and White's expected score: the raters'
//! WDL combined like the balance (intervals, reliability, a rater without
//! WDL named), printed by `c960 show --balance`, and the organizer's
//! `--not-drawish` filter with its record and `--verify`.

use std::{
    collections::{BTreeMap, BTreeSet},
    path::{Path, PathBuf},
};

use serde_json::Value;

use crate::util::{self, Dir};

fn data(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../data")
        .join(path)
}

/// `c960 balance` over two Stockfish raters with WDL and Ethereal, which
/// has none, into `dir/out`.
fn balance(dir: &Dir) -> PathBuf {
    let sweeps = [
        data("research-v4/sf15-1m-sweep.parquet"),
        data("research-v4/sf19-1m-sweep.parquet"),
        data("research-v2/ethereal-sweep.parquet"),
    ];
    let mut args = vec!["balance".to_owned()];
    for s in &sweeps {
        args.extend(["--sweep".to_owned(), s.display().to_string()]);
    }
    args.extend(["--out".to_owned(), "out".to_owned()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let run = dir.run(&args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("draw chance and White's expected score per position")
            && run.stdout.contains("from 2 raters")
            && run.stdout.contains("left out: Ethereal"),
        "{}",
        run.stdout
    );
    dir.file("out")
}

fn t_str(path: &Path) -> &str {
    path.to_str().unwrap()
}

fn number(row: &BTreeMap<String, String>, column: &str) -> f64 {
    row[column]
        .parse()
        .unwrap_or_else(|_| panic!("{column} {:?}", row[column]))
}

#[test]
fn balance_publishes_each_positions_draw_chance_and_expected_score_with_intervals() {
    let dir = Dir::new();
    let out = balance(&dir);
    let rows = util::csv_records(&out.join("balance.csv"), &[]);
    assert_eq!(rows.len(), 960);
    let mut widths = Vec::new();
    for row in &rows {
        assert_eq!(row["wdl_raters"], "2", "SP {}", row["sp"]);
        for (x, low, high) in [
            ("draw_chance", "draw_chance_low", "draw_chance_high"),
            (
                "white_expected_score",
                "white_expected_score_low",
                "white_expected_score_high",
            ),
        ] {
            let (x, low, high) = (number(row, x), number(row, low), number(row, high));
            assert!(
                (0.0..=1.0).contains(&low) && low <= x && x <= high && high <= 1.0,
                "SP {}: {low} {x} {high}",
                row["sp"]
            );
        }
        widths.push(number(row, "draw_chance_high") - number(row, "draw_chance_low"));
    }
    // Each position's interval is its own.
    let (min, max) = widths
        .iter()
        .fold((f64::INFINITY, 0.0_f64), |(a, b), w| (a.min(*w), b.max(*w)));
    assert!(max > 1.5 * min, "{min} {max}");
    let json: Value =
        serde_json::from_slice(&std::fs::read(out.join("balance.json")).unwrap()).unwrap();
    let outcome = &json["outcome"];
    assert_eq!(outcome["raters"].as_array().unwrap().len(), 2, "{outcome}");
    let left_out = outcome["left_out"].as_array().unwrap();
    assert_eq!(left_out.len(), 1);
    assert!(
        left_out[0].as_str().unwrap().starts_with("Ethereal"),
        "{left_out:?}"
    );
    let split = &outcome["draw"]["split_half"]["whole"];
    let (low, high) = (
        outcome["draw"]["split_half_low"].as_f64().unwrap(),
        outcome["draw"]["split_half_high"].as_f64().unwrap(),
    );
    let r = split.as_f64().unwrap();
    assert!(low <= r && r <= high && r > 0.5, "{low} {r} {high}");
    assert_eq!(outcome["draw"]["per_rater"].as_array().unwrap().len(), 2);
    assert!(
        outcome["meaning"]
            .as_str()
            .unwrap()
            .contains("not results of human games")
    );
}

#[test]
fn show_prints_the_draw_chance_and_character_from_a_balance_table() {
    let dir = Dir::new();
    let out = balance(&dir);
    let table = out.join("balance.csv");
    let rows = util::csv_records(&table, &[]);
    let row = rows.iter().find(|r| r["sp"] == "622").unwrap();
    let text = dir.ok(&["show", "622", "--balance", table.to_str().unwrap()]);
    let draw = format!("{:.1}%", number(row, "draw_chance") * 100.0);
    let low = format!("{:.1}%", number(row, "draw_chance_low") * 100.0);
    assert!(
        text.contains(&format!("draw chance of {draw} (95% interval {low}")),
        "{text}"
    );
    assert!(text.contains("from 2 raters"), "{text}");
    let json: Value = serde_json::from_str(&dir.ok(&[
        "show",
        "622",
        "--balance",
        out.to_str().unwrap(),
        "--format",
        "json",
    ]))
    .unwrap();
    let shown = json["balance"]["draw_chance"].as_f64().unwrap();
    assert!(
        (shown - number(row, "draw_chance")).abs() < 1e-12,
        "{shown}"
    );
    assert!(
        ["drawish", "sharp", "one-sided", "typical"]
            .contains(&json["balance"]["character"].as_str().unwrap())
    );
    // The writer's sheet says it in words too.
    let html = dir.ok(&[
        "show",
        "622",
        "--balance",
        out.to_str().unwrap(),
        "--format",
        "html",
    ]);
    assert!(html.contains("draw chance of"), "{html}");
    // An engine name with terminal and text-direction controls (from the
    // balance.json beside the table) reaches neither terminal nor page.
    let hostile = dir.file("hostile");
    std::fs::create_dir_all(&hostile).unwrap();
    std::fs::copy(&table, hostile.join("balance.csv")).unwrap();
    let mut json: Value =
        serde_json::from_slice(&std::fs::read(out.join("balance.json")).unwrap()).unwrap();
    json["engines"][0]["name"] = Value::from("Evil\u{1b}]0;pwned\u{7}\u{202e}Engine");
    std::fs::write(hostile.join("balance.json"), json.to_string()).unwrap();
    let h = hostile.to_str().unwrap();
    let text = dir.ok(&["show", "622", "--balance", h]);
    assert!(text.contains("Evil") && !text.contains('\u{1b}') && !text.contains('\u{7}'));
    assert!(!text.contains('\u{202e}'), "{text}");
    let html = dir.ok(&["show", "622", "--balance", h, "--format", "html"]);
    assert!(html.contains("Evil") && !html.contains('\u{1b}') && !html.contains('\u{202e}'));
    // An --out that names the table it reads is refused; the table stays.
    let before = std::fs::read(&table).unwrap();
    let line = dir.bad_input(&[
        "show",
        "622",
        "--balance",
        t_str(&table),
        "--out",
        t_str(&table),
    ]);
    assert!(line.contains("--balance"), "{line}");
    assert_eq!(std::fs::read(&table).unwrap(), before);
    // A table from before draw chances says it has none; one without the
    // position, or not a table, is bad input.
    let old = data("research-v2/balance.csv");
    let text = dir.ok(&["show", "622", "--balance", old.to_str().unwrap()]);
    assert!(text.contains("The table has no draw chance"), "{text}");
    let fifo = dir.file("fifo.csv");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let line = dir.bad_input(&["show", "622", "--balance", fifo.to_str().unwrap()]);
    assert!(line.contains("not a regular file"), "{line}");
}

/// The SPs `--not-drawish percent` leaves out of `rows`: the highest draw
/// chances, lower SP first on ties.
fn most_drawish(rows: &[BTreeMap<String, String>], percent: f64) -> BTreeSet<u16> {
    let mut draws: Vec<(u16, f64)> = rows
        .iter()
        .map(|r| (r["sp"].parse().unwrap(), number(r, "draw_chance")))
        .collect();
    draws.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let count = (percent / 100.0 * 960.0).round() as usize;
    draws.into_iter().take(count).map(|d| d.0).collect()
}

#[test]
fn not_drawish_leaves_the_most_drawish_out_before_the_fairest_and_the_kit_says_so() {
    let dir = Dir::new();
    let out = balance(&dir);
    let table = out.join("balance.csv");
    let t = table.to_str().unwrap();
    let rows = util::csv_records(&table, &[]);
    let drawish = most_drawish(&rows, 25.0);
    dir.ok(&[
        "tournament",
        "--seed",
        "7",
        "--rounds",
        "5",
        "--fairest",
        "20",
        "--not-drawish",
        "25",
        "--balance",
        t,
        "--out",
        "kit",
    ]);
    let record: Value =
        serde_json::from_slice(&std::fs::read(dir.file("kit/draw.json")).unwrap()).unwrap();
    let text = record.to_string();
    assert!(text.contains("\"not_drawish\":25.0"), "{text}");
    let verify = std::fs::read_to_string(dir.file("kit/VERIFY.md")).unwrap();
    assert!(
        verify.contains("after leaving out the 25 % of its positions with the highest draw chance"),
        "{verify}"
    );
    let drawn = dir.ok(&["draw", "--verify", "kit/draw.json", "--balance", t]);
    let sps: Vec<u16> = drawn
        .lines()
        .filter_map(|l| l.split("SP ").nth(1))
        .filter_map(|rest| rest.split_whitespace().next()?.parse().ok())
        .collect();
    assert_eq!(sps.len(), 5, "{drawn}");
    assert!(sps.iter().all(|sp| !drawish.contains(sp)), "{sps:?}");
    // Without the rule, the fairest 20 are mostly drawish ones: the rule
    // changes the draw.
    let plain = dir.ok(&["draw", "--seed", "7", "--fairest", "20", "--balance", t]);
    assert!(
        plain.contains("fairest") || plain.contains("nearest"),
        "{plain}"
    );
    // A record whose rule was edited does not verify.
    let edited = text.replace("\"not_drawish\":25.0", "\"not_drawish\":20.0");
    std::fs::write(dir.file("kit/edited.json"), edited).unwrap();
    let line = dir.bad_input(&["draw", "--verify", "kit/edited.json", "--balance", t]);
    assert!(line.contains("does not verify"), "{line}");
    // Bad input: no selection, a share out of range, a table without draw
    // chances.
    let line = dir.bad_input(&["draw", "--seed", "1", "--not-drawish", "25", "--balance", t]);
    assert!(line.contains("--not-drawish goes with"), "{line}");
    let line = dir.bad_input(&[
        "draw",
        "--seed",
        "1",
        "--fairest",
        "5",
        "--not-drawish",
        "100",
        "--balance",
        t,
    ]);
    assert!(line.contains("above 0 and below 100"), "{line}");
    let old = data("research-v2/balance.csv");
    let line = dir.bad_input(&[
        "draw",
        "--seed",
        "1",
        "--fairest",
        "5",
        "--not-drawish",
        "25",
        "--balance",
        old.to_str().unwrap(),
    ]);
    assert!(line.contains("has no draw chance"), "{line}");
}

/// The published difficulty sweep of v4 (Stockfish 19, `MultiPV` 8, with
/// replies) joins a report's tables, pages, chart and `show`.
#[test]
fn a_difficulty_sweep_joins_the_tables_pages_chart_and_show() {
    let dir = Dir::new();
    let difficulty = data("research-v4/difficulty-sf19-sweep.parquet");
    let mut args: Vec<String> = vec!["report".to_owned()];
    for r in ["sf15-1m", "sf19-1m"] {
        args.extend([
            "--sweep".to_owned(),
            data(&format!("research-v4/{r}-sweep.parquet"))
                .display()
                .to_string(),
        ]);
    }
    args.extend([
        "--difficulty".to_owned(),
        difficulty.display().to_string(),
        "--out".to_owned(),
        "site".to_owned(),
        "--quiet".to_owned(),
    ]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    dir.ok(&args);
    let site = dir.file("site");
    let rows = util::csv_records(&site.join("balance.csv"), &[]);
    let published = util::read_parquet(&difficulty);
    let sps = util::u32_column(&published, "sp");
    let whites = util::u32_column(&published, "white_good_moves");
    for (sp, white) in sps.iter().zip(&whites) {
        let row = rows.iter().find(|r| r["sp"] == sp.to_string()).unwrap();
        assert_eq!(row["white_good_moves"], white.to_string(), "SP {sp}");
        let asymmetry: i64 = row["good_moves_asymmetry"].parse().unwrap();
        let black: i64 = row["black_good_moves"].parse().unwrap();
        assert_eq!(asymmetry, i64::from(*white) - black, "SP {sp}");
    }
    let positions = util::csv_records(&site.join("positions.csv"), &[]);
    assert!(positions[518].contains_key("gap_asymmetry_cp"));
    let page = std::fs::read_to_string(site.join("positions/518.html")).unwrap();
    assert!(page.contains("How hard the first moves are"), "{page}");
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(index.contains("Balance against the asymmetry of the first moves"));
    assert!(index.contains("White's good moves"));
    assert!(site.join("charts/balance-vs-difficulty.svg").is_file());
    let json: Value =
        serde_json::from_slice(&std::fs::read(site.join("balance.json")).unwrap()).unwrap();
    assert_eq!(json["difficulty"]["positions"], sps.len());
    let shown = dir.ok(&["show", "518", "--balance", "site/balance.csv"]);
    assert!(shown.contains("How hard the first moves are"), "{shown}");
    // A sweep without replies has no difficulty: bad input, nothing written.
    let plain = data("research-v4/sf17-1m-sweep.parquet");
    let mut bad: Vec<&str> = args[..args.len() - 5].to_vec();
    let plain = plain.display().to_string();
    bad.extend(["--difficulty", &plain, "--out", "other"]);
    let line = dir.bad_input(&bad);
    assert!(
        line.contains("white_lines") || line.contains("--reply"),
        "{line}"
    );
    assert!(!dir.file("other").exists());
}

/// A sweep whose WDL is not three shares per mille summing to 1000 is bad
/// input, named by row and SP.
#[test]
fn a_wdl_that_does_not_sum_to_1000_is_bad_input() {
    use polars::prelude::*;
    let dir = Dir::new();
    let mut frame = util::read_parquet(&data("research-v4/sf15-1m-sweep.parquet"));
    let draw: Vec<Option<i32>> = frame
        .column("wdl_draw")
        .unwrap()
        .cast(&DataType::Int32)
        .unwrap()
        .i32()
        .unwrap()
        .iter()
        .enumerate()
        .map(|(i, d)| if i == 5 { d.map(|d| d + 7) } else { d })
        .collect();
    frame
        .replace("wdl_draw", Column::new("wdl_draw".into(), draw))
        .unwrap();
    let file = dir.file("broken-sweep.parquet");
    ParquetWriter::new(std::fs::File::create(&file).unwrap())
        .finish(&mut frame)
        .unwrap();
    let other = data("research-v4/sf19-1m-sweep.parquet");
    let line = dir.bad_input(&[
        "balance",
        "--sweep",
        file.to_str().unwrap(),
        "--sweep",
        other.to_str().unwrap(),
        "--out",
        "out",
    ]);
    assert!(
        line.contains("row 5 (SP 5)") && line.contains("sum to 1000"),
        "{line}"
    );
    assert!(!dir.file("out").exists());
}
