//! `c960 tournament` in the club's language: no English sentence in a
//! German kit, counts in words, the announcement's event details, and a
//! tampered draw record that does not verify.

use crate::util;

use std::{path::Path, process::Command};

use util::Dir;

use crate::tournament::kit_files;
use crate::tournament_folder::code_blocks;

/// English function words that a translated kit must not hold outside
/// code (each list leaves out the words that are also words of that
/// language: Dutch "is", "of"; Turkish "on", "at").
pub(crate) fn english_words(lang: &str) -> Vec<&'static str> {
    let all = [
        "the",
        "and",
        "of",
        "is",
        "are",
        "with",
        "from",
        "which",
        "this",
        "that",
        "be",
        "by",
        "for",
        "on",
        "at",
        "it",
        "its",
        "can",
        "not",
        "round",
        "rounds",
        "drawn",
        "position",
        "positions",
        "castling",
        "published",
        "anyone",
        "key",
        "secret",
        "sealed",
        "verdict",
        "balanced",
        "only",
    ];
    let allowed: &[&str] = match lang {
        "nl" => &["is", "of"],
        "tr" => &["on", "at"],
        _ => &[],
    };
    all.into_iter().filter(|w| !allowed.contains(w)).collect()
}

/// The running text of a kit file: HTML without tags, styles and
/// diagrams; Markdown without code blocks and code spans.
pub(crate) fn prose(name: &str, text: &str) -> String {
    let mut text = text.to_owned();
    let cut = |text: &mut String, open: &str, close: &str| {
        while let Some(start) = text.find(open) {
            let end = text[start + open.len()..]
                .find(close)
                .map_or(text.len(), |e| start + open.len() + e + close.len());
            text.replace_range(start..end, " ");
        }
    };
    let extension = Path::new(name)
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    if extension.as_deref() == Some("html") {
        cut(&mut text, "<style>", "</style>");
        cut(&mut text, "<svg", "</svg>");
        cut(&mut text, "<", ">");
    } else if extension.as_deref() == Some("md") {
        for block in code_blocks(&text.clone(), "python")
            .into_iter()
            .chain(code_blocks(&text.clone(), "sh"))
        {
            text = text.replace(&block, " ");
        }
        cut(&mut text, "`", "`");
    }
    // Command-line flags are code in any language.
    while let Some(start) = text.find("--") {
        let end = text[start..]
            .find(char::is_whitespace)
            .map_or(text.len(), |e| start + e);
        text.replace_range(start..end, " ");
    }
    text
}

/// Issue 29: the German (and Dutch and Turkish) kit holds no English
/// sentence — VERIFY.md and SECRET.txt included — and no local path: the
/// balance table is named by its file name and SHA-256, which draw.json
/// records.
#[test]
fn the_german_kit_holds_no_english_sentence() {
    let dir = Dir::new();
    let mut rows = String::from("sp,verdict\n");
    for sp in 0..960 {
        let verdict = if sp % 4 == 0 {
            "balanced"
        } else {
            "unresolved"
        };
        rows.push_str(&sp.to_string());
        rows.push(',');
        rows.push_str(verdict);
        rows.push('\n');
    }
    std::fs::write(dir.file("balance.csv"), rows).unwrap();
    let sha = Command::new("sha256sum")
        .arg(dir.file("balance.csv"))
        .output()
        .unwrap();
    let sha = String::from_utf8_lossy(&sha.stdout)[..64].to_owned();
    let balance = dir.file("balance.csv").display().to_string();
    for lang in ["de", "nl", "tr"] {
        let out = format!("kit-{lang}");
        dir.ok(&[
            "tournament",
            "--phrase",
            "Vereinsturnier 2026",
            "--rounds",
            "3",
            "--publish-rounds",
            "1",
            "--verdict",
            "balanced",
            "--balance",
            &balance,
            "--max-weak",
            "1",
            "--lang",
            lang,
            "--out",
            &out,
        ]);
        let kit = dir.file(&out);
        for name in kit_files(&kit) {
            let text = std::fs::read_to_string(kit.join(&name)).unwrap();
            assert!(
                !text.contains(dir.path().to_str().unwrap()),
                "{lang} {name} names a local path"
            );
            if name == "draw.json" {
                let record: serde_json::Value = serde_json::from_str(&text).unwrap();
                assert_eq!(record["balance"]["sha256"], sha.as_str());
                assert_eq!(record["balance"]["file"], "balance.csv");
                assert_eq!(record["balance"]["positions"], 240);
                continue;
            }
            let words: Vec<String> = prose(&name, &text)
                .split(|c: char| !c.is_alphanumeric() && c != '\'')
                .map(str::to_lowercase)
                .collect();
            for english in english_words(lang) {
                assert!(
                    !words.iter().any(|w| w == english),
                    "{lang} {name}: English {english:?} in\n{}",
                    prose(&name, &text)
                );
            }
        }
    }
    let announcement = std::fs::read_to_string(dir.file("kit-de/announcement.html")).unwrap();
    assert!(
        announcement.contains("Urteil „ausgeglichen“ in balance.csv"),
        "{announcement}"
    );
    assert!(announcement.contains(&sha));
}

/// Issue 29: counts read as words — "zeigt Runde 1", not "Runde 1 bis 1";
/// one weak pawn in the singular — in every language.
#[test]
fn kit_counts_read_as_words_in_every_language() {
    let dir = Dir::new();
    for (lang, wanted, unwanted) in [
        ("en", "shows round 1;", "rounds 1 to 1"),
        ("de", "zeigt Runde 1;", "1 bis 1"),
        ("nl", "toont ronde 1;", "1 tot en met 1"),
        ("tr", "1. turu gösterir;", "1. tura kadar"),
    ] {
        let out = format!("kit-{lang}");
        dir.ok(&[
            "tournament",
            "--seed",
            "3",
            "--rounds",
            "2",
            "--publish-rounds",
            "1",
            "--max-weak",
            "1",
            "--lang",
            lang,
            "--out",
            &out,
        ]);
        let text = std::fs::read_to_string(dir.file(&out).join("announcement.html")).unwrap();
        assert!(text.contains(wanted), "{lang}: no {wanted:?}");
        assert!(!text.contains(unwanted), "{lang}: {unwanted:?}");
    }
    let en = std::fs::read_to_string(dir.file("kit-en/announcement.html")).unwrap();
    assert!(en.contains("at most 1 weak pawn per side"), "{en}");
    assert!(en.contains("Round 2 is sealed"), "{en}");
    let de = std::fs::read_to_string(dir.file("kit-de/announcement.html")).unwrap();
    assert!(de.contains("höchstens 1 schwacher Bauer je Seite"), "{de}");
}

/// Issue 29: the announcement carries the event's date, venue, time
/// control and rounds schedule, and keeps castling notation in one piece.
#[test]
fn the_announcement_has_date_venue_time_control_and_schedule() {
    let dir = Dir::new();
    dir.ok(&[
        "tournament",
        "--seed",
        "5",
        "--rounds",
        "5",
        "--lang",
        "de",
        "--date",
        "14.–15. März 2026",
        "--venue",
        "Rathaus <Saal 2>",
        "--time-control",
        "90 min + 30 s/Zug",
        "--schedule",
        "Runde 1: Fr 19:00",
        "--schedule",
        "Runden 2–5: Sa 10:00",
        "--out",
        "kit",
    ]);
    let text = std::fs::read_to_string(dir.file("kit/announcement.html")).unwrap();
    for row in [
        "<tr><th>Datum</th><td>14.–15. März 2026</td></tr>",
        "<tr><th>Ort</th><td>Rathaus &lt;Saal 2&gt;</td></tr>",
        "<tr><th>Bedenkzeit</th><td>90 min + 30 s/Zug</td></tr>",
        "<tr><th>Rundenplan</th><td>Runde 1: Fr 19:00<br>Runden 2–5: Sa 10:00</td></tr>",
    ] {
        assert!(text.contains(row), "no {row}");
    }
    assert!(text.contains("<span class=\"nobr\">O-O-O</span>"));
    assert!(!text.contains("O-O-O</h3>") && !text.contains(">O-O-O ("));
    let line = dir.bad_input(&[
        "tournament",
        "--seed",
        "5",
        "--venue",
        "a\nb",
        "--out",
        "other",
    ]);
    assert!(line.contains("--venue"), "{line}");
}

/// `c960 draw --verify` refuses a record whose published rounds do not
/// follow from its method and candidates, or whose candidates are not what
/// its filters let through.
#[test]
fn a_tampered_draw_record_does_not_verify() {
    let dir = Dir::new();
    dir.ok(&[
        "tournament",
        "--seed",
        "11",
        "--rounds",
        "3",
        "--max-weak",
        "1",
        "--out",
        "kit",
    ]);
    let ok = dir.ok(&["draw", "--verify", "kit/draw.json"]);
    assert!(ok.contains("rounds 1-3 follow from seed 11"), "{ok}");
    let text = std::fs::read_to_string(dir.file("kit/draw.json")).unwrap();
    let mut record: serde_json::Value = serde_json::from_str(&text).unwrap();
    let first = record["rounds"][0]["sp"].as_u64().unwrap();
    let other = record["candidate_sps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .find(|sp| *sp != first)
        .unwrap();
    record["rounds"][0]["sp"] = other.into();
    std::fs::write(dir.file("edited.json"), record.to_string()).unwrap();
    let line = dir.bad_input(&["draw", "--verify", "edited.json"]);
    assert!(line.contains("does not verify"), "{line}");
    // A candidate the filters keep out, in its place and counted.
    let mut record: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut sps: Vec<u64> = record["candidate_sps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    let kept_out = (0..960).find(|sp| !sps.contains(sp)).unwrap();
    sps.push(kept_out);
    sps.sort_unstable();
    record["candidates"] = sps.len().into();
    record["candidate_sps"] = sps.into();
    std::fs::write(dir.file("more.json"), record.to_string()).unwrap();
    let line = dir.bad_input(&["draw", "--verify", "more.json"]);
    assert!(
        line.contains("its candidates are not the positions its filters"),
        "{line}"
    );
    let line = dir.bad_input(&["draw", "--verify", "kit/draw.json", "--key", "ab"]);
    assert!(
        line.contains("no sealed rounds") || line.contains("64 hexadecimal"),
        "{line}"
    );
}
