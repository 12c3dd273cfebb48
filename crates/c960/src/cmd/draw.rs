//! `c960 draw`: reproducible draws for tournament rounds.

use std::fmt::Write as _;

use anyhow::{Context, Result};
use c960_core::{Allowed, DrawFilter, DrawMethod, Features, StartPosition, draw};
use serde_json::json;

use crate::{
    cli::{DrawArgs, DrawFilterArgs, InputError, ReportFormat},
    output::Text,
};

/// Validated draw flags.
struct DrawPlan {
    method: DrawMethod,
    rounds: usize,
    filter: DrawFilter,
}

/// The draw method from `--phrase` or `--seed` (clap requires one).
pub(crate) fn method(phrase: Option<&String>, seed: Option<u64>) -> DrawMethod {
    match (phrase, seed) {
        (Some(phrase), _) => DrawMethod::Phrase(phrase.clone()),
        (None, Some(seed)) => DrawMethod::Seed(seed),
        (None, None) => unreachable!("clap requires --seed or --phrase"),
    }
}

impl DrawFilterArgs {
    /// The filter these flags describe.
    pub(crate) fn to_filter(&self) -> Result<DrawFilter> {
        let exclude = self
            .exclude
            .iter()
            .filter(|s| !s.trim().is_empty())
            .map(|s| StartPosition::from_sp_str(s))
            .collect::<Result<_, _>>()?;
        Ok(DrawFilter {
            exclude,
            max_undefended: self.max_undefended,
            max_king_only: self.max_king_only,
            max_weak: self.max_weak,
            no_first_move_attack: self.no_first_move_attack,
            no_first_move_castling: self.no_first_move_castling,
            only: match (self.verdict, &self.balance) {
                (Some(verdict), Some(path)) => {
                    let csv = if path.is_dir() {
                        path.join(c960_report::balance::BALANCE_CSV)
                    } else {
                        path.clone()
                    };
                    let verdict = verdict.verdict();
                    has_verdicts(&csv)?;
                    let positions = c960_report::balance::positions_with_verdict(&csv, verdict)
                        .with_context(|| format!("cannot read {}", csv.display()))?;
                    Some(Allowed {
                        label: format!("verdict {} in {}", verdict.name(), csv.display()),
                        positions: positions.into_iter().collect(),
                    })
                }
                _ => None,
            },
        })
    }
}

/// Refuses a `--balance` file that is missing or is not a table of
/// verdicts, in words (the table reader would say `not found: "verdict"
/// not found`).
fn has_verdicts(csv: &std::path::Path) -> Result<()> {
    let text = std::fs::read_to_string(csv)
        .map_err(|e| InputError(format!("--balance: cannot read {}: {e}", csv.display())))?;
    let header = text.lines().next().unwrap_or_default();
    if !header
        .split(',')
        .any(|c| c.trim().trim_matches('"') == "verdict")
    {
        return Err(InputError(format!(
            "--balance: {} has no verdict column; give the balance.csv (or its directory) that \
             c960 balance or c960 report writes",
            csv.display()
        ))
        .into());
    }
    Ok(())
}

impl DrawPlan {
    fn from_args(args: &DrawArgs) -> Result<DrawPlan> {
        Ok(DrawPlan {
            method: method(args.source.phrase.as_ref(), args.source.seed),
            rounds: args.rounds,
            filter: args.filters.to_filter()?,
        })
    }
}

pub(crate) fn run(args: &DrawArgs) -> Result<()> {
    let plan = DrawPlan::from_args(args)?;
    let features = Features::all();
    let result = draw(&plan.method, plan.rounds, &plan.filter, &features)?;
    let mut text = Text::default();
    match args.format {
        ReportFormat::Json => {
            let (seed, phrase) = match &plan.method {
                DrawMethod::Seed(seed) => (Some(*seed), None),
                DrawMethod::Phrase(phrase) => (None, Some(phrase.clone())),
            };
            let rounds: Vec<_> = result
                .positions
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    json!({
                        "round": i + 1,
                        "sp": p.sp(),
                        "placement": p.placement(),
                        "xfen": p.to_xfen(),
                        "shredder_fen": p.to_shredder_fen(),
                    })
                })
                .collect();
            let doc = json!({
                "method": plan.method.to_string(),
                "seed": seed,
                "phrase": phrase,
                "filters": plan.filter.to_string(),
                "candidates": result.candidates,
                "rounds": rounds,
                "c960_version": env!("CARGO_PKG_VERSION"),
            });
            writeln!(text, "{}", serde_json::to_string_pretty(&doc)?)?;
        }
        ReportFormat::Text => {
            writeln!(
                text,
                "draw by {}: {} round(s) from {} positions (filters: {})",
                plan.method, plan.rounds, result.candidates, plan.filter
            )?;
            for (i, p) in result.positions.iter().enumerate() {
                writeln!(
                    text,
                    "round {:<3} SP {:>3}  {}  {}",
                    i + 1,
                    p.sp(),
                    p.placement(),
                    p.to_xfen()
                )?;
            }
        }
    }
    text.print()?;
    Ok(())
}
