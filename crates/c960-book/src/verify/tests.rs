use super::*;

fn check(book: &str) -> Report {
    check_book(book.as_bytes()).unwrap()
}

/// The kinds of the one bad line's defects, and the line's number.
fn only_bad(report: &Report) -> (u64, Vec<DefectKind>) {
    assert_eq!(report.bad_lines.len(), 1, "{:?}", report.bad_lines);
    let bad = &report.bad_lines[0];
    (bad.line, bad.defects.iter().map(|d| d.kind).collect())
}

const CLASSICAL: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1";
/// SP 0 with X-FEN castling.
const SP0_KQKQ: &str = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1";

#[test]
fn a_clean_book_in_every_accepted_form_passes() {
    let book = format!(
        "{CLASSICAL}\n{SP0_KQKQ}\r\nbqnbnrkr/pppppppp/8/8/8/8/PPPPPPPP/BQNBNRKR w HFhf -\n\
         bqnnrbkr/pppppppp/8/8/8/8/PPPPPPPP/BQNNRBKR w HEhe - hmvc 0; fmvn 1;\n\
         rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2\n"
    );
    let report = check(&book);
    assert_eq!(report.lines, 5);
    assert!(report.bad_lines.is_empty(), "{:?}", report.bad_lines);
    assert_eq!(report.castling.shredder, 3);
    assert_eq!(report.castling.kqkq, 2);
    assert_eq!(report.castling.describe(), "mixed");
    assert_eq!((report.with_semicolon, report.crlf), (1, 1));
}

#[test]
fn verify_catches_an_illegal_position() {
    // White to move while Black's king is in check by the rook on e1.
    let report = check(&format!("{CLASSICAL}\n4k3/8/8/8/8/8/8/R3R1K1 w - - 0 1\n"));
    let (line, kinds) = only_bad(&report);
    assert_eq!((line, kinds), (2, vec![DefectKind::Illegal]));
    assert!(
        report.bad_lines[0].reasons().contains("opposite check"),
        "{:?}",
        report.bad_lines
    );
}

#[test]
fn verify_catches_wrong_castling_rights() {
    for (line, why) in [
        // H names no white rook: the king-side rook stands on g1.
        (
            "rnbqkbrn/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBRN w HAga - 0 1",
            "no white rook on h1",
        ),
        // K with no white rook on the king's h-side.
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1",
            "no white rook on the h side",
        ),
        // The white king has left its back rank.
        (
            "rnbqkbnr/pppppppp/8/8/8/4K3/PPPPPPPP/RNBQ1BNR w HAha - 0 1",
            "white king is not on its back rank",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HXha - 0 1",
            "not a right",
        ),
    ] {
        let report = check(&format!("{line}\n"));
        let (_, kinds) = only_bad(&report);
        assert_eq!(kinds, [DefectKind::WrongRights], "{line}");
        assert!(
            report.bad_lines[0].reasons().contains(why),
            "{line}: {:?}",
            report.bad_lines
        );
    }
}

#[test]
fn verify_catches_kqkq_the_runners_read_apart() {
    // Two white rooks on the king's h-side (f1 and h1): K is h1 to
    // cutechess, f1 to fastchess. Shredder-FEN naming f1 is clean (and
    // another position: its castling rook differs).
    let ambiguous = "4k3/8/8/8/8/8/8/4KR1R w K - 0 1";
    let report = check(&format!("{ambiguous}\n4k3/8/8/8/8/8/8/4KR1R w F - 0 1\n"));
    let (line, kinds) = only_bad(&report);
    assert_eq!((line, kinds), (1, vec![DefectKind::AmbiguousKqkq]));
    let reasons = report.bad_lines[0].reasons();
    assert!(
        reasons.contains("cutechess (outermost rook) reads H"),
        "{reasons}"
    );
    assert!(
        reasons.contains("fastchess (rook nearest the king) reads F"),
        "{reasons}"
    );
}

#[test]
fn verify_catches_game_over_positions() {
    let report = check(
        "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1\n\
         7k/8/6QK/8/8/8/8/8 b - - 0 1\n\
         7k/8/8/8/8/8/8/K7 w - - 0 1\n",
    );
    let ends: Vec<String> = report.bad_lines.iter().map(BadLine::reasons).collect();
    assert_eq!(
        ends,
        [
            "game over: checkmate",
            "game over: stalemate",
            "game over: insufficient material"
        ]
    );
    assert_eq!(report.count(DefectKind::GameOver), 3);
}

#[test]
fn verify_catches_duplicates_whatever_the_counters_and_notation() {
    // The same position in Shredder-FEN and KQkq, with other counters;
    // an en-passant square no pawn can take is the same position too.
    let report = check(&format!(
        "{CLASSICAL}\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3 9\n\
         rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b HAha e3 0 1\n\
         rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b HAha - 0 1\n\
         rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Aha - 0 1\n"
    ));
    let bad: Vec<(u64, String)> = report
        .bad_lines
        .iter()
        .map(|b| (b.line, b.reasons()))
        .collect();
    assert_eq!(
        bad,
        [
            (2, "duplicate of line 1".to_owned()),
            (4, "duplicate of line 3".to_owned())
        ]
    );
}

#[test]
fn verify_names_malformed_lines() {
    let report = check(&format!(
        "{CLASSICAL}\n\nrnbqkbnr/pppppppp w HAha\n{CLASSICAL} extra\nrnbqkbnr/ppp/8 w - - 0 1\n"
    ));
    let bad: Vec<(u64, DefectKind)> = report
        .bad_lines
        .iter()
        .map(|b| (b.line, b.defects[0].kind))
        .collect();
    assert_eq!(
        bad,
        [
            (2, DefectKind::Malformed),
            (3, DefectKind::Malformed),
            (4, DefectKind::Malformed),
            (5, DefectKind::Malformed)
        ]
    );
    assert_eq!(report.bad_lines[0].reasons(), "empty line");
}

#[test]
fn notation_is_named_for_the_whole_book() {
    assert_eq!(
        check(&format!("{CLASSICAL}\n")).castling.describe(),
        "Shredder-FEN"
    );
    assert_eq!(check(&format!("{SP0_KQKQ}\n")).castling.describe(), "KQkq");
    assert_eq!(
        check("4k3/8/8/8/8/8/8/4K3 w - - 0 1\n".trim_start())
            .castling
            .describe(),
        "none (no castling rights)"
    );
}

#[test]
fn a_line_without_end_is_malformed_and_never_held_whole() {
    use std::io::Read as _;
    // 20 MB of one line (as /dev/zero gives), then a good line.
    let endless = std::io::repeat(b'0').take(20 << 20);
    let rest = format!("\n{CLASSICAL}\n");
    let report = check_book(std::io::BufReader::new(endless.chain(rest.as_bytes()))).unwrap();
    assert_eq!(report.lines, 2);
    assert_eq!(report.bad_lines.len(), 1);
    assert_eq!(report.bad_lines[0].line, 1);
    assert_eq!(
        report.bad_lines[0].reasons(),
        "20971520 bytes, longer than any book line (65536 at most)"
    );
    // A line of exactly the bound is read as a line.
    let long = "x".repeat(MAX_LINE);
    assert_eq!(
        check(&format!("{long}\n")).bad_lines[0].defects[0].kind,
        DefectKind::Malformed
    );
    assert_ne!(
        check(&format!("{long}\n")).bad_lines[0].reasons(),
        report.bad_lines[0].reasons()
    );
}
