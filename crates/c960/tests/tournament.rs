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

pub(crate) fn python() -> String {
    std::env::var("C960_PYTHON").unwrap_or_else(|_| "python3".to_owned())
}

/// Pages of a PDF, by `pdfinfo` (Debian package poppler-utils).
pub(crate) fn pdf_pages(pdf: &Path) -> usize {
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
pub(crate) fn kit_files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The SP numbers of a kit's round sheets, round 1 first.
pub(crate) fn sheet_sps(kit: &Path) -> Vec<u16> {
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
