//! Position sheets for writers: a paragraph of quotable facts generated
//! from the features and, where there are any, the measurements (engine
//! view with its uncertainty, verdict, games), the diagram and the castling
//! rules in words, in English, German, Dutch or Turkish (`lang/sheet.toml`).
//! Used by `c960 show` and the report's position pages.

use c960_core::{CastlingKind, Features, Lang, StartPosition, castling_texts};

use crate::{
    board::{Marks, diagram_svg},
    html::{NOWRAP_CSS, escape_prose},
};

pub use crate::lang::{count, text};
pub use crate::view::{
    ConsensusView, EngineView, GamesView, IntervalView, Measured, VerdictView, q_value_text,
};

/// The name of a castling kind in a short table cell (`swap`, `Tausch`).
#[must_use]
pub fn kind_name(lang: Lang, kind: &str) -> &'static str {
    text(lang, &format!("name_{}", kind.replace('-', "_")))
}

fn files(lang: Lang, files: &[char]) -> String {
    let names: Vec<String> = files
        .iter()
        .map(|f| text(lang, "pawn_file").replace("{file}", &f.to_string()))
        .collect();
    lang.list(&names)
}

/// The facts as sentences a writer can quote, in `lang`.
#[must_use]
pub fn facts(features: &Features, measured: &Measured, lang: Lang) -> Vec<String> {
    let p = features.position;
    let at = |key: &str| {
        text(lang, key)
            .replace("{sp}", &p.sp().to_string())
            .replace("{placement}", &p.placement())
    };
    let mut out = Vec::new();
    let weak = features.weak_files();
    if weak.is_empty() {
        out.push(at("no_weak"));
    } else {
        let mut parts = Vec::new();
        if !features.undefended_files().is_empty() {
            parts.push(
                text(lang, "undefended_part")
                    .replace("{files}", &files(lang, &features.undefended_files())),
            );
        }
        if !features.king_only_files().is_empty() {
            parts.push(
                text(lang, "king_only_part")
                    .replace("{files}", &files(lang, &features.king_only_files())),
            );
        }
        out.push(
            count(lang, "weak", weak.len())
                .replace("{sp}", &p.sp().to_string())
                .replace("{placement}", &p.placement())
                .replace("{parts}", &parts.join("; ")),
        );
    }
    if features.first_move_attacks.is_empty() {
        out.push(text(lang, "no_attack").to_owned());
    } else {
        out.push(text(lang, "attack").replace("{attacks}", &attacks(features, lang)));
    }
    let kind = |k: CastlingKind| {
        text(
            lang,
            match k {
                CastlingKind::Normal => "kind_normal",
                CastlingKind::KingOnly => "kind_king_only",
                CastlingKind::RookOnly => "kind_rook_only",
                CastlingKind::Swap => "kind_swap",
            },
        )
    };
    let a = &features.castling.queen_side;
    let h = &features.castling.king_side;
    let first = match (a.legal_first_move, h.legal_first_move) {
        (true, true) => "first_both",
        (true, false) => "first_a",
        (false, true) => "first_h",
        (false, false) => "first_none",
    };
    out.push(
        text(lang, "castling")
            .replace("{a}", kind(a.kind))
            .replace("{h}", kind(h.kind))
            .replace("{first}", text(lang, first)),
    );
    out.extend(measured_facts(measured, lang));
    out.push(
        text(lang, "mirror")
            .replace("{sp}", &features.mirror.sp().to_string())
            .replace("{placement}", &features.mirror.placement()),
    );
    out
}

/// The first moves that attack an undefended pawn, in `lang`:
/// `a7 by 1.f3 and 1.f4; b7 by 1.g3 and 1.g4`.
#[must_use]
pub fn attacks(features: &Features, lang: Lang) -> String {
    let list: Vec<String> = features
        .first_move_attacks
        .iter()
        .map(|a| {
            let moves: Vec<String> = a.moves.iter().map(|m| format!("1.{m}")).collect();
            text(lang, "attack_by")
                .replace("{pawn}", &a.pawn.to_string())
                .replace("{moves}", &lang.list(&moves))
        })
        .collect();
    list.join("; ")
}

/// The sentences about what was measured.
pub fn measured_facts(measured: &Measured, lang: Lang) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(c) = &measured.consensus {
        out.push(
            count(lang, "consensus", c.raters)
                .replace("{reference}", &c.reference)
                .replace("{cp}", &format!("{:+.0}", c.cp))
                .replace(
                    "{interval}",
                    &c.interval.words(lang, |v| format!("{v:+.0}")),
                ),
        );
    } else if let Some(e) = &measured.engine {
        out.push(
            text(lang, "engine")
                .replace("{source}", &e.source)
                .replace("{cp}", &format!("{:+.0}", e.cp))
                .replace(
                    "{interval}",
                    &e.interval.words(lang, |v| format!("{v:+.0}")),
                ),
        );
    }
    if let Some(g) = &measured.games {
        let n = |key: &str, v: u64| count(lang, key, usize::try_from(v).unwrap_or(usize::MAX));
        out.push(
            text(lang, "games")
                .replace("{n}", &g.games.to_string())
                .replace("{source}", &g.source)
                .replace("{score}", &format!("{:.3}", g.score))
                .replace("{interval}", &g.interval.words(lang, |v| format!("{v:.3}")))
                .replace("{w}", &n("wins", g.white_wins))
                .replace("{d}", &n("draws", g.draws))
                .replace("{l}", &n("losses", g.black_wins)),
        );
    }
    out.extend(measured.outcome.as_ref().map(|o| outcome_sentence(o, lang)));
    out.extend(
        measured
            .difficulty
            .as_ref()
            .map(|d| difficulty_sentence(d, lang)),
    );
    if let Some(v) = &measured.verdict {
        let key = match v.verdict.as_str() {
            "balanced" | "more-for-white" | "less-for-white" => v.verdict.replace('-', "_"),
            _ => "unresolved".to_owned(),
        };
        out.push(
            text(lang, "verdict")
                .replace("{words}", text(lang, &format!("verdict_{key}")))
                .replace("{q}", &q_relation(v.q_value))
                .replace("{fdr}", &format!("{:.0}", v.level * 100.0)),
        );
    }
    out
}

/// The sentence on the draw chance and expected score.
fn outcome_sentence(o: &crate::view::OutcomeView, lang: Lang) -> String {
    let share = |v: f64| format!("{:.1}%", v * 100.0);
    let score = |v: f64| format!("{v:.3}");
    text(lang, "outcome")
        .replace("{draw}", &share(o.draw))
        .replace("{draw_low}", &share(o.draw_low))
        .replace("{draw_high}", &share(o.draw_high))
        .replace("{score}", &score(o.score))
        .replace("{score_low}", &score(o.score_low))
        .replace("{score_high}", &score(o.score_high))
        .replace("{n}", &o.raters.to_string())
        .replace(
            "{character}",
            text(
                lang,
                &format!("character_{}", o.character.replace('-', "_")),
            ),
        )
}

/// The sentence on how hard the first moves are.
fn difficulty_sentence(d: &crate::view::DifficultyView, lang: Lang) -> String {
    let gap = |g: Option<i32>| g.map_or_else(|| "–".to_owned(), |g| g.to_string());
    let m = d.moves;
    text(lang, "difficulty")
        .replace("{source}", &d.source)
        .replace("{w}", &m.white_good_moves.to_string())
        .replace("{wg}", &gap(m.white_gap_cp))
        .replace("{b}", &m.black_good_moves.to_string())
        .replace("{bg}", &gap(m.black_gap_cp))
        .replace("{a}", &format!("{:+}", m.good_moves_asymmetry))
        .replace("{ga}", &gap(m.gap_asymmetry_cp))
}

/// A q-value as it follows `q`: `= 0.012`, or `< 0.001` for one that
/// would read `0.000`.
fn q_relation(q: f64) -> String {
    let text = crate::view::q_value_text(q);
    if text.starts_with('<') {
        text
    } else {
        format!("= {text}")
    }
}

/// A standalone HTML sheet for one position in `lang`
/// (`templates/sheet.html`): facts, diagram (with `marks` and their
/// legend), FENs and the castling rules in words.
#[must_use]
pub fn sheet_html(
    position: StartPosition,
    measured: &Measured,
    marks: Marks,
    lang: Lang,
) -> String {
    let features = Features::of(position);
    let body = Sheet {
        sp: position.sp(),
        placement: position.placement(),
        diagram: diagram_svg(position, marks, None, lang),
        facts: escape_prose(&facts(&features, measured, lang).join(" ")),
        xfen: crate::html::fen_ranks(&position.to_xfen()),
        shredder: crate::html::fen_ranks(&position.to_shredder_fen()),
        castling_title: text(lang, "castling_title"),
        castling: castling_texts(position, lang)
            .iter()
            .map(|t| (escape_prose(&t.title), escape_prose(&t.sentences())))
            .collect(),
        made_with: text(lang, "made_with").replace("{version}", env!("CARGO_PKG_VERSION")),
    }
    .to_string();
    crate::html::Page {
        lang: lang.code(),
        title: &format!("SP {} {}", position.sp(), position.placement()),
        head: &crate::html::Style {
            page_size: None,
            sheets: &[SHEET_CSS, NOWRAP_CSS],
        }
        .to_string(),
        banner: "",
        body: &body,
    }
    .render()
}

/// A position's sheet: its diagram (SVG), facts in a sentence and the
/// castling rules (HTML), FENs.
#[derive(askama::Template)]
#[template(path = "sheet.html")]
struct Sheet {
    sp: u16,
    placement: String,
    diagram: String,
    facts: String,
    /// The X-FEN, cut after each rank ([`crate::html::fen_ranks`]).
    xfen: Vec<String>,
    /// The Shredder-FEN, cut after each rank.
    shredder: Vec<String>,
    castling_title: &'static str,
    castling: Vec<(String, String)>,
    made_with: String,
}

const SHEET_CSS: &str = include_str!("../assets/sheet.css");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn q_values_that_would_read_0_000_read_less_than_0_001() {
        assert_eq!(q_relation(1.5e-14), "< 0.001");
        assert_eq!(q_relation(0.0004), "< 0.001");
        assert_eq!(q_relation(0.012), "= 0.012");
        assert_eq!(crate::view::q_value_text(0.0), "< 0.001");
        assert_eq!(crate::view::q_value_text(0.0006), "0.001");
        assert_eq!(crate::view::q_value_text(1.0), "1.000");
    }

    #[test]
    fn every_language_has_every_text_of_english() {
        assert_eq!(crate::lang::table().gaps(), Vec::<String>::new());
    }

    fn with(engine: IntervalView) -> Measured {
        Measured {
            consensus: None,
            engine: Some(EngineView {
                source: "Stockfish 15.1 at nodes 250000, mean of 4 searches".to_owned(),
                cp: 34.0,
                interval: engine,
            }),
            games: Some(GamesView {
                source: "engine self-play".to_owned(),
                games: 2,
                white_wins: 1,
                draws: 0,
                black_wins: 1,
                score: 0.5,
                interval: IntervalView::Named {
                    name: "95% trinomial interval".to_owned(),
                    low: 0.1,
                    high: 0.9,
                },
            }),
            verdict: None,
            outcome: None,
            difficulty: None,
        }
    }

    #[test]
    fn a_zero_width_interval_is_never_shown_as_a_95_percent_interval() {
        let features = Features::of(StartPosition::new(518).unwrap());
        for interval in [
            IntervalView::Identical(4),
            IntervalView::Named {
                name: "95% interval of the mean".to_owned(),
                low: 34.0,
                high: 34.0,
            },
        ] {
            let text = facts(&features, &with(interval), Lang::En).join(" ");
            assert!(
                text.contains("rates it +34 centipawns for White (no interval: "),
                "{text}"
            );
            assert!(!text.contains("+34 to +34"), "{text}");
        }
    }

    #[test]
    fn the_sheet_quotes_the_consensus_where_there_is_one() {
        let features = Features::of(StartPosition::new(879).unwrap());
        let mut measured = with(IntervalView::SingleSearch);
        measured.consensus = Some(ConsensusView {
            raters: 4,
            reference: "Stockfish 19 WASM at nodes 4000000".to_owned(),
            cp: 60.2,
            interval: IntervalView::Named {
                name: "95% interval of the consensus,".to_owned(),
                low: 53.9,
                high: 66.5,
            },
        });
        let en = facts(&features, &measured, Lang::En).join(" ");
        assert!(
            en.contains("The consensus of 4 raters rates it +60 centipawns for White (95% interval of the consensus, +54 to +66), on the centipawn scale of Stockfish 19 WASM at nodes 4000000, the reference rater."),
            "{en}"
        );
        // The one engine's view is not quoted beside it.
        assert!(!en.contains("+34"), "{en}");
        for lang in [Lang::De, Lang::Nl, Lang::Tr] {
            let text = facts(&features, &measured, lang).join(" ");
            for part in [
                "4 ",
                "+60",
                "+54",
                "+66",
                "Stockfish 19 WASM at nodes 4000000",
            ] {
                assert!(text.contains(part), "{lang:?}: {part} not in {text}");
            }
            assert!(!text.contains("+34"), "{text}");
        }
        measured.consensus = None;
        let single = facts(&features, &measured, Lang::En).join(" ");
        assert!(
            single.contains("One engine's view, not a consensus of raters: Stockfish 15.1"),
            "{single}"
        );
    }

    #[test]
    fn counts_are_in_the_singular_for_one() {
        let features = Features::of(StartPosition::new(518).unwrap());
        let text = facts(&features, &with(IntervalView::SingleSearch), Lang::En).join(" ");
        assert!(
            text.contains("1 win, 0 draws and 1 loss for White"),
            "{text}"
        );
        assert!(text.contains("has 1 weak pawn on each side"), "{text}");
        let de = facts(&features, &with(IntervalView::SingleSearch), Lang::De).join(" ");
        assert!(
            de.contains("1 Sieg, 0 Remis und 1 Niederlage für Weiß"),
            "{de}"
        );
    }
}
