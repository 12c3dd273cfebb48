//! Messages count in words: `1 more roll`, `2 more rolls`, never
//! `roll(s)`; and records of earlier versions, which wrote their pawn
//! limits as `pawn(s)`, still verify.

use crate::util;

use std::fs;

use serde_json::Value;
use util::Dir;

#[test]
fn no_plural_in_parentheses_dice_count_extra_rolls_in_words() {
    let dir = Dir::new();
    let one = dir.bad_input(&["dice", "2", "3", "3", "2", "3", "4"]);
    assert!(
        one.ends_with("the position was complete after roll 5, but 1 more roll followed"),
        "{one}"
    );
    let two = dir.bad_input(&["dice", "2", "3", "3", "2", "3", "4", "5"]);
    assert!(two.ends_with("but 2 more rolls followed"), "{two}");
}

#[test]
fn no_plural_in_parentheses_draw_verify_reads_pawn_limits_of_earlier_records() {
    let dir = Dir::new();
    let draw = |out: &str, max: &str| {
        dir.ok(&[
            "tournament",
            "--seed",
            "11",
            "--rounds",
            "3",
            "--max-weak",
            max,
            "--out",
            out,
        ]);
        let text = fs::read_to_string(dir.file(out).join("draw.json")).unwrap();
        serde_json::from_str::<Value>(&text).unwrap()
    };
    let one = draw("one", "1");
    assert_eq!(one["filters"], "at most 1 weak pawn");
    let two = draw("two", "2");
    assert_eq!(two["filters"], "at most 2 weak pawns");
    // A record written before the counts were spelled out.
    let mut earlier = one.clone();
    earlier["filters"] = "at most 1 weak pawn(s)".into();
    fs::write(dir.file("earlier.json"), earlier.to_string()).unwrap();
    let ok = dir.ok(&["draw", "--verify", "earlier.json"]);
    assert!(ok.contains("rounds 1-3 follow from seed 11"), "{ok}");
    // Its words must still be those of its settings.
    earlier["filters"] = "at most 2 weak pawn(s)".into();
    fs::write(dir.file("wrong.json"), earlier.to_string()).unwrap();
    let line = dir.bad_input(&["draw", "--verify", "wrong.json"]);
    assert!(
        line.contains("\"filters\" is \"at most 2 weak pawn(s)\", but \"filter_settings\" are \"at most 1 weak pawn\""),
        "{line}"
    );
}

#[test]
fn no_plural_in_parentheses_one_fairest_position_is_one_position_and_earlier_records_verify() {
    let dir = Dir::new();
    crate::organizer_draws::table(&dir, "balance.csv", &crate::organizer_draws::rows());
    let fairest = [
        "--fairest",
        "1",
        "--balance",
        "balance.csv",
        "--seed",
        "5",
        "--rounds",
        "1",
    ];
    let mut draw = vec!["draw"];
    draw.extend(fairest);
    let said = dir.ok(&draw);
    assert!(said.contains("1 round from 1 position (filters:"), "{said}");
    assert!(!said.contains("1 positions"), "{said}");
    let mut tournament = vec!["tournament", "--out", "kit"];
    tournament.extend(fairest);
    let said = dir.ok(&tournament);
    assert!(said.contains("from 1 position\n"), "{said}");
    assert!(
        said.contains("announcement.html, round-1.html, kit.html"),
        "{said}"
    );
    assert!(
        !said.contains("round-1..1") && !said.contains("1 positions"),
        "{said}"
    );
    let record: Value =
        serde_json::from_str(&fs::read_to_string(dir.file("kit/draw.json")).unwrap()).unwrap();
    let words = record["filters"].as_str().unwrap().to_owned();
    assert!(words.ends_with(" (1 position)"), "{words}");
    let verified = dir.ok(&[
        "draw",
        "--verify",
        "kit/draw.json",
        "--balance",
        "balance.csv",
    ]);
    assert!(
        verified.contains("and its 1 candidate\n") && verified.contains("; 1 position kept by"),
        "{verified}"
    );
    // A record written before the count was spelled out still verifies;
    // its count must still be its settings'.
    for (name, written, verifies) in [
        (
            "earlier.json",
            words.replace("(1 position)", "(1 positions)"),
            true,
        ),
        (
            "wrong.json",
            words.replace("(1 position)", "(2 positions)"),
            false,
        ),
    ] {
        let mut earlier = record.clone();
        earlier["filters"] = written.into();
        fs::write(dir.file(name), earlier.to_string()).unwrap();
        if verifies {
            let ok = dir.ok(&["draw", "--verify", name]);
            assert!(ok.contains("round 1 follows from seed 5"), "{ok}");
        } else {
            let line = dir.bad_input(&["draw", "--verify", name]);
            assert!(line.contains("\"filters\" is"), "{line}");
        }
    }
}
