//! `c960 show`: one position in the terminal, with every feature and the
//! squares it concerns.

use std::fmt::Write as _;

use anyhow::{Context, Result};
use c960_core::{
    CastlingText, DfrcFeatures, DfrcRecord, DfrcSetup, Features, PositionRecord, StartPosition,
    castling_rules,
    shakmaty::{Bitboard, ByColor, CastlingSide, File, Rank, Square},
};

use c960_report::{
    board::{Marks, diagram_svg, write_diagram_png},
    sheet::{Measured, sheet_html},
};

use crate::{
    cli::{InputError, ShowArgs, ShowFormat, Variant},
    output,
};

pub(crate) fn run(args: &ShowArgs) -> Result<()> {
    if args.variant == Variant::Dfrc {
        return show_dfrc(args);
    }
    let position: StartPosition = args.position.parse()?;
    if !(64..=4096).contains(&args.size) {
        return Err(InputError(format!(
            "--size {} is out of range 64..=4096 pixels",
            args.size
        ))
        .into());
    }
    let out = args.out.as_deref();
    let features = Features::of(position);
    let text = match args.format {
        ShowFormat::Json => format!(
            "{}\n",
            serde_json::to_string_pretty(&PositionRecord::from(&features))?
        ),
        ShowFormat::Text => {
            let mut text = render(&features);
            text.push_str(&castling_words(position, args.lang.lang()));
            text
        }
        ShowFormat::Svg => format!("{}\n", diagram_svg(position, Marks::ALL, Some(340))),
        ShowFormat::Html => sheet_html(position, &Measured::default()),
        ShowFormat::Png => {
            let Some(path) = out else {
                return Err(InputError("--format png needs --out FILE".to_owned()).into());
            };
            write_diagram_png(position, Marks::ALL, args.size, path)
                .with_context(|| format!("cannot write {}", path.display()))?;
            return Ok(());
        }
    };
    output::write_to(out, |w| w.write_all(text.as_bytes())).with_context(|| {
        out.map_or_else(
            || "cannot write to standard output".to_owned(),
            |p| format!("cannot write {}", p.display()),
        )
    })?;
    Ok(())
}

/// The full text report of one position.
fn render(f: &Features) -> String {
    let p = f.position;
    let mut s = String::new();
    let _ = writeln!(s, "SP {}  {}", p.sp(), p.placement());
    s.push('\n');
    s.push_str(&diagram(f));
    s.push('\n');
    let row = |s: &mut String, label: &str, value: String| {
        let _ = writeln!(s, "{label:<24}{value}");
    };
    row(&mut s, "X-FEN", p.to_xfen());
    row(&mut s, "Shredder-FEN", p.to_shredder_fen());
    row(
        &mut s,
        "Mirror twin",
        format!("SP {} {}", f.mirror.sp(), f.mirror.placement()),
    );
    row(
        &mut s,
        "King, queen",
        format!("king {}, queen {}", f.king, f.queen),
    );
    row(
        &mut s,
        "Rooks",
        format!(
            "{} (a-side), {} (h-side)",
            f.rooks.queen_side, f.rooks.king_side
        ),
    );
    row(&mut s, "Legal first moves", f.legal_first_moves.to_string());
    row(&mut s, "Undefended pawns", counted(f.undefended_pawns));
    row(&mut s, "King-only pawns", counted(f.king_only_pawns));
    row(&mut s, "Weak pawns", counted(f.weak_pawns()));
    let attacks = if f.first_move_attacks.is_empty() {
        "0".to_owned()
    } else {
        let list: Vec<String> = f
            .first_move_attacks
            .iter()
            .map(|a| {
                let moves: Vec<String> = a.moves.iter().map(|m| format!("1.{m}")).collect();
                format!("{} by {}", a.pawn, moves.join(", "))
            })
            .collect();
        format!("{}: {}", f.first_move_attacks.len(), list.join("; "))
    };
    row(&mut s, "Attackable on move 1", attacks);
    for (side, label) in [
        (CastlingSide::QueenSide, "Castling a-side"),
        (CastlingSide::KingSide, "Castling h-side"),
    ] {
        row(&mut s, label, castling(f, side));
    }
    row(
        &mut s,
        "Corner bishops",
        if f.corner_bishops.is_empty() {
            "0".to_owned()
        } else {
            format!(
                "{}: {}",
                f.corner_bishops.count(),
                squares(f.corner_bishops)
            )
        },
    );
    row(
        &mut s,
        "Queen in a corner",
        if f.queen_in_corner() { "yes" } else { "no" }.to_owned(),
    );
    s
}

/// The castling rules of the position in words, in `lang`.
fn castling_words(position: StartPosition, lang: c960_core::Lang) -> String {
    let mut s = String::from("\nCastling rules\n");
    for text in c960_core::castling_texts(position, lang) {
        let _ = writeln!(s, "  {}\n    {}", text.title, text.sentences());
    }
    s
}

/// One side's castling: how king and rook move, whether it is legal on
/// move 1, and what stands in the way.
fn castling(f: &Features, side: CastlingSide) -> String {
    let c = f.castling.get(side);
    let name = if side == CastlingSide::KingSide {
        "O-O"
    } else {
        "O-O-O"
    };
    let king = if f.king == c.king_to {
        format!("king stays on {}", f.king)
    } else {
        format!("K{}-{}", f.king, c.king_to)
    };
    let rook = if c.rook == c.rook_to {
        format!("rook stays on {}", c.rook)
    } else {
        format!("R{}-{}", c.rook, c.rook_to)
    };
    let legal = if c.legal_first_move {
        "legal on move 1"
    } else {
        "not legal on move 1"
    };
    let way = if c.blockers.is_empty() {
        "nothing in the way".to_owned()
    } else {
        format!("in the way: {}", squares(c.blockers))
    };
    format!("{name}: {king}, {rook}; {}; {legal}; {way}", c.kind.name())
}

/// The board, White at the bottom; weak pawns marked with `*` after them.
fn diagram(f: &Features) -> String {
    let board = f.position.board();
    let weak = f.weak_pawns();
    let weak = weak.white | weak.black;
    let mut s = String::new();
    for rank in Rank::ALL.into_iter().rev() {
        let _ = write!(s, "  {}  ", rank.char());
        for file in File::ALL {
            let sq = Square::from_coords(file, rank);
            let piece = board
                .piece_at(sq)
                .map_or('.', c960_core::shakmaty::Piece::char);
            let mark = if weak.contains(sq) { '*' } else { ' ' };
            let _ = write!(s, "{piece}{mark}");
        }
        s.truncate(s.trim_end().len());
        s.push('\n');
    }
    s.push_str("     a b c d e f g h\n");
    if weak.any() {
        s.push_str("     * weak pawn (undefended or defended only by the king)\n");
    }
    s
}

fn squares(set: Bitboard) -> String {
    set.into_iter()
        .map(|sq| sq.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// `2: a2 b2 / a7 b7`, White's squares then Black's.
fn counted(pawns: ByColor<Bitboard>) -> String {
    let (white, black) = (pawns.white, pawns.black);
    if white.is_empty() && black.is_empty() {
        return "0".to_owned();
    }
    format!("{}: {} / {}", white.count(), squares(white), squares(black))
}

/// `c960 show --variant dfrc`: one Double Fischer Random setup, each
/// side's features and castling rules.
fn show_dfrc(args: &ShowArgs) -> Result<()> {
    let setup: DfrcSetup = args.position.parse()?;
    let f = DfrcFeatures::of(setup);
    let text = match args.format {
        ShowFormat::Json => format!("{}\n", serde_json::to_string_pretty(&DfrcRecord::from(&f))?),
        ShowFormat::Text => render_dfrc(&f, args.lang.lang()),
        ShowFormat::Svg | ShowFormat::Png | ShowFormat::Html => {
            return Err(InputError(
                "--variant dfrc shows text or json (diagrams are for Chess960 positions)"
                    .to_owned(),
            )
            .into());
        }
    };
    output::write_to(args.out.as_deref(), |w| w.write_all(text.as_bytes()))?;
    Ok(())
}

fn render_dfrc(f: &DfrcFeatures, lang: c960_core::Lang) -> String {
    let setup = f.setup;
    let record = DfrcRecord::from(f);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "DFRC setup {}  {}  (White SP {}, Black SP {}{})\n",
        setup.index(),
        setup.placement(),
        setup.white().sp(),
        setup.black().sp(),
        if setup.is_symmetric() {
            ", symmetric: a Chess960 position"
        } else {
            ""
        }
    );
    let board = setup.board();
    for rank in Rank::ALL.into_iter().rev() {
        let _ = write!(s, "  {}  ", rank.char());
        for file in File::ALL {
            let piece = board
                .piece_at(Square::from_coords(file, rank))
                .map_or('.', c960_core::shakmaty::Piece::char);
            let _ = write!(s, "{piece} ");
        }
        s.truncate(s.trim_end().len());
        s.push('\n');
    }
    s.push_str("     a b c d e f g h\n\n");
    let _ = writeln!(s, "{:<24}{}", "X-FEN", setup.to_xfen());
    let _ = writeln!(s, "{:<24}{}\n", "Shredder-FEN", setup.to_shredder_fen());
    s.push_str(&sides_table(&record));
    s.push_str("\nCastling rules\n");
    let white = castling_rules(setup.white());
    let black = castling_rules(setup.black());
    for rule in [
        &white.white.queen_side,
        &white.white.king_side,
        &black.black.queen_side,
        &black.black.king_side,
    ] {
        let text = CastlingText::new(rule, lang);
        let _ = writeln!(s, "  {}\n    {}", text.title, text.sentences());
    }
    s
}

/// White's and Black's features side by side, then their differences.
fn sides_table(record: &DfrcRecord) -> String {
    let mut s = String::new();
    let row = |s: &mut String, label: &str, white: String, black: String| {
        let _ = writeln!(s, "{label:<24}{white:<28}{black}");
    };
    row(&mut s, "", "White".to_owned(), "Black".to_owned());
    row(
        &mut s,
        "Undefended pawns",
        record.white_undefended.to_string(),
        record.black_undefended.to_string(),
    );
    row(
        &mut s,
        "King-only pawns",
        record.white_king_only.to_string(),
        record.black_king_only.to_string(),
    );
    row(
        &mut s,
        "Weak pawns",
        record.white_weak.to_string(),
        record.black_weak.to_string(),
    );
    row(
        &mut s,
        "Attacks on move 1",
        if record.white_attacks.is_empty() {
            "0".to_owned()
        } else {
            record.white_attacks.clone()
        },
        if record.black_attacks.is_empty() {
            "0".to_owned()
        } else {
            record.black_attacks.clone()
        },
    );
    row(
        &mut s,
        "Castling a-side",
        castle_cell(
            record.white_castle_a_first_move,
            &record.white_castle_a_kind,
        ),
        castle_cell(
            record.black_castle_a_first_move,
            &record.black_castle_a_kind,
        ),
    );
    row(
        &mut s,
        "Castling h-side",
        castle_cell(
            record.white_castle_h_first_move,
            &record.white_castle_h_kind,
        ),
        castle_cell(
            record.black_castle_h_first_move,
            &record.black_castle_h_kind,
        ),
    );
    row(
        &mut s,
        "Corner bishops",
        record.white_corner_bishops.to_string(),
        record.black_corner_bishops.to_string(),
    );
    let _ = writeln!(
        s,
        "Differences (White − Black): weak pawns {:+}, attackable pawns {:+}, castlings on move 1 {:+}, corner bishops {:+}",
        record.weak_diff,
        record.attackable_diff,
        record.castle_first_move_diff,
        record.corner_bishops_diff
    );
    s
}

fn castle_cell(first_move: bool, kind: &str) -> String {
    format!(
        "{kind}{}",
        if first_move { ", legal on move 1" } else { "" }
    )
}
