//! The organizer's draws as arbiters and readers need them: balance
//! filters that say what they mean (a verdict, the N fairest to a
//! reference, within a distance of it, intervals included), records that
//! `c960 draw --verify --balance` checks against their table, exclusions
//! declared in advance (presets, ranges, earlier kits), console output in
//! the kit's language, and every sheet on one printed page.

mod language;

use crate::util;

use std::{
    fmt::Write as _,
    path::{Path, PathBuf},
};

use serde_json::Value;
use util::Dir;

/// A sweep balance table: SP `sp` has the estimate and interval `rows`
/// gives it, every other position +40 cp [30, 50] (unresolved).
pub(crate) fn table(dir: &Dir, name: &str, rows: &[(u16, f64, f64, f64, &str)]) -> PathBuf {
    use c960_store::columns::balance as column;
    let mut text = [
        column::SP,
        column::PLACEMENT,
        column::VERDICT,
        column::Q_VALUE,
        column::ESTIMATE,
        column::LOW,
        column::HIGH,
        column::METHOD,
    ]
    .join(",");
    text.push('\n');
    for sp in 0..960u16 {
        let (estimate, low, high, verdict) = rows
            .iter()
            .find(|r| r.0 == sp)
            .map_or((40.0, 30.0, 50.0, "unresolved"), |r| (r.1, r.2, r.3, r.4));
        let placement = c960_core::StartPosition::new(sp).unwrap().placement();
        let _ = writeln!(
            text,
            "{sp},{placement},{verdict},0.5,{estimate},{low},{high},sweep"
        );
    }
    let path = dir.file(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// The rows of the tests' table: SP 518 at +24 cp; a few positions near
/// 0 cp with intervals of different widths.
pub(crate) fn rows() -> Vec<(u16, f64, f64, f64, &'static str)> {
    vec![
        (3, 1.0, -2.0, 4.0, "less-for-white"),   // farther end 4 from 0
        (7, 0.0, -9.0, 9.0, "less-for-white"),   // 9
        (11, 2.0, 0.0, 5.0, "less-for-white"),   // 5
        (12, -1.0, -3.0, 2.0, "less-for-white"), // 3
        (20, 0.5, -30.0, 31.0, "unresolved"),    // 31: wide interval
        (518, 24.0, 20.0, 28.0, "balanced"),
        (534, 25.0, 22.0, 27.0, "balanced"),
    ]
}

fn json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn sps(value: &Value) -> Vec<u64> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect()
}

pub(crate) fn sha256(path: &Path) -> String {
    let out = std::process::Command::new("sha256sum")
        .arg(path)
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout)[..64].to_owned()
}

/// `--fairest N --reference equal` keeps the N positions whose whole 95 %
/// interval is nearest 0 cp (a wide interval counts against a position
/// whose estimate is near), the record names the selection, the
/// reference's value and the table's SHA-256, and the announcement says
/// so in the kit's language.
#[test]
fn balance_filters_draw_among_the_positions_closest_to_a_chosen_reference() {
    let dir = Dir::new();
    let csv = table(&dir, "balance.csv", &rows());
    let csv_arg = csv.display().to_string();
    let sha = sha256(&csv);
    dir.ok(&[
        "tournament",
        "--seed",
        "4",
        "--rounds",
        "3",
        "--fairest",
        "3",
        "--reference",
        "equal",
        "--balance",
        &csv_arg,
        "--lang",
        "de",
        "--out",
        "fair",
    ]);
    let record = json(&dir.file("fair/draw.json"));
    // Farther ends from 0: SP 12 → 3, SP 3 → 4, SP 11 → 5, SP 7 → 9,
    // SP 20 → 31 (its estimate 0.5 is near, its interval is not).
    assert_eq!(sps(&record["candidate_sps"]), [3, 11, 12]);
    assert_eq!(record["balance"]["fairest"], 3);
    assert_eq!(record["balance"]["reference"], "equal");
    assert_eq!(record["balance"]["reference_cp"], 0.0);
    assert_eq!(record["balance"]["sha256"], sha.as_str());
    let page = std::fs::read_to_string(dir.file("fair/announcement.html")).unwrap();
    assert!(
        page.contains("nur die 3 Stellungen in balance.csv"),
        "{page}"
    );
    assert!(page.contains("gleichen Chancen (0 cp)"), "{page}");
    assert!(page.contains(&sha), "{page}");

    // --within: the whole interval within ±5 cp of equal chances.
    dir.ok(&[
        "tournament",
        "--seed",
        "4",
        "--rounds",
        "2",
        "--within",
        "5",
        "--reference",
        "equal",
        "--balance",
        &csv_arg,
        "--out",
        "within",
    ]);
    let record = json(&dir.file("within/draw.json"));
    assert_eq!(sps(&record["candidate_sps"]), [3, 11, 12]);
    assert_eq!(record["balance"]["within"], 5.0);
    // The classical setup as the reference: SP 518 itself and SP 534
    // ([22, 27] lies within ±5 cp of 24; [20, 28] within ±4).
    dir.ok(&[
        "tournament",
        "--seed",
        "4",
        "--rounds",
        "2",
        "--within",
        "5",
        "--reference",
        "classical",
        "--balance",
        &csv_arg,
        "--out",
        "classical",
    ]);
    let record = json(&dir.file("classical/draw.json"));
    assert_eq!(sps(&record["candidate_sps"]), [518, 534]);
    assert_eq!(record["balance"]["reference_cp"], 24.0);
    // Equal chances by default, as fair.html and `c960 book balanced`
    // rank (issue 51: with and without `--reference equal` the draw kept
    // different positions).
    let out = dir.ok(&[
        "draw",
        "--seed",
        "1",
        "--fairest",
        "1",
        "--balance",
        &csv_arg,
    ]);
    assert!(out.contains("is nearest equal chances (0 cp)"), "{out}");
    // The typical position when asked: the mean estimate of the table.
    let out = dir.ok(&[
        "draw",
        "--seed",
        "1",
        "--fairest",
        "1",
        "--reference",
        "typical",
        "--balance",
        &csv_arg,
    ]);
    assert!(out.contains("is nearest the average position (+"), "{out}");
}

/// The balance filters' flags: `--reference` alone, `--fairest 0` and
/// `--within 0` are refused in one line, and `--help` says what each
/// column of the table means to them.
#[test]
fn balance_filter_flags_are_refused_in_one_line_and_explained_in_help() {
    let dir = Dir::new();
    let csv = table(&dir, "balance.csv", &rows());
    let csv_arg = csv.display().to_string();
    // --reference alone, --fairest 0 and --within without a distance
    // are refused in one line.
    for (args, says) in [
        (
            vec!["--reference", "equal"],
            "--reference goes with --fairest or --within",
        ),
        (vec!["--fairest", "0"], "--fairest must be at least 1"),
        (
            vec!["--within", "0"],
            "--within 0 must be a distance above 0 cp",
        ),
    ] {
        let mut all = vec!["draw", "--seed", "1", "--balance", &csv_arg];
        all.extend(args);
        let line = dir.bad_input(&all);
        assert!(line.contains(says), "{line}");
    }
    let help = dir.ok(&["draw", "--help"]);
    for words in [
        "balance_low",
        "95 % interval",
        "±10 cp by default",
        "SP 518's",
    ] {
        assert!(help.contains(words), "--help lacks {words:?}");
    }
}

/// `c960 draw --verify --balance` checks the table's SHA-256 against the
/// record and that the candidates are exactly what the recorded filters
/// keep of it: a record that drops a position its filters keep verifies
/// without the table but not with it.
#[test]
fn draw_verify_checks_a_balance_filtered_record_against_its_table() {
    let dir = Dir::new();
    let csv = table(&dir, "balance.csv", &rows());
    let csv_arg = csv.display().to_string();
    dir.ok(&[
        "tournament",
        "--seed",
        "3",
        "--rounds",
        "2",
        "--within",
        "9",
        "--reference",
        "equal",
        "--exclude",
        "11",
        "--balance",
        &csv_arg,
        "--out",
        "kit",
    ]);
    let out = dir.ok(&["draw", "--verify", "kit/draw.json", "--balance", &csv_arg]);
    assert!(
        out.contains("its candidates are exactly the positions"),
        "{out}"
    );
    let hint = dir.ok(&["draw", "--verify", "kit/draw.json"]);
    assert!(hint.contains("give --balance with that table"), "{hint}");

    // Another table: its SHA-256 is not the record's.
    let mut other = rows();
    other[0].1 = 1.5;
    let other = table(&dir, "other.csv", &other);
    let line = dir.bad_input(&[
        "draw",
        "--verify",
        "kit/draw.json",
        "--balance",
        &other.display().to_string(),
    ]);
    assert!(
        line.contains("its SHA-256 is") && line.contains("names balance.csv"),
        "{line}"
    );

    // The record claims no exclusion, yet lists the candidates without SP
    // 11, which its filter keeps of the table.
    let mut record = json(&dir.file("kit/draw.json"));
    record["filter_settings"]["exclude"] = serde_json::json!([]);
    let words = record["filters"]
        .as_str()
        .unwrap()
        .replace("excluding 11; ", "");
    record["filters"] = Value::String(words);
    std::fs::write(
        dir.file("kit/draw.json"),
        serde_json::to_string_pretty(&record).unwrap(),
    )
    .unwrap();
    dir.ok(&["draw", "--verify", "kit/draw.json"]);
    let line = dir.bad_input(&["draw", "--verify", "kit/draw.json", "--balance", &csv_arg]);
    assert!(
        line.contains("are not the 4 positions its filters keep"),
        "{line}"
    );

    // A record without a balance filter has nothing to check.
    dir.ok(&[
        "tournament",
        "--seed",
        "3",
        "--rounds",
        "1",
        "--out",
        "plain",
    ]);
    let line = dir.bad_input(&["draw", "--verify", "plain/draw.json", "--balance", &csv_arg]);
    assert!(line.contains("has no balance filter"), "{line}");

    // The published dataset's table, as docs/organizer.md uses it.
    let v4 = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/research-v4/balance.csv");
    let v4 = v4.display().to_string();
    dir.ok(&[
        "tournament",
        "--phrase",
        "Vereinsturnier 2026",
        "--rounds",
        "5",
        "--publish-rounds",
        "1",
        "--verdict",
        "balanced",
        "--balance",
        &v4,
        "--lang",
        "de",
        "--out",
        "v4",
    ]);
    let out = dir.ok(&["draw", "--verify", "v4/draw.json", "--balance", &v4]);
    assert!(
        out.contains("397 positions kept by verdict balanced"),
        "{out}"
    );
}

/// Arbiters of Freestyle events: `--exclude-preset freestyle` (SP 518 and
/// 534), ranges in `--exclude`, and `--exclude-drawn` with every round of
/// an earlier kit (its sealed rounds opened with the SECRET.txt beside
/// its draw.json; refused without it), all recorded so `--verify` checks
/// them; console output in the kit's language.
#[test]
fn arbiters_exclude_declared_positions_ranges_and_earlier_kits() {
    let dir = Dir::new();
    let earlier = dir.ok(&[
        "tournament",
        "--seed",
        "8",
        "--rounds",
        "4",
        "--publish-rounds",
        "1",
        "--lang",
        "de",
        "--out",
        "open-2025",
    ]);
    // Every round, sealed ones too, as the organizer's console lists them.
    let drawn: Vec<u64> = earlier
        .lines()
        .filter(|l| l.starts_with("Runde "))
        .map(|l| {
            l.split("SP")
                .nth(1)
                .unwrap()
                .split_whitespace()
                .next()
                .unwrap()
                .parse()
                .unwrap()
        })
        .collect();
    assert_eq!(drawn.len(), 4, "{earlier}");
    assert!(earlier.contains("(versiegelt)"), "{earlier}");
    dir.ok(&[
        "tournament",
        "--seed",
        "9",
        "--rounds",
        "3",
        "--exclude-preset",
        "freestyle",
        "--exclude",
        "5-9",
        "--exclude-drawn",
        "open-2025/draw.json",
        "--out",
        "open-2026",
    ]);
    let record = json(&dir.file("open-2026/draw.json"));
    let excluded = sps(&record["filter_settings"]["exclude"]);
    for sp in [5, 6, 7, 8, 9, 518, 534]
        .into_iter()
        .chain(drawn.iter().copied())
    {
        assert!(excluded.contains(&sp), "SP {sp} not excluded: {excluded:?}");
    }
    assert_eq!(record["filter_settings"]["exclude_preset"], "freestyle");
    let mut sorted = drawn.clone();
    sorted.sort_unstable();
    assert_eq!(
        sps(&record["filter_settings"]["exclude_drawn"][0]["sps"]),
        sorted
    );
    let candidates = sps(&record["candidate_sps"]);
    assert!(drawn.iter().all(|sp| !candidates.contains(sp)));
    dir.ok(&["draw", "--verify", "open-2026/draw.json"]);
    let page = std::fs::read_to_string(dir.file("open-2026/announcement.html")).unwrap();
    assert!(
        page.contains("SP 518 and 534, declared excluded in advance"),
        "{page}"
    );
    assert!(
        page.contains("the 4 positions of the earlier draw draw.json"),
        "{page}"
    );

    // A record whose preset position is not excluded does not verify.
    let mut tampered = record.clone();
    tampered["filter_settings"]["exclude_preset"] = Value::String("freestyle".to_owned());
    tampered["filter_settings"]["exclude"] = serde_json::json!([5, 6, 7, 8, 9]);
    std::fs::write(dir.file("t.json"), tampered.to_string()).unwrap();
    let line = dir.bad_input(&["draw", "--verify", "t.json"]);
    assert!(line.contains("lacks positions of the preset"), "{line}");

    // Without the SECRET.txt beside it, the sealed rounds are unknown.
    std::fs::create_dir(dir.file("copy")).unwrap();
    std::fs::copy(dir.file("open-2025/draw.json"), dir.file("copy/draw.json")).unwrap();
    let line = dir.bad_input(&["draw", "--seed", "1", "--exclude-drawn", "copy/draw.json"]);
    assert!(
        line.contains("rounds 2-4 are sealed") && line.contains("SECRET.txt"),
        "{line}"
    );
    let line = dir.bad_input(&["draw", "--seed", "1", "--exclude", "9-5"]);
    assert!(line.contains("\"9-5\" is not a set of positions"), "{line}");
}

/// `--exclude-drawn` refuses, in one line and without waiting, a
/// SECRET.txt that is a FIFO or not text, and a record whose published
/// rounds were changed (it would exclude rounds the kit never published).
#[test]
fn exclude_drawn_refuses_a_fifo_or_binary_secret_and_a_changed_record() {
    let dir = Dir::new();
    let earlier = [
        "tournament",
        "--seed",
        "8",
        "--rounds",
        "4",
        "--publish-rounds",
        "1",
        "--out",
        "k",
    ];
    dir.ok(&earlier);
    let exclude = ["draw", "--seed", "1", "--exclude-drawn", "copy/draw.json"];
    std::fs::create_dir(dir.file("copy")).unwrap();
    std::fs::copy(dir.file("k/draw.json"), dir.file("copy/draw.json")).unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(dir.file("copy/SECRET.txt"))
        .status()
        .unwrap();
    assert!(made.success());
    let line = dir.bad_input(&exclude);
    assert!(line.contains("SECRET.txt is not a regular file"), "{line}");
    std::fs::remove_file(dir.file("copy/SECRET.txt")).unwrap();
    std::fs::write(dir.file("copy/SECRET.txt"), [0xff, 0xfe, 0x00]).unwrap();
    let line = dir.bad_input(&exclude);
    assert!(line.contains("SECRET.txt is not text"), "{line}");
    // The real secret, beside a record whose published round was changed.
    std::fs::copy(dir.file("k/SECRET.txt"), dir.file("copy/SECRET.txt")).unwrap();
    dir.ok(&exclude);
    let mut record: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.file("k/draw.json")).unwrap()).unwrap();
    let published = record["rounds"][0]["sp"].as_u64().unwrap();
    let other = if published == 0 { 1 } else { published - 1 };
    let positions = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/positions.csv"),
    )
    .unwrap();
    let row: Vec<&str> = positions
        .lines()
        .find(|l| l.starts_with(&format!("{other},")))
        .unwrap()
        .split(',')
        .collect();
    let round = &mut record["rounds"][0];
    round["sp"] = Value::from(other);
    round["placement"] = Value::from(row[1]);
    round["xfen"] = Value::from(row[2]);
    round["shredder_fen"] = Value::from(row[3]);
    std::fs::write(dir.file("copy/draw.json"), record.to_string()).unwrap();
    let line = dir.bad_input(&exclude);
    assert!(
        line.contains("--exclude-drawn: copy/draw.json does not verify: it gives SP"),
        "{line}"
    );
}

/// A missing `draw --verify` file is bad input: exit 2, one line naming it.
#[test]
fn draw_verify_of_a_missing_file_exits_2_with_one_line() {
    let dir = Dir::new();
    let line = dir.bad_input(&["draw", "--verify", "nowhere/draw.json"]);
    assert!(line.contains("cannot read nowhere/draw.json"), "{line}");
}

/// One sealed round is "round 3 is sealed", never "rounds 3-3".
#[test]
fn tournament_says_round_3_is_sealed_when_one_round_is_sealed() {
    let dir = Dir::new();
    let out = dir.ok(&[
        "tournament",
        "--seed",
        "1",
        "--rounds",
        "3",
        "--publish-rounds",
        "2",
        "--out",
        "kit",
    ]);
    assert!(out.contains("round 3 is sealed:"), "{out}");
    assert!(!out.contains("3-3"), "{out}");
    let out = dir.ok(&[
        "tournament",
        "--seed",
        "1",
        "--rounds",
        "5",
        "--publish-rounds",
        "2",
        "--out",
        "kit5",
    ]);
    assert!(out.contains("rounds 3-5 are sealed:"), "{out}");
}

/// VERIFY.md names the table as `balance.csv` in its raw text (no
/// Markdown escape before the dot), while a phrase's Markdown characters
/// stay escaped.
#[test]
fn verify_md_names_balance_csv_without_an_escaped_dot() {
    let dir = Dir::new();
    let csv = table(&dir, "balance.csv", &rows());
    dir.ok(&[
        "tournament",
        "--phrase",
        "Open *2026*",
        "--rounds",
        "1",
        "--verdict",
        "balanced",
        "--balance",
        &csv.display().to_string(),
        "--out",
        "kit",
    ]);
    let md = std::fs::read_to_string(dir.file("kit/VERIFY.md")).unwrap();
    assert!(md.contains("in balance.csv (SHA-256"), "{md}");
    assert!(!md.contains("balance\\.csv"), "{md}");
    assert!(md.contains("Open \\*2026\\*"), "{md}");
}
