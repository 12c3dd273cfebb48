//! The flags of the commands that read and show data: `c960 positions`,
//! `show`, `balance`, `report`, `openings`, `import` and `uci`.

use c960_balance::consensus::Weights;
use c960_core::Lang;
use c960_report::balance::VerdictsFrom;
use clap::{Args, ValueEnum};
use std::{num::NonZeroUsize, path::PathBuf};

#[allow(clippy::wildcard_imports)]
use super::*;

#[derive(Debug, Args)]
#[command(
    after_help = "Reads game tables (games.parquet of c960 selfplay or c960 import, or \
                        their directories) and sweep tables (sweep.parquet or sweep \
                        directories; runs of one engine and limit count as repeats) and writes \
                        balance.csv (per position: verdict, q-value, the published estimate \
                        with its 95 % interval, and each method's columns) and balance.json \
                        (settings, reliability of each method, verdict counts, engine \
                        agreement). Each position's verdict comes from the more reliable \
                        method (split-half reliability of games against sweeps) unless \
                        --verdicts-from says which.\n\n\
                        Examples:\n  \
                        c960 balance --games data/research-stockfish-15.1 --out balance\n  \
                        c960 balance --sweep runs/sf-a --sweep runs/sf-b --sweep runs/eth --out balance\n  \
                        c960 draw --seed 1 --verdict balanced --balance balance/balance.csv"
)]
pub(crate) struct BalanceArgs {
    /// A game table or run directory (repeatable).
    #[arg(long, value_name = "PATH")]
    pub(crate) games: Vec<PathBuf>,
    /// A sweep table or run directory (repeatable).
    #[arg(long, value_name = "PATH")]
    pub(crate) sweep: Vec<PathBuf>,
    /// Half width of the balanced band for game scores (White's score).
    #[arg(long, value_name = "SCORE", default_value_t = 0.02)]
    pub(crate) band: f64,
    /// Half width of the balanced band for engine scores (centipawns).
    #[arg(long, value_name = "CP", default_value_t = 10.0)]
    pub(crate) band_cp: f64,
    /// False discovery rate of the verdicts.
    #[arg(long, value_name = "RATE", default_value_t = 0.05)]
    pub(crate) fdr: f64,
    /// Seed of the random splits for split-half reliability.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub(crate) seed: u64,
    /// The number of games per position was fixed before play (no
    /// adaptive stopping): use fixed-n normal intervals and tests, which are
    /// narrower. The default, anytime-valid intervals, is valid either way.
    #[arg(long)]
    pub(crate) fixed_n: bool,
    /// Which method gives each position its verdict when there are both
    /// games and sweeps.
    #[arg(long, value_name = "METHOD", value_parser = verdicts_from_parser(), default_value = "more-reliable")]
    pub(crate) verdicts_from: VerdictsFrom,
    /// How the sweep consensus weights its raters: by what the data say
    /// about each (its noise and its own view), or equally.
    #[arg(long, value_name = "HOW", value_parser = weights_parser(), default_value = "data")]
    pub(crate) weights: Weights,
    /// The output directory.
    #[arg(long, value_name = "DIR", default_value = "balance")]
    pub(crate) out: PathBuf,
}

/// `c960 compare --help`'s text after the flags, naming the columns a
/// table is read by when none is named.
fn compare_help() -> String {
    format!(
        "Judges one per-position column against independent per-position tables: \
                        Pearson's and Spearman's correlations with percentile bootstrap \
                        intervals over positions, the share of each table's top and bottom \
                        deciles found in ours, and the offset and scale between them; with \
                        several tables also against their standardized mean (each table as \
                        z-scores, averaged per position), a steadier yardstick than any one. \
                        Correlations are over the positions both sides score.\n\n\
                        A table is a run or balance directory (its balance.csv, sweep.parquet \
                        or positions.parquet), a Parquet or CSV table with an sp column, read \
                        by its usual column ({}), or FILE:COLUMN for any other column \
                        (FILE:\"a:b\" names a column whose name holds a colon; a double \
                        quote inside is written twice).\n\n\
                        Examples:\n  \
                        c960 compare data/research-v3 --with eval960.csv --with analyzer.csv\n  \
                        c960 compare runs/sweep-x/sweep.parquet:score_cp --with theirs.csv:cp\n  \
                        c960 compare balance --with a.csv --with b.csv --format csv --out agreement.csv",
        c960_store::DEFAULT_COLUMNS.join(", ")
    )
}

#[derive(Debug, Args)]
#[command(after_help = compare_help())]
pub(crate) struct CompareArgs {
    /// The column to judge: a directory, a table, or `FILE:COLUMN`.
    #[arg(value_name = "TABLE")]
    pub(crate) ours: String,
    /// An independent per-position table (CSV `sp,value`, or `FILE:COLUMN`);
    /// repeatable.
    #[arg(long = "with", value_name = "TABLE", required = true)]
    pub(crate) references: Vec<String>,
    /// Bootstrap resamples of the positions.
    #[arg(long, value_name = "N", default_value_t = 2000)]
    pub(crate) resamples: usize,
    /// Seed of the bootstrap.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub(crate) seed: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = CompareFormat::Text)]
    pub(crate) format: CompareFormat,
    /// Write to this file instead of standard output (atomically).
    #[arg(long, value_name = "FILE")]
    pub(crate) out: Option<PathBuf>,
}

/// Formats of `c960 compare`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum CompareFormat {
    /// A readable table.
    Text,
    /// One row per reference.
    Csv,
    /// The whole result with its settings.
    Json,
}

/// `--weights`' parser: how the consensus weights its raters, as
/// c960-balance's type.
fn weights_parser() -> impl clap::builder::TypedValueParser<Value = Weights> {
    named_values(&[
        (
            "data",
            "By the inverse of each rater's error variance",
            Weights::Data,
        ),
        ("equal", "Equally", Weights::Equal),
    ])
}

/// `--verdicts-from`'s parser: which method gives the verdicts, as
/// c960-report's type.
fn verdicts_from_parser() -> impl clap::builder::TypedValueParser<Value = VerdictsFrom> {
    named_values(&[
        (
            "more-reliable",
            "The method with the higher split-half reliability",
            VerdictsFrom::MoreReliable,
        ),
        ("games", "The games", VerdictsFrom::Games),
        ("sweep", "The consensus sweep", VerdictsFrom::Sweep),
    ])
}

#[derive(Debug, Args)]
#[command(
    after_help = "Writes positions.parquet and positions.csv (features joined with every \
                        run), charts/*.svg and *.png, index.html (charts and a sortable table), \
                        fair.html and positions/<SP>.html into the output directory. The site \
                        opens from disk; it needs no network.\n\n\
                        Examples:\n  \
                        c960 report                                         # features only\n  \
                        c960 report --sweep data/sweep-stockfish-15.1-nodes1000000-mpv3\n  \
                        c960 report --sweep runs/sweep-a --selfplay runs/sp7 --out reports/round1"
)]
pub(crate) struct ReportArgs {
    /// A sweep run directory, or a sweep table (its sweep.parquet, also as
    /// published: NAME-sweep.parquet) (repeatable).
    #[arg(long = "sweep", value_name = "PATH")]
    pub(crate) sweeps: Vec<PathBuf>,
    /// A self-play run directory (repeatable).
    #[arg(long = "selfplay", value_name = "DIR")]
    pub(crate) selfplays: Vec<PathBuf>,
    /// A `c960 import` directory of human games (repeatable).
    #[arg(long = "games", value_name = "DIR")]
    pub(crate) imports: Vec<PathBuf>,
    /// An independent per-position analysis (CSV `sp,value`, or
    /// `FILE:COLUMN`) to measure the balance estimate against, as `c960
    /// compare` does; the site gains a section on it (repeatable).
    #[arg(long, value_name = "TABLE")]
    pub(crate) validation: Vec<PathBuf>,
    /// An agreement.json of an earlier report, shown again (refused unless
    /// its estimates are this report's): a published site regenerates
    /// without the tables. Each --validation table given with it must be
    /// one it names by SHA-256; that row is recomputed and must be the
    /// recorded one, the others are marked as recorded.
    #[arg(long, value_name = "FILE")]
    pub(crate) agreement: Option<PathBuf>,
    /// A sweep with replies (`c960 sweep --multipv 8 --reply`; its
    /// directory or table, e.g. data/research-v4/difficulty.parquet): each
    /// position's good moves and gaps for White's first move and Black's
    /// reply join balance.csv, the positions table, the pages and a chart
    /// of balance against difficulty. It is not a rater.
    #[arg(long, value_name = "SWEEP")]
    pub(crate) difficulty: Option<PathBuf>,
    /// Output directory.
    #[arg(long, value_name = "DIR", default_value = "reports/site")]
    pub(crate) out: PathBuf,
    /// No summary.
    #[arg(long)]
    pub(crate) quiet: bool,
}

#[derive(Debug, Args)]
#[command(
    after_help = "Prints every line up to --plies reached by at least --min-share of the \
                        position's games, indented by ply, with its share, games, White's score \
                        with a 95% interval and W/D/L; then the openings (deepest such lines) \
                        reached by at least 10%, 5% and 2% of the games, in SAN with move \
                        numbers. Castling is written O-O / O-O-O.\n\n\
                        Examples:\n  \
                        c960 openings 518 --games runs/research/selfplay\n  \
                        c960 openings NNRKBRQB --games runs/lichess/games.parquet --plies 8 --min-share 0.05\n  \
                        c960 openings --first-moves --games runs/research/selfplay --out first-moves.csv"
)]
pub(crate) struct OpeningsArgs {
    /// A Scharnagl number, a placement such as RNBQKBNR, or a FEN.
    #[arg(
        value_name = "SP|PLACEMENT|FEN",
        required_unless_present = "first_moves"
    )]
    pub(crate) position: Option<String>,
    /// Instead of one tree: the first-move table of all positions as CSV
    /// (every first move played, with games, share and White's score),
    /// read in bounded memory however large the table.
    #[arg(long, conflicts_with = "position")]
    pub(crate) first_moves: bool,
    /// Write to this file (atomically) instead of standard output: the
    /// tree, or with --first-moves the CSV.
    #[arg(long, value_name = "FILE")]
    pub(crate) out: Option<PathBuf>,
    /// A game table: games.parquet, or a self-play or import directory.
    #[arg(long, value_name = "PATH")]
    pub(crate) games: PathBuf,
    /// How deep the tree goes, in plies.
    #[arg(long, value_name = "N", default_value = "12", value_parser = at_least_one::<NonZeroUsize>)]
    pub(crate) plies: NonZeroUsize,
    /// Lines reached by a smaller share of the games are left out.
    #[arg(long, value_name = "F", default_value_t = 0.02)]
    pub(crate) min_share: f64,
}

#[derive(Debug, Args)]
#[command(
    after_help = "Keeps the games whose Variant tag is Chess960 (or Fischerandom) and whose \
                        FEN tag is a Chess960 start position (X-FEN or Shredder-FEN), checks every \
                        move, and writes games.parquet (the columns of self-play's game table, \
                        plus white_elo, black_elo, time_control, date) and import.json (what was \
                        read, kept and skipped, and why) into the output directory. Defects in the \
                        data (FEN \"?\", invalid castling fields, illegal moves, truncated games or \
                        files) are counted, never fatal.\n\n\
                        Examples:\n  \
                        c960 import lichess_db_chess960_rated_2023-11.pgn.zst --out runs/lichess-2023-11\n  \
                        c960 import a.pgn b.pgn --min-rating 2000 --time-control 180+2 --since 2024-01-01"
)]
pub(crate) struct ImportArgs {
    /// PGN files; `.zst` files are decompressed on the fly.
    #[arg(value_name = "PGN", required = true)]
    pub(crate) files: Vec<PathBuf>,
    /// Output directory.
    #[arg(long, value_name = "DIR", default_value = "runs/import")]
    pub(crate) out: PathBuf,
    /// Keep games whose players are both rated at least this.
    #[arg(long, value_name = "ELO")]
    pub(crate) min_rating: Option<u32>,
    /// Keep games whose players are both rated at most this.
    #[arg(long, value_name = "ELO")]
    pub(crate) max_rating: Option<u32>,
    /// Keep games with this `TimeControl` tag, e.g. 180+2 (repeatable).
    #[arg(long, value_name = "TC")]
    pub(crate) time_control: Vec<String>,
    /// Keep games played on or after this date (YYYY-MM-DD).
    #[arg(long, value_name = "DATE")]
    pub(crate) since: Option<String>,
    /// Keep games played on or before this date (YYYY-MM-DD).
    #[arg(long, value_name = "DATE")]
    pub(crate) until: Option<String>,
    /// No summary.
    #[arg(long)]
    pub(crate) quiet: bool,
}

#[derive(Debug, Args)]
#[command(
    after_help = "Speaks UCI with Chess960 castling (king takes rook) for any UCI tool: \
                        a GUI, cutechess, fastchess, or c960's own driver.\n\n\
                        Examples:\n  \
                        c960 uci\n  \
                        printf 'uci\\nposition startpos\\ngo depth 6\\n' | c960 uci"
)]
pub(crate) struct UciArgs {}

#[derive(Debug, Args)]
#[command(
    after_help = "Columns are described in docs/researcher.md (\"The position table\").\n\n\
                        Examples:\n  \
                        c960 positions                       # CSV on standard output\n  \
                        c960 positions --out positions.csv   # written atomically\n  \
                        c960 positions --format json --out positions.json\n  \
                        c960 positions --variant dfrc --format parquet --out dfrc.parquet\n  \
                        c960 positions --variant dfrc --positions sample:20000:1 --out sample.csv"
)]
pub(crate) struct PositionsArgs {
    /// Chess960 (960 rows) or Double Fischer Random (921,600 setups).
    #[arg(long, value_parser = variant_parser(), default_value = "chess960")]
    pub(crate) variant: Variant,
    /// With --variant dfrc: which setups (all, symmetric, ranges of
    /// indices, white:SP, black:SP, sample:N:SEED, comma-separated).
    #[arg(long, value_name = "SET", default_value = "all")]
    pub(crate) positions: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t = TableFormat::Csv)]
    pub(crate) format: TableFormat,
    /// Write to this file (atomically) instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub(crate) out: Option<PathBuf>,
}

#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
                        c960 show 518\n  \
                        c960 show NNRKBRQB\n  \
                        c960 show 'bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1'\n  \
                        c960 show 91 --format json\n  \
                        c960 show 518 --lang de --format html --out sheet.html\n  \
                        c960 show 91 --format svg --clean > board.svg   # for print")]
pub(crate) struct ShowArgs {
    /// A Scharnagl number (0..=959), a placement such as RNBQKBNR, or an
    /// X-FEN / Shredder-FEN of a start position; with --variant dfrc a setup
    /// index (0..=921599), a placement such as BBQNNRKR/RKRNNQBB or a FEN.
    #[arg(value_name = "SP|PLACEMENT|FEN")]
    pub(crate) position: String,
    /// Chess960 position or Double Fischer Random setup.
    #[arg(long, value_parser = variant_parser(), default_value = "chess960")]
    pub(crate) variant: Variant,
    /// Language of the text, of the html sheet and of the diagrams'
    /// legend.
    #[arg(long, value_parser = lang_parser(), default_value = "en")]
    pub(crate) lang: Lang,
    /// A clean diagram for print (svg, png, html): the pieces only, without
    /// the red rings of weak pawns, the green castling squares and their
    /// legend.
    #[arg(long)]
    pub(crate) clean: bool,
    /// Output format: text and json describe the position; svg and png are
    /// its diagram; html is a writer's sheet (facts, diagram, castling).
    #[arg(long, value_enum, default_value_t = ShowFormat::Text)]
    pub(crate) format: ShowFormat,
    /// Write to this file (atomically) instead of standard output; required
    /// for png.
    #[arg(long, value_name = "FILE")]
    pub(crate) out: Option<PathBuf>,
    /// Width of the png diagram in pixels.
    #[arg(long, value_name = "PX", default_value_t = 680)]
    pub(crate) size: u32,
    /// A balance table (`balance.csv` from `c960 balance` or `c960 report`,
    /// or its directory; e.g. data/research-v4/balance.csv): text, json and
    /// html then add the position's published balance with its interval
    /// and verdict, and its draw chance and White's expected score with
    /// theirs and its character (drawish, sharp, one-sided or typical).
    #[arg(long, value_name = "FILE")]
    pub(crate) balance: Option<PathBuf>,
}

/// What `c960 show` writes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ShowFormat {
    /// Readable text.
    Text,
    /// JSON.
    Json,
    /// The diagram as SVG.
    Svg,
    /// The diagram as PNG.
    Png,
    /// A standalone HTML sheet for writers.
    Html,
}
