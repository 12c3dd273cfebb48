//! What a writer quotes from a position page (issue 29, "Writers"): no
//! interval of zero width shown as a 95% interval, the engine score that
//! is the mean of the searches (the first search labelled as such), a
//! missing WDL said in words, the same interval for the same games on the
//! page and in `c960 openings`, and downloads as files beside the page.

use crate::util;

use std::fs;

use util::Dir;

/// A report over a sweep of SP 0-5 and 518 whose two searches per
/// position are identical (the built-in engine at a fixed node count).
fn identical_repeats(dir: &Dir) -> std::path::PathBuf {
    dir.ok(&[
        "sweep",
        "--engine",
        "builtin",
        "--nodes",
        "400",
        "--repeats",
        "2",
        "--repeat-jitter",
        "0.0001",
        "--positions",
        "0-5,518",
        "--jobs",
        "1",
        "--quiet",
        "--out",
        "sweep",
    ]);
    dir.ok(&["report", "--sweep", "sweep", "--out", "site", "--quiet"]);
    dir.file("site")
}

/// The `<td>` of a page's facts row whose `<th>` starts with `name`.
fn fact<'a>(page: &'a str, name: &str) -> &'a str {
    let at = page
        .find(&format!("<tr><th>{name}"))
        .unwrap_or_else(|| panic!("no {name:?} row"));
    let row = &page[at..];
    let cell = &row[row.find("<td>").unwrap() + 4..];
    &cell[..cell.find("</td>").unwrap()]
}

#[test]
fn a_position_page_never_shows_a_zero_width_interval_as_a_95_percent_interval() {
    let dir = Dir::new();
    let site = identical_repeats(&dir);
    let page = fs::read_to_string(site.join("positions/518.html")).unwrap();
    let quote = &page[page.find("<p class=\"quote\">").unwrap()..];
    let quote = &quote[..quote.find("</p>").unwrap()];
    assert!(
        quote.contains("mean of 2 searches rates it +0 centipawns for White (no interval: its 2 searches gave the same score)"),
        "{quote}"
    );
    assert!(!quote.contains("95%"), "{quote}");
    // The engine score is the mean; the first search is labelled as one.
    assert!(fact(&page, "engine score, mean of 2 searches").starts_with("0.000 cp (s.d. 0.000"));
    assert!(fact(&page, "first of the 2 searches").starts_with("0 cp, "));
    assert!(
        !page.contains("<tr><th>engine score <small>"),
        "a lone first search"
    );
}

#[test]
fn an_engine_without_wdl_is_said_to_give_none() {
    let dir = Dir::new();
    dir.ok(&[
        "sweep",
        "--engine",
        "ethereal",
        "--depth",
        "3",
        "--positions",
        "518",
        "--jobs",
        "1",
        "--quiet",
        "--out",
        "ethereal",
    ]);
    dir.ok(&["report", "--sweep", "ethereal", "--out", "site", "--quiet"]);
    let page = fs::read_to_string(dir.file("site/positions/518.html")).unwrap();
    let score = fact(&page, "engine score");
    assert!(
        score.ends_with("cp, no WDL (the engine does not report one)"),
        "{score}"
    );
    assert!(!page.contains("WDL //"));
}

/// White's score and its interval ends, in percent, from `text` after
/// `marker`: the first three numbers that follow it.
fn three_numbers(text: &str, marker: &str) -> [f64; 3] {
    let at = text
        .find(marker)
        .unwrap_or_else(|| panic!("no {marker:?} in\n{text}"));
    let numbers: Vec<f64> = text[at + marker.len()..]
        .split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .filter(|w| !w.is_empty() && w.chars().any(|c| c.is_ascii_digit()))
        .filter_map(|w| w.parse().ok())
        .filter(|v: &f64| (v - 95.0).abs() > 1e-9)
        .take(3)
        .collect();
    numbers.try_into().unwrap()
}

#[test]
fn openings_and_the_position_page_give_the_same_games_the_same_interval() {
    let dir = Dir::new();
    dir.ok(&[
        "selfplay",
        "--engine",
        "builtin",
        "--nodes",
        "60",
        "--positions",
        "0-3,518",
        "--games-per-position",
        "4",
        "--round-games",
        "2",
        "--target-halfwidth",
        "0.3",
        "--budget",
        "24",
        "--max-plies",
        "60",
        "--seed",
        "3",
        "--quiet",
        "--out",
        "games",
    ]);
    dir.ok(&["report", "--selfplay", "games", "--out", "site", "--quiet"]);
    let page = fs::read_to_string(dir.file("site/positions/518.html")).unwrap();
    let record = fact(&page, "self-play");
    assert!(record.contains("95% anytime-valid interval"), "{record}");
    let on_page = three_numbers(record, "White ");
    let openings = dir.ok(&["openings", "518", "--games", "games"]);
    assert!(
        openings.contains("White's score [95% anytime-valid interval]"),
        "{openings}"
    );
    // `all games  N games  White s% [l, h]`: skip the count of games.
    let in_openings = {
        let line = &openings[openings.find("all games").unwrap()..];
        three_numbers(line, "White")
    };
    for (a, b) in on_page.iter().zip(&in_openings) {
        assert!(
            (a - b).abs() < 0.051,
            "page {on_page:?}, openings {in_openings:?}"
        );
    }
    // The page's opening table names the same kind of interval.
    assert!(page.contains("White's score (95% anytime-valid interval)"));
}

#[test]
fn position_pages_keep_their_downloads_in_files_beside_them() {
    let dir = Dir::new();
    let site = identical_repeats(&dir);
    let page = fs::read_to_string(site.join("positions/518.html")).unwrap();
    assert!(!page.contains("data:"), "no data URLs");
    assert!(page.contains("download=\"SP-518.svg\" href=\"518.svg\""));
    assert!(page.contains("download=\"SP-518.json\" href=\"518.json\""));
    let longest = page.lines().map(str::len).max().unwrap();
    assert!(longest < 1_000, "a line of {longest} characters");
    let svg = fs::read_to_string(site.join("positions/518.svg")).unwrap();
    assert!(svg.starts_with("<svg class=\"board\""), "{svg}");
    assert!(
        page.contains(svg.trim_end()),
        "the page shows the file's diagram"
    );
    let row: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(site.join("positions/518.json")).unwrap())
            .unwrap();
    assert_eq!(row["sp"], 518);
    assert_eq!(row["placement"], "RNBQKBNR");
}

/// Counts in the singular: `c960 balance` says "one search per position",
/// never "(1 repeats)".
#[test]
fn balance_counts_one_search_in_the_singular() {
    let dir = Dir::new();
    let sweep = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/sweep-stockfish-15.1-nodes1000000-mpv3");
    let out = dir.ok(&["balance", "--sweep", sweep.to_str().unwrap(), "--out", "b"]);
    assert!(
        out.contains("(one search per position): repeatability not measured"),
        "{out}"
    );
    assert!(!out.contains("(1 repeats)"), "{out}");
}

/// The games of a PGN text: each game's tags (name, value) and movetext.
fn pgn_games(text: &str) -> Vec<(Vec<(String, String)>, String)> {
    text.split("\n\n[")
        .map(|game| {
            let game = game.trim_start_matches('[');
            let (tags, moves) = game.split_once("\n\n").unwrap_or((game, ""));
            let tags: Vec<(String, String)> = tags
                .lines()
                .map(|l| {
                    let l = l.trim_start_matches('[').trim_end_matches(']');
                    let (name, value) = l.split_once(' ').unwrap();
                    (name.to_owned(), value.trim_matches('"').to_owned())
                })
                .collect();
            (tags, moves.split_whitespace().collect::<Vec<_>>().join(" "))
        })
        .filter(|(tags, _)| !tags.is_empty())
        .collect()
}

/// Issue 29: PGN downloads follow the tag conventions — the seven-tag
/// roster in its order (with `Date`), a standard `Termination` — and come
/// from the one writer of self-play's games.pgn (SAN with check marks).
#[test]
fn pgn_downloads_follow_the_tag_conventions_from_one_writer() {
    let dir = Dir::new();
    dir.ok(&[
        "selfplay",
        "--engine",
        "builtin",
        "--nodes",
        "80",
        "--positions",
        "518",
        "--games-per-position",
        "6",
        "--max-plies",
        "200",
        "--seed",
        "5",
        "--quiet",
        "--out",
        "games",
    ]);
    dir.ok(&["report", "--selfplay", "games", "--out", "site", "--quiet"]);
    let sample = pgn_games(&fs::read_to_string(dir.file("site/positions/518.pgn")).unwrap());
    let played = pgn_games(&fs::read_to_string(dir.file("games/games.pgn")).unwrap());
    assert_eq!(sample.len(), 6, "all 6 games in the sample");
    let standard = [
        "abandoned",
        "adjudication",
        "death",
        "emergency",
        "normal",
        "rules infraction",
        "time forfeit",
        "unterminated",
    ];
    for ((tags, moves), (played_tags, played_moves)) in sample.iter().zip(&played) {
        let names: Vec<&str> = tags.iter().take(7).map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
        );
        let value = |name: &str| {
            tags.iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.as_str())
        };
        let termination = value("Termination").unwrap();
        assert!(standard.contains(&termination), "{termination}");
        assert_eq!(value("Variant"), Some("Chess960"));
        assert_eq!(moves, played_moves, "the same movetext as games.pgn");
        let played_termination = played_tags
            .iter()
            .find(|(n, _)| n == "Termination")
            .map(|(_, v)| v.as_str());
        assert_eq!(Some(termination), played_termination);
    }
    // Check marks, as SAN has them.
    assert!(
        sample
            .iter()
            .any(|(_, moves)| moves.contains('+') || moves.contains('#')),
        "no check in six games"
    );
}
