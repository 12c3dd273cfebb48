//! What users read is the consensus: a position page's quotable sentence
//! and the index give the consensus of the raters with its interval, named
//! as such and on the reference rater's scale; each rater's own score, and
//! whether it is exact or a bound, is shown below it; with one rater the
//! pages say it is one engine's single search.

use crate::util;

use std::{
    fs,
    path::{Path, PathBuf},
    sync::OnceLock,
};

use util::{Dir, read_parquet};

/// A published rater of dataset v3: its manifest and sweep table.
fn rater(name: &str) -> (PathBuf, PathBuf) {
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/research-v3");
    (
        data.join(format!("{name}-manifest.json")),
        data.join(format!("{name}-sweep.parquet")),
    )
}

/// The report of `raters` (published v3 raters) written to `out`.
fn report(raters: &[&str], out: &Path) {
    let dir = Dir::new();
    let mut args = vec!["report".to_owned()];
    for name in raters {
        let (manifest, table) = rater(name);
        let run = dir.file(name);
        fs::create_dir_all(&run).unwrap();
        fs::copy(manifest, run.join("manifest.json")).unwrap();
        fs::copy(table, run.join("sweep.parquet")).unwrap();
        args.extend(["--sweep".to_owned(), (*name).to_owned()]);
    }
    let _ = fs::remove_dir_all(out);
    args.extend([
        "--out".to_owned(),
        out.to_string_lossy().into_owned(),
        "--quiet".to_owned(),
    ]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    dir.ok(&args);
}

/// The site of two raters, Stockfish 19 WASM at 4M nodes (the reference)
/// and Stockfish 15.1 at 4M nodes, built once for this module's tests.
fn two_raters() -> &'static Path {
    static SITE: OnceLock<PathBuf> = OnceLock::new();
    SITE.get_or_init(|| {
        let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("writers_consensus/two");
        report(&["stockfish-npm-4m", "stockfish-4m"], &out);
        out
    })
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The text of the first element of `page` that starts with `open`.
fn element<'a>(page: &'a str, open: &str, close: &str) -> &'a str {
    let at = page
        .find(open)
        .unwrap_or_else(|| panic!("no {open} in the page"));
    let rest = &page[at..];
    &rest[..rest.find(close).unwrap()]
}

/// The published estimate and its interval's ends of `sp` in a site's
/// `balance.csv`, rounded to whole centipawns as the pages show them.
fn published_balance(site: &Path, sp: u32) -> [String; 3] {
    use c960_store::columns::balance as column;
    let text = read(&site.join("balance.csv"));
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let row: Vec<&str> = lines
        .map(|l| l.split(',').collect::<Vec<_>>())
        .find(|r| r[0] == sp.to_string())
        .unwrap();
    [column::ESTIMATE, column::LOW, column::HIGH].map(|name| {
        let at = header.iter().position(|h| *h == name).unwrap();
        let v: f64 = row[at].parse().unwrap();
        format!("{v:+.0}")
    })
}

#[test]
fn the_quotable_sentence_on_a_position_page_gives_the_consensus_not_the_first_raters_search() {
    let site = two_raters();
    let page = read(&site.join("positions/879.html"));
    let quote = element(&page, "<p class=\"quote\">", "</p>");
    let [estimate, low, high] = published_balance(site, 879);
    assert!(
        quote.contains(&format!(
            "The consensus of 2 raters rates it {estimate} centipawns for White (95% interval of the consensus, shrunk toward the mean of all positions, {low} to {high}), on the centipawn scale of Stockfish 19 WASM at nodes 4000000, the reference rater."
        )),
        "{quote}"
    );
    // The first rater's single search (+89) is not what is quoted.
    assert!(!quote.contains("+89"), "{quote}");
    assert!(!quote.contains("single search"), "{quote}");
}

#[test]
fn every_page_and_table_that_shows_balance_shows_the_consensus_and_each_raters_view() {
    let site = two_raters();
    let [estimate, low, high] = published_balance(site, 879);
    // The position page: the consensus with its interval and what it is,
    // then each rater's engine, budget, score and bound in a small table.
    let page = read(&site.join("positions/879.html"));
    let section = element(&page, "<h2>Balance</h2>", "</table>");
    assert!(
        section.contains(&format!(
            "<b>{estimate} cp</b> for White (95% interval {low} to {high}): the consensus of 2 raters, on the centipawn scale of Stockfish 19 WASM at nodes 4000000, the reference rater"
        )),
        "{section}"
    );
    assert!(
        section.contains(
            "<th>rater</th><th>budget</th><th>score (cp for White)</th><th>exact or bound</th>"
        ),
        "{section}"
    );
    assert!(
        section.contains(
            "<tr><td>Stockfish 19 WASM</td><td>nodes 4000000</td><td>+89</td><td>exact</td></tr>"
        ),
        "{section}"
    );
    assert!(
        section.contains("<tr><td>Stockfish 15.1</td><td>nodes 4000000</td><td>+59</td><td>upper bound (at most +59)</td></tr>"),
        "{section}"
    );
    // The index: the consensus and its interval in the table, named above
    // it with its reference rater.
    let index = read(&site.join("index.html"));
    assert!(
        index.contains("Balance here is the <b>consensus of the 2 raters</b>"),
        "no consensus note on the index"
    );
    assert!(
        index.contains("on the scale of Stockfish 19 WASM at nodes 4000000, the reference rater"),
        "no reference rater on the index"
    );
    assert!(index.contains("<th data-type=\"num\">consensus cp"));
    let row = element(&index, "<tr><td><a href=\"positions/879.html\">", "</tr>");
    assert!(
        row.contains(&format!(
            "<td>{estimate}</td><td class=\"nobr\">{low} to {high}</td>"
        )),
        "{row}"
    );
}

#[test]
fn pages_say_which_scores_are_bounds() {
    let site = two_raters();
    // Stockfish 15.1 at 4M nodes: most of its scores are UCI bounds.
    let table = read_parquet(&rater("stockfish-4m").1);
    let bounds = table.column("bound").unwrap().str().unwrap().clone();
    let count = |kind: &str| bounds.iter().filter(|b| *b == Some(kind)).count();
    let (lower, upper) = (count("lower"), count("upper"));
    assert!(
        (lower + upper) * 100 / table.height() >= 70,
        "the published table has changed"
    );
    let index = read(&site.join("index.html"));
    let line = element(
        &index,
        "<li><code>sweep_stockfish_15_1_nodes_4000000</code>",
        "</li>",
    );
    assert!(
        line.contains(&format!(
            "{} of 960 scores are bounds ({lower} lower, {upper} upper",
            lower + upper
        )),
        "{line}"
    );
    // Every position page gives each rater's bound.
    for sp in [0, 518, 959] {
        let page = read(&site.join(format!("positions/{sp}.html")));
        let section = element(&page, "<table class=\"raters\">", "</table>");
        let rows = section.matches("<tr><td>Stockfish").count();
        let said = [
            "<td>exact</td>",
            "<td>lower bound (at least ",
            "<td>upper bound (at most ",
        ]
        .iter()
        .map(|b| section.matches(b).count())
        .sum::<usize>();
        assert_eq!((rows, said), (2, 2), "SP {sp}: {section}");
    }
}

#[test]
fn with_a_single_rater_the_page_says_it_is_one_engines_single_search() {
    let dir = Dir::new();
    let site = dir.file("site");
    report(&["stockfish-4m"], &site);
    let page = read(&site.join("positions/879.html"));
    let quote = element(&page, "<p class=\"quote\">", "</p>");
    assert!(
        quote.contains("One engine's view, not a consensus of raters: Stockfish 15.1 at nodes 4000000 rates it +59 centipawns for White (a single search: its noise is not measured)."),
        "{quote}"
    );
    assert!(!quote.contains("consensus of 1"), "{quote}");
    let section = element(&page, "<h2>Balance</h2>", "</table>");
    assert!(
        section.contains("One engine's single search: no consensus of raters"),
        "{section}"
    );
    assert!(
        section.contains("<td>upper bound (at most +59)</td>"),
        "{section}"
    );
    let index = read(&site.join("index.html"));
    assert!(
        index.contains("<b>one engine's view</b>, Stockfish 15.1 at nodes 4000000, a single search per position: there is no consensus of raters"),
        "no single-search note on the index"
    );
    assert!(
        !index.contains("consensus cp"),
        "a consensus column with one rater"
    );
}
