//! `c960 tournament`: the organizer's kit in a real browser (headless
//! Chromium), printed to PDF with one page per round on A4 and on Letter
//! (page count read with Debian's `pdfinfo`), and its draw record
//! recomputed by an independent implementation (Python: SHA-256 from the
//! standard library, `ChaCha20` written out from RFC 8439).

use crate::util;

use std::{
    path::{Path, PathBuf},
    process::Command,
};

use util::{Dir, console_errors, headless};

fn python() -> String {
    std::env::var("C960_PYTHON").unwrap_or_else(|_| "python3".to_owned())
}

/// Pages of a PDF, by `pdfinfo` (Debian package poppler-utils).
fn pdf_pages(pdf: &Path) -> usize {
    let output = Command::new("pdfinfo")
        .arg(pdf)
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run pdfinfo: {e}. This test needs it: `apt-get install poppler-utils` \
             (CI installs it)"
            )
        });
    let text = String::from_utf8_lossy(&output.stdout);
    text.lines()
        .find_map(|l| l.strip_prefix("Pages:"))
        .unwrap_or_else(|| panic!("no page count from pdfinfo {}: {text}", pdf.display()))
        .trim()
        .parse()
        .unwrap()
}

#[test]
fn the_kit_renders_prints_one_page_per_round_and_has_no_console_errors() {
    let dir = Dir::new();
    for (paper, rounds) in [("a4", "5"), ("letter", "7")] {
        let out = format!("kit-{paper}");
        let stdout = dir.ok(&[
            "tournament",
            "--phrase",
            "Club Open 2026",
            "--rounds",
            rounds,
            "--paper",
            paper,
            "--publish-rounds",
            "1",
            "--secret",
            "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff",
            "--title",
            "Club Open <2026>",
            "--out",
            &out,
            "--pdf",
        ]);
        assert!(stdout.contains("round 1   SP 135"), "{stdout}");
        let kit = dir.file(&out);
        assert_eq!(
            pdf_pages(&kit.join("kit.pdf")),
            rounds.parse::<usize>().unwrap(),
            "one printed page per round on {paper}"
        );
        assert!(!kit.join("kit.pdf.partial").exists());
    }
    let kit = dir.file("kit-a4");
    let profile = dir.file("profile");
    for page in ["kit.html", "announcement.html", "round-1.html"] {
        let url = format!("file://{}/{page}", kit.display());
        let (dom, stderr) = headless(&profile, &url, &["--dump-dom"]);
        assert!(dom.contains("<svg class=\"board\""), "{page}: {stderr}");
        assert!(
            dom.contains("Club Open &lt;2026&gt;"),
            "title escaped on {page}"
        );
        assert!(
            console_errors(&stderr).is_empty(),
            "{page}: {:?}",
            console_errors(&stderr)
        );
    }
    let announcement = std::fs::read_to_string(kit.join("announcement.html")).unwrap();
    assert_eq!(
        announcement.matches("class=\"sheet\"").count(),
        1,
        "round 1 only"
    );
    assert_eq!(announcement.matches("class=\"sealed\"").count(), 4);
    let kit_html = std::fs::read_to_string(kit.join("kit.html")).unwrap();
    assert_eq!(kit_html.matches("class=\"sheet\"").count(), 5);
    assert_eq!(
        kit_html.matches("class=\"rule\"").count(),
        20,
        "4 castling rules a round"
    );

    // A screenshot of round 1's sheet, kept under target/ for a look.
    let shot = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("round-sheet.png");
    let _ = std::fs::remove_file(&shot);
    let (_, stderr) = headless(
        &profile,
        &format!("file://{}/round-1.html", kit.display()),
        &[
            &format!("--screenshot={}", shot.display()),
            "--window-size=900,1300",
        ],
    );
    let png = std::fs::read(&shot)
        .unwrap_or_else(|e| panic!("no screenshot at {}: {e}\n{stderr}", shot.display()));
    assert!(png.starts_with(b"\x89PNG"));
}

/// Recomputes a draw record's positions in Python, independently of c960:
/// the SHA-256 chain with the standard library, `ChaCha20` from RFC 8439.
const RECOMPUTE: &str = r#"
import hashlib, json, struct, sys

record = json.load(open(sys.argv[1]))
candidates = list(record["candidate_sps"])
rounds = len(record["rounds"])

def sha_chain(phrase):
    h = phrase.encode("utf-8")
    while True:
        h = hashlib.sha256(h).digest()
        yield int.from_bytes(h[:8], "big")

def rotl(x, n):
    return ((x << n) | (x >> (32 - n))) & 0xFFFFFFFF

def quarter(s, a, b, c, d):
    s[a] = (s[a] + s[b]) & 0xFFFFFFFF; s[d] = rotl(s[d] ^ s[a], 16)
    s[c] = (s[c] + s[d]) & 0xFFFFFFFF; s[b] = rotl(s[b] ^ s[c], 12)
    s[a] = (s[a] + s[b]) & 0xFFFFFFFF; s[d] = rotl(s[d] ^ s[a], 8)
    s[c] = (s[c] + s[d]) & 0xFFFFFFFF; s[b] = rotl(s[b] ^ s[c], 7)

def chacha20(seed):
    key = struct.unpack("<8I", seed.to_bytes(8, "little") + bytes(24))
    counter = 0
    while True:
        state = [0x61707865, 0x3320646E, 0x79622D32, 0x6B206574, *key, counter, 0, 0, 0]
        work = list(state)
        for _ in range(10):
            quarter(work, 0, 4, 8, 12); quarter(work, 1, 5, 9, 13)
            quarter(work, 2, 6, 10, 14); quarter(work, 3, 7, 11, 15)
            quarter(work, 0, 5, 10, 15); quarter(work, 1, 6, 11, 12)
            quarter(work, 2, 7, 8, 13); quarter(work, 3, 4, 9, 14)
        block = struct.pack("<16I", *[(w + s) & 0xFFFFFFFF for w, s in zip(work, state)])
        for i in range(0, 64, 8):
            yield int.from_bytes(block[i:i + 8], "little")
        counter += 1

values = sha_chain(record["phrase"]) if record["method"] == "phrase" else chacha20(record["seed"])
drawn = []
for v in values:
    if len(drawn) == rounds:
        break
    n = len(candidates)
    if v < n * (2**64 // n):
        drawn.append(candidates.pop(v % n))
print(" ".join(map(str, drawn)))
"#;

fn recompute(record: &Path) -> String {
    let output = Command::new(python())
        .arg("-c")
        .arg(RECOMPUTE)
        .arg(record)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e} (this test needs python3)", python()));
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).trim().to_owned()
}

#[test]
fn the_draw_record_recomputes_with_an_independent_implementation() {
    let dir = Dir::new();
    let cases: [&[&str]; 3] = [
        &["--phrase", "Club Open 2026", "--rounds", "9"],
        &[
            "--phrase",
            "Vereinsturnier 2026",
            "--rounds",
            "5",
            "--max-weak",
            "1",
            "--no-first-move-attack",
        ],
        &[
            "--seed",
            "42",
            "--rounds",
            "12",
            "--exclude",
            "518",
            "--no-first-move-castling",
        ],
    ];
    for (i, flags) in cases.iter().enumerate() {
        let out = format!("kit{i}");
        let mut args = vec!["tournament", "--out", out.as_str()];
        args.extend_from_slice(flags);
        dir.ok(&args);
        let record_path = dir.file(&out).join("draw.json");
        let record: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&record_path).unwrap()).unwrap();
        let drawn: Vec<String> = record["rounds"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["sp"].to_string())
            .collect();
        assert_eq!(recompute(&record_path), drawn.join(" "), "{flags:?}");
        assert_eq!(
            record["candidates"].as_u64().unwrap() as usize,
            record["candidate_sps"].as_array().unwrap().len()
        );
        assert_eq!(record["c960_version"], env!("CARGO_PKG_VERSION"));
        // The same draw as `c960 draw`.
        let mut draw = vec!["draw", "--format", "json"];
        draw.extend_from_slice(flags);
        let plain: serde_json::Value = serde_json::from_str(&dir.ok(&draw)).unwrap();
        let plain: Vec<String> = plain["rounds"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["sp"].to_string())
            .collect();
        assert_eq!(plain, drawn);
    }
    // Unfiltered: round 1 is the one-line shell check of VERIFY.md.
    let verify = std::fs::read_to_string(dir.file("kit0").join("VERIFY.md")).unwrap();
    assert!(verify.contains("sha256sum"), "{verify}");
    assert!(verify.contains("It prints `["), "{verify}");
}

#[test]
fn the_kit_speaks_the_clubs_language() {
    let dir = Dir::new();
    for (lang, words) in [
        ("de", ["Runde 1", "c-Rochade", "g-Rochade", "Ausschreibung"]),
        ("nl", ["Ronde 1", "c-rokade", "g-rokade", "Aankondiging"]),
        ("tr", ["1. tur", "c-roku", "g-roku", "Duyuru"]),
        (
            "en",
            [
                "Round 1",
                "a-side castling",
                "h-side castling",
                "Announcement",
            ],
        ),
    ] {
        let out = format!("kit-{lang}");
        dir.ok(&[
            "tournament",
            "--seed",
            "7",
            "--rounds",
            "2",
            "--lang",
            lang,
            "--out",
            &out,
        ]);
        let announcement =
            std::fs::read_to_string(dir.file(&out).join("announcement.html")).unwrap();
        assert!(announcement.contains(&format!("<html lang=\"{lang}\">")));
        for word in words {
            assert!(announcement.contains(word), "{lang}: no {word:?}");
        }
    }
    let shown = dir.ok(&["show", "518", "--lang", "de"]);
    assert!(shown.contains("Weiß: c-Rochade"), "{shown}");
}

#[test]
fn bad_tournament_flags_are_one_line_errors() {
    let dir = Dir::new();
    let line = dir.bad_input(&[
        "tournament",
        "--seed",
        "1",
        "--rounds",
        "3",
        "--publish-rounds",
        "4",
        "--out",
        "k",
    ]);
    assert!(line.contains("--publish-rounds 4"), "{line}");
    let line = dir.bad_input(&["tournament", "--seed", "1", "--rounds", "0", "--out", "k"]);
    assert!(line.contains("--rounds"), "{line}");
    std::fs::write(dir.file("file"), "x").unwrap();
    let line = dir.bad_input(&["tournament", "--seed", "1", "--out", "file"]);
    assert!(line.contains("not a directory"), "{line}");
    let line = dir.bad_input(&["tournament", "--seed", "1", "--lang", "fr", "--out", "k"]);
    assert!(line.contains("fr"), "{line}");
    // Nothing was written by the refused runs.
    assert!(!dir.file("k").exists());
}

/// The file names in a kit folder, sorted.
fn kit_files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The SP numbers of a kit's round sheets, round 1 first.
fn sheet_sps(kit: &Path) -> Vec<u16> {
    (1..=999)
        .map(|round| kit.join(format!("round-{round}.html")))
        .take_while(|page| page.exists())
        .map(|page| {
            let html = std::fs::read_to_string(page).unwrap();
            let at = html.find("<span class=\"sp\">SP ").unwrap() + 20;
            html[at..at + html[at..].find('<').unwrap()]
                .parse()
                .unwrap()
        })
        .collect()
}

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
fn code_blocks(markdown: &str, info: &str) -> Vec<String> {
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

/// English function words that a translated kit must not hold outside
/// code (each list leaves out the words that are also words of that
/// language: Dutch "is", "of"; Turkish "on", "at").
fn english_words(lang: &str) -> Vec<&'static str> {
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
fn prose(name: &str, text: &str) -> String {
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
    let mut record: serde_json::Value = serde_json::from_str(&text).unwrap();
    record["candidate_sps"]
        .as_array_mut()
        .unwrap()
        .push(518.into());
    std::fs::write(dir.file("more.json"), record.to_string()).unwrap();
    let line = dir.bad_input(&["draw", "--verify", "more.json"]);
    assert!(line.contains("candidates"), "{line}");
    let line = dir.bad_input(&["draw", "--verify", "kit/draw.json", "--key", "ab"]);
    assert!(
        line.contains("no sealed rounds") || line.contains("64 hexadecimal"),
        "{line}"
    );
}
