//! The flags of the organizer's commands: `c960 draw`, `tournament` and
//! `dice`.

use c960_balance::verdict::Verdict;
use c960_core::Lang;
use c960_report::kit::Paper;
use c960_verdict::Reference;
use clap::{Args, ValueEnum};
use std::path::PathBuf;

#[allow(clippy::wildcard_imports)]
use super::*;

/// `--verdict`'s parser: the verdicts the draw can filter by, as
/// c960-balance's type.
fn verdict_parser() -> impl clap::builder::TypedValueParser<Value = Verdict> {
    super::named_values(&[
        (
            "balanced",
            "White's edge within the table's band (±10 cp by default) around the average of \
             all positions, at the table's false discovery rate",
            Verdict::Balanced,
        ),
        (
            "more-for-white",
            "More for White than the band",
            Verdict::MoreForWhite,
        ),
        (
            "less-for-white",
            "Less for White than the band",
            Verdict::LessForWhite,
        ),
        (
            "unresolved",
            "Not decided at the stated false discovery rate",
            Verdict::Unresolved,
        ),
    ])
}

#[derive(Debug, Args)]
#[command(
    group = clap::ArgGroup::new("method").required(true).args(["seed", "phrase", "verify"]),
    after_help = "Algorithms (see docs/organizer.md to verify a draw by hand):\n  \
                  --seed:   ChaCha20 keystream keyed with the seed (crate rand_chacha)\n  \
                  --phrase: SHA-256 chain started from the phrase; without filters,\n            \
                  round 1 is int(sha256(phrase)[:8 bytes], big-endian) mod 960\n\n\
                  --verify checks a kit's draw.json (from c960 tournament): its published\n\
                  rounds, and with --key the sealed rounds up to that key's round; with\n\
                  --balance, that the table is the one the record names (SHA-256) and that\n\
                  the candidates are exactly what its filters keep of that table.\n\n\
                  Balance filters read balance.csv: its published estimate is a position's\n\
                  White edge in centipawns (the consensus of the table's engines), with its\n\
                  95 % interval.\n\n\
                  Examples:\n  \
                  c960 draw --seed 42\n  \
                  c960 draw --phrase \"Club Open 2026 round 1\"\n  \
                  c960 draw --seed 7 --rounds 9 --exclude 518 --max-undefended 1 --no-first-move-attack\n  \
                  c960 draw --phrase \"Open 2026\" --rounds 9 --exclude-preset freestyle --exclude-drawn open-2025/draw.json\n  \
                  c960 draw --seed 7 --fairest 40 --reference equal --balance data/research-v3/balance.csv\n  \
                  c960 draw --verify kit/draw.json --balance data/research-v3/balance.csv\n  \
                  c960 draw --verify kit/draw.json --key 3f1c...   # a key published at round 3"
)]
pub(crate) struct DrawArgs {
    /// Where the draw's randomness comes from.
    #[command(flatten)]
    pub(crate) source: DrawSourceArgs,
    /// Number of distinct positions to draw, one per round.
    #[arg(
        long,
        value_name = "K",
        default_value_t = 1,
        allow_negative_numbers = true
    )]
    pub(crate) rounds: usize,
    /// Conditions on the drawn positions.
    #[command(flatten)]
    pub(crate) filters: DrawFilterArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    pub(crate) format: ReportFormat,
    /// Check a tournament kit's draw record (its draw.json) instead of
    /// drawing: the published rounds must follow from its method and
    /// candidates, and with --key the sealed rounds open.
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with_all = [
            "rounds", "exclude", "exclude_preset", "exclude_drawn", "max_undefended",
            "max_king_only", "max_weak", "no_first_move_attack", "no_first_move_castling",
            "verdict", "fairest", "within", "reference", "not_drawish",
        ]
    )]
    pub(crate) verify: Option<PathBuf>,
    /// Language of the text output (the kit's languages).
    #[arg(long, value_parser = lang_parser(), default_value = "en")]
    pub(crate) lang: Lang,
    /// With --verify: a key the organizer published for a sealed round
    /// (64 hexadecimal digits), or the secret after the event; opens every
    /// sealed round up to that key's round.
    #[arg(long, value_name = "KEY", requires = "verify")]
    pub(crate) key: Option<String>,
}

/// Where a draw's randomness comes from: shared by `draw` and `tournament`.
#[derive(Debug, Args)]
pub(crate) struct DrawSourceArgs {
    /// Seed of the random draw (any unsigned 64-bit number).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub(crate) seed: Option<u64>,
    /// Publishable phrase the draw is derived from with SHA-256.
    #[arg(long, value_name = "TEXT")]
    pub(crate) phrase: Option<String>,
}

/// Conditions a drawn position must meet: shared by `draw` and
/// `tournament`.
#[derive(Debug, Args)]
pub(crate) struct DrawFilterArgs {
    /// Never draw these positions: SP numbers and ranges (5-9),
    /// comma-separated or repeated.
    #[arg(long, value_name = "SP,...", value_delimiter = ',')]
    pub(crate) exclude: Vec<String>,
    /// Never draw the positions of a named list: `freestyle` is SP 518
    /// (the classical setup) and SP 534, which Freestyle (Chess960) events
    /// declare excluded in advance.
    #[arg(long, value_name = "PRESET")]
    pub(crate) exclude_preset: Option<ExcludePreset>,
    /// Never draw a position an earlier kit drew: its draw.json (repeat
    /// for more kits). All its rounds count; its sealed rounds are opened
    /// with the SECRET.txt beside that draw.json, and a kit with sealed
    /// rounds and no SECRET.txt beside it is refused (its sealed positions
    /// cannot be known without the secret).
    #[arg(long, value_name = "DRAW.JSON")]
    pub(crate) exclude_drawn: Vec<PathBuf>,
    /// At most this many undefended pawns per side.
    #[arg(long, value_name = "N")]
    pub(crate) max_undefended: Option<usize>,
    /// At most this many pawns defended only by the king, per side.
    #[arg(long, value_name = "N")]
    pub(crate) max_king_only: Option<usize>,
    /// At most this many weak (undefended or king-only) pawns per side.
    #[arg(long, value_name = "N")]
    pub(crate) max_weak: Option<usize>,
    /// Only positions where no first move of White attacks an undefended pawn.
    #[arg(long)]
    pub(crate) no_first_move_attack: bool,
    /// Only positions where White cannot castle on move 1.
    #[arg(long)]
    pub(crate) no_first_move_castling: bool,
    /// Only positions with this verdict in the balance table given with
    /// --balance (made by `c960 balance`). `balanced` means: White's edge
    /// is within the table's band (±10 cp by default) around the average
    /// of all positions, with the false discovery rate controlled.
    #[arg(
        long,
        value_name = "VERDICT",
        value_parser = verdict_parser(),
        requires = "balance",
        conflicts_with_all = ["fairest", "within"]
    )]
    pub(crate) verdict: Option<Verdict>,
    /// Only the N positions of the --balance table nearest --reference,
    /// interval included: each position's distance is that of the farther
    /// end of its 95 % interval (`balance_low..balance_high`) from the
    /// reference (ties: lower SP first). The other filters then apply to
    /// these N.
    #[arg(
        long,
        value_name = "N",
        requires = "balance",
        conflicts_with = "within"
    )]
    pub(crate) fairest: Option<usize>,
    /// Only positions of the --balance table whose whole 95 % interval
    /// (`balance_low..balance_high`) lies within ±CP centipawns of
    /// --reference.
    #[arg(long, value_name = "CP", requires = "balance")]
    pub(crate) within: Option<f64>,
    /// What --fairest and --within measure from, in the table's published
    /// estimates (White's edge in centipawns, the consensus of its
    /// engines). Default: equal, as fair.html and `c960 book balanced`
    /// rank.
    #[arg(long, value_name = "REF", value_parser = reference_parser())]
    pub(crate) reference: Option<Reference>,
    /// Leave out the PERCENT % of the --balance table's positions with the
    /// highest draw chance (its `draw_chance` column, the raters' WDL
    /// consensus; ties: lower SP first) before --verdict, --fairest or
    /// --within selects: `--fairest 40 --not-drawish 25` draws from the 40
    /// fairest of the 75 % least drawish. The kit's record and VERIFY.md
    /// name the rule.
    #[arg(long, value_name = "PERCENT", requires = "balance")]
    pub(crate) not_drawish: Option<f64>,
    /// The balance table (`balance.csv`, or the directory holding it) that
    /// --verdict, --fairest and --within read; with --verify, the table to
    /// check a record's balance filter against.
    #[arg(long, value_name = "FILE", value_parser = balance_table)]
    pub(crate) balance: Option<PathBuf>,
}

/// `--reference`'s parser: what a balance ranking measures from, as
/// c960-verdict's type.
pub(crate) fn reference_parser() -> impl clap::builder::TypedValueParser<Value = Reference> {
    super::named_values(&[
        (
            "equal",
            "Equal chances: a White edge of 0 cp (the default, as fair.html ranks)",
            Reference::Equal,
        ),
        (
            "typical",
            "The typical position: the mean estimate of the table's positions (what its \
             verdicts measure from)",
            Reference::Typical,
        ),
        (
            "classical",
            "The classical setup: SP 518's estimate in the table",
            Reference::Classical,
        ),
    ])
}

/// Named lists of positions to exclude.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ExcludePreset {
    /// What Freestyle (Chess960) events declare excluded in advance: SP 518
    /// (the classical setup) and SP 534.
    Freestyle,
}

impl ExcludePreset {
    /// The library's preset.
    pub(crate) fn preset(self) -> c960_ops::draw::ExcludePreset {
        match self {
            ExcludePreset::Freestyle => c960_ops::draw::ExcludePreset::Freestyle,
        }
    }
}

/// `--lang`'s parser: the languages of printed material, as c960-core's
/// type.
pub(crate) fn lang_parser() -> impl clap::builder::TypedValueParser<Value = Lang> {
    super::named_values(&[
        ("en", "English", Lang::En),
        ("de", "German (c-Rochade, g-Rochade)", Lang::De),
        ("nl", "Dutch", Lang::Nl),
        ("tr", "Turkish", Lang::Tr),
    ])
}

/// A `--balance` table that can be read: the file, or `balance.csv` in
/// the directory given. One that cannot is bad input, refused before
/// anything is drawn or written — checked without opening it, since a
/// FIFO would block the open until some writer came.
fn balance_table(text: &str) -> Result<PathBuf, String> {
    let path = PathBuf::from(text);
    c960_verdict::BalanceTable::file_of(&path).map_err(|e| {
        match e.reason.strip_prefix("cannot read it: ") {
            Some(io) => format!("cannot read {}: {io}", e.file),
            None => e.to_string(),
        }
    })?;
    Ok(path)
}

/// `--paper`'s parser: the sizes the kit is laid out for, as the kit's
/// own type.
fn paper_parser() -> impl clap::builder::TypedValueParser<Value = Paper> {
    super::named_values(&[
        ("a4", "ISO A4, 210 × 297 mm", Paper::A4),
        ("letter", "US Letter, 8.5 × 11 in", Paper::Letter),
    ])
}

#[derive(Debug, Args)]
#[command(
    group = clap::ArgGroup::new("method").required(true).args(["seed", "phrase"]),
    after_help = "Writes into --out: announcement.html (the event, how the positions were \
                  drawn, and the published rounds), round-N.html (one printable sheet per \
                  round: large diagram, number, FENs, castling rules for that position in \
                  words), kit.html (every round sheet, one per printed page), draw.json (the \
                  public draw record) and VERIFY.md (how anyone recomputes the draw); with \
                  sealed rounds (--publish-rounds below --rounds) also SECRET.txt (the \
                  secret and each sealed round's key: keep it private), and with --pdf \
                  kit.pdf, printed by headless Chromium. The folder belongs to the kit: it \
                  is replaced whole, and a folder holding other files is refused.\n\n\
                  Examples:\n  \
                  c960 tournament --phrase \"Club Open 2026\" --rounds 5 --out kit\n  \
                  c960 tournament --seed 7 --rounds 9 --max-weak 1 --lang de --publish-rounds 1 --out kit --pdf\n  \
                  c960 tournament --phrase \"Open 2026\" --date \"14 March 2026\" --venue \"Town hall\" \\\n      \
                  --time-control \"90 min + 30 s\" --schedule \"Round 1: 10:00\" --schedule \"Round 2: 15:00\" --out kit"
)]
pub(crate) struct TournamentArgs {
    /// Where the draw's randomness comes from.
    #[command(flatten)]
    pub(crate) source: DrawSourceArgs,
    /// Number of rounds, one drawn position each.
    #[arg(
        long,
        value_name = "K",
        default_value_t = 5,
        allow_negative_numbers = true
    )]
    pub(crate) rounds: usize,
    /// Conditions on the drawn positions.
    #[command(flatten)]
    pub(crate) filters: DrawFilterArgs,
    /// Rounds shown in the announcement; default all. The others are
    /// sealed: drawn now from a secret whose fingerprint the announcement
    /// publishes, and opened round by round with their keys (SECRET.txt).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub(crate) publish_rounds: Option<usize>,
    /// The secret of the sealed rounds (64 hexadecimal digits), to make a
    /// kit again with the same rounds (it stands in SECRET.txt); default a
    /// new random secret.
    #[arg(long, value_name = "HEX")]
    pub(crate) secret: Option<String>,
    /// The event's name, at the top of every page.
    #[arg(long, value_name = "TEXT")]
    pub(crate) title: Option<String>,
    /// The event's date or dates, for the announcement (e.g. "14–15 March 2026").
    #[arg(long, value_name = "TEXT")]
    pub(crate) date: Option<String>,
    /// Where the event is played, for the announcement.
    #[arg(long, value_name = "TEXT")]
    pub(crate) venue: Option<String>,
    /// The time control, for the announcement (e.g. "90 min + 30 s per move").
    #[arg(long, value_name = "TEXT")]
    pub(crate) time_control: Option<String>,
    /// One line of the rounds schedule for the announcement (e.g.
    /// "Round 1: Fri 19:00"); repeat for each line.
    #[arg(long, value_name = "TEXT")]
    pub(crate) schedule: Vec<String>,
    /// Language of the pages.
    #[arg(long, value_parser = lang_parser(), default_value = "en")]
    pub(crate) lang: Lang,
    /// Paper the pages are laid out for.
    #[arg(long, value_parser = paper_parser(), default_value = "a4")]
    pub(crate) paper: Paper,
    /// Also print kit.pdf with headless Chromium (`chromium`, or the
    /// program named by `C960_CHROMIUM`).
    #[arg(long)]
    pub(crate) pdf: bool,
    /// The output directory.
    #[arg(long, value_name = "DIR")]
    pub(crate) out: PathBuf,
}

#[derive(Debug, Args)]
#[command(after_help = "The procedure (one six-sided die, in this order):\n  \
                        1. dark-squared bishop: 1-4 = a1, c1, e1, g1 (5-6: roll again)\n  \
                        2. light-squared bishop: 1-4 = b1, d1, f1, h1 (5-6: roll again)\n  \
                        3. queen: k-th of the 6 free squares, from the a-file\n  \
                        4. first knight: k-th of the 5 free squares (6: roll again)\n  \
                        5. second knight: k-th of the 4 free squares (5-6: roll again)\n  \
                        6. rook, king, rook on the 3 squares left\n\n\
                        Examples:\n  \
                        c960 dice 2 3 3 2 3        # the classical setup, SP 518\n  \
                        c960 dice 5 2 6 3 3 2 3    # two rerolls reported")]
pub(crate) struct DiceArgs {
    /// The values rolled, in order, rerolls included.
    #[arg(value_name = "ROLL", required = true, allow_negative_numbers = true)]
    pub(crate) rolls: Vec<i64>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    pub(crate) format: ReportFormat,
}
