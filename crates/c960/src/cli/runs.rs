//! The flags of the commands that run engines: `c960 run`, `sweep`,
//! `selfplay`, `merge` and `slurm`, with the engine and limit flags they share.

use c960_engine::EngineName;
use clap::{Args, Subcommand};
use std::{
    num::{NonZeroU32, NonZeroUsize},
    path::PathBuf,
};

#[allow(clippy::wildcard_imports)]
use super::*;

/// One shard of a run, `I/N` (see `c960 merge` and `c960 slurm`).
const SHARD_HELP: &str = "Play only shard I of N (0-based, e.g. 0/4 .. 3/4): a fixed part of \
                          the work units, (SP + game) mod N = I; merge the N shard \
                          directories with c960 merge";

/// The quick profile's time on two cores with the engines `auto` picks,
/// minutes: what `--help` and the README promise.
pub(crate) use c960_ops::run::QUICK_MINUTES;

/// Run profiles as `--profile` takes them: `c960_ops::run::Profile`'s,
/// whose settings write their help (`cmd/run/`) as `--dry-run` shows them.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Profile {
    /// All 960 positions in minutes.
    Quick,
    /// Research grade: raters, adaptive self-play; hours, resumable.
    Research,
}

/// `c960 run`'s flags; the text after them (`run_after_help` in
/// `cmd/run/`, written from the plan) is added where the command line is
/// built (`main.rs`).
#[derive(Debug, Args)]
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
    /// `auto` (the strongest engine installed), `builtin`, `stockfish`,
    /// `ethereal`, `stockfish-npm`, `stockfish-npm-lite` (either with a
    /// version: `stockfish-npm@17.1`), or a UCI engine's path or command
    /// line [default: auto].
    #[arg(long, value_name = "ENGINE")]
    pub(crate) engine: Option<EngineName>,
    /// A UCI engine option, as NAME=VALUE (repeatable).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub(crate) options: Vec<c960_engine::UciOption>,
    /// Engine hash table in MiB [default: 16].
    #[arg(long, value_name = "MB", value_parser = at_least_one::<NonZeroU32>)]
    pub(crate) hash: Option<NonZeroU32>,
    /// Engine processes at once [default: the number of cores].
    #[arg(long, value_name = "J", value_parser = at_least_one::<NonZeroUsize>)]
    pub(crate) jobs: Option<NonZeroUsize>,
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
    #[arg(long, value_name = "K", value_parser = at_least_one::<NonZeroU32>)]
    pub(crate) multipv: Option<NonZeroU32>,
    /// Sweep: searches per position, node budgets perturbed per (position,
    /// repeat) by the seed.
    #[arg(long, value_name = "K", value_parser = at_least_one::<NonZeroU32>)]
    pub(crate) repeats: Option<NonZeroU32>,
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
    /// Print the resolved settings as JSON (with the engine `auto` chooses
    /// on this machine) and stop.
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

/// How to run the engine: shared by `sweep` and `selfplay`.
#[derive(Debug, Args)]
pub(crate) struct EngineArgs {
    /// `auto` (the strongest engine installed: Stockfish from npm, else
    /// Debian's Stockfish, else the built-in engine), `builtin`,
    /// `stockfish` (also found at /usr/games/stockfish), `ethereal` (also
    /// found at /usr/games/ethereal-chess), `stockfish-npm` or
    /// `stockfish-npm-lite` (the npm package `stockfish`, run by Node; found
    /// in `./node_modules` or in the directories of `$C960_NODE_MODULES`;
    /// `stockfish-npm@17.1`, `stockfish-npm-lite@18` choose a version,
    /// installed beside the others as `npm install
    /// sf17@npm:stockfish@17.1.0`), or
    /// the path, name or command line of any UCI engine (`node
    /// /opt/sf/stockfish-19-single.js`; quote words with spaces).
    #[arg(long, value_name = "ENGINE", default_value = "auto")]
    pub(crate) engine: EngineName,
    /// Engine threads per process (more than 1 makes results vary).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub(crate) threads: u32,
    /// Engine hash table in MiB.
    #[arg(long, value_name = "MB", default_value = "16", value_parser = at_least_one::<NonZeroU32>)]
    pub(crate) hash: NonZeroU32,
    /// Any other UCI engine option, as NAME=VALUE (repeatable).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub(crate) options: Vec<c960_engine::UciOption>,
    /// Engine processes (or games) at once [default: the number of cores].
    #[arg(long, value_name = "J", value_parser = at_least_one::<NonZeroUsize>)]
    pub(crate) jobs: Option<NonZeroUsize>,
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
                        With --reply, each position's best move is played and the position \
                        after it searched too (same limit and MultiPV, cleared hash): reply_* \
                        columns, and per side (White's first move, Black's reply) the moves \
                        within 25 cp of the best (*_good_moves), the best minus the second best \
                        (*_gap_cp) and their asymmetry, White's minus Black's \
                        (docs/datasets.md).\n\n\
                        Examples:\n  \
                        c960 sweep --nodes 1000000                       # all 960, all cores\n  \
                        c960 sweep --positions 0-99,518 --multipv 3 --out runs/first100\n  \
                        c960 sweep --multipv 8 --reply --jobs 1 --out runs/difficulty\n  \
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
    #[arg(long, value_name = "K", default_value = "1", value_parser = at_least_one::<NonZeroU32>)]
    pub(crate) multipv: NonZeroU32,
    /// Which positions: `all`, or numbers and ranges such as 0-99,518;
    /// with --variant dfrc a set of setups (all, symmetric, ranges of
    /// indices, white:SP, black:SP, sample:N:SEED, comma-separated).
    #[arg(long, value_name = "SET", default_value = "all")]
    pub(crate) positions: String,
    /// Chess960 positions or Double Fischer Random setups (tables then name
    /// each setup by its DFRC index in a `setup` column).
    #[arg(long, value_parser = variant_parser(), default_value = "chess960")]
    pub(crate) variant: Variant,
    /// Searches per position (needs a node limit); their node budgets
    /// differ, drawn from --seed per (position, repeat).
    #[arg(long, value_name = "K", default_value = "1", value_parser = at_least_one::<NonZeroU32>)]
    pub(crate) repeats: NonZeroU32,
    /// Seed of the repeats' node budgets.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub(crate) seed: u64,
    /// Repeats' node budgets are drawn from [N(1-F), N(1+F)].
    #[arg(long, value_name = "F", default_value_t = c960_sweep::repeats::DEFAULT_JITTER)]
    pub(crate) repeat_jitter: f64,
    /// Also search the position after each best move (Black's reply) and
    /// add the difficulty columns of both moves (needs --multipv 2 or
    /// more).
    #[arg(long)]
    pub(crate) reply: bool,
    /// Run directory [default: runs/sweep-ENGINE-LIMIT-mpvK[-rK][-reply]].
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
    pub(crate) engine_b: Option<EngineName>,
    /// A UCI option for the second engine only, as NAME=VALUE (repeatable).
    #[arg(long = "option-b", value_name = "NAME=VALUE")]
    pub(crate) options_b: Vec<c960_engine::UciOption>,
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
    #[arg(long, value_name = "G", default_value = "10", value_parser = at_least_one::<NonZeroU32>)]
    pub(crate) games_per_position: NonZeroU32,
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
    #[arg(long, value_parser = variant_parser(), default_value = "chess960")]
    pub(crate) variant: Variant,
    /// Run seed; every game's seed derives from it.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub(crate) seed: u64,
    /// Relative jitter of the node budget per move (0 = none).
    #[arg(long, value_name = "F", default_value_t = 0.1)]
    pub(crate) jitter: f64,
    /// A game reaching this many plies is drawn.
    #[arg(
        long,
        value_name = "N",
        default_value_t = c960_selfplay::Rules::default().max_plies,
        value_parser = at_least_one::<NonZeroU32>
    )]
    pub(crate) max_plies: NonZeroU32,
    /// Resign when both engines see at least this many centipawns ...
    #[arg(long, value_name = "CP", default_value_t = c960_selfplay::Rules::default().resign_cp)]
    pub(crate) resign_cp: i32,
    /// ... for this many consecutive plies (0 = never resign).
    #[arg(long, value_name = "K", default_value_t = c960_selfplay::Rules::default().resign_plies)]
    pub(crate) resign_plies: u32,
    /// Draw when both engines see at most this many centipawns ...
    #[arg(long, value_name = "CP", default_value_t = c960_selfplay::Rules::default().draw_cp)]
    pub(crate) draw_cp: i32,
    /// ... in each of the last K plies (0 = never adjudicate draws) ...
    #[arg(long, value_name = "K", default_value_t = c960_selfplay::Rules::default().draw_plies)]
    pub(crate) draw_plies: u32,
    /// ... at ply PLY or later. The K plies may begin before PLY: by
    /// default a game is drawn at ply 80 if plies 69 to 80 were all within
    /// 10 cp.
    #[arg(long, value_name = "PLY", default_value_t = c960_selfplay::Rules::default().draw_after_ply)]
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
    after_help = "TABLE is the games.parquet of a self-play run (as a published dataset \
                        ships it); it carries the run's manifest. Every game is checked as a \
                        resume checks it, and the table must hold the games its manifest \
                        states. DIR gets what the run wrote: journal, PGN, game and position \
                        tables and the manifest, unchanged, so c960 report reads it as the \
                        original run, and c960 selfplay with the run's settings adds games to \
                        it. Adaptive runs, runs from an opening book and runs on the clock are \
                        refused: their game table does not hold all they were made from.\n\n\
                        Examples:\n  \
                        c960 restore data/research-stockfish-15.1/games.parquet --out runs/v1-selfplay\n  \
                        c960 report --sweep data/sweep-stockfish-15.1-nodes1000000-mpv3 --selfplay runs/v1-selfplay"
)]
pub(crate) struct RestoreArgs {
    /// A self-play game table (games.parquet).
    #[arg(value_name = "TABLE")]
    pub(crate) table: PathBuf,
    /// The run directory to write (new, or without a run in it).
    #[arg(long, value_name = "DIR")]
    pub(crate) out: PathBuf,
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
                        node sees. book-exits takes --run DIR instead: each task expands its \
                        shard of the starts into DIR/shards/I, and the merge job builds the \
                        book (--out FILE with --cp or --draw-rate) from their journals with \
                        c960 book exits --from.\n\n\
                        Examples:\n  \
                        c960 slurm selfplay --games-per-position 1000 --out /scratch/c960/sp --shards 96 --time 4:00:00 --submit\n  \
                        c960 slurm sweep --nodes 1000000 --out /scratch/c960/sweep --shards 8 --cpus-per-task 4\n  \
                        c960 slurm book-exits --variant dfrc --positions all --run /scratch/c960/dfrc-exits --shards 96 --cpus-per-task 8 --submit\n  \
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
    /// Shards of the expansion of `c960 book exits` (the merge job builds
    /// the book).
    BookExits {
        #[command(flatten)]
        args: Box<BookExitsArgs>,
        #[command(flatten)]
        slurm: SlurmOptions,
    },
}

/// How the work is cut and scheduled.
#[derive(Debug, Args)]
pub(crate) struct SlurmOptions {
    /// Array tasks, one shard each.
    #[arg(long, value_name = "N", value_parser = at_least_one::<NonZeroU32>)]
    pub(crate) shards: NonZeroU32,
    /// Slurm partition [default: the cluster's].
    #[arg(long, value_name = "P")]
    pub(crate) partition: Option<String>,
    /// Time limit per task, as sbatch takes it (e.g. 4:00:00).
    #[arg(long, value_name = "T")]
    pub(crate) time: Option<String>,
    /// CPUs per task: the task's --jobs.
    #[arg(long, value_name = "C", default_value = "1", value_parser = at_least_one::<NonZeroU32>)]
    pub(crate) cpus_per_task: NonZeroU32,
    /// Submit with sbatch (otherwise print what would be submitted).
    #[arg(long)]
    pub(crate) submit: bool,
    /// Adaptive self-play: merge the round the shards in DIR/shards have
    /// played and decide the next (or write the final tables when the rule
    /// stops); with --submit, submit the next round. The merge job runs it.
    #[arg(long)]
    pub(crate) next_round: bool,
}
