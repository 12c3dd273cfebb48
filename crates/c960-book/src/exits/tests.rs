use std::collections::BTreeSet;

use c960_core::{Setup, StartPosition};
use c960_engine::{EngineSpec, Limit, uci::UciConfig};

use super::*;

fn exit(fen: &str, cp: Option<i32>, draw: u32) -> Exit {
    Exit {
        moves: vec!["e2e4".to_owned()],
        fen: fen.to_owned(),
        cp,
        mate: if cp.is_none() { Some(3) } else { None },
        wdl: Some([500 - draw / 2, draw, 500 - draw / 2]),
        game_over: false,
    }
}

/// A distinct position per `n` (selection reads only the first four
/// fields).
fn fen(n: usize) -> String {
    format!("p{n}/8 w - - 0 1")
}

fn start(setup: u32, exits: Vec<Exit>) -> StartExits {
    StartExits {
        setup,
        searches: 1,
        exits,
    }
}

fn cp_window(low: f64, high: f64) -> Window {
    Window::new(Measure::Cp, Range(low, high)).unwrap()
}

#[test]
fn windows_outside_the_engine_range_are_refused() {
    assert!(
        Window::new(Measure::Cp, Range(120.0, 90.0))
            .unwrap_err()
            .contains("LOW is above HIGH")
    );
    assert!(
        Window::new(Measure::Cp, Range(0.0, 40_000.0))
            .unwrap_err()
            .contains("outside the engine's range")
    );
    assert!(Window::new(Measure::DrawRate, Range(-1.0, 50.0)).is_err());
    assert!(Window::new(Measure::DrawRate, Range(48.0, 52.0)).is_ok());
    assert_eq!("90..120".parse::<Range>(), Ok(Range(90.0, 120.0)));
    assert_eq!("-20..-5".parse::<Range>(), Ok(Range(-20.0, -5.0)));
    assert!("90-120".parse::<Range>().is_err());
    assert!("a..1".parse::<Range>().is_err());
}

#[test]
fn selection_drops_game_over_and_mates_and_spreads_round_robin() {
    let mut over = exit(&fen(9), Some(100), 500);
    over.game_over = true;
    let a = start(
        0,
        vec![
            exit(&fen(0), Some(100), 500),
            exit(&fen(1), Some(105), 500),
            exit(&fen(2), Some(119), 500),
            exit(&fen(3), None, 500),
            over,
            exit(&fen(4), Some(300), 500),
        ],
    );
    let b = start(1, vec![exit(&fen(5), Some(90), 500)]);
    // A transposition: b's position again, in start c.
    let c = start(
        2,
        vec![exit(&fen(5), Some(90), 500), exit(&fen(6), Some(110), 500)],
    );
    let starts = [&a, &b, &c];
    let window = cp_window(90.0, 120.0);
    let all = select(&starts, window, Quota::All, 1);
    assert_eq!(all.candidates, 7, "no mate, no game over");
    assert_eq!(all.in_window, 5, "the transposition once");
    assert_eq!(all.lines, [fen(1), fen(0), fen(2), fen(5), fen(6)]);
    let two = select(&starts, window, Quota::Count(3), 1);
    assert_eq!(two.lines, [fen(1), fen(5), fen(6)], "one per start first");
    let per = select(&starts, window, Quota::PerStart(2), 1);
    assert_eq!(per.lines, [fen(1), fen(0), fen(5), fen(6)]);
    assert_eq!(per.starts_kept, 3);
}

#[test]
fn ties_are_broken_by_the_seed() {
    let exits: Vec<Exit> = (0..8).map(|n| exit(&fen(n), Some(100), 500)).collect();
    let one = start(0, exits);
    let window = cp_window(90.0, 110.0);
    let orders: BTreeSet<Vec<String>> = (0..6)
        .map(|seed| select(&[&one], window, Quota::Count(3), seed).lines)
        .collect();
    assert!(orders.len() > 1, "the seed decides ties");
    assert_eq!(
        select(&[&one], window, Quota::Count(3), 4).lines,
        select(&[&one], window, Quota::Count(3), 4).lines
    );
}

#[test]
fn draw_rate_windows_read_the_wdl() {
    let a = start(
        0,
        vec![exit(&fen(0), Some(100), 480), exit(&fen(1), Some(100), 600)],
    );
    let window = Window::new(Measure::DrawRate, Range(48.0, 52.0)).unwrap();
    assert_eq!(select(&[&a], window, Quota::All, 1).lines, [fen(0)]);
}

#[test]
fn stockfish_expansions_are_legal_and_deterministic() {
    let spec = EngineSpec::Uci(UciConfig::new("/usr/games/stockfish")).with_multipv(3);
    let tree = Tree {
        limit: Limit::Nodes(2000),
        multipv: 3,
        plies: 2,
        first_exit_ply: 2,
    };
    let setup = Setup::Chess960(StartPosition::new(91).unwrap());
    let mut engine = spec.start().unwrap();
    let first = expand(&mut engine, setup, tree).unwrap();
    let second = expand(&mut spec.start().unwrap(), setup, tree).unwrap();
    assert_eq!(first, second);
    assert_eq!(first.searches, 4);
    assert_eq!(first.exits.len(), 9);
    check_start(&first, setup, tree).unwrap();
    assert!(
        first
            .exits
            .iter()
            .all(|e| e.wdl.is_some() && e.moves.len() == 2)
    );
    let mut damaged = first.clone();
    damaged.exits[0].moves[1] = "a1a8".to_owned();
    assert!(check_start(&damaged, setup, tree).is_err());
}

#[test]
fn exits_above_the_leaves_come_before_their_children_with_both_sides_to_move() {
    let spec = EngineSpec::Uci(UciConfig::new("/usr/games/stockfish")).with_multipv(2);
    let leaves = Tree {
        limit: Limit::Nodes(2000),
        multipv: 2,
        plies: 2,
        first_exit_ply: 2,
    };
    let both = Tree {
        first_exit_ply: 1,
        ..leaves
    };
    assert_eq!((leaves.exits_per_start(), both.exits_per_start()), (4, 6));
    let setup = Setup::Chess960(StartPosition::new(518).unwrap());
    let only_leaves = expand(&mut spec.start().unwrap(), setup, leaves).unwrap();
    let all = expand(&mut spec.start().unwrap(), setup, both).unwrap();
    check_start(&all, setup, both).unwrap();
    assert_eq!(only_leaves.searches, all.searches);
    let plies: Vec<usize> = all.exits.iter().map(|e| e.moves.len()).collect();
    assert_eq!(plies, [1, 2, 2, 1, 2, 2]);
    // Black to move after one ply, White after two.
    assert!(all.exits[0].fen.contains(" b "));
    assert!(all.exits[1].fen.contains(" w "));
    // The leaves are the same exits, scored the same.
    let deepest: Vec<&Exit> = all.exits.iter().filter(|e| e.moves.len() == 2).collect();
    assert_eq!(deepest, only_leaves.exits.iter().collect::<Vec<_>>());
    // Each exit above the leaves is the first move of its children.
    assert_eq!(all.exits[1].moves[0], all.exits[0].moves[0]);
}

#[test]
fn trees_beyond_the_bounds_are_refused_and_the_work_is_estimated_first() {
    let tree = |multipv, plies| Tree {
        limit: Limit::Nodes(DEFAULT_NODES),
        multipv,
        plies,
        first_exit_ply: plies,
    };
    tree(DEFAULT_MULTIPV, DEFAULT_PLIES).check().unwrap();
    tree(1, MAX_PLIES).check().unwrap();
    tree(6, 6).check().unwrap();
    let deep = tree(1, 1000).check().unwrap_err();
    assert!(
        deep.contains("--plies 1000 is out of range 1..=12"),
        "{deep}"
    );
    let wide = tree(6, 8).check().unwrap_err();
    assert!(
        wide.contains("takes 335923 searches a start, more than 10000"),
        "{wide}"
    );
    assert!(tree(0, 3).check().is_err());
    let above = Tree {
        first_exit_ply: 4,
        ..tree(2, 3)
    };
    assert!(above.check().unwrap_err().contains("--exits-from 4"));
    assert!(tree(6, 7).searches_per_start() > MAX_SEARCHES_PER_START);
    // The default tree on all starts: 960 × 43 searches of 10,000 nodes
    // at the measured speed.
    let estimate = tree(DEFAULT_MULTIPV, DEFAULT_PLIES).estimate(960);
    assert_eq!(
        estimate,
        "960 starts × up to 43 searches = up to 41280 searches at nodes 10000, about 25 min \
         on one core at 270000 nodes a second"
    );
    let one = Tree {
        limit: Limit::Depth(8),
        ..tree(1, 1)
    }
    .estimate(1);
    assert_eq!(one, "1 start × up to 1 search = up to 1 search at depth 8");
}

/// Issue 48, item 10 in process: `read_runs` (what `book exits --from`
/// reads) refuses a run whose directory another process holds (an
/// expansion under way), refuses a run whose journal lacks starts its
/// plan names (stopped early), and reads the same run once it is finished.
#[test]
fn runs_still_expanding_or_stopped_early_are_never_read() {
    use c960_runner::RunError;
    let dir = tempfile::tempdir().unwrap();
    let run_dir = dir.path().join("run");
    let config = ExpandConfig {
        engine: EngineSpec::Builtin {
            hash_mb: 1,
            watchdog: None,
        },
        tree: Tree {
            limit: Limit::Nodes(200),
            multipv: 2,
            plies: 1,
            first_exit_ply: 1,
        },
        setups: (0..4)
            .map(|sp| Setup::Chess960(StartPosition::new(sp).unwrap()))
            .collect(),
        jobs: 1,
        retries: 0,
        run: run_dir.clone(),
        shard: c960_core::Shard::WHOLE,
        needs_wdl: false,
        repair: false,
    };
    let stop = std::sync::atomic::AtomicBool::new(false);
    let expanded = run(&config, &stop, |_| {}).unwrap();
    assert_eq!(expanded.starts.len(), 4);
    let keep_all = |_: &mut StartExits| 0;
    let dirs = [run_dir.clone()];

    // An expansion under way holds the directory's lock for writing.
    let writer = c960_store::DirLock::exclusive(&run_dir).unwrap();
    let refused = read_runs(&dirs, &keep_all).unwrap_err();
    assert!(matches!(refused, RunError::Lock(_)), "{refused:?}");
    assert!(refused.to_string().contains("is in use by"), "{refused}");
    assert!(
        !refused.is_bad_input(),
        "a held run is waited for, not wrong"
    );
    drop(writer);

    // A run stopped before its end: its last start is not journaled.
    let journal = run_dir.join("journal.jsonl");
    let whole = std::fs::read_to_string(&journal).unwrap();
    let lines: Vec<&str> = whole.lines().collect();
    assert_eq!(lines.len(), 5, "a header and 4 starts");
    std::fs::write(&journal, lines[..4].join("\n") + "\n").unwrap();
    let refused = read_runs(&dirs, &keep_all).unwrap_err();
    assert!(refused.is_bad_input(), "{refused:?}");
    assert!(
        refused
            .to_string()
            .contains("holds 3 of the 4 starts its expansion set out to expand"),
        "{refused}"
    );

    // Resumed to its end, the same run is read whole.
    let resumed = run(&config, &stop, |_| {}).unwrap();
    assert_eq!(resumed.resumed, 3);
    let read = read_runs(&dirs, &keep_all).unwrap();
    assert_eq!(read.starts.len(), 4);
    assert_eq!(read.starts, resumed.starts);
}
