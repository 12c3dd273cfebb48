//! The kit's pages: the announcement and one sheet per round, in the
//! kit's language, with every text from `lang/kit.toml`.

use std::sync::OnceLock;

use askama::Template;
use c960_core::{
    CastlingText, DrawFilter, Key, Lang, StartPosition, TextTable, castling_rules,
    format_position_set,
    shakmaty::{CastlingSide, Color},
};

use super::{BalanceRecord, Excluded, KitPlan, Paper};
use crate::{
    board::{Marks, diagram_svg},
    html::{NOWRAP_CSS, escape_prose},
};

/// The kit's fixed texts: `lang/kit.toml`.
pub(crate) fn table() -> &'static TextTable {
    static TABLE: OnceLock<TextTable> = OnceLock::new();
    TABLE.get_or_init(|| TextTable::parse("lang/kit.toml", include_str!("../../lang/kit.toml")))
}

/// The texts of one language.
#[derive(Copy, Clone)]
pub(crate) struct Texts(pub(crate) c960_core::Lang);

impl Texts {
    /// The text of `key`.
    ///
    /// # Panics
    /// Panics if the table lacks it (a test checks every language has
    /// every key of English).
    pub(crate) fn get(self, key: &str) -> &'static str {
        table().get(self.0, key)
    }

    /// The text of `key` for a count of `n` (see [`TextTable::count`]).
    pub(crate) fn count(self, key: &str, n: usize) -> String {
        table().count(self.0, key, n)
    }

    /// "Round N".
    pub(crate) fn round(self, n: usize) -> String {
        self.get("round").replace("{n}", &n.to_string())
    }
}

/// The pages of one kit.
pub struct Kit<'a> {
    /// What the organizer asked for.
    pub plan: &'a KitPlan,
    /// Every round's position, round 1 first.
    pub positions: &'a [StartPosition],
    /// The positions that passed the filters (the draw's candidates).
    pub candidates: &'a [StartPosition],
}

impl Kit<'_> {
    pub(crate) fn texts(&self) -> Texts {
        Texts(self.plan.lang)
    }

    fn text(&self, key: &str) -> &'static str {
        self.texts().get(key)
    }

    pub(crate) fn event(&self) -> String {
        self.plan
            .title
            .clone()
            .unwrap_or_else(|| self.text("event").to_owned())
    }

    /// A whole HTML page around `body`.
    pub(crate) fn page(&self, title: &str, body: &str) -> String {
        let size = match self.plan.paper {
            Paper::A4 => "A4",
            Paper::Letter => "letter",
        };
        crate::html::Page {
            lang: self.plan.lang.code(),
            title,
            head: &crate::html::Style {
                page_size: Some(size),
                sheets: &[CSS, NOWRAP_CSS],
            }
            .to_string(),
            banner: "",
            body,
        }
        .render()
    }

    /// The sealed round `round`'s key, if it is sealed.
    fn key(&self, round: usize) -> Option<Key> {
        self.plan.seal.as_ref().and_then(|s| s.key(round))
    }

    /// One round's sheet (`templates/kit/sheet.html`): a printed page of
    /// its own.
    pub(crate) fn sheet(&self, round: usize) -> String {
        let position = self.positions[round - 1];
        let lang = self.plan.lang;
        let rules = castling_rules(position);
        Sheet {
            t: self.texts(),
            round,
            event: self.event(),
            round_name: self.texts().round(round),
            sp: position.sp(),
            diagram: diagram_svg(position, Marks::NONE, None, lang),
            placement: position.placement(),
            xfen: crate::html::fen_ranks(&position.to_xfen()),
            shredder: crate::html::fen_ranks(&position.to_shredder_fen()),
            general: escape_prose(self.text("castling_general")),
            colors: [Color::White, Color::Black].map(|color| {
                [CastlingSide::QueenSide, CastlingSide::KingSide].map(|side| {
                    let text = CastlingText::new(rules.get(color).get(side), lang);
                    Rule {
                        color: color.char(),
                        side: match side {
                            CastlingSide::QueenSide => 'a',
                            CastlingSide::KingSide => 'h',
                        },
                        title: escape_prose(&text.title),
                        sentences: escape_prose(&text.sentences()),
                    }
                })
            }),
            key: self.key(round),
            method: self.method_sentence(),
            made_with: self
                .text("made_with")
                .replace("{version}", env!("CARGO_PKG_VERSION")),
        }
        .to_string()
    }

    /// How the published rounds were drawn, in a sentence.
    pub(crate) fn method_sentence(&self) -> String {
        self.method_sentence_with(str::to_owned)
    }

    /// [`Kit::method_sentence`] with the phrase passed through `quote`
    /// (for Markdown).
    pub(crate) fn method_sentence_with(&self, quote: impl Fn(&str) -> String) -> String {
        match &self.plan.method {
            c960_core::DrawMethod::Phrase(phrase) => {
                self.text("by_phrase").replace("{phrase}", &quote(phrase))
            }
            c960_core::DrawMethod::Seed(seed) => {
                self.text("by_seed").replace("{seed}", &seed.to_string())
            }
        }
    }

    /// The active filters in the kit's language.
    pub(crate) fn filters(&self) -> String {
        self.filters_with(str::to_owned)
    }

    /// [`Kit::filters`] with file names passed through `quote` (for
    /// Markdown).
    pub(crate) fn filters_with(&self, quote: impl Fn(&str) -> String) -> String {
        filter_words_with(
            &self.plan.filter,
            self.plan.balance.as_ref(),
            &self.plan.excluded,
            self.plan.lang,
            quote,
        )
    }

    /// The sentences saying how many rounds were drawn and which the
    /// announcement shows.
    fn rounds_sentence(&self) -> String {
        let t = self.texts();
        let (k, p) = (self.plan.rounds, self.plan.publish);
        let shows = if p == k {
            t.count("shows_all", k)
        } else {
            t.count("shows_first", p).replace("{p}", &p.to_string())
        };
        format!(
            "{} {shows}",
            t.count("rounds_drawn", k).replace("{k}", &k.to_string())
        )
    }

    /// What the announcement says about the sealed rounds: the scheme and
    /// the fingerprint.
    fn sealed_sentence(&self) -> Option<String> {
        let seal = self.plan.seal.as_ref()?;
        Some(
            self.texts()
                .count("sealed_scheme", seal.keys.len())
                .replace("{a}", &seal.first_round.to_string())
                .replace("{b}", &self.plan.rounds.to_string())
                .replace("{commitment}", &seal.commitment.to_string()),
        )
    }

    /// The announcement (`templates/kit/announcement.html`): the event,
    /// its details as given (date, venue, time control, schedule), how the
    /// rounds were drawn, the published rounds' sheets and the sealed
    /// rounds.
    pub(crate) fn announcement(&self) -> String {
        let t = self.texts();
        let d = &self.plan.details;
        let body = Announcement {
            t,
            event: self.event(),
            details: [
                ("date", d.date.as_deref()),
                ("venue", d.venue.as_deref()),
                ("time_control", d.time_control.as_deref()),
            ]
            .into_iter()
            .filter_map(|(key, value)| Some((key, value?)))
            .collect(),
            schedule: (!d.schedule.is_empty()).then_some(d.schedule.as_slice()),
            method: self.method_sentence(),
            candidates: t
                .count("candidates", self.candidates.len())
                .replace("{filters}", &self.filters()),
            rounds: self.rounds_sentence(),
            sealed: self.sealed_sentence(),
            sheets: (1..=self.plan.publish).map(|r| self.sheet(r)).collect(),
            sealed_rounds: (self.plan.publish + 1..=self.plan.rounds)
                .map(|r| t.round(r))
                .collect(),
        }
        .to_string();
        self.page(
            &format!("{} — {}", self.event(), t.get("announcement")),
            &body,
        )
    }

    /// Every round's sheet, one per printed page.
    pub(crate) fn all_sheets(&self) -> String {
        let sheets: String = (1..=self.plan.rounds).map(|r| self.sheet(r)).collect();
        self.page(&self.event(), &sheets)
    }

    /// Round `round`'s sheet alone, for the club's website.
    pub(crate) fn round_page(&self, round: usize) -> String {
        self.page(&self.texts().round(round), &self.sheet(round))
    }
}

/// A round's sheet: the event and round, the position's diagram and
/// facts, the castling rules for each colour and side, and where the
/// position came from (the round's key when sealed, else how it was
/// drawn).
#[derive(Template)]
#[template(path = "kit/sheet.html")]
struct Sheet {
    t: Texts,
    round: usize,
    event: String,
    round_name: String,
    sp: u16,
    /// The diagram (SVG).
    diagram: String,
    placement: String,
    /// The X-FEN, cut after each rank ([`crate::html::fen_ranks`]).
    xfen: Vec<String>,
    /// The Shredder-FEN, cut after each rank.
    shredder: Vec<String>,
    /// What castling is, in general (HTML).
    general: String,
    /// White's rules, then Black's, a-side first.
    colors: [[Rule; 2]; 2],
    key: Option<Key>,
    method: String,
    made_with: String,
}

/// A castling rule of one colour and side: its title and sentences (HTML).
struct Rule {
    color: char,
    side: char,
    title: String,
    sentences: String,
}

/// The announcement's body.
#[derive(Template)]
#[template(path = "kit/announcement.html")]
struct Announcement<'a> {
    t: Texts,
    event: String,
    /// The event's details given, by text key.
    details: Vec<(&'static str, &'a str)>,
    schedule: Option<&'a [String]>,
    method: String,
    candidates: String,
    rounds: String,
    sealed: Option<String>,
    /// The published rounds' sheets (HTML).
    sheets: Vec<String>,
    /// The sealed rounds' names.
    sealed_rounds: Vec<String>,
}

/// A draw's filters in words of `lang`, file names passed through
/// `quote`: the excluded positions (with the preset and earlier draws
/// behind them), the feature limits and the balance filter with what it
/// means and the table's file and SHA-256.
pub(crate) fn filter_words_with(
    f: &DrawFilter,
    balance: Option<&BalanceRecord>,
    excluded: &Excluded,
    lang: Lang,
    quote: impl Fn(&str) -> String,
) -> String {
    let t = Texts(lang);
    let mut parts = Vec::new();
    if !f.exclude.is_empty() {
        let list: Vec<StartPosition> = f.exclude.iter().copied().collect();
        let mut why = Vec::new();
        if excluded.preset.is_some() {
            why.push(t.get("f_preset").to_owned());
        }
        for drawn in &excluded.drawn {
            why.push(
                t.count("f_drawn", drawn.sps.len())
                    .replace("{file}", &quote(&drawn.file))
                    .replace("{sha}", &drawn.sha256),
            );
        }
        let why = if why.is_empty() {
            String::new()
        } else {
            format!(" ({})", why.join(", "))
        };
        parts.push(
            t.get("f_exclude")
                .replace("{list}", &format!("SP {}{why}", format_position_set(&list))),
        );
    }
    for (limit, key) in [
        (f.max_undefended, "f_undefended"),
        (f.max_king_only, "f_king_only"),
        (f.max_weak, "f_weak"),
    ] {
        if let Some(n) = limit {
            parts.push(t.count(key, n));
        }
    }
    if f.no_first_move_attack {
        parts.push(t.get("f_no_attack").to_owned());
    }
    if f.no_first_move_castling {
        parts.push(t.get("f_no_castling").to_owned());
    }
    if let Some(balance) = balance {
        parts.push(balance_words(balance, t, &quote));
    }
    if parts.is_empty() {
        t.get("filters_none").to_owned()
    } else {
        parts.join("; ")
    }
}

/// What a balance filter keeps, in words: the verdict and what it means,
/// or the N fairest or those within a distance of the reference, named
/// with its value; then the table's file and SHA-256.
fn balance_words(balance: &BalanceRecord, t: Texts, quote: impl Fn(&str) -> String) -> String {
    let reference = || {
        let name = balance
            .reference
            .as_deref()
            .unwrap_or(c960_verdict::Reference::DEFAULT.name());
        t.get(&format!("ref_{name}")).replace(
            "{cp}",
            &format!("{:+.1}", balance.reference_cp.unwrap_or_default()),
        )
    };
    let text = match (&balance.verdict, balance.fairest, balance.within) {
        (Some(verdict), _, _) => t
            .count("f_only", balance.positions)
            .replace(
                "{verdict}",
                t.get(&format!("v_{}", verdict.replace('-', "_"))),
            )
            .replace(
                "{meaning}",
                t.get(&format!("m_{}", verdict.replace('-', "_"))),
            ),
        (None, Some(n), _) => t.count("f_fairest", n).replace("{reference}", &reference()),
        (None, None, Some(cp)) => t
            .count("f_within", balance.positions)
            .replace("{cp}", &cp.to_string())
            .replace("{reference}", &reference()),
        (None, None, None) => String::new(),
    };
    let text = match balance.not_drawish {
        Some(p) => format!(
            "{text}, {}",
            t.get("f_not_drawish").replace("{p}", &p.to_string())
        ),
        None => text,
    };
    text.replace("{file}", &quote(&balance.file))
        .replace("{sha}", &balance.sha256)
}

/// Screen and print styles: each round sheet is one printed page on A4 and
/// on Letter (the content fits the smaller of both, 186 × 255 mm, in every
/// language: the printed diagram is 88 mm wide, which leaves room for the
/// longest castling rules, German and Turkish on Letter included).
const CSS: &str = include_str!("../../assets/kit.css");
