//! `c960 show --format svg|png|html`: the diagram and the writer's sheet
//! from the command line.

use crate::util;

use util::Dir;

#[test]
fn show_writes_the_diagram_as_svg_and_png() {
    let dir = Dir::new();
    let svg = dir.ok(&["show", "91", "--format", "svg"]);
    assert!(svg.starts_with("<svg class=\"board\""), "{svg}");
    // 32 pieces, 8 file and 8 rank labels; a2 b2 e2, a7 b7 e7 ringed.
    assert_eq!(svg.matches("<text").count(), 48);
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
    assert_eq!((width, height), (400, 423));
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
    assert!(html.contains("In a-side castling (O-O-O) king and rook swap places"));
    assert!(html.contains("Its mirror twin, with the back rank reversed, is SP 865 (BQRBKRNN)."));
    assert_eq!(html.matches("<h3>").count(), 4, "four castling rules");
    assert!(html.contains("<svg class=\"board\""));
}
