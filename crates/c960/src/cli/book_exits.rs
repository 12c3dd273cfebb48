//! `c960 book exits`: the flags of exit books.

use std::{num::NonZeroU32, path::PathBuf};

use c960_book::exits::{DEFAULT_MULTIPV, DEFAULT_NODES, DEFAULT_PLIES, Range};
use clap::{ArgGroup, Args};

use super::{EngineArgs, LimitArgs, Variant, at_least_one, variant_parser};

fn exits_help() -> String {
    format!(
        "Each start is expanded into the tree of the engine's MultiPV lines: at each node a \
         search with MultiPV K at the node limit (one thread, cleared hash, so the tree is the \
         same every time), the K first moves its children, down to P plies. The leaves are the \
         exits, each scored by its line at the last expanded ply, from White's point of view. \
         Defaults: --nodes {DEFAULT_NODES}, --multipv {DEFAULT_MULTIPV}, --plies {DEFAULT_PLIES} \
         ({} searches and up to {} exits per start, about 1.6 s per start on one core), measured \
         with Stockfish 15.1: over all 960 starts, 707 have exits in --cp 90..120 and 396 in \
         --draw-rate 48..52.\n\n\
         The run directory (--run) gets journal.jsonl, one line per finished start with all its \
         exits; run the same command again to resume, or with another window to make another \
         book from the same expansion without a search. A book keeps no game-over position and \
         no mate score, each position once, spread over the starts (round-robin with --count, \
         at most K per start with --per-start, else every exit in the window), each start's \
         exits nearest the window's centre first (ties by --seed), lines in start order.\n\n\
         Without a window and --out only the expansion runs. Sharding: run each part with \
         --shard I/N --run DIR_I, then build the book from the parts' journals with --from \
         DIR_0 DIR_1 ... and a window (no engine is started).\n\n\
         Examples:\n  \
         c960 book exits --cp 90..120 --run runs/exits --out c960_FRC_exits_cp90-120.epd\n  \
         c960 book exits --draw-rate 48..52 --run runs/exits --out c960_FRC_exits_dr48-52.epd\n  \
         c960 book exits --variant dfrc --positions sample:200:1 --cp 90..120 --out c960_DFRC_exits.epd\n  \
         c960 book exits --from runs/dfrc --positions sample:200:1 --draw-rate 48..52 --out c960_DFRC_exits_dr.epd\n  \
         c960 book exits --shard 0/4 --run runs/exits-0\n  \
         c960 book exits --from runs/exits-0 runs/exits-1 runs/exits-2 runs/exits-3 --cp 90..120 --count 2000 --out c960_FRC_exits.epd",
        c960_book::exits::Tree {
            limit: c960_engine::Limit::Nodes(DEFAULT_NODES),
            multipv: DEFAULT_MULTIPV,
            plies: DEFAULT_PLIES,
            first_exit_ply: DEFAULT_PLIES,
        }
        .searches_per_start(),
        u64::from(DEFAULT_MULTIPV).pow(DEFAULT_PLIES),
    )
}

#[derive(Debug, Args)]
#[command(after_help = exits_help(), group(ArgGroup::new("window")))]
#[allow(clippy::struct_excessive_bools)]
pub(crate) struct BookExitsArgs {
    #[command(flatten)]
    pub(crate) engine: EngineArgs,
    #[command(flatten)]
    pub(crate) limit: LimitArgs,
    /// Lines (children) per node of the tree.
    #[arg(long, value_name = "K", default_value_t = NonZeroU32::new(DEFAULT_MULTIPV).expect("not 0"), value_parser = at_least_one::<NonZeroU32>)]
    pub(crate) multipv: NonZeroU32,
    /// Plies from each start to its exits.
    #[arg(long, value_name = "P", default_value_t = NonZeroU32::new(DEFAULT_PLIES).expect("not 0"), value_parser = at_least_one::<NonZeroU32>)]
    pub(crate) plies: NonZeroU32,
    /// The shallowest ply whose positions are exits too [default: P, the
    /// leaves alone]: with P-1 the book holds both sides to move, at no
    /// extra search (those positions are searched to grow the tree).
    #[arg(long, value_name = "PLY", value_parser = at_least_one::<u32>)]
    pub(crate) exits_from: Option<u32>,
    /// Chess960 positions or Double Fischer Random setups.
    #[arg(long, value_parser = variant_parser(), default_value = "chess960")]
    pub(crate) variant: Variant,
    /// Which starts: `all`, or numbers and ranges such as 0-99,518; with
    /// --variant dfrc also symmetric, white:SP, black:SP, sample:N:SEED.
    /// With --from, the set the runs expanded, as the manifest names it.
    #[arg(long, value_name = "SET", default_value = "all")]
    pub(crate) positions: String,
    /// Keep exits whose score for White is in LOW..HIGH centipawns (e.g.
    /// 90..120).
    #[arg(
        long,
        value_name = "LOW..HIGH",
        group = "window",
        allow_hyphen_values = true
    )]
    pub(crate) cp: Option<Range>,
    /// Keep exits whose draw chance from the engine's WDL model is in
    /// LOW..HIGH percent (e.g. 48..52).
    #[arg(
        long,
        value_name = "LOW..HIGH",
        group = "window",
        allow_hyphen_values = true
    )]
    pub(crate) draw_rate: Option<Range>,
    /// Read the draw rate of --draw-rate from this draw model (made by
    /// `c960 book draw-model` from games played at the book's budget)
    /// instead of the engine's WDL; needs --from runs scored by the same
    /// engine and search as the model.
    #[arg(long, value_name = "MODEL.json", requires_all = ["draw_rate", "from"])]
    pub(crate) draw_model: Option<PathBuf>,
    /// Write the lines in a random order from this seed (runners that
    /// start at line N, such as cutechess `start=N`, then draw a spread of
    /// starts); default: start order.
    #[arg(long, value_name = "SEED")]
    pub(crate) shuffle: Option<u64>,
    /// Also write NAME.lines.csv beside the book: per line its start,
    /// plies, moves, score and (with --draw-model) the model's draw chance
    /// with its 95 % interval and White's expected score.
    #[arg(long)]
    pub(crate) sidecar: bool,
    /// With --sidecar: also give, on each line, its start's published
    /// balance and 95 % interval from this balance.csv (e.g.
    /// data/research-v4/balance.csv); Chess960 only.
    #[arg(long, value_name = "FILE", requires = "sidecar")]
    pub(crate) balance: Option<PathBuf>,
    /// Keep N exits in all, taken round-robin over the starts.
    #[arg(long, value_name = "N", conflicts_with = "per_start", value_parser = at_least_one::<usize>)]
    pub(crate) count: Option<usize>,
    /// Keep at most K exits per start.
    #[arg(long, value_name = "K", value_parser = at_least_one::<usize>)]
    pub(crate) per_start: Option<usize>,
    /// Seed of the tie-break between exits equally near the window's
    /// centre.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub(crate) seed: u64,
    /// The run directory (its journal) [default:
    /// runs/exits-ENGINE-LIMIT-mpvK-pP].
    #[arg(long, value_name = "DIR", conflicts_with = "from")]
    pub(crate) run: Option<PathBuf>,
    /// Build the book from these run directories' journals (one run, or
    /// the shards of one run) without an engine.
    #[arg(long, value_name = "DIR", num_args = 1.., conflicts_with_all = ["shard", "multipv", "plies", "exits_from", "variant"])]
    pub(crate) from: Vec<PathBuf>,
    /// Expand only shard I of N (0-based): the starts whose number mod N
    /// is I.
    #[arg(long, value_name = "I/N")]
    pub(crate) shard: Option<c960_core::Shard>,
    /// The book file (its manifest goes beside it, extension .json);
    /// with a window. Without both, only the expansion runs.
    #[arg(long, value_name = "FILE")]
    pub(crate) out: Option<PathBuf>,
}

fn draw_model_help() -> String {
    "Fits the chance that a game pair from an exit is drawn, at the budget the games were \
     played at, to game-pair journals (CSV: a `# settings` first line, then columns fen, \
     a_white_result, a_black_result, engine A being the stronger engine), each pair's opening an \
     exit of the --from runs and its score that exit's: P(White wins) = 1/(1+exp((a-v)/b)), \
     P(Black wins) = 1/(1+exp((a+v)/b)), v the exit's centipawns plus the stronger engine's edge \
     when it plays White (minus it when Black), by maximum likelihood. The model file records \
     the parameters with their covariance, observed against predicted draws by score band, the \
     journals' SHA-256 and the expansion's engine and search; `c960 book exits --from RUN \
     --draw-rate 48..52 --draw-model MODEL.json` then keeps the exits whose pair draw chance \
     lies in the window.\n\n\
     Example:\n  \
     c960 book draw-model --from runs/exits --journal pilot.csv --out draw-model.json"
        .to_owned()
}

#[derive(Debug, Args)]
#[command(after_help = draw_model_help())]
pub(crate) struct BookDrawModelArgs {
    /// The expansion runs whose exits the pairs were played from.
    #[arg(long, value_name = "DIR", num_args = 1.., required = true)]
    pub(crate) from: Vec<PathBuf>,
    /// Game-pair journals played at one budget.
    #[arg(long, value_name = "FILE", num_args = 1.., required = true)]
    pub(crate) journal: Vec<PathBuf>,
    /// The model file to write (JSON).
    #[arg(long, value_name = "FILE")]
    pub(crate) out: PathBuf,
}
