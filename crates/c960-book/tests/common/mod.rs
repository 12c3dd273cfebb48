//! What the resolution tests share: the acceptance's constants, the
//! table `data/books/resolution.csv`, its journals, and the figures the
//! generator and the page derive from them.
#![allow(dead_code)] // Each test file uses its own share.

use std::{collections::BTreeMap, fs, path::PathBuf};

use c960_balance::{Estimate, elo::MatchStats};

pub(crate) fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A row of `resolution.csv`, by column name.
pub(crate) type Row = BTreeMap<String, String>;

pub(crate) fn table() -> Vec<Row> {
    let mut reader = csv::Reader::from_path(root().join("data/books/resolution.csv"))
        .expect("data/books/resolution.csv");
    reader
        .deserialize::<Row>()
        .map(|row| row.expect("a row of resolution.csv"))
        .collect()
}

/// docs/books.md, whole.
pub(crate) fn page() -> String {
    fs::read_to_string(root().join("docs/books.md")).expect("docs/books.md")
}

/// The journals' directory at the calibrated budget.
pub(crate) fn journal_dir() -> PathBuf {
    root().join("data/books/resolution").join(BUDGET)
}

/// nElo of pentanomial counts with its 95 % interval, as c960 computes it.
pub(crate) fn nelo_of(penta: [u64; 5]) -> Estimate {
    MatchStats::from_pentanomial(penta, 0, [0; 3], None)
        .normalized_elo
        .expect("nElo of pairs")
}

/// One journal's game pairs, by column name.
pub(crate) fn journal_rows(path: &std::path::Path) -> Vec<Row> {
    let text = fs::read_to_string(path).expect("a journal");
    let (settings, rest) = text.split_once('\n').expect("a settings line");
    assert!(settings.starts_with("# book="), "{}", path.display());
    csv::Reader::from_reader(rest.as_bytes())
        .deserialize::<Row>()
        .map(|row| row.expect("a journal row"))
        .collect()
}

/// A pair's pentanomial index: engine A's points 0, ½, …, 2 as LL … WW.
pub(crate) fn kind(pair: &Row) -> usize {
    let points: f64 = pair["a_points"].parse().expect("a_points");
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let index = (points * 2.0).round() as usize;
    index
}

/// Pairs' pentanomial counts (LL, LD, DD/WL, WD, WW), their games' draws
/// and their number.
pub(crate) fn counts(pairs: &[Row]) -> ([u64; 5], u64, u64) {
    let (mut penta, mut draws) = ([0u64; 5], 0);
    for pair in pairs {
        penta[kind(pair)] += 1;
        draws += u64::from(pair["a_white_result"] == "1/2-1/2")
            + u64::from(pair["a_black_result"] == "1/2-1/2");
    }
    (penta, draws, pairs.len() as u64)
}

/// One journal's counts, as `counts` gives them.
pub(crate) fn journal(path: &std::path::Path) -> ([u64; 5], u64, u64) {
    counts(&journal_rows(path))
}

pub(crate) fn one_decimal(x: f64) -> String {
    format!("{x:.1}")
}

/// The acceptance the page measures the book against (docs/books.md,
/// "Resolution at high draw rates"): its budget, the book, its two
/// references and the pairs every one of them needs.
pub(crate) const BUDGET: &str = "sf15.1-160k-vs-80k";
pub(crate) const BOOK: &str = "c960_FRC_4852";
pub(crate) const REFERENCES: [&str; 2] = ["c960_FRC_starts", "3moves_FRC"];
/// The cp window's exits, measured beside the acceptance.
pub(crate) const CP_EXITS: &str = "c960_FRC_exits_cp90-120";
pub(crate) const TARGET_PAIRS: u64 = 800;

pub(crate) fn signed(x: f64) -> String {
    format!("{x:+.1}").replace('-', "−")
}

/// A number of resolution.csv.
pub(crate) fn number(row: &Row, column: &str) -> f64 {
    row[column].parse().expect("a number in resolution.csv")
}

/// The book's and the references' journaled rows at the calibrated budget.
pub(crate) fn compared(rows: &[Row]) -> (&Row, [&Row; 2]) {
    (
        journaled(rows, BOOK),
        REFERENCES.map(|r| journaled(rows, r)),
    )
}

/// Whether a row is a journaled book's at the calibrated budget.
pub(crate) fn at_budget(row: &Row) -> bool {
    row["budget"] == BUDGET && row["source"].starts_with("journal ")
}

/// A book's journaled row at the calibrated budget.
pub(crate) fn journaled<'a>(rows: &'a [Row], book: &str) -> &'a Row {
    rows.iter()
        .find(|r| r["book"] == book && at_budget(r))
        .unwrap_or_else(|| panic!("resolution.csv has no row for {book} at {BUDGET}"))
}

/// The pairs the rows still need to reach `TARGET_PAIRS`.
pub(crate) fn pairs_left<'a>(rows: impl IntoIterator<Item = &'a Row>) -> u64 {
    rows.into_iter()
        .map(|r| TARGET_PAIRS.saturating_sub(r["pairs"].parse().expect("pairs")))
        .sum()
}

/// a's nElo minus b's, with the difference's 95 % interval (the two
/// intervals' half-widths in quadrature), as the generator computes it.
pub(crate) fn difference(a: &Row, b: &Row) -> (f64, f64, f64) {
    let half = |row: &Row| (number(row, "nelo_high") - number(row, "nelo_low")) / 2.0;
    let d = number(a, "nelo") - number(b, "nelo");
    let h = half(a).hypot(half(b));
    (d, d - h, d + h)
}

/// ROW against the references as the standing words it: each difference
/// with its interval, how far ROW's `nelo_low` lies above the higher
/// `nelo_high` (below when negative), and "lies X above" or "lies X below".
pub(crate) fn against(row: &Row, refs: [&Row; 2]) -> (Vec<String>, f64, String) {
    let differences = refs
        .iter()
        .map(|reference| {
            let (d, low, high) = difference(row, reference);
            format!(
                "`{}` {} [{}, {}]",
                reference["book"],
                signed(d),
                signed(low),
                signed(high)
            )
        })
        .collect();
    let highest = refs
        .iter()
        .map(|r| number(r, "nelo_high"))
        .fold(f64::MIN, f64::max);
    let gap = number(row, "nelo_low") - highest;
    let side = if gap > 0.0 { "above" } else { "below" };
    (differences, gap, format!("lies {:.1} {side}", gap.abs()))
}
