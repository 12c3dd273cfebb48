//! `c960 show`: one position in the terminal, with every feature and the
//! squares it concerns.

use std::fmt::Write as _;

use anyhow::{Context, Result};
use c960_core::{
    CastlingText, DfrcFeatures, DfrcRecord, DfrcSetup, Features, Lang, PositionRecord,
    StartPosition, castling_rules,
    shakmaty::{Bitboard, ByColor, CastlingSide, File, Rank, Square},
};

use c960_report::{
    board::{Marks, diagram_svg, write_diagram_png},
    sheet::{Measured, kind_name, sheet_html, text},
};

use crate::{
    cli::{InputError, ShowArgs, ShowFormat, Variant},
    output,
};

pub(crate) fn run(args: &ShowArgs) -> Result<()> {
    // The balance table is an input: --out may not replace it.
    let mut claim = c960_store::Claim::new();
    if let Some(table) = &args.balance {
        claim = claim.input(table, "--balance");
    }
    let out = output::Out::claim(args.out.as_deref(), claim)?;
    if args.variant == Variant::Dfrc {
        return show_dfrc(args, &out);
    }
    let position: StartPosition = args.position.parse()?;
    if !(64..=4096).contains(&args.size) {
        return Err(InputError(format!(
            "--size {} is out of range 64..=4096 pixels",
            args.size
        ))
        .into());
    }
    let lang = args.lang;
    let marks = if args.clean { Marks::NONE } else { Marks::ALL };
    let features = Features::of(position);
    let balance = match &args.balance {
        Some(path) => Some(super::show_balance::Published::read(path, position)?),
        None => None,
    };
    let measured = balance
        .as_ref()
        .map_or_else(Measured::default, super::show_balance::Published::measured);
    let text = match args.format {
        ShowFormat::Json => {
            let mut value = serde_json::to_value(PositionRecord::from(&features))?;
            if let (Some(b), Some(object)) = (&balance, value.as_object_mut()) {
                object.insert("balance".to_owned(), b.json());
            }
            format!("{}\n", serde_json::to_string_pretty(&value)?)
        }
        ShowFormat::Text => {
            let mut text = render(&features, lang, marks);
            if let Some(b) = &balance {
                // Engine names come from the table's balance.json: no
                // control of theirs reaches the terminal.
                text.push_str(&crate::output::terminal_safe(&b.text(&measured, lang)));
            }
            text.push_str(&castling_words(position, lang));
            text
        }
        ShowFormat::Svg => format!("{}\n", diagram_svg(position, marks, Some(340), lang)),
        ShowFormat::Html => sheet_html(position, &measured, marks, lang),
        ShowFormat::Png => {
            let Some(path) = out.path() else {
                return Err(InputError("--format png needs --out FILE".to_owned()).into());
            };
            write_diagram_png(position, marks, args.size, lang, path)
                .with_context(|| format!("cannot write {}", path.display()))?;
            return Ok(());
        }
    };
    out.write(|w| w.write_all(text.as_bytes()))
        .with_context(|| {
            out.path().map_or_else(
                || "cannot write to standard output".to_owned(),
                |p| format!("cannot write {}", p.display()),
            )
        })?;
    Ok(())
}

/// The full text report of one position, in `lang`.
fn render(f: &Features, lang: Lang, marks: Marks) -> String {
    let p = f.position;
    let t = |key: &str| text(lang, key);
    let mut s = String::new();
    let _ = writeln!(s, "SP {}  {}", p.sp(), p.placement());
    s.push('\n');
    s.push_str(&diagram(f, lang, marks.weak_pawns));
    s.push('\n');
    let row = |s: &mut String, label: &str, value: String| {
        let _ = writeln!(s, "{label:<24}{value}");
    };
    row(&mut s, "X-FEN", p.to_xfen());
    row(&mut s, "Shredder-FEN", p.to_shredder_fen());
    row(
        &mut s,
        t("t_mirror"),
        format!("SP {} {}", f.mirror.sp(), f.mirror.placement()),
    );
    row(
        &mut s,
        t("t_king_queen"),
        t("king_queen")
            .replace("{king}", &f.king.to_string())
            .replace("{queen}", &f.queen.to_string()),
    );
    row(
        &mut s,
        t("t_rooks"),
        t("rooks")
            .replace("{a}", &f.rooks.queen_side.to_string())
            .replace("{h}", &f.rooks.king_side.to_string()),
    );
    row(&mut s, t("t_legal"), f.legal_first_moves.to_string());
    row(&mut s, t("t_undefended"), counted(f.undefended_pawns));
    row(&mut s, t("t_king_only"), counted(f.king_only_pawns));
    row(&mut s, t("t_weak"), counted(f.weak_pawns()));
    let attacks = if f.first_move_attacks.is_empty() {
        "0".to_owned()
    } else {
        let list: Vec<String> = f
            .first_move_attacks
            .iter()
            .map(|a| {
                let moves: Vec<String> = a.moves.iter().map(|m| format!("1.{m}")).collect();
                t("attack_by")
                    .replace("{pawn}", &a.pawn.to_string())
                    .replace("{moves}", &moves.join(", "))
            })
            .collect();
        format!("{}: {}", f.first_move_attacks.len(), list.join("; "))
    };
    row(&mut s, t("t_attackable"), attacks);
    for (side, label) in [
        (CastlingSide::QueenSide, t("t_castle_a")),
        (CastlingSide::KingSide, t("t_castle_h")),
    ] {
        row(&mut s, label, castling(f, side, lang));
    }
    row(
        &mut s,
        t("t_corner"),
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
        t("t_queen_corner"),
        t(if f.queen_in_corner() { "yes" } else { "no" }).to_owned(),
    );
    s
}

/// The castling rules of the position in words, in `lang`.
fn castling_words(position: StartPosition, lang: Lang) -> String {
    let mut s = format!("\n{}\n", text(lang, "castling_rules"));
    for rule in c960_core::castling_texts(position, lang) {
        let _ = writeln!(s, "  {}\n    {}", rule.title, rule.sentences());
    }
    s
}

/// One side's castling: how king and rook move, whether it is legal on
/// move 1, and what stands in the way.
fn castling(f: &Features, side: CastlingSide, lang: Lang) -> String {
    let t = |key: &str| text(lang, key);
    let c = f.castling.get(side);
    let name = if side == CastlingSide::KingSide {
        "O-O"
    } else {
        "O-O-O"
    };
    let king = if f.king == c.king_to {
        t("king_stays").replace("{square}", &f.king.to_string())
    } else {
        format!("{}{}-{}", t("king_letter"), f.king, c.king_to)
    };
    let rook = if c.rook == c.rook_to {
        t("rook_stays").replace("{square}", &c.rook.to_string())
    } else {
        format!("{}{}-{}", t("rook_letter"), c.rook, c.rook_to)
    };
    let legal = t(if c.legal_first_move {
        "legal_yes"
    } else {
        "legal_no"
    });
    let way = if c.blockers.is_empty() {
        t("nothing_in_way").to_owned()
    } else {
        t("in_way").replace("{squares}", &squares(c.blockers))
    };
    format!(
        "{name}: {king}, {rook}; {}; {legal}; {way}",
        kind_name(lang, c.kind.name())
    )
}

/// The board, White at the bottom; weak pawns marked with `*` after them
/// (unless `marked` is off).
fn diagram(f: &Features, lang: Lang, marked: bool) -> String {
    let board = f.position.board();
    let weak = if marked {
        let weak = f.weak_pawns();
        weak.white | weak.black
    } else {
        Bitboard::EMPTY
    };
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
        let _ = writeln!(s, "     {}", text(lang, "weak_mark"));
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
fn show_dfrc(args: &ShowArgs, out: &output::Out) -> Result<()> {
    let setup: DfrcSetup = args.position.parse()?;
    let f = DfrcFeatures::of(setup);
    let text = match args.format {
        ShowFormat::Json => format!("{}\n", serde_json::to_string_pretty(&DfrcRecord::from(&f))?),
        ShowFormat::Text => render_dfrc(&f, args.lang),
        ShowFormat::Svg | ShowFormat::Png | ShowFormat::Html => {
            return Err(InputError(
                "--variant dfrc shows text or json (diagrams are for Chess960 positions)"
                    .to_owned(),
            )
            .into());
        }
    };
    out.write(|w| w.write_all(text.as_bytes()))?;
    Ok(())
}

fn render_dfrc(f: &DfrcFeatures, lang: Lang) -> String {
    let t = |key: &str| text(lang, key);
    let setup = f.setup;
    let record = DfrcRecord::from(f);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} {}  {}  ({}{})\n",
        t("dfrc_setup"),
        setup.index(),
        setup.placement(),
        t("dfrc_sides")
            .replace("{w}", &setup.white().sp().to_string())
            .replace("{b}", &setup.black().sp().to_string()),
        if setup.is_symmetric() {
            t("dfrc_symmetric")
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
    s.push_str(&sides_table(&record, lang));
    let _ = writeln!(s, "\n{}", t("castling_rules"));
    let white = castling_rules(setup.white());
    let black = castling_rules(setup.black());
    for rule in [
        &white.white.queen_side,
        &white.white.king_side,
        &black.black.queen_side,
        &black.black.king_side,
    ] {
        let words = CastlingText::new(rule, lang);
        let _ = writeln!(s, "  {}\n    {}", words.title, words.sentences());
    }
    s
}

/// The rows of [`sides_table`]: label, White's value, Black's.
fn side_rows(record: &DfrcRecord, lang: Lang) -> [(&'static str, String, String); 7] {
    let t = |key: &str| text(lang, key);
    let attacks = |list: &str| {
        if list.is_empty() {
            "0".to_owned()
        } else {
            list.to_owned()
        }
    };
    [
        (
            t("t_undefended"),
            record.white_undefended.to_string(),
            record.black_undefended.to_string(),
        ),
        (
            t("t_king_only"),
            record.white_king_only.to_string(),
            record.black_king_only.to_string(),
        ),
        (
            t("t_weak"),
            record.white_weak.to_string(),
            record.black_weak.to_string(),
        ),
        (
            t("t_attacks"),
            attacks(&record.white_attacks),
            attacks(&record.black_attacks),
        ),
        (
            t("t_castle_a"),
            castle_cell(
                record.white_castle_a_first_move,
                &record.white_castle_a_kind,
                lang,
            ),
            castle_cell(
                record.black_castle_a_first_move,
                &record.black_castle_a_kind,
                lang,
            ),
        ),
        (
            t("t_castle_h"),
            castle_cell(
                record.white_castle_h_first_move,
                &record.white_castle_h_kind,
                lang,
            ),
            castle_cell(
                record.black_castle_h_first_move,
                &record.black_castle_h_kind,
                lang,
            ),
        ),
        (
            t("t_corner"),
            record.white_corner_bishops.to_string(),
            record.black_corner_bishops.to_string(),
        ),
    ]
}

/// White's and Black's features side by side, then their differences.
fn sides_table(record: &DfrcRecord, lang: Lang) -> String {
    let t = |key: &str| text(lang, key);
    let mut s = String::new();
    let header = ("", t("white").to_owned(), t("black").to_owned());
    for (label, white, black) in std::iter::once(header).chain(side_rows(record, lang)) {
        let _ = writeln!(s, "{label:<24}{white:<28}{black}");
    }
    let _ = writeln!(
        s,
        "{}",
        t("differences")
            .replace("{weak}", &format!("{:+}", record.weak_diff))
            .replace("{attackable}", &format!("{:+}", record.attackable_diff))
            .replace(
                "{castling}",
                &format!("{:+}", record.castle_first_move_diff)
            )
            .replace("{corner}", &format!("{:+}", record.corner_bishops_diff))
    );
    s
}

fn castle_cell(first_move: bool, kind: &str, lang: Lang) -> String {
    format!(
        "{}{}",
        kind_name(lang, kind),
        if first_move {
            text(lang, "legal_first")
        } else {
            ""
        }
    )
}
