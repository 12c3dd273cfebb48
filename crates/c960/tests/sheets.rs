//! `c960 show --format svg|png|html`: the diagram and the writer's sheet
//! from the command line (the sheet also in headless Chromium, on a phone).

use crate::util;

use util::Dir;

#[test]
fn show_writes_the_diagram_as_svg_and_png() {
    let dir = Dir::new();
    let svg = dir.ok(&["show", "91", "--format", "svg"]);
    assert!(svg.starts_with("<svg class=\"board\""), "{svg}");
    // 32 pieces (16 white ones over a white silhouette), 8 file and 8
    // rank labels, 3 lines of legend; a2 b2 e2, a7 b7 e7 ringed.
    assert_eq!(svg.matches("<text").count(), 32 + 16 + 16 + 3);
    assert_eq!(svg.matches("class=\"fill\"").count(), 16);
    assert_eq!(svg.matches("class=\"weak\"").count(), 6);
    dir.ok(&[
        "show",
        "91",
        "--format",
        "png",
        "--out",
        "board.png",
        "--size",
        "400",
    ]);
    let png = std::fs::read(dir.file("board.png")).unwrap();
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
    let width = u32::from_be_bytes(png[16..20].try_into().unwrap());
    let height = u32::from_be_bytes(png[20..24].try_into().unwrap());
    assert_eq!((width, height), (400, 480), "the board and its legend");
    let line = dir.bad_input(&["show", "91", "--format", "png"]);
    assert!(line.contains("--out"), "{line}");
    let line = dir.bad_input(&[
        "show", "91", "--format", "png", "--out", "x.png", "--size", "9",
    ]);
    assert!(line.contains("--size 9"), "{line}");
    assert!(!dir.file("x.png").exists());
}

#[test]
fn show_writes_a_sheet_a_writer_can_quote() {
    let dir = Dir::new();
    dir.ok(&[
        "show",
        "NNRKBRQB",
        "--format",
        "html",
        "--out",
        "sheet.html",
    ]);
    let html = std::fs::read_to_string(dir.file("sheet.html")).unwrap();
    assert!(html.contains(
        "SP 91 (NNRKBRQB) has 3 weak pawns on each side: a-pawn and b-pawn undefended; e-pawn defended only by the king."
    ));
    assert!(html.contains("b7 by 1.g3 and 1.g4"));
    assert!(html.contains(
        "In a-side castling (<span class=\"nobr\">O-O-O</span>) king and rook swap places"
    ));
    assert!(html.contains("Its mirror twin, with the back rank reversed, is SP 865 (BQRBKRNN)."));
    assert_eq!(html.matches("<h3>").count(), 4, "four castling rules");
    assert!(html.contains("<svg class=\"board\""));
}

/// The width and height of a PNG file.
fn png_size(path: &std::path::Path) -> (u32, u32) {
    let png = std::fs::read(path).unwrap();
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
    (
        u32::from_be_bytes(png[16..20].try_into().unwrap()),
        u32::from_be_bytes(png[20..24].try_into().unwrap()),
    )
}

/// Issue 29: a clean diagram for print (no rings, no squares, no legend),
/// and a legend whenever marks are shown.
#[test]
fn a_clean_diagram_for_print_and_a_legend_with_the_marks() {
    let dir = Dir::new();
    let marked = dir.ok(&["show", "91", "--format", "svg"]);
    assert!(marked.contains(">red ring: weak pawn (undefended or defended only</text>"));
    assert!(marked.contains(">by the king)</text>"));
    assert!(marked.contains("green square: castling target (c- and g-file)"));
    let clean = dir.ok(&["show", "91", "--format", "svg", "--clean"]);
    for mark in ["class=\"weak\"", "castle-target", "legend", "red ring"] {
        assert!(!clean.contains(mark), "{mark} in the clean diagram");
    }
    assert!(clean.contains("viewBox=\"0 0 340 360\""));
    dir.ok(&[
        "show",
        "91",
        "--format",
        "png",
        "--clean",
        "--out",
        "clean.png",
        "--size",
        "400",
    ]);
    assert_eq!(png_size(&dir.file("clean.png")), (400, 423));
    let sheet = dir.ok(&["show", "91", "--format", "html", "--clean"]);
    assert!(!sheet.contains("class=\"weak\""));
    let german = dir.ok(&["show", "91", "--format", "svg", "--lang", "de"]);
    assert!(german.contains("roter Ring: schwacher Bauer"), "{german}");
}

/// English function words that a German text must not hold.
const ENGLISH: [&str; 20] = [
    "the", "and", "of", "is", "are", "with", "by", "for", "on", "it", "its", "can", "not", "king",
    "rook", "pawn", "weak", "castling", "side", "legal",
];

/// Issue 29: `c960 show --lang de` is German in every format: the html
/// sheet (its facts, headings and legend) and the text report (every
/// label, not only the castling sentences).
#[test]
fn show_speaks_the_language_asked_for_in_text_and_html() {
    let dir = Dir::new();
    let text = dir.ok(&["show", "91", "--lang", "de"]);
    let html = dir.ok(&["show", "91", "--lang", "de", "--format", "html"]);
    assert!(html.contains("<html lang=\"de\">"));
    assert!(html.contains(
        "SP 91 (NNRKBRQB) hat 3 schwache Bauern auf jeder Seite: a-Bauer und b-Bauer ungedeckt; e-Bauer nur vom König gedeckt."
    ), "{html}");
    for row in [
        format!("{:<24}SP 865 BQRBKRNN", "Spiegelzwilling"),
        format!(
            "{:<24}O-O-O: Kd1-c1, Tc1-d1; Tausch; im 1. Zug möglich; nichts im Weg",
            "c-Rochade"
        ),
    ] {
        assert!(text.contains(&row), "{row:?} in\n{text}");
    }
    let mut prose = html.clone();
    while let Some(start) = prose.find('<') {
        let end = prose[start..]
            .find('>')
            .map_or(prose.len(), |e| start + e + 1);
        prose.replace_range(start..end, " ");
    }
    for (what, body) in [("text", text.as_str()), ("html", prose.as_str())] {
        let words: Vec<String> = body
            .split(|c: char| !c.is_alphanumeric())
            .map(str::to_lowercase)
            .collect();
        for english in ENGLISH {
            assert!(
                !words.iter().any(|w| w == english),
                "{what}: English {english:?} in\n{body}"
            );
        }
    }
    let dfrc = dir.ok(&["show", "--variant", "dfrc", "920640", "--lang", "de"]);
    assert!(dfrc.contains("DFRC-Aufstellung 920640"), "{dfrc}");
    assert!(dfrc.contains("Unterschiede (Weiß − Schwarz)"), "{dfrc}");
}

/// A writer's position sheet (`c960 show --format html`) on a phone:
/// nothing sticks out, and its FENs break after a rank, never inside one.
#[test]
fn a_position_sheet_keeps_its_fen_ranks_whole_on_a_phone() {
    let dir = Dir::new();
    let sheet = dir.file("sheet-91.html");
    std::fs::write(&sheet, dir.ok(&["show", "91", "--format", "html"])).unwrap();
    let profile = dir.file("profile");
    for width in [360, 800] {
        let check = crate::browser::layout(&profile, &sheet, width);
        assert_eq!(check["outside"], serde_json::json!([]), "{check}");
        assert_eq!(
            check["split"],
            serde_json::json!([]),
            "a FEN's rank broken inside at {width}: {check}"
        );
    }
}
