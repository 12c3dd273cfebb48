//! fair.html ranks and labels against one reference, with each position's
//! interval, the interval of its rank and a word on what rank 1 means,
//! from the published research-v3 raters.

use std::{fs, path::PathBuf, sync::OnceLock};

use crate::util::Dir;

const RATERS: [&str; 4] = [
    "stockfish-npm-4m",
    "stockfish-4m",
    "stockfish-npm-1m-multipv3",
    "stockfish-1m-hash64",
];

/// fair.html of a report on the four published research-v3 raters.
fn page() -> &'static str {
    static PAGE: OnceLock<String> = OnceLock::new();
    PAGE.get_or_init(|| {
        let published = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/research-v3");
        let dir = Dir::new();
        let mut args = vec!["report".to_owned()];
        for rater in RATERS {
            let to = dir.file(&format!("raters/{rater}"));
            fs::create_dir_all(&to).unwrap();
            for file in ["manifest.json", "sweep.parquet"] {
                fs::copy(published.join(format!("{rater}-{file}")), to.join(file)).unwrap();
            }
            args.extend(["--sweep".to_owned(), format!("raters/{rater}")]);
        }
        args.extend(["--out", "site", "--quiet"].map(str::to_owned));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        dir.ok(&args);
        fs::read_to_string(dir.file("site/fair.html")).unwrap()
    })
}

fn rows() -> Vec<&'static str> {
    page()
        .lines()
        .filter(|l| l.starts_with("<tr data-weak"))
        .collect()
}

/// The value of `data-NAME="…"` in a row.
fn attribute<'a>(row: &'a str, name: &str) -> &'a str {
    let key = format!(" data-{name}=\"");
    let start = row.find(&key).unwrap_or_else(|| panic!("{name} in {row}")) + key.len();
    &row[start..start + row[start..].find('"').unwrap()]
}

#[test]
fn fair_ranks_and_labels_against_the_same_reference() {
    let rows = rows();
    assert_eq!(rows.len(), 960);
    // The six positions closest to equal chances are not "less for White"
    // than the mean: their verdicts are against equal chances.
    for row in &rows[..6] {
        let verdict = attribute(row, "equal-verdict");
        assert!(["unresolved", "within ±10 cp"].contains(&verdict), "{row}");
        assert!(row.contains(&format!("<td class=\"verdict\">{verdict}</td>")));
    }
    assert!(page().contains("<th data-type=\"text\">verdict against the reference</th>"));
    assert!(
        !page().contains("less-for-white</td>"),
        "no verdict against another reference"
    );
    // Against the typical position, the positions within the band are
    // among the closest to it, not at ranks 481–582 (v3's four raters, at
    // their moderated degrees of freedom, may call none within it).
    let within: Vec<usize> = rows
        .iter()
        .filter(|r| attribute(r, "typical-verdict") == "within ±10 cp")
        .map(|r| attribute(r, "typical-rank").parse().unwrap())
        .collect();
    assert!(
        within.iter().all(|&rank| rank <= 2 * within.len()),
        "{within:?}"
    );
    // SP 518 as the reference is the reference; its error is stated.
    let classical = rows.iter().find(|r| attribute(r, "sp") == "518").unwrap();
    assert_eq!(attribute(classical, "classical-verdict"), "the reference");
    assert!(
        page().contains("SP 518&#39;s own error is added to each comparison")
            || page().contains("SP 518's own error is added to each comparison")
    );
}

#[test]
fn fair_ranks_by_the_consensus_estimate_with_its_interval_and_rank_interval() {
    let page = page();
    assert!(page.contains(&format!(
        "Rank 1 is the position whose consensus estimate (<code>balance.csv</code>'s published <code>{}</code>), its whole 95% interval included, is closest to",
        c960_store::columns::balance::ESTIMATE
    )));
    assert!(page.contains(
        "<th data-type=\"num\">consensus estimate</th><th data-type=\"text\">95% interval</th>"
    ));
    assert!(page.contains("<th data-type=\"num\">rank interval</th>"));
    assert!(
        !page.contains(">score cp</th>"),
        "no unlabelled first-engine score"
    );
    let rows = rows();
    let first = rows[0];
    let interval = attribute(first, "equal-interval");
    let (low, high) = interval.split_once('–').unwrap();
    assert_eq!(low, "1");
    assert!(
        high.parse::<usize>().unwrap() > 1,
        "ranks to 0.1 cp are not certain: {interval}"
    );
    assert!(first.contains("<td class=\"interval\">"));
    assert!(page.contains("The position ranked 1 (SP "));
    assert!(page.contains("Most ranks are unresolved"));
}

/// The published v4 dataset's table and its fair list.
fn published(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
}

#[test]
fn draw_fairest_keeps_the_positions_the_published_fair_list_ranks_first_by_default() {
    // Issue 51: `c960 draw --fairest 40` and fair.html measured from
    // different references and shared none of 40 positions.
    let page = fs::read_to_string(published("reports/research-v4/fair.html")).unwrap();
    let mut top: Vec<u64> = page
        .lines()
        .filter(|l| l.starts_with("<tr data-weak"))
        .take(40)
        .map(|row| attribute(row, "sp").parse().unwrap())
        .collect();
    top.sort_unstable();
    let dir = Dir::new();
    let table = published("data/research-v4/balance.csv");
    dir.ok(&[
        "tournament",
        "--seed",
        "1",
        "--rounds",
        "1",
        "--fairest",
        "40",
        "--balance",
        table.to_str().unwrap(),
        "--out",
        "kit",
    ]);
    let record: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.file("kit/draw.json")).unwrap()).unwrap();
    assert_eq!(record["balance"]["reference"], "equal");
    let mut kept: Vec<u64> = record["candidate_sps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    kept.sort_unstable();
    assert_eq!(kept, top);
}

#[test]
fn every_count_on_the_fair_list_is_against_the_reference_it_names() {
    // Issue 51: "balanced 396" (against the mean of all positions) stood
    // above "0 within ±10 cp" (against equal chances, the page's default).
    for page in [
        page().to_owned(),
        fs::read_to_string(published("reports/research-v4/fair.html")).unwrap(),
    ] {
        assert!(
            !page.contains("of the mean of all positions, false discovery rate"),
            "fair.html counts verdicts against the mean of all positions"
        );
        let note = page
            .split("<p id=\"reference-note\" class=\"note\">")
            .nth(1)
            .unwrap();
        assert!(note.starts_with("Against it: "), "{note}");
    }
}

#[test]
fn the_published_indexes_label_each_raters_charts_as_its_view_by_name() {
    // Issue 51: 32 of v4's 48 per-rater charts (weak pawns, castling,
    // pieces in the way, mirror twins) were not titled as one rater's
    // view, and every one named its rater by an internal column prefix.
    for set in ["research", "research-v2", "research-v3", "research-v4"] {
        let index = fs::read_to_string(published(&format!("reports/{set}/index.html"))).unwrap();
        let captions: Vec<&str> = index
            .split("<figcaption>")
            .skip(1)
            .map(|c| c.split('<').next().unwrap())
            .collect();
        assert!(captions.len() > 4, "{set}: {captions:?}");
        for caption in &captions {
            assert!(
                !caption.contains("sweep_") && !caption.contains("selfplay_"),
                "{set}: a chart names a column prefix: {caption}"
            );
        }
        // A position page names its runs the same way.
        let page =
            fs::read_to_string(published(&format!("reports/{set}/positions/518.html"))).unwrap();
        assert!(
            !page.contains("<small>sweep_") && !page.contains("<small>selfplay_"),
            "{set}: SP 518's page names a run by its column prefix"
        );
        let per_rater = [
            "advantage per position",
            "distribution of White's advantage",
            "by weak pawns",
            "by castling on move 1",
            "by pieces in the way",
            "mirror twins",
        ];
        let rater_charts: Vec<&&str> = captions
            .iter()
            .filter(|c| per_rater.iter().any(|p| c.contains(p)))
            .collect();
        assert!(!rater_charts.is_empty(), "{set}");
        for caption in rater_charts {
            assert!(
                caption.starts_with("One rater's view (Stockfish")
                    || caption.starts_with("One rater's view (Ethereal"),
                "{set}: {caption}"
            );
        }
    }
}
