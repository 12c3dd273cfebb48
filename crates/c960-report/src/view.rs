//! The view models the sheet and the site's pages share: plain data,
//! filled from the verdicts and the runs' tables and rendered as they are —
//! a view computes no number, it only writes one out.

use c960_core::Lang;

use crate::lang::text;

/// An interval as a sheet shows it: named, or why there is none. A zero
/// width is never shown as an interval.
#[derive(Clone, Debug, PartialEq)]
pub enum IntervalView {
    /// An interval with its name, e.g. `95% trinomial interval`.
    Named {
        /// What kind of interval it is.
        name: String,
        /// Lower end.
        low: f64,
        /// Upper end.
        high: f64,
    },
    /// A single search: its noise is not measured.
    SingleSearch,
    /// Repeated searches that all gave the same score: no interval.
    Identical(u32),
}

impl IntervalView {
    /// The interval in words, its ends written by `number`.
    pub(crate) fn words(&self, lang: Lang, number: impl Fn(f64) -> String) -> String {
        match self {
            IntervalView::Named { name, low, high } if high - low > 1e-9 => text(lang, "interval")
                .replace("{name}", name)
                .replace("{low}", &number(*low))
                .replace("{high}", &number(*high)),
            IntervalView::Named { .. } => text(lang, "no_width").to_owned(),
            IntervalView::SingleSearch => text(lang, "single_search").to_owned(),
            IntervalView::Identical(n) => text(lang, "identical").replace("{n}", &n.to_string()),
        }
    }
}

/// An engine's view of a position.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineView {
    /// Who says so, e.g. `Stockfish 15.1 at 1,000,000 nodes`.
    pub source: String,
    /// White's advantage in centipawns.
    pub cp: f64,
    /// Its interval, or why there is none.
    pub interval: IntervalView,
}

/// The consensus of several raters (engines or engine settings) about a
/// position: one estimate on the reference rater's centipawn scale, with
/// its interval.
#[derive(Clone, Debug, PartialEq)]
pub struct ConsensusView {
    /// Raters that scored the position.
    pub raters: usize,
    /// The reference rater whose centipawn scale the estimate is on, e.g.
    /// `Stockfish 19 WASM at nodes 4000000`.
    pub reference: String,
    /// White's advantage in centipawns on that scale.
    pub cp: f64,
    /// Its interval, named by its kind.
    pub interval: IntervalView,
}

/// How the games from a position went.
#[derive(Clone, Debug, PartialEq)]
pub struct GamesView {
    /// Who played, e.g. `self-play, Stockfish 15.1` or `imported games`.
    pub source: String,
    /// Games.
    pub games: u64,
    /// White wins.
    pub white_wins: u64,
    /// Draws.
    pub draws: u64,
    /// Black wins.
    pub black_wins: u64,
    /// White's score, (W + D/2) / games.
    pub score: f64,
    /// Its interval, named by its kind.
    pub interval: IntervalView,
}

/// A verdict with its q-value.
#[derive(Clone, Debug, PartialEq)]
pub struct VerdictView {
    /// `balanced`, `more-for-white`, `less-for-white` or `unresolved`.
    pub verdict: String,
    /// The Benjamini–Hochberg q-value.
    pub q_value: f64,
    /// The false discovery rate the verdicts are controlled at.
    pub level: f64,
}

/// A position's draw chance and White's expected score (shares 0..1),
/// with their 95 % intervals and the position's character in words.
#[derive(Clone, Debug, PartialEq)]
pub struct OutcomeView {
    /// Raters with a WDL model.
    pub raters: usize,
    /// The draw chance.
    pub draw: f64,
    /// Its interval.
    pub draw_low: f64,
    /// Its high end.
    pub draw_high: f64,
    /// White's expected score.
    pub score: f64,
    /// Its interval.
    pub score_low: f64,
    /// Its high end.
    pub score_high: f64,
    /// `drawish`, `sharp`, `one-sided` or `typical`
    /// (`c960_verdict::Character`).
    pub character: &'static str,
}

impl OutcomeView {
    /// The view of `row`'s draw chance and expected score, with its
    /// `character`; none without a draw chance.
    #[must_use]
    pub fn of(row: &c960_verdict::BalanceRow, character: c960_verdict::Character) -> Option<Self> {
        let o = row.outcome?;
        Some(OutcomeView {
            raters: o.raters as usize,
            draw: o.draw,
            draw_low: o.draw_interval.low,
            draw_high: o.draw_interval.high,
            score: o.expected,
            score_low: o.expected_interval.low,
            score_high: o.expected_interval.high,
            character: character.name(),
        })
    }
}

/// How hard a position's first two moves are, in one engine's search.
#[derive(Clone, Debug, PartialEq)]
pub struct DifficultyView {
    /// The engine and its settings.
    pub source: String,
    /// The measures.
    pub moves: c960_verdict::FirstMoves,
}

/// What is measured about a position (each part optional).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Measured {
    /// The consensus of the raters, where there are several: quoted
    /// instead of any one engine's view.
    pub consensus: Option<ConsensusView>,
    /// One engine's view, quoted where there is no consensus.
    pub engine: Option<EngineView>,
    /// The games.
    pub games: Option<GamesView>,
    /// The verdict.
    pub verdict: Option<VerdictView>,
    /// The draw chance and expected score.
    pub outcome: Option<OutcomeView>,
    /// How hard the first moves are.
    pub difficulty: Option<DifficultyView>,
}

/// The name of a game run's interval for White's score, from its table's
/// `interval` column (`trinomial`, `pairs` or `anytime`).
#[must_use]
pub fn interval_name(kind: &str) -> &'static str {
    match kind {
        "pairs" => "95% interval over colour-reversed pairs",
        "anytime" => "95% anytime-valid interval",
        _ => "95% trinomial interval",
    }
}

/// A q-value to three decimals; one that would read `0.000` is
/// `< 0.001` (a q-value is never zero).
#[must_use]
pub fn q_value_text(q: f64) -> String {
    if q < 0.0005 {
        "< 0.001".to_owned()
    } else {
        format!("{q:.3}")
    }
}
