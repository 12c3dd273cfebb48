//! `c960 draw`: reproducible draws for tournament rounds, and `c960 draw
//! --verify`, which recomputes a kit's draw from its record (`record.rs`).

mod filters;
mod record;
mod verify;

use std::fmt::Write as _;

use anyhow::Result;
use c960_core::{DrawFilter, DrawMethod, Features, Lang, draw};
use serde_json::json;

use crate::{
    cli::{DrawArgs, InputError, ReportFormat},
    output::Text,
};
use c960_report::kit::{BalanceRecord, Excluded, MethodName, RoundRecord, filter_words, text};

pub(crate) use filters::Filters;

/// Validated draw flags.
struct DrawPlan {
    method: DrawMethod,
    rounds: usize,
    filter: DrawFilter,
    balance: Option<BalanceRecord>,
    excluded: Excluded,
}

/// The draw method from `--phrase` or `--seed` (clap requires one).
pub(crate) fn method(phrase: Option<&String>, seed: Option<u64>) -> DrawMethod {
    match (phrase, seed) {
        (Some(phrase), _) => DrawMethod::Phrase(phrase.clone()),
        (None, Some(seed)) => DrawMethod::Seed(seed),
        (None, None) => unreachable!("clap requires --seed or --phrase"),
    }
}

impl DrawPlan {
    fn from_args(args: &DrawArgs) -> Result<DrawPlan> {
        // A blank phrase is no phrase: anyone could "recompute" its draw.
        if args
            .source
            .phrase
            .as_deref()
            .is_some_and(|p| p.trim().is_empty())
        {
            return Err(InputError("--phrase must not be empty".to_owned()).into());
        }
        let Filters {
            filter,
            balance,
            excluded,
        } = args.filters.to_filter()?;
        Ok(DrawPlan {
            method: method(args.source.phrase.as_ref(), args.source.seed),
            rounds: args.rounds,
            filter,
            balance,
            excluded,
        })
    }
}

pub(crate) fn run(args: &DrawArgs) -> Result<()> {
    if let Some(record) = &args.verify {
        if args.format == ReportFormat::Json {
            return Err(
                InputError("--verify prints text: leave out --format json".to_owned()).into(),
            );
        }
        return verify::verify(record, args.key.as_deref(), args.filters.balance.as_deref());
    }
    let plan = DrawPlan::from_args(args)?;
    let features = Features::all();
    let result = draw(&plan.method, plan.rounds, &plan.filter, &features)?;
    let mut text = Text::default();
    match args.format {
        ReportFormat::Json => {
            let (_, seed, phrase) = MethodName::of(&plan.method);
            let rounds: Vec<RoundRecord> = result
                .positions
                .iter()
                .enumerate()
                .map(|(i, p)| RoundRecord::new(i + 1, *p))
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
            let lang = args.lang;
            writeln!(
                text,
                "{}",
                c960_report::kit::text_count(lang, "con_draw", plan.rounds)
                    .replace("{method}", &method_words(lang, &plan.method))
                    .replace(
                        "{positions}",
                        &c960_report::kit::text_count(lang, "con_positions", result.candidates)
                    )
                    .replace(
                        "{filters}",
                        &filter_words(&plan.filter, plan.balance.as_ref(), &plan.excluded, lang)
                    )
            )?;
            for (i, p) in result.positions.iter().enumerate() {
                writeln!(
                    text,
                    "{}SP {:>3}  {}  {}",
                    round_label(lang, i + 1),
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

/// A console text of the kit's table in `lang`.
pub(crate) fn text_of(lang: Lang, key: &str) -> &'static str {
    text(lang, key)
}

/// "round N" in `lang`, padded for a column of rounds.
pub(crate) fn round_label(lang: Lang, round: usize) -> String {
    format!(
        "{:<10}",
        text(lang, "con_round").replace("{n}", &round.to_string())
    )
}

/// The draw method in a few words of `lang`.
pub(crate) fn method_words(lang: Lang, method: &DrawMethod) -> String {
    match method {
        DrawMethod::Phrase(phrase) => {
            text(lang, "con_phrase").replace("{phrase}", &format!("{phrase:?}"))
        }
        DrawMethod::Seed(seed) => text(lang, "con_seed").replace("{seed}", &seed.to_string()),
    }
}
