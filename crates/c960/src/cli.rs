//! The command line as typed: one struct per subcommand, mirroring the flags.
//! Each subcommand module validates its struct before doing any work.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// A flag value that parses but makes no sense (an exit code 2 error).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub(crate) struct InputError(pub(crate) String);

#[derive(Debug, Parser)]
#[command(
    name = "c960",
    version,
    about = "Measure how balanced each Chess960 start position is",
    long_about = "c960 knows all 960 Chess960 (Fischer Random) start positions by their \
                  Scharnagl number (SP 0..=959, SP 518 = classical), computes their static \
                  features (weak pawns, pawns attackable on move 1, castling opportunities), \
                  scores them with an engine, plays self-play games from them, reports the \
                  results as tables, charts and a static site, and draws positions for \
                  tournaments reproducibly.",
    after_help = "Examples:\n  \
                  c960 run                               # the whole pipeline, ~10 minutes\n  \
                  c960 positions --out positions.csv\n  \
                  c960 show 518\n  \
                  c960 draw --phrase \"Club Open 2026 round 1\"\n  \
                  c960 dice 2 3 3 2 3"
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// The whole pipeline: positions, engine sweep, self-play and report.
    Run(RunArgs),
    /// Write all 960 positions with every feature, one row each.
    Positions(PositionsArgs),
    /// Show one position: board, numbers, FENs and every feature.
    Show(ShowArgs),
    /// Draw positions for a tournament, reproducibly, from a seed or a phrase.
    Draw(DrawArgs),
    /// A tournament kit: announcement, printable round sheets with castling
    /// rules in words, and a verifiable draw record.
    Tournament(TournamentArgs),
    /// Turn die rolls into a position with the dice procedure.
    Dice(DiceArgs),
    /// Score start positions with an engine (Stockfish when installed).
    Sweep(SweepArgs),
    /// Play engine games from start positions: White's score with intervals.
    Selfplay(Box<SelfplayArgs>),
    /// Run the built-in engine as a UCI engine on standard input and output.
    Uci(UciArgs),
    /// Build the report: table, charts and a static site for all positions.
    Report(ReportArgs),
    /// Verdicts per position with error control, and how reliable each
    /// method's ranking is, from games and sweeps.
    Balance(BalanceArgs),
    /// Import Chess960 games from PGN (or .pgn.zst) into a game table.
    Import(ImportArgs),
    /// One position's opening tree from self-play or imported games.
    Openings(OpeningsArgs),
    /// Merge shard directories (or runs of the same settings) into one run.
    Merge(MergeArgs),
    /// Write (and submit) a Slurm array job of shards and the merge after it.
    Slurm(SlurmArgs),
}

/// One shard of a run, `I/N` (see `c960 merge` and `c960 slurm`).
const SHARD_HELP: &str = "Play only shard I of N (0-based, e.g. 0/4 .. 3/4): a fixed part of \
                          the work units, (SP + game) mod N = I; merge the N shard \
                          directories with c960 merge";

/// Run profiles.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Profile {
    /// All 960 positions in about ten minutes on two cores: sweep at
    /// 100,000 nodes, 2 self-play games per position at 2,000 nodes a move.
    Quick,
    /// Research grade, hours, resumable: sweep at 1,000,000 nodes with
    /// `MultiPV` 3, 100 games per position at 5,000 nodes a move.
    Research,
}

#[derive(Debug, Args)]
#[command(
    after_help = "Settings come from the profile, then the --config file, then flags. \
                        The run directory (default runs/PROFILE) gets positions.csv, sweep/, \
                        selfplay/, report/ (index.html, positions.parquet, charts) and run.json \
                        (the resolved settings, engine and time per stage). Stop it at any \
                        time: the same command resumes, and finished stages are reused.\n\n\
                        A config file sets any of (all optional):\n  \
                        profile = \"research\"\n  \
                        out = \"runs/mine\"\n  \
                        engine = \"auto\"            # auto, builtin, stockfish or a path\n  \
                        options = [\"Hash=64\"]     # UCI options, NAME=VALUE\n  \
                        hash = 16\n  \
                        jobs = 2\n  \
                        positions = \"all\"        # or e.g. \"0-99,518\"\n  \
                        seed = 0\n  \
                        [sweep]\n  \
                        nodes = 1000000\n  \
                        multipv = 3\n  \
                        repeats = 1               # searches per position\n  \
                        [selfplay]\n  \
                        games = 100               # per position; 0 = no self-play\n  \
                        target_halfwidth = 0.0    # adaptive rounds until every interval is this narrow\n  \
                        budget = 0                # adaptive: total games (0 = no cap)\n  \
                        nodes = 5000\n  \
                        jitter = 0.1\n  \
                        max_plies = 400\n  \
                        resign_cp = 1000\n  \
                        resign_plies = 6\n  \
                        draw_cp = 10\n  \
                        draw_plies = 12\n  \
                        draw_after = 80\n\n\
                        Examples:\n  \
                        c960 run                                   # quick profile\n  \
                        c960 run --profile research                # hours; resumable\n  \
                        c960 run --config run.toml --games 0       # no self-play\n  \
                        c960 run --positions 0-99,518 --sweep-nodes 300000 --out runs/first100"
)]
pub(crate) struct RunArgs {
    /// Profile [default: quick].
    #[arg(long, value_enum)]
    pub(crate) profile: Option<Profile>,
    /// A TOML file with run settings (see below); flags override it.
    #[arg(long, value_name = "FILE")]
    pub(crate) config: Option<PathBuf>,
    /// Run directory [default: runs/PROFILE].
    #[arg(long, value_name = "DIR")]
    pub(crate) out: Option<PathBuf>,
    /// `auto` (Stockfish when installed, else the built-in engine),
    /// `builtin`, `stockfish`, or a UCI engine's path [default: auto].
    #[arg(long, value_name = "ENGINE")]
    pub(crate) engine: Option<String>,
    /// A UCI engine option, as NAME=VALUE (repeatable).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub(crate) options: Vec<String>,
    /// Engine hash table in MiB [default: 16].
    #[arg(long, value_name = "MB")]
    pub(crate) hash: Option<u32>,
    /// Engine processes at once [default: the number of cores].
    #[arg(long, value_name = "J")]
    pub(crate) jobs: Option<usize>,
    /// Which positions: `all`, or numbers and ranges such as 0-99,518.
    #[arg(long, value_name = "SET")]
    pub(crate) positions: Option<String>,
    /// Self-play run seed [default: 0].
    #[arg(long, value_name = "S")]
    pub(crate) seed: Option<u64>,
    /// Sweep: nodes per position.
    #[arg(long, value_name = "N")]
    pub(crate) sweep_nodes: Option<u64>,
    /// Sweep: best moves per position (`MultiPV`).
    #[arg(long, value_name = "K")]
    pub(crate) multipv: Option<u32>,
    /// Sweep: searches per position, node budgets perturbed per (position,
    /// repeat) by the seed.
    #[arg(long, value_name = "K")]
    pub(crate) repeats: Option<u32>,
    /// Self-play: games per position (0 = no self-play); with a target or
    /// budget, the games each position gets before the adaptive rounds.
    #[arg(long, value_name = "G")]
    pub(crate) games: Option<u32>,
    /// Self-play, adaptive: rounds for positions whose anytime-valid
    /// interval is wider than ±W and still open (0 = off).
    #[arg(long, value_name = "W")]
    pub(crate) target_halfwidth: Option<f64>,
    /// Self-play, adaptive: total games (0 = no cap).
    #[arg(long, value_name = "GAMES")]
    pub(crate) budget: Option<u64>,
    /// Self-play: nodes per move.
    #[arg(long, value_name = "N")]
    pub(crate) selfplay_nodes: Option<u64>,
    /// Self-play: relative jitter of the node budget per move.
    #[arg(long, value_name = "F")]
    pub(crate) jitter: Option<f64>,
    /// Print the resolved settings as JSON and stop.
    #[arg(long)]
    pub(crate) dry_run: bool,
    /// No progress display and no summary.
    #[arg(long)]
    pub(crate) quiet: bool,
    /// Drop journal lines that cannot be trusted instead of refusing to
    /// resume (listed on stderr; the work is redone).
    #[arg(long)]
    pub(crate) repair: bool,
    #[arg(long, value_name = "I/N", help = SHARD_HELP)]
    pub(crate) shard: Option<c960_core::Shard>,
}

/// Verdicts the draw can filter by.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum VerdictArg {
    /// White's edge within the band around the all-position mean.
    Balanced,
    /// More for White than the band.
    MoreForWhite,
    /// Less for White than the band.
    LessForWhite,
    /// Not decided at the stated false discovery rate.
    Unresolved,
}

impl VerdictArg {
    pub(crate) fn verdict(self) -> c960_balance::verdict::Verdict {
        use c960_balance::verdict::Verdict;
        match self {
            VerdictArg::Balanced => Verdict::Balanced,
            VerdictArg::MoreForWhite => Verdict::MoreForWhite,
            VerdictArg::LessForWhite => Verdict::LessForWhite,
            VerdictArg::Unresolved => Verdict::Unresolved,
        }
    }
}

#[derive(Debug, Args)]
#[command(
    after_help = "Reads game tables (games.parquet of c960 selfplay or c960 import, or \
                        their directories) and sweep tables (sweep.parquet or sweep \
                        directories; runs of one engine and limit count as repeats) and writes \
                        balance.csv (per position: verdict, q_value, balance_estimate, \
                        balance_low, balance_high, and each method's columns) and balance.json \
                        (settings, reliability of each method, verdict counts, engine \
                        agreement). The verdict comes from the games when there are any.\n\n\
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
    /// The output directory.
    #[arg(long, value_name = "DIR", default_value = "balance")]
    pub(crate) out: PathBuf,
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
    /// A sweep run directory (repeatable).
    #[arg(long = "sweep", value_name = "DIR")]
    pub(crate) sweeps: Vec<PathBuf>,
    /// A self-play run directory (repeatable).
    #[arg(long = "selfplay", value_name = "DIR")]
    pub(crate) selfplays: Vec<PathBuf>,
    /// A `c960 import` directory of human games (repeatable).
    #[arg(long = "games", value_name = "DIR")]
    pub(crate) imports: Vec<PathBuf>,
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
                        c960 openings 518 --games runs/quick/selfplay\n  \
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
    #[arg(long, value_name = "N", default_value_t = 12)]
    pub(crate) plies: usize,
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

/// Table formats.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum TableFormat {
    /// Comma-separated values with a header row.
    Csv,
    /// A JSON array with one object per position.
    Json,
    /// Apache Parquet (needs --out).
    Parquet,
}

/// Which family of start positions.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Variant {
    /// The 960 Chess960 positions (both sides alike).
    Chess960,
    /// Double Fischer Random: 921,600 setups, each side's rank drawn apart.
    Dfrc,
}

impl Variant {
    /// The same variant as c960-core names it.
    pub(crate) fn core(self) -> c960_core::Variant {
        match self {
            Variant::Chess960 => c960_core::Variant::Chess960,
            Variant::Dfrc => c960_core::Variant::Dfrc,
        }
    }
}

/// Formats for a report about a few positions.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ReportFormat {
    /// Readable text.
    Text,
    /// JSON.
    Json,
}

#[derive(Debug, Args)]
#[command(
    after_help = "Columns are described in the README (\"The position table\").\n\n\
                        Examples:\n  \
                        c960 positions                       # CSV on standard output\n  \
                        c960 positions --out positions.csv   # written atomically\n  \
                        c960 positions --format json --out positions.json\n  \
                        c960 positions --variant dfrc --format parquet --out dfrc.parquet\n  \
                        c960 positions --variant dfrc --positions sample:20000:1 --out sample.csv"
)]
pub(crate) struct PositionsArgs {
    /// Chess960 (960 rows) or Double Fischer Random (921,600 setups).
    #[arg(long, value_enum, default_value_t = Variant::Chess960)]
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
                        c960 show 91 --format json")]
pub(crate) struct ShowArgs {
    /// A Scharnagl number (0..=959), a placement such as RNBQKBNR, or an
    /// X-FEN / Shredder-FEN of a start position; with --variant dfrc a setup
    /// index (0..=921599), a placement such as BBQNNRKR/RKRNNQBB or a FEN.
    #[arg(value_name = "SP|PLACEMENT|FEN")]
    pub(crate) position: String,
    /// Chess960 position or Double Fischer Random setup.
    #[arg(long, value_enum, default_value_t = Variant::Chess960)]
    pub(crate) variant: Variant,
    /// Language of the castling rules in words (text format).
    #[arg(long, value_enum, default_value_t = LangArg::En)]
    pub(crate) lang: LangArg,
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

#[derive(Debug, Args)]
#[command(
    group = clap::ArgGroup::new("method").required(true).args(["seed", "phrase"]),
    after_help = "Algorithms (see the README to verify a draw by hand):\n  \
                  --seed:   ChaCha20 keystream keyed with the seed (crate rand_chacha)\n  \
                  --phrase: SHA-256 chain started from the phrase; without filters,\n            \
                  round 1 is int(sha256(phrase)[:8 bytes], big-endian) mod 960\n\n\
                  Examples:\n  \
                  c960 draw --seed 42\n  \
                  c960 draw --phrase \"Club Open 2026 round 1\"\n  \
                  c960 draw --seed 7 --rounds 9 --exclude 518 --max-undefended 1 --no-first-move-attack"
)]
pub(crate) struct DrawArgs {
    /// Seed of the random draw (any unsigned 64-bit number).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub(crate) seed: Option<u64>,
    /// Publishable phrase the draw is derived from with SHA-256.
    #[arg(long, value_name = "TEXT")]
    pub(crate) phrase: Option<String>,
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
}

/// Conditions a drawn position must meet: shared by `draw` and
/// `tournament`.
#[derive(Debug, Args)]
pub(crate) struct DrawFilterArgs {
    /// Never draw these positions (SP numbers, comma-separated or repeated).
    #[arg(long, value_name = "SP,...", value_delimiter = ',')]
    pub(crate) exclude: Vec<String>,
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
    /// --balance (made by `c960 balance`).
    #[arg(long, value_name = "VERDICT", requires = "balance")]
    pub(crate) verdict: Option<VerdictArg>,
    /// The balance table (`balance.csv`, or the directory holding it) that
    /// --verdict reads.
    #[arg(long, value_name = "FILE", requires = "verdict")]
    pub(crate) balance: Option<PathBuf>,
}

/// Languages of printed material.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum LangArg {
    /// English.
    En,
    /// German (c-Rochade, g-Rochade).
    De,
    /// Dutch.
    Nl,
    /// Turkish.
    Tr,
}

impl LangArg {
    pub(crate) fn lang(self) -> c960_core::Lang {
        match self {
            LangArg::En => c960_core::Lang::En,
            LangArg::De => c960_core::Lang::De,
            LangArg::Nl => c960_core::Lang::Nl,
            LangArg::Tr => c960_core::Lang::Tr,
        }
    }
}

/// Paper sizes the kit is laid out for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Paper {
    /// ISO A4, 210 × 297 mm.
    A4,
    /// US Letter, 8.5 × 11 in.
    Letter,
}

#[derive(Debug, Args)]
#[command(
    group = clap::ArgGroup::new("method").required(true).args(["seed", "phrase"]),
    after_help = "Writes into --out: announcement.html (the event, how the positions were \
                  drawn, and the published rounds), round-N.html (one printable sheet per \
                  round: large diagram, number, FENs, castling rules for that position in \
                  words), kit.html (every round sheet, one per printed page), draw.json (the \
                  draw record) and VERIFY.md (how anyone recomputes the draw). With --pdf, \
                  also kit.pdf, printed by headless Chromium.\n\n\
                  Examples:\n  \
                  c960 tournament --phrase \"Club Open 2026\" --rounds 5 --out kit\n  \
                  c960 tournament --seed 7 --rounds 9 --max-weak 1 --lang de --publish-rounds 1 --out kit --pdf"
)]
pub(crate) struct TournamentArgs {
    /// Seed of the random draw (any unsigned 64-bit number).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub(crate) seed: Option<u64>,
    /// Publishable phrase the draw is derived from with SHA-256.
    #[arg(long, value_name = "TEXT")]
    pub(crate) phrase: Option<String>,
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
    /// Rounds shown in the announcement (the rest are published at their
    /// round); default all.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub(crate) publish_rounds: Option<usize>,
    /// The event's name, at the top of every page.
    #[arg(long, value_name = "TEXT")]
    pub(crate) title: Option<String>,
    /// Language of the pages.
    #[arg(long, value_enum, default_value_t = LangArg::En)]
    pub(crate) lang: LangArg,
    /// Paper the pages are laid out for.
    #[arg(long, value_enum, default_value_t = Paper::A4)]
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

/// How to run the engine: shared by `sweep` and `selfplay`.
#[derive(Debug, Args)]
pub(crate) struct EngineArgs {
    /// `auto` (Stockfish when installed, else the built-in engine),
    /// `builtin`, `stockfish` (also found at /usr/games/stockfish),
    /// `ethereal` (also found at /usr/games/ethereal-chess), or the path or
    /// name of any UCI engine.
    #[arg(long, value_name = "ENGINE", default_value = "auto")]
    pub(crate) engine: String,
    /// Engine threads per process (more than 1 makes results vary).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub(crate) threads: u32,
    /// Engine hash table in MiB.
    #[arg(long, value_name = "MB", default_value_t = 16)]
    pub(crate) hash: u32,
    /// Any other UCI engine option, as NAME=VALUE (repeatable).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub(crate) options: Vec<String>,
    /// Engine processes (or games) at once [default: the number of cores].
    #[arg(long, value_name = "J")]
    pub(crate) jobs: Option<usize>,
    /// Extra attempts for work whose engine crashed, hung or cheated.
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub(crate) retries: u32,
    /// Seconds to wait for one search before the engine counts as hung
    /// [default: derived from the limit].
    #[arg(long, value_name = "SECS")]
    pub(crate) watchdog: Option<f64>,
    /// No progress bar and no summary.
    #[arg(long)]
    pub(crate) quiet: bool,
    /// Drop journal lines that cannot be trusted (damaged, edited, illegal
    /// or conflicting) instead of refusing to resume; they are listed on
    /// stderr and redone.
    #[arg(long)]
    pub(crate) repair: bool,
}

/// A search limit: one of depth, nodes or movetime.
#[derive(Debug, Args)]
#[group(id = "limit", multiple = false)]
pub(crate) struct LimitArgs {
    /// Search to this depth.
    #[arg(long, value_name = "N")]
    pub(crate) depth: Option<u32>,
    /// Search this many nodes (reproducible with one thread).
    #[arg(long, value_name = "N")]
    pub(crate) nodes: Option<u64>,
    /// Search this many milliseconds (not reproducible).
    #[arg(long, value_name = "MS")]
    pub(crate) movetime: Option<u64>,
}

#[derive(Debug, Args)]
#[command(
    after_help = "Default limit: --nodes 1000000. The run directory gets journal.jsonl \
                        (each finished position, synced at once), then sweep.parquet, \
                        sweep.csv and manifest.json. Run the same command again to resume \
                        after an interruption or a crash.\n\n\
                        With --repeats K, each position is searched K times, repeat r with a \
                        node budget of N times a factor drawn from [1 - J, 1 + J] (J = \
                        --repeat-jitter) by a generator seeded with (--seed, SP, r), from a \
                        cleared hash: each repeat replays exactly. repeats.parquet/.csv get \
                        one row per search; sweep.parquet/.csv one row per position with \
                        score_cp_mean/sd/se and white_expected_mean/sd/se over its repeats; the \
                        manifest the repeatability (split-half correlation over repeats and its \
                        Spearman-Brown projection to all K).\n\n\
                        Examples:\n  \
                        c960 sweep --nodes 1000000                       # all 960, all cores\n  \
                        c960 sweep --positions 0-99,518 --multipv 3 --out runs/first100\n  \
                        c960 sweep --engine /usr/games/stockfish --depth 20 --jobs 1 --quiet\n  \
                        c960 sweep --nodes 250000 --repeats 8 --seed 1 --out runs/sf-250k-r8\n  \
                        c960 sweep --variant dfrc --positions sample:20000:1 --nodes 250000 --repeats 2"
)]
pub(crate) struct SweepArgs {
    #[command(flatten)]
    pub(crate) engine: EngineArgs,
    #[command(flatten)]
    pub(crate) limit: LimitArgs,
    /// Principal variations per position: the top K first moves.
    #[arg(long, value_name = "K", default_value_t = 1)]
    pub(crate) multipv: u32,
    /// Which positions: `all`, or numbers and ranges such as 0-99,518;
    /// with --variant dfrc a set of setups (all, symmetric, ranges of
    /// indices, white:SP, black:SP, sample:N:SEED, comma-separated).
    #[arg(long, value_name = "SET", default_value = "all")]
    pub(crate) positions: String,
    /// Chess960 positions or Double Fischer Random setups (tables then name
    /// each setup by its DFRC index in a `setup` column).
    #[arg(long, value_enum, default_value_t = Variant::Chess960)]
    pub(crate) variant: Variant,
    /// Searches per position (needs a node limit); their node budgets
    /// differ, drawn from --seed per (position, repeat).
    #[arg(long, value_name = "K", default_value_t = 1)]
    pub(crate) repeats: u32,
    /// Seed of the repeats' node budgets.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub(crate) seed: u64,
    /// Repeats' node budgets are drawn from [N(1-F), N(1+F)].
    #[arg(long, value_name = "F", default_value_t = c960_sweep::repeats::DEFAULT_JITTER)]
    pub(crate) repeat_jitter: f64,
    /// Run directory [default: runs/sweep-ENGINE-LIMIT-mpvK[-rK]].
    #[arg(long, value_name = "DIR")]
    pub(crate) out: Option<PathBuf>,
    #[arg(long, value_name = "I/N", help = SHARD_HELP)]
    pub(crate) shard: Option<c960_core::Shard>,
}

#[derive(Debug, Args)]
#[command(
    after_help = "Default limit: --nodes 5000 per move, jittered per move by the game's \
                        seed within ±--jitter (default 10%), so games from one position differ \
                        yet replay exactly. The run directory gets journal.jsonl (each finished \
                        game, synced at once), then games.pgn, games.parquet, positions.parquet, \
                        positions.csv and manifest.json (and match.json with --engine-b). Each \
                        side has its own engine process and hash, as match runners play. Run the \
                        same command again to resume.\n\n\
                        Examples:\n  \
                        c960 selfplay --positions 0-9 --games-per-position 20\n  \
                        c960 selfplay --nodes 3000 --seed 7 --scores --out runs/sp7\n  \
                        c960 selfplay --engine builtin --engine-b stockfish --option-b UCI_LimitStrength=true --games-per-position 2\n  \
                        c960 selfplay --engine-b stockfish --nodes-b 2000 --sprt elo0=0,elo1=50,alpha=0.05,beta=0.05\n  \
                        c960 selfplay --engine ethereal --tc 40/60+0.6 --openings book.epd --log-engine logs\n  \
                        c960 selfplay --games-per-position 20 --target-halfwidth 0.05 --budget 200000"
)]
pub(crate) struct SelfplayArgs {
    #[command(flatten)]
    pub(crate) engine: EngineArgs,
    /// A second engine (same forms as --engine): each position is played in
    /// colour-reversed pairs.
    #[arg(long, value_name = "ENGINE")]
    pub(crate) engine_b: Option<String>,
    /// A UCI option for the second engine only, as NAME=VALUE (repeatable).
    #[arg(long = "option-b", value_name = "NAME=VALUE")]
    pub(crate) options_b: Vec<String>,
    /// The second engine's hash table in MiB [default: --hash].
    #[arg(long, value_name = "MB", requires = "engine_b")]
    pub(crate) hash_b: Option<u32>,
    /// The second engine's threads per process [default: --threads].
    #[arg(long, value_name = "N", requires = "engine_b")]
    pub(crate) threads_b: Option<u32>,
    #[command(flatten)]
    pub(crate) limit: LimitArgs,
    /// Play on the clock: MOVES/SECONDS+INC (a period of MOVES moves,
    /// repeated) or SECONDS+INC, as cutechess-cli and fastchess write it.
    /// A side whose clock runs out loses on time. Games do not replay.
    #[arg(long, value_name = "TC", conflicts_with_all = ["limit", "st"])]
    pub(crate) tc: Option<String>,
    /// Play with this many seconds per move, lost on time when exceeded.
    /// Games do not replay.
    #[arg(long, value_name = "SECONDS", conflicts_with = "limit")]
    pub(crate) st: Option<String>,
    /// Milliseconds a side may answer past its time before it loses on time.
    #[arg(long, value_name = "MS", default_value_t = 0)]
    pub(crate) time_margin: u64,
    /// The second engine's node limit per move [default: engine A's limit].
    #[arg(long, value_name = "N", requires = "engine_b", conflicts_with_all = ["depth_b", "tc_b", "st_b"])]
    pub(crate) nodes_b: Option<u64>,
    /// The second engine's depth limit per move.
    #[arg(long, value_name = "N", requires = "engine_b", conflicts_with_all = ["tc_b", "st_b"])]
    pub(crate) depth_b: Option<u32>,
    /// The second engine's clock (same forms as --tc).
    #[arg(
        long,
        value_name = "TC",
        requires = "engine_b",
        conflicts_with = "st_b"
    )]
    pub(crate) tc_b: Option<String>,
    /// The second engine's seconds per move.
    #[arg(long, value_name = "SECONDS", requires = "engine_b")]
    pub(crate) st_b: Option<String>,
    /// Play the openings of this file instead of the bare start positions:
    /// EPD (one Chess960 start position per line) or PGN (each game's
    /// moves from its [FEN] start position are played before the engines
    /// take over). Each opening gets --games-per-position games (colour-
    /// reversed pairs with --engine-b).
    #[arg(long, value_name = "FILE", conflicts_with = "positions")]
    pub(crate) openings: Option<PathBuf>,
    /// `sequential` (the file's order) or `random` (shuffled by --seed).
    #[arg(
        long,
        value_name = "ORDER",
        default_value = "sequential",
        requires = "openings"
    )]
    pub(crate) opening_order: String,
    /// Write each engine process's UCI traffic with timestamps to
    /// DIR/ENGINE-PID.log (UCI engines); a failed game's manifest entry
    /// names its logs.
    #[arg(long, value_name = "DIR")]
    pub(crate) log_engine: Option<PathBuf>,
    /// Stop the A-vs-B match once the generalized SPRT (pentanomial model,
    /// logistic Elo bounds) accepts H0 (Elo = E0) or H1 (Elo = E1).
    #[arg(
        long,
        value_name = "elo0=E0,elo1=E1,alpha=A,beta=B",
        requires = "engine_b"
    )]
    pub(crate) sprt: Option<String>,
    /// Games per position (even with --engine-b); with --target-halfwidth
    /// or --budget, the games every position gets before the adaptive
    /// rounds.
    #[arg(long, value_name = "G", default_value_t = 10)]
    pub(crate) games_per_position: u32,
    /// Adaptive: play rounds for the positions whose anytime-valid 95%
    /// interval of White's score is wider than ±W and still overlaps an
    /// edge of the balance band, until none is or the budget is spent.
    #[arg(long, value_name = "W")]
    pub(crate) target_halfwidth: Option<f64>,
    /// Adaptive: total games of the run, the first games per position
    /// included (raise it and run again to continue).
    #[arg(long, value_name = "GAMES")]
    pub(crate) budget: Option<u64>,
    /// Adaptive: games per open position per round.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub(crate) round_games: u32,
    /// Adaptive: half width of the balanced band of White's score around
    /// the all-position mean; a position whose interval is wholly inside
    /// or outside it needs no more games.
    #[arg(long, value_name = "B", default_value_t = c960_selfplay::adaptive::DEFAULT_BAND)]
    pub(crate) band: f64,
    /// Which positions: `all`, or numbers and ranges such as 0-99,518;
    /// with --variant dfrc a set of setups (all, symmetric, ranges of
    /// indices, white:SP, black:SP, sample:N:SEED, comma-separated).
    #[arg(long, value_name = "SET", default_value = "all")]
    pub(crate) positions: String,
    /// Chess960 positions or Double Fischer Random setups (tables then name
    /// each setup by its DFRC index in a `setup` column).
    #[arg(long, value_enum, default_value_t = Variant::Chess960)]
    pub(crate) variant: Variant,
    /// Run seed; every game's seed derives from it.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub(crate) seed: u64,
    /// Relative jitter of the node budget per move (0 = none).
    #[arg(long, value_name = "F", default_value_t = 0.1)]
    pub(crate) jitter: f64,
    /// A game reaching this many plies is drawn.
    #[arg(long, value_name = "N", default_value_t = 400)]
    pub(crate) max_plies: u32,
    /// Resign when both engines see at least this many centipawns ...
    #[arg(long, value_name = "CP", default_value_t = 1000)]
    pub(crate) resign_cp: i32,
    /// ... for this many consecutive plies (0 = never resign).
    #[arg(long, value_name = "K", default_value_t = 6)]
    pub(crate) resign_plies: u32,
    /// Draw when both engines see at most this many centipawns ...
    #[arg(long, value_name = "CP", default_value_t = 10)]
    pub(crate) draw_cp: i32,
    /// ... for this many consecutive plies (0 = never adjudicate draws) ...
    #[arg(long, value_name = "K", default_value_t = 12)]
    pub(crate) draw_plies: u32,
    /// ... after this ply.
    #[arg(long, value_name = "PLY", default_value_t = 80)]
    pub(crate) draw_after: u32,
    /// Keep each move's score (game table and PGN comments).
    #[arg(long)]
    pub(crate) scores: bool,
    /// One engine process plays both colours of a game (faster, but each
    /// side searches with the other's analysis in its hash); the default
    /// is one process and hash per side, as match runners play.
    #[arg(long, conflicts_with = "engine_b")]
    pub(crate) shared_process: bool,
    /// Run directory [default: runs/selfplay-ENGINE-LIMIT-gG-sS].
    #[arg(long, value_name = "DIR")]
    pub(crate) out: Option<PathBuf>,
    #[arg(long, value_name = "I/N", help = SHARD_HELP)]
    pub(crate) shard: Option<c960_core::Shard>,
    /// Adaptive self-play in shards: with --shard, play this shard's part
    /// of every round decided so far in DIR/rounds.jsonl (the run
    /// directory of `c960 slurm selfplay`, whose --next-round decides them).
    #[arg(long, value_name = "DIR", requires = "shard")]
    pub(crate) rounds_from: Option<PathBuf>,
}

#[derive(Debug, Args)]
#[command(
    after_help = "Each input is a shard directory of c960 sweep, selfplay or run \
                        --shard (or an unsharded run of the same settings). The journals are \
                        checked as a resume checks them; settings, c960 version and positions \
                        must agree; a unit two inputs both finished counts once. The output \
                        gets the journal, tables, PGN and manifest a single run writes \
                        (the manifest lists the shards).\n\n\
                        Examples:\n  \
                        c960 merge runs/sp/shards/0 runs/sp/shards/1 --out runs/sp\n  \
                        c960 merge runs/sp/shards/* --out runs/sp --allow-missing"
)]
pub(crate) struct MergeArgs {
    /// Run directories to merge (all sweeps, all self-play or all runs).
    #[arg(required = true, value_name = "DIR")]
    pub(crate) inputs: Vec<PathBuf>,
    /// The merged run directory.
    #[arg(long, value_name = "DIR")]
    pub(crate) out: PathBuf,
    /// Merge even when some work units are in no input; the manifest lists
    /// them.
    #[arg(long)]
    pub(crate) allow_missing: bool,
    /// No summary.
    #[arg(long)]
    pub(crate) quiet: bool,
}

#[derive(Debug, Args)]
#[command(
    after_help = "Writes DIR/slurm/shard.sbatch (an array job, one shard per task, \
                        each running the command with --shard $SLURM_ARRAY_TASK_ID/N and \
                        --jobs $SLURM_CPUS_PER_TASK into DIR/shards/I) and \
                        DIR/slurm/merge.sbatch (after every task ended: merges the shards \
                        into DIR, or resubmits unfinished tasks, which resume from their \
                        journals). --out DIR is required and must be on a file system every \
                        node sees.\n\n\
                        Examples:\n  \
                        c960 slurm selfplay --games-per-position 1000 --out /scratch/c960/sp --shards 96 --time 4:00:00 --submit\n  \
                        c960 slurm sweep --nodes 1000000 --out /scratch/c960/sweep --shards 8 --cpus-per-task 4\n  \
                        c960 slurm selfplay --target-halfwidth 0.05 --budget 200000 --out /scratch/c960/ad --shards 96 --submit\n\n\
                        Adaptive self-play (--target-halfwidth, --budget) runs round by round: \
                        each task plays its shard's part of the rounds in DIR/rounds.jsonl \
                        (--rounds-from DIR); the merge job (--next-round) merges the round, \
                        decides the next from all games so far and submits it."
)]
pub(crate) struct SlurmArgs {
    #[command(subcommand)]
    pub(crate) command: SlurmCommand,
}

/// The command each array task runs.
#[derive(Debug, Subcommand)]
pub(crate) enum SlurmCommand {
    /// Shards of `c960 sweep`.
    Sweep {
        #[command(flatten)]
        args: SweepArgs,
        #[command(flatten)]
        slurm: SlurmOptions,
    },
    /// Shards of `c960 selfplay`.
    Selfplay {
        #[command(flatten)]
        args: Box<SelfplayArgs>,
        #[command(flatten)]
        slurm: SlurmOptions,
    },
    /// Shards of `c960 run` (the merge builds the report).
    Run {
        #[command(flatten)]
        args: RunArgs,
        #[command(flatten)]
        slurm: SlurmOptions,
    },
}

/// How the work is cut and scheduled.
#[derive(Debug, Args)]
pub(crate) struct SlurmOptions {
    /// Array tasks, one shard each.
    #[arg(long, value_name = "N")]
    pub(crate) shards: u32,
    /// Slurm partition [default: the cluster's].
    #[arg(long, value_name = "P")]
    pub(crate) partition: Option<String>,
    /// Time limit per task, as sbatch takes it (e.g. 4:00:00).
    #[arg(long, value_name = "T")]
    pub(crate) time: Option<String>,
    /// CPUs per task: the task's --jobs.
    #[arg(long, value_name = "C", default_value_t = 1)]
    pub(crate) cpus_per_task: u32,
    /// Submit with sbatch (otherwise print what would be submitted).
    #[arg(long)]
    pub(crate) submit: bool,
    /// Adaptive self-play: merge the round the shards in DIR/shards have
    /// played and decide the next (or write the final tables when the rule
    /// stops); with --submit, submit the next round. The merge job runs it.
    #[arg(long)]
    pub(crate) next_round: bool,
}
