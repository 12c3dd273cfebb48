//! `c960 import` against defects an adversarial probe found: long tags and
//! comments, impossible dates, directories, devices and files that are not
//! zstd data. Each test is named after its defect and fails without the fix.

use crate::util;

use std::fs;

use util::Dir;

/// One Chess960 game from the classical position with a result.
fn game(moves: &str, result: &str, site: &str) -> String {
    format!(
        "[Event \"test\"]\n[Site \"{site}\"]\n[Variant \"Chess960\"]\n\
         [FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n\
         [Result \"{result}\"]\n\n{moves} {result}\n\n"
    )
}

/// Five games; the second has a `Site` tag of `site_len` bytes and a comment
/// of `comment_len` bytes.
fn five_games(site_len: usize, comment_len: usize) -> String {
    let long_site = "s".repeat(site_len);
    let comment = format!("{{{}}}", "c".repeat(comment_len));
    let mut pgn = String::new();
    pgn.push_str(&game("1. e4 e5 2. Nf3 Nc6", "1-0", "a"));
    pgn.push_str(&game(
        &format!("1. d4 {comment} d5 2. c4"),
        "1/2-1/2",
        &long_site,
    ));
    pgn.push_str(&game("1. e4 c5", "0-1", "c"));
    pgn.push_str(&game("1. Nf3 Nf6", "1-0", "d"));
    pgn.push_str(&game("1. c4 e5", "1/2-1/2", "e"));
    pgn
}

#[test]
fn a_100_kb_tag_no_longer_drops_the_rest_of_the_file() {
    let dir = Dir::new();
    fs::write(dir.file("long.pgn"), five_games(100_000, 10)).unwrap();
    let out = dir.ok(&["import", "long.pgn", "--out", "games"]);
    assert!(
        out.starts_with("5 games read, 5 kept, 0 skipped"),
        "every game is read: {out}"
    );
    assert!(!out.contains("truncated"), "{out}");
}

#[test]
fn a_100_kb_comment_is_read_like_any_comment() {
    let dir = Dir::new();
    fs::write(dir.file("comment.pgn"), five_games(10, 100_000)).unwrap();
    let out = dir.ok(&["import", "comment.pgn", "--out", "games"]);
    assert!(out.starts_with("5 games read, 5 kept"), "{out}");
    let tree = dir.ok(&["openings", "518", "--games", "games", "--plies", "3"]);
    assert!(tree.contains("1. d4"), "the commented game's moves: {tree}");
}

#[test]
fn a_tag_too_long_to_read_skips_only_its_game() {
    let dir = Dir::new();
    fs::write(dir.file("huge.pgn"), five_games(3 << 20, 10)).unwrap();
    let out = dir.ok(&["import", "huge.pgn", "--out", "games"]);
    assert!(out.starts_with("5 games read, 4 kept, 1 skipped"), "{out}");
    assert!(
        out.contains(
            "skipped        1  a tag line too long to read (over 256 KiB)  (first: huge.pgn #2)"
        ),
        "{out}"
    );
    assert!(!out.contains("truncated"), "{out}");
}

#[test]
fn an_impossible_import_date_is_refused() {
    let dir = Dir::new();
    fs::write(dir.file("a.pgn"), five_games(1, 1)).unwrap();
    for (flag, value, says) in [
        ("--since", "2024-13-45", "there is no month 13"),
        ("--since", "2024-00-10", "there is no month 0"),
        ("--until", "2023-02-29", "month 2 of 2023 has days 1 to 28"),
        ("--until", "2024-04-31", "month 4 of 2024 has days 1 to 30"),
        ("--since", "2024.01.00", "has days 1 to 31"),
    ] {
        let error = dir.bad_input(&["import", "a.pgn", flag, value]);
        assert!(error.contains(says), "{flag} {value}: {error}");
    }
    let error = dir.bad_input(&[
        "import",
        "a.pgn",
        "--since",
        "2024-06-01",
        "--until",
        "2024-01-01",
    ]);
    assert!(error.contains("is after --until"), "{error}");
    assert!(!dir.file("runs").exists(), "nothing written");
    // 2024 is a leap year.
    dir.ok(&[
        "import",
        "a.pgn",
        "--since",
        "2024-02-29",
        "--out",
        "leap",
        "--quiet",
    ]);
}

#[test]
fn importing_a_directory_or_a_device_says_what_it_is() {
    let dir = Dir::new();
    fs::create_dir(dir.file("folder")).unwrap();
    let error = dir.bad_input(&["import", "folder"]);
    assert!(
        error.contains("folder is a directory, not a PGN file"),
        "{error}"
    );
    // A device or a pipe is read as a stream: /dev/null holds no games.
    let out = dir.ok(&["import", "/dev/null", "--out", "empty"]);
    assert!(out.starts_with("0 games read, 0 kept"), "{out}");
}

#[test]
fn a_pgn_zst_that_is_not_zstd_is_called_so_not_truncated() {
    let dir = Dir::new();
    fs::write(dir.file("plain.pgn.zst"), five_games(1, 1)).unwrap();
    let error = dir.bad_input(&["import", "plain.pgn.zst"]);
    assert!(error.contains("plain.pgn.zst is not zstd data"), "{error}");
    fs::write(dir.file("empty.pgn.zst"), "").unwrap();
    let error = dir.bad_input(&["import", "empty.pgn.zst"]);
    assert!(error.contains("is not zstd data"), "{error}");
    assert!(!dir.file("runs").exists(), "nothing written");
}
