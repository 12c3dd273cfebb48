//! `c960 tournament`: the kit owns its folder (a new draw leaves nothing of
//! the last, a foreign folder is refused, two kits never mix) and sealed
//! rounds stay hidden until their keys are published.

use crate::util;

use std::{path::Path, process::Command};

use util::Dir;

use crate::tournament::{kit_files, python, sheet_sps};

/// Issue 29: a kit made into a folder that held a bigger kit leaves
/// nothing of the earlier draw (no old PDF, no sheets of rounds it does
/// not have).
#[test]
fn a_kit_regenerated_into_a_used_folder_leaves_no_file_from_the_earlier_draw() {
    let dir = Dir::new();
    dir.ok(&[
        "tournament",
        "--seed",
        "7",
        "--rounds",
        "5",
        "--out",
        "k2",
        "--pdf",
    ]);
    assert!(dir.file("k2/kit.pdf").exists() && dir.file("k2/round-5.html").exists());
    dir.ok(&["tournament", "--seed", "99", "--rounds", "2", "--out", "k2"]);
    assert_eq!(
        kit_files(&dir.file("k2")),
        [
            "VERIFY.md",
            "announcement.html",
            "draw.json",
            "kit.html",
            "round-1.html",
            "round-2.html"
        ]
    );
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.file("k2/draw.json")).unwrap()).unwrap();
    assert_eq!(record["seed"], 99);
    let drawn: Vec<u16> = record["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["sp"].as_u64().unwrap() as u16)
        .collect();
    assert_eq!(sheet_sps(&dir.file("k2")), drawn);
    // Nothing of the build is left beside the kit.
    let beside = kit_files(dir.path());
    assert!(
        beside
            .iter()
            .all(|n| !n.contains(".build.") && !n.contains(".old.")),
        "{beside:?}"
    );
}

/// A folder holding files the kit did not write is refused before
/// anything is written, and keeps its files.
#[test]
fn a_kit_refuses_a_folder_holding_files_it_did_not_write() {
    let dir = Dir::new();
    for (name, content) in [("notes.txt", "mine"), (".git", "x")] {
        let folder = dir.file(&format!("kit-{}", name.trim_start_matches('.')));
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(folder.join(name), content).unwrap();
        let out = folder.file_name().unwrap().to_str().unwrap().to_owned();
        let line = dir.bad_input(&["tournament", "--seed", "1", "--out", &out]);
        assert!(
            line.contains(name) && line.contains("did not write"),
            "{line}"
        );
        assert_eq!(kit_files(&folder), [name]);
        assert_eq!(std::fs::read_to_string(folder.join(name)).unwrap(), content);
    }
}

/// Issue 30, item 9: two runs into one folder at the same time never mix
/// one draw's record with the other's sheets: the folder is locked (the
/// second run stops, naming the first) and replaced whole.
#[test]
fn two_concurrent_kits_into_one_folder_never_mix() {
    let dir = Dir::new();
    for attempt in 0..4 {
        let runs: Vec<_> = ["Club Open A", "Club Open B"]
            .iter()
            .map(|phrase| {
                dir.command(&[
                    "tournament",
                    "--phrase",
                    phrase,
                    "--rounds",
                    "7",
                    "--out",
                    "kit",
                ])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
            })
            .collect();
        for run in runs {
            let output = run.wait_with_output().unwrap();
            let stderr = String::from_utf8_lossy(&output.stderr);
            match output.status.code() {
                Some(0) => assert_eq!(stderr, ""),
                Some(1) => assert!(stderr.contains("in use by"), "{stderr}"),
                other => panic!("attempt {attempt}: exit {other:?}: {stderr}"),
            }
        }
        let record: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.file("kit/draw.json")).unwrap())
                .unwrap();
        let drawn: Vec<u16> = record["rounds"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["sp"].as_u64().unwrap() as u16)
            .collect();
        assert_eq!(sheet_sps(&dir.file("kit")), drawn, "attempt {attempt}");
        let announcement = std::fs::read_to_string(dir.file("kit/announcement.html")).unwrap();
        assert!(
            announcement.contains(record["phrase"].as_str().unwrap()),
            "attempt {attempt}: the announcement is of another draw"
        );
    }
}

/// The rounds `c960 draw` gives with `flags`.
fn drawn_by(dir: &Dir, flags: &[&str]) -> Vec<u16> {
    let mut args = vec!["draw", "--format", "json"];
    args.extend_from_slice(flags);
    let record: serde_json::Value = serde_json::from_str(&dir.ok(&args)).unwrap();
    record["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["sp"].as_u64().unwrap() as u16)
        .collect()
}

/// The key a round sheet publishes for its sealed round.
fn round_key(kit: &Path, round: usize) -> String {
    let html = std::fs::read_to_string(kit.join(format!("round-{round}.html"))).unwrap();
    let at = html.find("<span class=\"key\">").unwrap();
    let text = &html[at..];
    text.split(|c: char| !c.is_ascii_hexdigit())
        .find(|w| w.len() == 64)
        .unwrap()
        .to_owned()
}

/// Issue 29: rounds not published with the announcement are sealed. The
/// announcement and the public record (draw.json, VERIFY.md) name the
/// scheme and its fingerprint but no sealed position, the phrase alone
/// gives other rounds, and a key published at its round opens exactly the
/// rounds up to it, in c960 and in VERIFY.md's own Python program.
#[test]
fn hidden_rounds_cannot_be_computed_from_the_announcement_and_the_reveal_verifies() {
    let dir = Dir::new();
    let secret = "5a89648a336e15c0e1a2728525d89a55e25b2abfe0fae9f3c293d1947566394d";
    dir.ok(&[
        "tournament",
        "--phrase",
        "Club Open 2026",
        "--rounds",
        "5",
        "--publish-rounds",
        "1",
        "--secret",
        secret,
        "--out",
        "kit",
    ]);
    let kit = dir.file("kit");
    let sps = sheet_sps(&kit);
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(kit.join("draw.json")).unwrap()).unwrap();
    assert_eq!(
        record["rounds"].as_array().unwrap().len(),
        1,
        "round 1 only"
    );
    assert_eq!(record["sealed"]["scheme"], "sha256-key-chain");
    let commitment = record["sealed"]["commitment"].as_str().unwrap();
    let announcement = std::fs::read_to_string(kit.join("announcement.html")).unwrap();
    let verify = std::fs::read_to_string(kit.join("VERIFY.md")).unwrap();
    assert!(announcement.contains("sealed with a hash commitment"));
    assert!(announcement.contains(commitment));
    for public in [&announcement, &verify, &record.to_string()] {
        for sp in &sps[1..] {
            assert!(!public.contains(&format!("SP {sp} ")), "SP {sp} is out");
        }
        assert!(!public.contains(secret), "the secret is out");
        for round in 2..=5 {
            assert!(!public.contains(&round_key(&kit, round)), "a key is out");
        }
    }
    // The phrase alone no longer gives the sealed rounds.
    let plain = drawn_by(&dir, &["--phrase", "Club Open 2026", "--rounds", "5"]);
    assert_eq!(plain[0], sps[0]);
    assert!(
        plain[1..].iter().zip(&sps[1..]).all(|(a, b)| a != b),
        "{plain:?} {sps:?}"
    );
    // Round 3's key, as its sheet publishes it, opens rounds 2 and 3.
    let key = round_key(&kit, 3);
    let opened = dir.ok(&["draw", "--verify", "kit/draw.json", "--key", &key]);
    for (round, sp) in sps.iter().enumerate().take(3) {
        assert!(
            opened.contains(&format!("round {:<3} SP {sp:>3} ", round + 1)),
            "{opened}"
        );
    }
    assert!(opened.contains("round 4   sealed"), "{opened}");
    // The secret opens everything; a key of another draw nothing.
    let all = dir.ok(&["draw", "--verify", "kit/draw.json", "--key", secret]);
    assert!(
        all.contains(&format!("round 5   SP {:>3} ", sps[4])),
        "{all}"
    );
    let line = dir.bad_input(&[
        "draw",
        "--verify",
        "kit/draw.json",
        "--key",
        &"ab".repeat(32),
    ]);
    assert!(line.contains("not a key of this draw"), "{line}");
    // VERIFY.md's own program, run with Python, agrees.
    assert_eq!(
        sealed_program_prints(&kit, &verify, &key),
        format!("[{}, {}, {}]", sps[0], sps[1], sps[2])
    );
    // The secret lives in SECRET.txt, and remaking the kit without it is
    // refused: the published fingerprint would be orphaned.
    assert!(
        std::fs::read_to_string(kit.join("SECRET.txt"))
            .unwrap()
            .contains(secret)
    );
    let line = dir.bad_input(&["tournament", "--phrase", "Club Open 2026", "--out", "kit"]);
    assert!(line.contains("SECRET.txt"), "{line}");
    dir.ok(&[
        "tournament",
        "--phrase",
        "Club Open 2026",
        "--rounds",
        "5",
        "--publish-rounds",
        "1",
        "--secret",
        secret,
        "--out",
        "kit",
    ]);
    assert_eq!(sheet_sps(&kit), sps, "the same secret makes the same kit");
}

/// What VERIFY.md's program for sealed rounds prints, run by Python in
/// the kit's folder with `key`.
fn sealed_program_prints(kit: &Path, verify: &str, key: &str) -> String {
    let program = code_blocks(verify, "python").pop().unwrap();
    std::fs::write(kit.join("sealed.py"), &program).unwrap();
    let output = Command::new(python())
        .arg("sealed.py")
        .arg(key)
        .current_dir(kit)
        .output()
        .unwrap();
    std::fs::remove_file(kit.join("sealed.py")).unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).trim().to_owned()
}

/// The fenced code blocks of a Markdown text with the info string `info`,
/// read as `CommonMark` reads them: a fence of N backticks closes only with
/// at least N backticks at the start of a line.
pub(crate) fn code_blocks(markdown: &str, info: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut open: Option<(usize, bool, Vec<&str>)> = None;
    for line in markdown.lines() {
        let ticks = line.len() - line.trim_start_matches('`').len();
        match &mut open {
            None if ticks >= 3 => open = Some((ticks, line[ticks..].trim() == info, Vec::new())),
            None => {}
            Some((fence, wanted, lines)) => {
                if ticks >= *fence && line[ticks..].trim().is_empty() {
                    if *wanted {
                        blocks.push(lines.join("\n"));
                    }
                    open = None;
                } else {
                    lines.push(line);
                }
            }
        }
    }
    assert!(open.is_none(), "a code block is never closed:\n{markdown}");
    blocks
}

/// Issue 30, item 17: a phrase holding backticks (and a line break) leaves
/// VERIFY.md's code blocks whole; its program still recomputes the draw.
#[test]
fn a_phrase_with_backticks_keeps_verify_md_code_blocks_whole() {
    let dir = Dir::new();
    let phrase = "Open ```\n```` 2026 `x`";
    dir.ok(&[
        "tournament",
        "--phrase",
        phrase,
        "--rounds",
        "3",
        "--out",
        "kit",
    ]);
    let verify = std::fs::read_to_string(dir.file("kit/VERIFY.md")).unwrap();
    let programs = code_blocks(&verify, "python");
    assert_eq!(programs.len(), 1, "{verify}");
    let shell = code_blocks(&verify, "sh");
    assert_eq!(shell.len(), 1, "{verify}");
    std::fs::write(dir.file("kit/draw.py"), &programs[0]).unwrap();
    let output = Command::new(python())
        .arg("draw.py")
        .current_dir(dir.file("kit"))
        .output()
        .unwrap();
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.file("kit/draw.json")).unwrap()).unwrap();
    let drawn: Vec<String> = record["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["sp"].to_string())
        .collect();
    assert_eq!(
        String::from_utf8_lossy(&output.stdout).trim(),
        format!("[{}]", drawn.join(", ")),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // The shell line prints round 1 (no filters).
    let output = Command::new("bash")
        .arg("-c")
        .arg(&shell[0])
        .env("PATH", std::env::var("PATH").unwrap())
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&output.stdout).trim(), drawn[0]);
    // Outside the code, the phrase opens no code span.
    let prose: String = verify.lines().take(4).collect();
    assert!(!prose.contains("```"), "{prose}");
}

#[test]
fn a_title_or_phrase_with_a_control_of_text_direction_is_refused() {
    let dir = Dir::new();
    for (flag, value) in [
        ("--title", "Club \u{202e}nepO"),
        ("--venue", "Hall\u{2066} B"),
        ("--phrase", "Round \u{202e}one"),
        ("--schedule", "Round 1: \u{202e}10:00"),
    ] {
        let mut args = vec!["tournament", "--rounds", "1", "--out", "kit", flag, value];
        if flag != "--phrase" {
            args.extend(["--seed", "3"]);
        }
        let line = dir.bad_input(&args);
        assert!(
            line.contains(&format!("{flag} holds a control of text direction")),
            "{line}"
        );
        assert!(!dir.file("kit").exists(), "no kit for {flag}");
    }
}
