//! `c960 dice`: the dice procedure, step by step.

use std::fmt::Write as _;

use anyhow::Result;
use c960_core::{RollOutcome, dice};
use serde_json::json;

use crate::{
    cli::{DiceArgs, ReportFormat},
    output::Text,
};

pub(crate) fn run(args: &DiceArgs) -> Result<()> {
    let draw = dice(&args.rolls)?;
    let position = draw.position;
    let mut text = Text::default();
    match args.format {
        ReportFormat::Json => {
            let steps: Vec<_> = draw
                .steps
                .iter()
                .map(|s| {
                    json!({
                        "piece": s.piece,
                        "roll": s.roll,
                        "square": match s.outcome {
                            RollOutcome::Placed(sq) => Some(sq.to_string()),
                            RollOutcome::Reroll => None,
                        },
                    })
                })
                .collect();
            let doc = json!({
                "rolls": args.rolls,
                "steps": steps,
                "rerolls": draw.rerolls(),
                "sp": position.sp(),
                "placement": position.placement(),
                "xfen": position.to_xfen(),
                "shredder_fen": position.to_shredder_fen(),
                "c960_version": env!("CARGO_PKG_VERSION"),
            });
            writeln!(text, "{}", serde_json::to_string_pretty(&doc)?)?;
        }
        ReportFormat::Text => {
            for (i, step) in draw.steps.iter().enumerate() {
                match step.outcome {
                    RollOutcome::Placed(square) => writeln!(
                        text,
                        "roll {:>2}: {}  {} on {square}",
                        i + 1,
                        step.roll,
                        step.piece
                    )?,
                    RollOutcome::Reroll => writeln!(
                        text,
                        "roll {:>2}: {}  {}: out of range, roll again",
                        i + 1,
                        step.roll,
                        step.piece
                    )?,
                }
            }
            writeln!(text, "rook, king, rook on the three squares left")?;
            writeln!(text)?;
            writeln!(text, "{position}")?;
            writeln!(text, "X-FEN         {}", position.to_xfen())?;
            writeln!(text, "Shredder-FEN  {}", position.to_shredder_fen())?;
            writeln!(text, "rerolls       {}", draw.rerolls())?;
        }
    }
    text.print()?;
    Ok(())
}
