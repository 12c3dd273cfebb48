//! Exit books: positions a few plies after each start, kept by an
//! evaluation window.
//!
//! Each start is expanded ([`expand`]) into the tree of the engine's
//! `MultiPV` lines: at each node a search with `MultiPV` K at a node limit,
//! from a cleared hash with one thread (so the tree is the same every
//! time), the K first moves its children, down to P plies. The leaves are
//! the exits, each scored by the line that led to it at the last expanded
//! ply, from White's point of view. A run journals one line per finished
//! start ([`run`]), resumes from its journal and can be split in shards
//! whose journals are read back together ([`read_runs`]). A book is then
//! chosen from the exits without any search ([`select`]), so one expansion
//! gives books of several windows.

mod expand;
mod model;
mod plan;
mod run;
mod select;
mod sidecar;

use c960_core::{Setup, Variant};
use c960_store::{BookKind, BookManifest};
use serde_json::{Map, Value, json};

pub use expand::{
    Exit, MAX_PLIES, MAX_SEARCHES_PER_START, MEASURED_NODES_PER_SECOND, StartExits, Tree,
    check_start, expand,
};
pub use model::{
    DrawModel, JournalUsed, PairJournal, PairResult, ScoresFrom, fit_draw_model, read_journal,
};
pub use plan::PLAN_FILE;
pub use run::{ExitSettings, ExpandConfig, Expansion, check_wdl, read_runs, run};
pub use select::{
    Chosen, MATE_THRESHOLD_CP, Measure, Quota, Range, Selection, Window, position_key, select,
};
pub use sidecar::{StartBalance, StartEstimate, sidecar_path, write_sidecar};

use crate::FORMAT;

/// What an exit book's manifest says of how scores are read.
pub const NOTES: &str = "Each line is a position a few plies after a start, reached by the \
    engine's MultiPV lines (at each node a search with MultiPV K at a node limit, one thread, \
    cleared hash, the K first moves its children, down to P plies). An exit is scored by the \
    MultiPV line that led to it at the last expanded ply; scores and WDL are from White's \
    point of view. Game-over positions and mate scores are never kept; each position \
    (placement, side to move, castling rooks, legal en passant square) appears once. Lines \
    are spread over the starts (round-robin, or at most K per start), each start's exits \
    ordered by distance to the window's centre (ties by a seeded hash), and written in start \
    order.";

/// Where a setup goes in a book: Chess960 by SP, DFRC by (White's SP,
/// Black's SP), as the starts book orders them.
#[must_use]
pub fn book_order(setup: Setup) -> (u32, u32) {
    match setup {
        Setup::Chess960(p) => (u32::from(p.sp()), 0),
        Setup::Dfrc(d) => (u32::from(d.white().sp()), u32::from(d.black().sp())),
    }
}

/// The starts of `expansion` in book order.
#[must_use]
pub fn in_book_order(expansion: &Expansion) -> Vec<&StartExits> {
    let variant = expansion.settings.variant;
    let mut starts: Vec<&StartExits> = expansion.starts.values().collect();
    starts.sort_by_key(|s| Setup::new(variant, s.setup).map_or((u32::MAX, s.setup), book_order));
    starts
}

/// How the book was chosen, for its manifest.
#[derive(Clone, Debug)]
pub struct Choice {
    /// The window.
    pub window: Window,
    /// How many were kept.
    pub quota: Quota,
    /// The tie-break seed.
    pub seed: u64,
    /// The draw model a model window reads, with the file it came from.
    pub draw_model: Option<(std::path::PathBuf, DrawModel)>,
    /// The seed the lines were shuffled with (none: start order).
    pub shuffle: Option<u64>,
    /// The balance table whose starts' estimates the per-line table
    /// carries.
    pub start_balance: Option<StartBalance>,
}

/// The manifest of an exit book chosen from `expansion` (`lines`, `sha256`
/// and `file` are filled in by [`crate::write_book`]).
#[must_use]
pub fn manifest(
    expansion: &Expansion,
    choice: &Choice,
    selection: &Selection,
    setups: String,
) -> BookManifest {
    let s = &expansion.settings;
    let mut engine = Map::new();
    engine.insert("id_name".into(), json!(s.engine));
    engine.insert("path".into(), json!(s.engine_path));
    if !s.engine_args.is_empty() {
        engine.insert("args".into(), json!(s.engine_args));
    }
    if let Some(package) = &s.engine_package {
        engine.insert("package".into(), json!(package));
    }
    if let Some(script) = &s.engine_script {
        engine.insert("script".into(), json!(script));
    }
    if let Some(network) = &s.engine_network {
        engine.insert("network".into(), json!(network));
    }
    engine.insert("options".into(), json!(s.engine_options));
    engine.insert("wdl_model".into(), json!(s.wdl_model));
    let mut made_with = Map::new();
    made_with.insert("engine".into(), Value::Object(engine));
    let mut expanded = json!({
        "limit": s.limit.to_string(),
        "nodes": match s.limit { c960_engine::Limit::Nodes(n) => Some(n), _ => None },
        "multipv": s.multipv,
        "plies": s.plies,
        "scores": "White's point of view: centipawns and WDL of the MultiPV line at the \
                   last expanded ply",
    });
    // Exits above the leaves (`--exits-from`), named only when asked for,
    // so older manifests read as they were.
    if let Some(ply) = s.first_exit_ply {
        expanded["exits_from"] = json!(ply);
    }
    made_with.insert("expansion".into(), expanded);
    made_with.insert("selection".into(), selection_record(choice));
    made_with.insert("counts".into(), json!(selection));
    made_with.insert(
        "runs".into(),
        Value::Array(
            expansion
                .journals
                .iter()
                .map(|(path, sha)| json!({"journal": run_name(path), "sha256": sha}))
                .collect(),
        ),
    );
    BookManifest {
        kind: BookKind::Exits,
        variant: s.variant,
        file: String::new(),
        format: FORMAT.to_owned(),
        lines: 0,
        sha256: String::new(),
        contents: None,
        c960_version: env!("CARGO_PKG_VERSION").to_owned(),
        setups,
        made_with,
        notes: NOTES.to_owned(),
    }
}

/// How the book was chosen, for its manifest: window, quota, seed, the
/// draw model read (file, SHA-256, parameters, games, budget) and the
/// lines' order.
fn selection_record(choice: &Choice) -> Value {
    let mut record = json!({
        "window": choice.window,
        "quota": choice.quota,
        "seed": choice.seed,
    });
    if let Some((path, model)) = &choice.draw_model {
        record["draw_model"] = json!({
            "file": path.file_name().map(|f| f.to_string_lossy().into_owned()),
            "sha256": std::fs::read(path).ok().map(|b| crate::sha256_hex(&b)),
            "a": model.fit.model.a,
            "b": model.fit.model.b,
            "shift": model.fit.model.shift,
            "games": model.fit.games,
            "budget": model.budget,
            "draw_chance": "of a game pair (colours reversed) at that budget, from the exit's \
                            centipawns",
        });
    }
    if let Some(seed) = choice.shuffle {
        record["shuffle"] = json!(seed);
    }
    if let Some(balance) = &choice.start_balance {
        record["start_balance"] = json!({ "file": balance.file, "sha256": balance.sha256 });
    }
    record["order"] = match choice.shuffle {
        Some(seed) => json!(format!("shuffled with seed {seed}")),
        None => json!("start order"),
    };
    record
}

/// A journal named by its run directory's name and its own
/// (`exits-run/journal.jsonl`): no path of the machine that made it.
fn run_name(journal: &std::path::Path) -> String {
    let file = journal.file_name().map(|f| f.to_string_lossy());
    let dir = journal
        .parent()
        .and_then(|d| d.file_name())
        .map(|d| d.to_string_lossy());
    match (dir, file) {
        (Some(dir), Some(file)) => format!("{dir}/{file}"),
        _ => journal.display().to_string(),
    }
}

/// The setups an expansion covers, as a set's text (`all`, `0-99`, DFRC
/// ranges of indices).
#[must_use]
pub fn setups_text(variant: Variant, expansion: &Expansion) -> String {
    let setups: Vec<Setup> = expansion
        .starts
        .keys()
        .filter_map(|id| Setup::new(variant, *id).ok())
        .collect();
    Setup::format_set(&setups)
}

/// The default node limit of each search. Measured with Stockfish 15.1:
/// at 10,000 nodes, `MultiPV` 6 and 3 plies (43 searches, 216 exits per
/// start, about 1.6 s per start on one core) 707 of the 960 starts have
/// exits in +90..+120 cp (3,067 positions) and 396 in a 48..52 % draw
/// rate (642); 2 plies, or `MultiPV` 4, leave most starts without a
/// draw-rate exit, and 50,000 nodes cost five times as much for no more
/// exits in the windows.
pub const DEFAULT_NODES: u64 = 10_000;
/// The default lines per node.
pub const DEFAULT_MULTIPV: u32 = 6;
/// The default plies from the start to the exits.
pub const DEFAULT_PLIES: u32 = 3;

#[cfg(test)]
mod tests;
