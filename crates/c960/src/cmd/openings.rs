//! `c960 openings`: one position's opening tree from a game table.

use std::fmt::Write as _;

use anyhow::{Context, Result, bail};
use c960_core::StartPosition;
use c960_games::{Counts, IntervalKind, Tree};
use c960_store::GAMES_TABLE;

use crate::{
    cli::{InputError, OpeningsArgs},
    output::{Out, Text},
};

/// The interval kind of the run whose game table `file` is (its
/// manifest beside it): the kind its position table, and so the report,
/// gives the same games.
fn interval_kind(file: &std::path::Path) -> IntervalKind {
    file.parent()
        .and_then(|dir| c960_store::RunManifest::read(dir).ok())
        .map_or(IntervalKind::Trinomial, |m| IntervalKind::of_run(&m))
}

fn stats(counts: &Counts) -> String {
    let (mean, low, high) = counts.interval();
    format!(
        "{:>6} games  White {:5.1}% [{:5.1}, {:5.1}]  +{} ={} -{}",
        counts.games,
        mean * 100.0,
        low * 100.0,
        high * 100.0,
        counts.white_wins,
        counts.draws,
        counts.black_wins
    )
}

/// `--first-moves`: the table of all positions as CSV.
fn first_moves(out: &Out, file: &std::path::Path) -> Result<()> {
    let rows = c960_games::first_moves_with(file, interval_kind(file))
        .with_context(|| format!("reading {}", file.display()))?;
    let mut frame = c960_games::first_moves_frame(&rows)?;
    out.write(|out| c960_store::write_csv(out, &mut frame))?;
    Ok(())
}

pub(crate) fn run(args: &OpeningsArgs) -> Result<()> {
    if !(0.0..=1.0).contains(&args.min_share) {
        bail!(InputError(format!(
            "--min-share {} must be between 0 and 1",
            args.min_share
        )));
    }
    let file = if args.games.is_dir() {
        args.games.join(GAMES_TABLE)
    } else {
        args.games.clone()
    };
    if !file.is_file() {
        bail!(InputError(format!(
            "{}: no game table (a {GAMES_TABLE}, or a self-play or import directory)",
            args.games.display()
        )));
    }
    let out = Out::claim(
        args.out.as_deref(),
        c960_store::Claim::new().input(&args.games, "--games"),
    )?;
    // A run being written is not read; a damaged table is named.
    let _lock = if args.games.is_dir() {
        Some(c960_store::DirLock::shared(&args.games)?)
    } else {
        None
    };
    c960_store::check_parquet(&file)?;
    if args.first_moves {
        return first_moves(&out, &file);
    }
    let position: StartPosition = args.position.as_deref().unwrap_or_default().parse()?;
    let kind = interval_kind(&file);
    let tree = Tree::from_games_with(&file, position, args.plies.get(), kind)
        .with_context(|| format!("reading {}", file.display()))?;
    let mut text = Text::default();
    writeln!(
        text,
        "SP {} {}: {} games in {}",
        position.sp(),
        position.placement(),
        tree.root.games,
        file.display()
    )?;
    if tree.root.games == 0 {
        text.write(&out)?;
        return Ok(());
    }
    writeln!(
        text,
        "White's score [{}], as the run's position table gives it",
        kind.name()
    )?;
    writeln!(text, "all games  {}", stats(&tree.root))?;
    writeln!(
        text,
        "\nlines reached by at least {:.1}% of the games, up to {} plies (share of all games):",
        args.min_share * 100.0,
        args.plies
    )?;
    for line in tree.openings(args.min_share) {
        let ply = line.san.len() - 1;
        let label = c960_games::tree::numbered(&line.san[ply..], ply);
        let indent = "  ".repeat(ply);
        writeln!(
            text,
            "{:<30} {:5.1}%  {}",
            format!("{indent}{label}"),
            tree.share(line) * 100.0,
            stats(&line.counts),
        )?;
    }
    openings(&mut text, &tree, args.min_share)?;
    text.write(&out)?;
    Ok(())
}

/// The openings, the deepest lines reached by at least 10%, 5% and 2% of
/// the games (those not below `min_share`).
fn openings(text: &mut Text, tree: &Tree, min_share: f64) -> std::fmt::Result {
    for threshold in [0.10, 0.05, 0.02] {
        if threshold + 1e-12 < min_share {
            continue;
        }
        let lines = tree.openings(threshold);
        let leaves: Vec<_> = lines
            .iter()
            .filter(|l| {
                let key = l.uci.join(" ");
                !lines
                    .iter()
                    .any(|c| c.uci.len() == l.uci.len() + 1 && c.uci.join(" ").starts_with(&key))
            })
            .collect();
        writeln!(
            text,
            "\nopenings reached by at least {:.0}% of the games:",
            threshold * 100.0
        )?;
        for leaf in leaves {
            writeln!(
                text,
                "  {:5.1}%  {}  ({})",
                tree.share(leaf) * 100.0,
                leaf.numbered(),
                stats(&leaf.counts).trim_start()
            )?;
        }
    }
    Ok(())
}
