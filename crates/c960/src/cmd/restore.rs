//! `c960 restore`: a self-play run directory rebuilt from the game table a
//! published dataset ships (see `c960_selfplay::restore`).

use std::fmt::Write as _;

use anyhow::{Context, Result};

use crate::{cli::RestoreArgs, output::Text};

pub(crate) fn run(args: &RestoreArgs) -> Result<()> {
    let _claimed = c960_store::Claim::new()
        .run_dir(&args.out, "--out", &c960_selfplay::OUTPUT_FILES)
        .input(&args.table, "TABLE")
        .take()?;
    let restored = c960_selfplay::restore(&args.table, &args.out)
        .with_context(|| format!("restore into {}", args.out.display()))?;
    if !args.quiet {
        let mut text = Text::default();
        writeln!(
            text,
            "restored {} of {} over {} into {}",
            c960_core::plural(restored.games, "game", "games"),
            restored.engines.join(" vs "),
            c960_core::plural(restored.positions, "position", "positions"),
            args.out.display()
        )?;
        text.print()?;
    }
    Ok(())
}
